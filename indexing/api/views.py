"""The user's own index: status per maintained version, and permanently failed messages."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from claire.api.auth import request_user
from claire.api.errors import ApiError
from claire.api.params import positive_id
from claire.api.schema import cursor_parameter, error_response, limit_parameter
from indexing import selectors
from indexing.api.serializers import (
    EmbeddingFailurePageSerializer,
    EmbeddingFailureSerializer,
    IndexStatusSerializer,
    index_status_data,
)
from indexing.models import IndexVersionState


class IndexStatusView(APIView):
    @extend_schema(operation_id="index_status", responses={200: IndexStatusSerializer})
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
    @extend_schema(
        operation_id="index_failures",
        parameters=[limit_parameter(50, 200), cursor_parameter()],
        responses={
            200: EmbeddingFailurePageSerializer,
            400: error_response("`invalid_limit` or `invalid_cursor`."),
        },
    )
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
