"""A server process killed mid-stream: the turn ends as interrupted with the text it had shown,
and its reservation is charged for that text only (the rest of the hold released).

Real daphne processes against this test database; the ``answer`` profile streams a scripted
answer one word a second, and prices make every output token cost something.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from assistant.models import Turn, TurnStatus
from assistant.tasks import sweep_orphaned_turns
from billing.models import BudgetPeriod, Reservation, ReservationState, UsageEvent
from claire.ai.tokens import count_tokens
from tests.assistant.conftest import token_for
from tests.assistant.test_server_processes import (
    _assistant_turn_id,
    _open_stream,
    _read_until,
    daphne_process,
)
from tests.factories import AssistantTurnFactory, PriceBookEntryFactory, PriceBookFactory

pytestmark = [pytest.mark.django_db(transaction=True)]

LEASE_ENV = {"ASSISTANT_STREAM_LEASE_SECONDS": "3", "ASSISTANT_STREAM_HEARTBEAT_SECONDS": "0.5"}
FULL_ANSWER = "Dinner is on Friday at 8 [S1]."


@pytest.fixture
def priced_mock(db):
    book = PriceBookFactory()
    # One micro-USD per input token, a hundred per output token (the hold fits the budget).
    PriceBookEntryFactory(
        price_book=book,
        provider="local",
        model="mock",
        input_micro_usd_per_million=1_000_000,
        output_micro_usd_per_million=100_000_000,
    )
    return book


def _read_deltas(stream, count: int) -> bytes:
    received = b""
    while received.count(b'"type":"text-delta"') < count:
        received = _read_until(stream, b"\n\n", received)
        if received.count(b'"type":"text-delta"') < count:
            chunk = stream.recv(65536)
            assert chunk, received[-300:]
            received += chunk
    return received


def _wait_until(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@pytest.mark.slow
def test_sigkill_mid_stream_ends_the_turn_as_interrupted_and_charges_what_was_shown(
    user, dinner_chat, priced_mock
):
    token = token_for(user)
    with daphne_process(extra_env=LEASE_ENV) as (port, process):
        stream = _open_stream(port, token)
        received = _read_deltas(stream, 3)
        turn_id = _assistant_turn_id(received)
        # The heartbeat (every 0.5 s) keeps the text shown so far.
        assert _wait_until(lambda: Turn.objects.get(pk=turn_id).text.startswith("Dinner is"), 3)
        process.kill()
        process.wait(timeout=10)
        killed_at = timezone.now()
        stream.close()

    orphan = Turn.objects.get(pk=turn_id)
    assert orphan.status == TurnStatus.STREAMING
    shown = orphan.text
    assert FULL_ANSWER.startswith(shown)
    assert shown != FULL_ANSWER
    reservation = Reservation.objects.get(user=user)
    assert reservation.state == ReservationState.OPEN
    hold = reservation.estimated_micro_usd

    # A server starting after the lease passed sweeps the orphan at once.
    time.sleep(max(0.0, (orphan.lease_expires_at - timezone.now()).total_seconds()) + 0.2)
    with daphne_process(extra_env=LEASE_ENV):
        assert _wait_until(lambda: Turn.objects.get(pk=turn_id).status != TurnStatus.STREAMING, 10)

    turn = Turn.objects.get(pk=turn_id)
    assert (turn.status, turn.error_code, turn.text) == (TurnStatus.PARTIAL, "interrupted", shown)
    # Ended by the 3 s lease, not the default 300 s one (the margin covers starting the
    # second server on a busy machine).
    assert (turn.finished_at - killed_at).total_seconds() < 60
    reservation.refresh_from_db()
    assert reservation.state == ReservationState.SETTLED
    event = UsageEvent.objects.get(user=user)
    assert event.ending == "partial"
    assert event.is_usage_estimated
    assert event.output_tokens == count_tokens(shown)
    assert event.input_tokens == reservation.uncached_input_tokens
    assert event.settled_micro_usd == event.input_tokens + 100 * event.output_tokens
    assert event.settled_micro_usd < hold
    # The rest of the hold went back to the budget.
    for period in BudgetPeriod.objects.filter(user=user):
        assert period.reserved_micro_usd == 0
        assert period.spent_micro_usd == event.settled_micro_usd


@pytest.mark.slow
def test_a_stream_longer_than_the_lease_completes(user, dinner_chat):
    token = token_for(user)
    with daphne_process(extra_env={**LEASE_ENV, "ASSISTANT_STREAM_LEASE_SECONDS": "2"}) as (
        port,
        _,
    ):
        # Seven words a second apart: three times the lease; the sweep of a second server
        # process in between must leave the live stream alone.
        stream = _open_stream(port, token)
        received = _read_deltas(stream, 4)
        sweep_orphaned_turns()
        received = _read_until(stream, b"data: [DONE]\n\n", received)
        stream.close()
    turn = Turn.objects.get(pk=_assistant_turn_id(received))
    assert (turn.status, turn.text) == (TurnStatus.COMPLETED, FULL_ANSWER)


def test_beat_sweep_ends_only_turns_whose_lease_passed(user):
    now = timezone.now()
    expired = AssistantTurnFactory(
        user_turn__thread__user=user,
        status=TurnStatus.STREAMING,
        text="half an answ",
        lease_expires_at=now - timedelta(seconds=1),
    )
    silent = AssistantTurnFactory(
        user_turn__thread__user=user,
        status=TurnStatus.STREAMING,
        text="",
        lease_expires_at=now - timedelta(seconds=1),
    )
    alive = AssistantTurnFactory(
        user_turn__thread__user=user,
        status=TurnStatus.STREAMING,
        text="still going",
        lease_expires_at=now + timedelta(seconds=30),
    )

    assert sweep_orphaned_turns() == 2
    assert sweep_orphaned_turns() == 0

    expired.refresh_from_db()
    silent.refresh_from_db()
    alive.refresh_from_db()
    assert (expired.status, expired.error_code, expired.text) == (
        TurnStatus.PARTIAL,
        "interrupted",
        "half an answ",
    )
    assert (silent.status, silent.error_code) == (TurnStatus.FAILED, "interrupted")
    assert alive.status == TurnStatus.STREAMING
