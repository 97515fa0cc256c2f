import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings

from billing.models import BudgetPeriod, Ending, PeriodKind, ReservationState, UsageEvent
from billing.services.reservations import (
    ORPHANED_ERROR_CLASS,
    budget_reserve,
    reservation_settle,
    reservations_sweep,
)
from billing.tasks import sweep_reservations
from billing.types import UsageInput, UsageTelemetry
from tests.billing.conftest import NOW, PLAN, PLAN_ESTIMATE, PLAN_TOKENS_COST

pytestmark = pytest.mark.django_db

LEASE = dt.timedelta(seconds=300)


def _reserve(user, request_id, now=NOW):
    return budget_reserve(
        user=user, request_id=request_id, provider="remote", model="model-x", plan=PLAN, now=now
    )


def _day(user):
    row = BudgetPeriod.objects.get(user=user, kind=PeriodKind.DAY)
    return row.spent_micro_usd, row.reserved_micro_usd


def test_sweep_settles_an_orphan_as_abandoned_with_estimated_usage(user, entry, policy):
    orphan = _reserve(user, "orphan")

    swept = reservations_sweep(expired_before=NOW + LEASE)

    assert swept == 1
    orphan.refresh_from_db()
    assert orphan.state == ReservationState.SETTLED
    assert orphan.settled_micro_usd == PLAN_TOKENS_COST
    event = UsageEvent.objects.get(reservation=orphan)
    assert event.ending == Ending.ABANDONED
    assert event.is_usage_estimated is True
    assert event.error_class == ORPHANED_ERROR_CLASS
    assert (event.input_tokens, event.cached_input_tokens, event.output_tokens) == (
        4_000,
        1_000,
        500,
    )
    assert (event.estimated_micro_usd, event.settled_micro_usd) == (
        PLAN_ESTIMATE,
        PLAN_TOKENS_COST,
    )
    assert _day(user) == (PLAN_TOKENS_COST, 0)


def test_sweep_leaves_live_and_closed_reservations_alone(user, entry, policy):
    live = _reserve(user, "live", now=NOW + dt.timedelta(seconds=10))
    done = _reserve(user, "done")
    reservation_settle(
        reservation=done,
        usage=UsageInput(output_tokens=10),
        ending=Ending.COMPLETED,
        telemetry=UsageTelemetry(),
    )

    swept = reservations_sweep(expired_before=NOW + LEASE)

    assert swept == 0
    live.refresh_from_db()
    assert live.state == ReservationState.OPEN
    assert UsageEvent.objects.count() == 1
    assert _day(user) == (100, PLAN_ESTIMATE)


def test_sweeping_again_closes_nothing_more(user, entry, policy):
    _reserve(user, "orphan")
    assert reservations_sweep(expired_before=NOW + LEASE) == 1

    assert reservations_sweep(expired_before=NOW + LEASE) == 0

    assert UsageEvent.objects.count() == 1
    assert _day(user) == (PLAN_TOKENS_COST, 0)


def test_a_late_settlement_after_the_sweep_returns_the_sweepers_event(user, entry, policy):
    orphan = _reserve(user, "slow")
    reservations_sweep(expired_before=NOW + LEASE)

    event = reservation_settle(
        reservation=orphan,
        usage=UsageInput(output_tokens=1),
        ending=Ending.COMPLETED,
        telemetry=UsageTelemetry(),
    )

    assert event.ending == Ending.ABANDONED
    assert _day(user) == (PLAN_TOKENS_COST, 0)


@override_settings(BILLING_RESERVATION_LEASE_SECONDS=0)
def test_the_command_and_the_task_sweep_expired_reservations(user, entry, policy):
    _reserve(user, "first", now=dt.datetime(2026, 3, 15, 9, 0, tzinfo=dt.UTC))
    out = StringIO()

    call_command("sweep_reservations", stdout=out)

    assert out.getvalue() == "Closed 1 expired reservation(s).\n"
    _reserve(user, "second", now=dt.datetime(2026, 3, 15, 9, 0, tzinfo=dt.UTC))
    assert sweep_reservations.apply().get() == 1
    assert sweep_reservations.apply().get() == 0
    assert BudgetPeriod.objects.get(user=user, kind=PeriodKind.DAY).reserved_micro_usd == 0
