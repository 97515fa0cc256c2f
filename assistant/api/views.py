"""Assistant API views: thread history (keyset pagination), one turn, and Stop.

``POST /api/assistant/messages`` is not here: it streams, so it is the ASGI application in
``assistant.consumers``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
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
from claire.api.errors import ApiError
from claire.api.params import ascii_int, positive_id
from claire.api.schema import NOT_FOUND, cursor_parameter, error_response, limit_parameter
from claire.ratelimit import StopThrottle

MAX_PAGE = 100


def _limit(request: Request, default: int) -> int:
    try:
        return min(max(int(request.query_params.get("limit", default)), 1), MAX_PAGE)
    except ValueError:
        raise ApiError(code="invalid_limit", message="limit must be a number.") from None


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# The last microsecond a Python datetime holds (9999-12-31T23:59:59.999999Z) after the epoch.
CURSOR_MAX_MICROSECONDS = (datetime.max.replace(tzinfo=UTC) - EPOCH) // timedelta(microseconds=1)


def cursor_of(moment: datetime, object_id: int) -> str:
    """``<microseconds since the epoch>_<id>`` of a page's last item: exact and URL-safe."""
    return f"{(moment - EPOCH) // timedelta(microseconds=1)}_{object_id}"


def _cursor_parse(value: str | None) -> tuple[datetime, int] | None:
    if not value:
        return None
    micros_text, _, id_text = value.partition("_")
    micros = ascii_int(micros_text, maximum=CURSOR_MAX_MICROSECONDS)
    object_id = positive_id(id_text)
    if micros is None or object_id is None:
        raise ApiError(code="invalid_cursor", message="The cursor is not valid.")
    return EPOCH + timedelta(microseconds=micros), object_id


PAGE_ERRORS = error_response("`invalid_limit` or `invalid_cursor`.")


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
        limit = _limit(request, 20)
        page = selectors.threads_for_user(
            user=request_user(request),
            before=_cursor_parse(request.query_params.get("before")),
            limit=limit + 1,
        )
        body: dict[str, Any] = {"threads": [thread_wire(thread) for thread in page[:limit]]}
        if len(page) > limit:
            last = page[limit - 1]
            body["nextCursor"] = cursor_of(last.last_activity_at, last.pk)
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
        limit = _limit(request, 50)
        page = selectors.turns_for_thread(
            user=user,
            thread=thread,
            before=_cursor_parse(request.query_params.get("before")),
            limit=limit + 1,
        )
        turns = page[:limit]
        costs = _costs(user=user, turns=turns)
        body: dict[str, Any] = {
            "thread": thread_wire(thread),
            "turns": [turn_wire(turn, cost_micro_usd=costs.get(turn.pk)) for turn in turns],
        }
        if len(page) > limit:
            last = page[limit - 1]
            body["nextCursor"] = cursor_of(last.created_at, last.pk)
        return Response(body)


class TurnDetailView(APIView):
    """One turn as it stands now: a client that reloaded during an answer follows the stored
    status here until it is final, instead of asking again."""

    @extend_schema(
        operation_id="assistant_turn_get", responses={200: TurnSerializer, 404: NOT_FOUND}
    )
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
