"""Assistant API views: thread history (keyset pagination), one turn, and Stop.

``POST /api/assistant/messages`` is not here: it streams, so it is the ASGI application in
``assistant.consumers``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from assistant import selectors, services
from assistant.api.schema import (
    ThreadPageSerializer,
    TurnPageSerializer,
    TurnSerializer,
    TurnStopSerializer,
)
from assistant.api.serializers import thread_wire, turn_wire
from assistant.models import Turn, TurnRole, TurnStatus
from billing.selectors import settled_cost_by_request
from claire.api.auth import request_user
from claire.api.pagination import before_moment_and_id, keyset_page, page_limit
from claire.api.schema import (
    NOT_FOUND,
    PAGE_ERRORS,
    cursor_parameter,
    error_response,
    limit_parameter,
)
from claire.ratelimit import StopThrottle

MAX_PAGE = 100


def _costs(*, user: Any, turns: list[Turn]) -> dict[int, int]:
    """What each ended assistant turn's request was charged, by turn id (one query)."""
    ended = [
        turn
        for turn in turns
        if turn.role == TurnRole.ASSISTANT and turn.is_terminal and turn.user_turn is not None
    ]
    by_request = settled_cost_by_request(
        user=user, request_ids=[turn.user_turn.request_id for turn in ended if turn.user_turn]
    )
    return {
        turn.pk: by_request[turn.user_turn.request_id]
        for turn in ended
        if turn.user_turn and turn.user_turn.request_id in by_request
    }


class ThreadListView(APIView):
    @extend_schema(
        operation_id="assistant_threads",
        parameters=[limit_parameter(20, MAX_PAGE), cursor_parameter()],
        responses={200: ThreadPageSerializer, 400: PAGE_ERRORS},
    )
    def get(self, request: Request) -> Response:
        limit = page_limit(request, default=20, maximum=MAX_PAGE)
        rows = selectors.threads_for_user(
            user=request_user(request), before=before_moment_and_id(request), limit=limit + 1
        )
        page = keyset_page(
            rows, limit=limit, key=lambda thread: (thread.last_activity_at, thread.pk)
        )
        body: dict[str, Any] = {"threads": [thread_wire(thread) for thread in page.items]}
        if page.next_cursor:
            body["nextCursor"] = page.next_cursor
        return Response(body)


class ThreadTurnsView(APIView):
    @extend_schema(
        operation_id="assistant_thread_turns",
        parameters=[limit_parameter(50, MAX_PAGE), cursor_parameter()],
        responses={200: TurnPageSerializer, 400: PAGE_ERRORS, 404: NOT_FOUND},
    )
    def get(self, request: Request, thread_id: int) -> Response:
        user = request_user(request)
        thread = selectors.thread_get_for_user(user=user, thread_id=thread_id)
        limit = page_limit(request, default=50, maximum=MAX_PAGE)
        rows = selectors.turns_for_thread(
            user=user, thread=thread, before=before_moment_and_id(request), limit=limit + 1
        )
        page = keyset_page(rows, limit=limit, key=lambda turn: (turn.created_at, turn.pk))
        turns = page.items
        costs = _costs(user=user, turns=turns)
        body: dict[str, Any] = {
            "thread": thread_wire(thread),
            "turns": [turn_wire(turn, cost_micro_usd=costs.get(turn.pk)) for turn in turns],
        }
        if page.next_cursor:
            body["nextCursor"] = page.next_cursor
        return Response(body)


class TurnDetailView(APIView):
    """One turn as it stands now: a client that reloaded during an answer follows the stored
    status here until it is final, instead of asking again."""

    @extend_schema(operation_id="assistant_turn", responses={200: TurnSerializer, 404: NOT_FOUND})
    def get(self, request: Request, turn_id: int) -> Response:
        user = request_user(request)
        turn = selectors.turn_get_for_user(user=user, turn_id=turn_id)
        return Response(
            turn_wire(turn, cost_micro_usd=_costs(user=user, turns=[turn]).get(turn.pk))
        )


class TurnCancelView(APIView):
    """Stop a streaming answer, from any server process. 202 while the stop travels to the
    stream; 200 with the final status when the turn had already ended."""

    throttle_classes = [StopThrottle]

    @extend_schema(
        operation_id="assistant_turn_stop",
        request=None,
        responses={
            200: TurnStopSerializer,
            202: TurnStopSerializer,
            404: NOT_FOUND,
            503: error_response("`stop_unavailable`: not delivered, the answer goes on."),
        },
    )
    def post(self, request: Request, turn_id: int) -> Response:
        turn = services.turn_stop(user=request_user(request), turn_id=turn_id)
        is_streaming = turn.status == TurnStatus.STREAMING
        return Response(
            {"turnId": str(turn.pk), "status": turn.status, "stopRequested": is_streaming},
            status=status.HTTP_202_ACCEPTED if is_streaming else status.HTTP_200_OK,
        )
