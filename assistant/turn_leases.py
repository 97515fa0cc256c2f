"""A streaming turn's lease, and the end of turns whose lease passed.

An answer's process renews its assistant turn's lease while it streams (``assistant.leases``).
A turn still ``streaming`` after its lease belongs to a process that died: it ends as
interrupted with the text its last heartbeat kept, and its reservation is settled for what was
produced -- when its request is met again (``turn_expire_if_stale``) or by the sweep at server
start and in Celery beat (``turns_sweep_orphaned``).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from assistant.models import Thread, Turn, TurnRole, TurnStatus
from billing.models import Ending, Reservation, ReservationState
from billing.services.reservations import reservation_settle
from billing.types import UsageInput, UsageTelemetry
from claire.ai.tokens import count_tokens

logger = logging.getLogger(__name__)

logger = logging.getLogger(__name__)

# The error code of an answer whose server process died while it streamed.
INTERRUPTED_CODE = "interrupted"


def stream_lease() -> timedelta:
    return timedelta(seconds=settings.ASSISTANT_STREAM_LEASE_SECONDS)


def _lease_expired(turn: Turn, now: datetime) -> bool:
    expires_at = turn.lease_expires_at or turn.created_at + stream_lease()
    return expires_at <= now


def turn_expire_if_stale(*, turn: Turn) -> Turn:
    """A turn still ``streaming`` after its lease belongs to a server process that died; it
    ends as interrupted (``turn_end_orphaned``) so its request can be retried."""
    if turn.status != TurnStatus.STREAMING or not _lease_expired(turn, timezone.now()):
        return turn
    turn_end_orphaned(turn_id=turn.pk)
    turn.refresh_from_db()
    return turn


def turn_end_orphaned(*, turn_id: int) -> bool:
    """End a streaming turn whose lease expired: ``partial`` with the text its last heartbeat
    kept (``failed`` when there was none), error code ``interrupted``, and its reservation
    settled for what was produced (the prompt and that text, estimated), the rest of the hold
    released. Skips a turn another transaction holds or whose lease was renewed meanwhile.
    True when this call ended it."""
    now = timezone.now()
    with transaction.atomic():
        turn = (
            Turn.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("user_turn", "user")
            .filter(pk=turn_id, role=TurnRole.ASSISTANT, status=TurnStatus.STREAMING)
            .first()
        )
        if turn is None or not _lease_expired(turn, now):
            return False
        turn.status = TurnStatus.PARTIAL if turn.text else TurnStatus.FAILED
        turn.error_code = INTERRUPTED_CODE
        turn.finish_reason = "error"
        turn.finished_at = now
        turn.save(update_fields=["status", "error_code", "finish_reason", "finished_at"])
        Thread.objects.filter(pk=turn.thread_id, user=turn.user).update(last_activity_at=now)
        if turn.user_turn is not None:
            _orphan_settle(turn=turn, request_id=turn.user_turn.request_id, now=now)
    logger.warning(
        "assistant.turn_interrupted",
        extra={
            "user_id": turn.user_id,
            "assistant_turn_id": turn.pk,
            "status": turn.status,
            "answer_chars": len(turn.text),
        },
    )
    return True


def _orphan_settle(*, turn: Turn, request_id: str, now: datetime) -> None:
    """Charge an orphaned answer's open reservation for the prompt it sent and the text it
    produced (estimated: the provider's report died with the process)."""
    reservation = Reservation.objects.filter(
        user=turn.user, request_id=request_id, state=ReservationState.OPEN
    ).first()
    if reservation is None:
        return
    reservation_settle(
        reservation=reservation,
        usage=UsageInput(
            uncached_input_tokens=reservation.uncached_input_tokens,
            output_tokens=count_tokens(turn.text),
            embedding_tokens=reservation.query_embedding_tokens,
            is_estimated=True,
        ),
        ending=Ending.PARTIAL if turn.text else Ending.FAILED,
        telemetry=UsageTelemetry(profile="answer", route=turn.route, error_class="interrupted"),
        now=now,
    )


def turns_sweep_orphaned(*, batch_size: int = 500) -> int:
    """End every streaming turn whose lease expired (server start, Celery beat). Safe to run
    in several processes at once. Returns how many it ended."""
    candidates = list(
        Turn.objects.filter(status=TurnStatus.STREAMING, lease_expires_at__lte=timezone.now())
        .order_by("lease_expires_at")
        .values_list("pk", flat=True)[:batch_size]
    )
    return sum(turn_end_orphaned(turn_id=turn_id) for turn_id in candidates)
