"""Billing API: the signed-in user's own spend, remaining budget and remote-provider consent."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from billing import selectors
from billing.api.serializers import PolicyUpdateSerializer, SpendSerializer
from billing.services.policy import ai_policy_update
from claire.api.auth import request_user


class SpendView(APIView):
    @extend_schema(operation_id="billing_spend", responses={200: SpendSerializer})
    def get(self, request: Request) -> Response:
        summary = selectors.spend_for_user(user=request_user(request))
        return Response(SpendSerializer(summary).data)


class PolicyView(APIView):
    """Limits and the AI switch are set by staff; the user decides only about consent."""

    @extend_schema(
        operation_id="billing_policy_update",
        request=PolicyUpdateSerializer,
        responses={200: SpendSerializer},
    )
    def patch(self, request: Request) -> Response:
        serializer = PolicyUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request_user(request)
        ai_policy_update(user=user, has_remote_consent=serializer.validated_data["remoteConsent"])
        return Response(SpendSerializer(selectors.spend_for_user(user=user)).data)
