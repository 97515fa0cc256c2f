"""The user's own index: status per maintained version, and permanently failed messages."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from claire.api.auth import request_user
from claire.api.errors import ApiError
from claire.api.params import positive_id
from indexing import selectors
from indexing.api.serializers import EmbeddingFailureSerializer, index_status_data
from indexing.models import IndexVersionState


class IndexStatusView(APIView):
    def get(self, request: Request) -> Response:
        statuses = selectors.index_statuses_for_user(user=request_user(request))
        active = next(
            (status for status in statuses if status.version_state == IndexVersionState.ACTIVE),
            None,
        )
        return Response(
            {
                "active": index_status_data(active) if active is not None else None,
                "versions": [index_status_data(status) for status in statuses],
            }
        )


def _positive_int(value: str | None, *, name: str, default: int | None) -> int | None:
    if value is None or value == "":
        return default
    number = positive_id(value)
    if number is None:
        raise ApiError(code=f"invalid_{name}", message=f"{name} must be a positive number.")
    return number


class EmbeddingFailuresView(APIView):
    def get(self, request: Request) -> Response:
        limit = min(
            _positive_int(request.query_params.get("limit"), name="limit", default=50) or 50, 200
        )
        before = _positive_int(request.query_params.get("before"), name="cursor", default=None)
        queryset = selectors.embedding_failures_for_user(user=request_user(request))
        if before is not None:
            queryset = queryset.filter(pk__lt=before)
        page = list(queryset[: limit + 1])
        body: dict[str, Any] = {
            "failures": EmbeddingFailureSerializer(page[:limit], many=True).data
        }
        if len(page) > limit:
            body["nextCursor"] = str(page[limit - 1].pk)
        return Response(body)
