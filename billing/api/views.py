"""Billing API: the signed-in user's own spend, remaining budget and remote-provider consent."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from billing import selectors
from billing.api.serializers import PolicyUpdateSerializer, SpendSerializer
from claire.accounts.consent import has_remote_consent, remote_consent_set
from claire.accounts.models import User
from claire.api.auth import request_user


def _spend_wire(user: User) -> dict[str, Any]:
    """The user's spend, with their consent read where it is kept (``claire.accounts``)."""
    summary = selectors.spend_for_user(user=user)
    context = {"remote_consent": has_remote_consent(user=user)}
    return dict(SpendSerializer(summary, context=context).data)


class SpendView(APIView):
    @extend_schema(operation_id="billing_spend", responses={200: SpendSerializer})
    def get(self, request: Request) -> Response:
        return Response(_spend_wire(request_user(request)))


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
        remote_consent_set(user=user, given=serializer.validated_data["remoteConsent"])
        return Response(_spend_wire(user))
