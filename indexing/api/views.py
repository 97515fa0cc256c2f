"""The user's own index: status per maintained version, and permanently failed messages."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from claire.api.auth import request_user
from claire.api.pagination import before_id, keyset_page, page_limit
from claire.api.schema import PAGE_ERRORS, cursor_parameter, limit_parameter
from indexing import selectors
from indexing.api.serializers import (
    EmbeddingFailurePageSerializer,
    EmbeddingFailureSerializer,
    IndexStatusSerializer,
)
from indexing.models import IndexVersionState
from indexing.wire import index_status_wire


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
                "active": index_status_wire(active) if active is not None else None,
                "versions": [index_status_wire(status) for status in statuses],
            }
        )


class EmbeddingFailuresView(APIView):
    @extend_schema(
        operation_id="index_failures",
        parameters=[limit_parameter(50, 200), cursor_parameter()],
        responses={
            200: EmbeddingFailurePageSerializer,
            400: PAGE_ERRORS,
        },
    )
    def get(self, request: Request) -> Response:
        limit = page_limit(request, default=50, maximum=200)
        before = before_id(request)
        queryset = selectors.embedding_failures_for_user(user=request_user(request))
        if before is not None:
            queryset = queryset.filter(pk__lt=before)
        page = keyset_page(list(queryset[: limit + 1]), limit=limit, key=lambda row: (row.pk,))
        body: dict[str, Any] = {"failures": EmbeddingFailureSerializer(page.items, many=True).data}
        if page.next_cursor:
            body["nextCursor"] = page.next_cursor
        return Response(body)
