import datetime as dt

import pytest
from django.db import IntegrityError

from billing.errors import ReservationClosed
from billing.models import (
    BudgetPeriod,
    CacheStatus,
    Ending,
    PeriodKind,
    Reservation,
    ReservationState,
    UsageEvent,
)
from billing.services.reservations import (
    budget_reserve,
    reservation_release,
    reservation_settle,
    usage_record_no_call,
)
from billing.types import UsageInput, UsageTelemetry
from tests.billing.conftest import NOW, PLAN, PLAN_ESTIMATE, PLAN_TOKENS_COST
from tests.factories import PriceBookEntryFactory, PriceBookFactory

pytestmark = pytest.mark.django_db

TELEMETRY = UsageTelemetry(
    route="hybrid_search",
    profile="answer",
    time_to_first_token_ms=640,
    duration_ms=2_100,
    source_count=7,
    cache_status=CacheStatus.PARTIAL,
)
# 2,001 x 2.5 -> 5,003; 999 x 1.25 -> 1,249; 321 x 10 = 3,210; 12 x 0.02 -> 1: 9,463
REPORTED = UsageInput(
    uncached_input_tokens=2_001, cached_input_tokens=999, output_tokens=321, embedding_tokens=12
)
REPORTED_COST = 9_463


def _reserve(user, request_id="req-1"):
    return budget_reserve(
        user=user, request_id=request_id, provider="remote", model="model-x", plan=PLAN, now=NOW
    )


def _day(user):
    row = BudgetPeriod.objects.get(user=user, kind=PeriodKind.DAY, starts_on=dt.date(2026, 3, 15))
    return row.spent_micro_usd, row.reserved_micro_usd


def _month(user):
    row = BudgetPeriod.objects.get(user=user, kind=PeriodKind.MONTH, starts_on=dt.date(2026, 3, 1))
    return row.spent_micro_usd, row.reserved_micro_usd


@pytest.mark.parametrize(
    "ending", [Ending.COMPLETED, Ending.FAILED, Ending.CANCELLED, Ending.PARTIAL]
)
def test_settlement_charges_reported_usage_and_releases_the_rest(user, entry, policy, ending):
    reservation = _reserve(user)
    settled_at = NOW + dt.timedelta(seconds=3)

    event = reservation_settle(
        reservation=reservation,
        usage=REPORTED,
        ending=ending,
        telemetry=TELEMETRY,
        now=settled_at,
    )

    assert _day(user) == (REPORTED_COST, 0)
    assert _month(user) == (REPORTED_COST, 0)
    reservation.refresh_from_db()
    assert reservation.state == ReservationState.SETTLED
    assert reservation.settled_micro_usd == REPORTED_COST
    assert reservation.closed_at == settled_at
    assert event.ending == ending
    assert event.user == user
    assert event.reservation == reservation
    assert (event.request_id, event.attempt) == ("req-1", 1)
    assert (event.provider, event.model) == ("remote", "model-x")
    assert event.price_book_version == entry.price_book.version
    assert (
        event.input_tokens,
        event.cached_input_tokens,
        event.output_tokens,
        event.embedding_tokens,
    ) == (3_000, 999, 321, 12)
    assert event.is_usage_estimated is False
    assert (event.estimated_micro_usd, event.settled_micro_usd) == (PLAN_ESTIMATE, REPORTED_COST)
    assert (event.route, event.profile) == ("hybrid_search", "answer")
    assert (event.time_to_first_token_ms, event.duration_ms) == (640, 2_100)
    assert (event.source_count, event.cache_status, event.error_class) == (7, "partial", "")
    assert event.created_at == settled_at


def test_unreported_usage_is_estimated_from_the_plan_and_flagged(user, entry, policy):
    reservation = _reserve(user)

    event = reservation_settle(
        reservation=reservation,
        usage=None,
        ending=Ending.FAILED,
        telemetry=UsageTelemetry(error_class="provider_timeout"),
        now=NOW,
    )

    assert event.is_usage_estimated is True
    assert (event.input_tokens, event.cached_input_tokens, event.output_tokens) == (
        4_000,
        1_000,
        500,
    )
    assert event.embedding_tokens == 12
    assert event.settled_micro_usd == PLAN_TOKENS_COST
    assert event.error_class == "provider_timeout"
    assert _day(user) == (PLAN_TOKENS_COST, 0)


def test_usage_estimated_by_the_runtime_keeps_its_flag(user, entry, policy):
    reservation = _reserve(user)

    event = reservation_settle(
        reservation=reservation,
        usage=UsageInput(uncached_input_tokens=1_000, output_tokens=40, is_estimated=True),
        ending=Ending.CANCELLED,
        telemetry=TELEMETRY,
        now=NOW,
    )

    # 1,000 x 2.5 = 2,500; 40 x 10 = 400
    assert event.settled_micro_usd == 2_900
    assert event.is_usage_estimated is True


def test_settlement_accepts_the_runtimes_usage_shape(user, entry, policy):
    class RuntimeUsage:
        """Shaped like claire.ai's Usage: a total input count with the cached ones inside."""

        input_tokens = 130
        cached_input_tokens = 30
        output_tokens = 10
        embedding_tokens = 0
        is_estimated = False

        @property
        def uncached_input_tokens(self):
            return self.input_tokens - self.cached_input_tokens

    event = reservation_settle(
        reservation=_reserve(user),
        usage=RuntimeUsage(),
        ending=Ending.COMPLETED,
        telemetry=TELEMETRY,
        now=NOW,
    )

    # 100 x 2.5 = 250; 30 x 1.25 = 37.5 -> 38; 10 x 10 = 100
    assert event.settled_micro_usd == 388
    assert (event.input_tokens, event.cached_input_tokens) == (130, 30)


def test_settling_twice_returns_the_first_event_and_charges_once(user, entry, policy):
    reservation = _reserve(user)
    first = reservation_settle(
        reservation=reservation, usage=REPORTED, ending=Ending.COMPLETED, telemetry=TELEMETRY
    )

    again = reservation_settle(
        reservation=Reservation.objects.get(pk=reservation.pk),
        usage=UsageInput(output_tokens=1_000_000),
        ending=Ending.FAILED,
        telemetry=TELEMETRY,
    )

    assert again.pk == first.pk
    assert again.ending == Ending.COMPLETED
    assert again.settled_micro_usd == REPORTED_COST
    assert UsageEvent.objects.count() == 1
    assert _day(user) == (REPORTED_COST, 0)


def test_settlement_uses_the_price_book_version_of_the_reservation(user, entry, policy):
    reservation = _reserve(user)
    newer = PriceBookFactory(effective_from=NOW)
    PriceBookEntryFactory(
        price_book=newer,
        provider="remote",
        model="model-x",
        output_micro_usd_per_million=99_000_000,
    )

    event = reservation_settle(
        reservation=reservation, usage=REPORTED, ending=Ending.COMPLETED, telemetry=TELEMETRY
    )

    assert event.price_book_version == entry.price_book.version
    assert event.settled_micro_usd == REPORTED_COST


def test_cost_above_the_estimate_is_charged_in_full(user, entry, policy):
    reservation = _reserve(user)

    event = reservation_settle(
        reservation=reservation,
        usage=UsageInput(output_tokens=3_000),  # six times the planned maximum
        ending=Ending.COMPLETED,
        telemetry=TELEMETRY,
    )

    assert event.settled_micro_usd == 30_000
    assert _day(user) == (30_000, 0)


def test_settling_one_reservation_leaves_the_others_held(user, entry, policy):
    first = _reserve(user, request_id="req-1")
    _reserve(user, request_id="req-2")

    reservation_settle(
        reservation=first, usage=REPORTED, ending=Ending.COMPLETED, telemetry=TELEMETRY
    )

    assert _day(user) == (REPORTED_COST, PLAN_ESTIMATE)
    assert _month(user) == (REPORTED_COST, PLAN_ESTIMATE)


def test_settlement_lands_in_the_periods_of_the_reservation(user, entry, policy):
    reservation = _reserve(user)

    # Settled after local midnight: still charged to the day it was reserved in.
    reservation_settle(
        reservation=reservation,
        usage=REPORTED,
        ending=Ending.COMPLETED,
        telemetry=TELEMETRY,
        now=dt.datetime(2026, 3, 16, 0, 0, 5, tzinfo=dt.UTC),
    )

    assert _day(user) == (REPORTED_COST, 0)
    assert BudgetPeriod.objects.filter(user=user).count() == 2


def test_release_gives_the_whole_hold_back_without_an_event(user, entry, policy):
    reservation = _reserve(user)

    released = reservation_release(reservation=reservation, now=NOW)

    assert released.state == ReservationState.RELEASED
    assert released.settled_micro_usd == 0
    assert released.closed_at == NOW
    assert _day(user) == (0, 0)
    assert _month(user) == (0, 0)
    assert UsageEvent.objects.count() == 0


def test_release_is_idempotent_and_does_not_undo_a_settlement(user, entry, policy):
    reservation = _reserve(user)
    reservation_settle(
        reservation=reservation, usage=REPORTED, ending=Ending.COMPLETED, telemetry=TELEMETRY
    )

    again = reservation_release(reservation=reservation)

    assert again.state == ReservationState.SETTLED
    assert _day(user) == (REPORTED_COST, 0)


def test_settling_a_released_reservation_is_refused(user, entry, policy):
    reservation = _reserve(user)
    reservation_release(reservation=reservation)

    with pytest.raises(ReservationClosed):
        reservation_settle(
            reservation=reservation, usage=REPORTED, ending=Ending.COMPLETED, telemetry=TELEMETRY
        )

    assert UsageEvent.objects.count() == 0
    assert _day(user) == (0, 0)


@pytest.mark.parametrize("ending", ["abandoned", "no_call", "exploded"])
def test_settlement_accepts_only_the_four_endings(user, entry, policy, ending):
    reservation = _reserve(user)

    with pytest.raises(ValueError):
        reservation_settle(
            reservation=reservation, usage=REPORTED, ending=ending, telemetry=TELEMETRY
        )

    reservation.refresh_from_db()
    assert reservation.state == ReservationState.OPEN


def test_an_answer_without_a_model_call_records_a_free_event(user):
    telemetry = UsageTelemetry(route="hybrid_search", profile="answer", source_count=0)

    event = usage_record_no_call(user=user, request_id="req-9", telemetry=telemetry, now=NOW)
    again = usage_record_no_call(user=user, request_id="req-9", telemetry=telemetry, now=NOW)

    assert again.pk == event.pk
    assert event.ending == Ending.NO_CALL
    assert (event.settled_micro_usd, event.estimated_micro_usd) == (0, 0)
    assert event.reservation is None
    assert event.price_book is None
    assert BudgetPeriod.objects.count() == 0


def test_usage_events_are_append_only(user, entry, policy):
    event = reservation_settle(
        reservation=_reserve(user), usage=REPORTED, ending=Ending.COMPLETED, telemetry=TELEMETRY
    )

    with pytest.raises(IntegrityError):
        UsageEvent.objects.filter(pk=event.pk).update(settled_micro_usd=0)


def test_usage_event_fields_hold_no_text_content():
    names = {field.name for field in UsageEvent._meta.get_fields()}
    assert not names & {"question", "text", "message", "answer", "prompt", "embedding", "api_key"}
    entry_fields = PriceBookEntryFactory._meta.model._meta.get_fields()
    assert "model" in {field.name for field in entry_fields}


# --- failover: the model that answered is the one charged -----------------------------------


def test_settlement_charges_the_model_that_answered_after_a_failover(user, entry, policy):
    cheaper = PriceBookEntryFactory(
        price_book=entry.price_book,
        provider="other",
        model="model-y",
        input_micro_usd_per_million=1_000_000,
        cached_input_micro_usd_per_million=500_000,
        output_micro_usd_per_million=2_000_000,
        embedding_micro_usd_per_million=20_000,
    )
    reservation = _reserve(user)

    event = reservation_settle(
        reservation=reservation,
        usage=REPORTED,
        ending=Ending.COMPLETED,
        telemetry=TELEMETRY,
        answered_by=("other", "model-y"),
        now=NOW,
    )

    # 2,001 x 1 -> 2,001; 999 x 0.5 -> 500; 321 x 2 = 642; 12 x 0.02 -> 1: 3,144
    assert cheaper.price_book == entry.price_book
    assert (event.provider, event.model) == ("other", "model-y")
    assert event.settled_micro_usd == 3_144
    assert event.estimated_micro_usd == PLAN_ESTIMATE
    assert _day(user) == (3_144, 0)
    reservation.refresh_from_db()
    assert (reservation.provider, reservation.model) == ("remote", "model-x")
    assert reservation.settled_micro_usd == 3_144


def test_an_answering_model_without_a_price_is_charged_at_the_reserved_rates(
    user, entry, policy, caplog
):
    reservation = _reserve(user)

    with caplog.at_level("WARNING", logger="billing.services"):
        event = reservation_settle(
            reservation=reservation,
            usage=REPORTED,
            ending=Ending.COMPLETED,
            telemetry=TELEMETRY,
            answered_by=("nowhere", "unpriced"),
            now=NOW,
        )

    assert (event.provider, event.model) == ("remote", "model-x")
    assert event.settled_micro_usd == REPORTED_COST
    warnings = [r.message for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == ["billing.settle_unpriced"]


def test_the_costliest_model_is_the_one_reserved_against(entry):
    from billing.services.pricing import costliest_model

    PriceBookEntryFactory(
        price_book=entry.price_book,
        provider="other",
        model="model-y",
        output_micro_usd_per_million=50_000_000,
    )
    PriceBookEntryFactory(
        price_book=entry.price_book,
        provider="other",
        model="model-z",
        input_micro_usd_per_million=0,
        output_micro_usd_per_million=0,
    )
    keys = [("other", "model-z"), ("remote", "model-x"), ("other", "model-y")]

    assert costliest_model(price_keys=keys, plan=PLAN, at=NOW) == ("other", "model-y")
    assert costliest_model(price_keys=keys[:2], plan=PLAN, at=NOW) == ("remote", "model-x")
    # Unpriced models are passed over; with none priced the first is returned, so that
    # the reservation itself reports price_unknown.
    assert costliest_model(
        price_keys=[("nowhere", "a"), ("other", "model-z")], plan=PLAN, at=NOW
    ) == ("other", "model-z")
    assert costliest_model(price_keys=[("nowhere", "a"), ("nowhere", "b")], plan=PLAN, at=NOW) == (
        "nowhere",
        "a",
    )
