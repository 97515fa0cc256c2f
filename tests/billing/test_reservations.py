import datetime as dt

import pytest
from django.test import override_settings

from billing.errors import (
    AiDisabled,
    BudgetExceeded,
    PriceUnknown,
    ReservationClosed,
    ReservationConflict,
)
from billing.models import AiPolicy, BudgetPeriod, PeriodKind, Reservation, ReservationState
from billing.services.reservations import budget_reserve, reservation_release
from billing.types import CostPlan
from tests.billing.conftest import NOW, PLAN, PLAN_ESTIMATE
from tests.factories import AiPolicyFactory, PriceBookEntryFactory, UserFactory

pytestmark = pytest.mark.django_db


def _reserve(user, request_id="req-1", **overrides):
    arguments = {
        "user": user,
        "request_id": request_id,
        "provider": "remote",
        "model": "model-x",
        "plan": PLAN,
        "now": NOW,
    }
    arguments.update(overrides)
    return budget_reserve(**arguments)


def _counters(user):
    return {
        (row.kind, row.starts_on): (row.spent_micro_usd, row.reserved_micro_usd)
        for row in BudgetPeriod.objects.filter(user=user)
    }


def test_reserve_holds_the_estimate_in_the_day_and_month_of_the_user(user, entry, policy):
    reservation = _reserve(user)

    assert reservation.estimated_micro_usd == PLAN_ESTIMATE
    assert reservation.state == ReservationState.OPEN
    assert reservation.price_book == entry.price_book
    assert (reservation.provider, reservation.model) == ("remote", "model-x")
    assert reservation.created_at == NOW
    assert reservation.expires_at == NOW + dt.timedelta(seconds=300)
    assert (reservation.uncached_input_tokens, reservation.max_output_tokens) == (3_000, 500)
    # The user lives in Lisbon (UTC+0 in March): the day and month of NOW.
    assert _counters(user) == {
        (PeriodKind.DAY, dt.date(2026, 3, 15)): (0, PLAN_ESTIMATE),
        (PeriodKind.MONTH, dt.date(2026, 3, 1)): (0, PLAN_ESTIMATE),
    }
    assert reservation.day_period.starts_on == dt.date(2026, 3, 15)
    assert reservation.month_period.starts_on == dt.date(2026, 3, 1)


def test_first_reservation_locks_the_price_book(user, entry, policy):
    assert entry.price_book.is_locked is False

    _reserve(user)

    entry.price_book.refresh_from_db()
    assert entry.price_book.is_locked is True
    assert entry.price_book.locked_at == NOW


def test_periods_follow_the_users_timezone(entry):
    # 12:00 UTC on 15 March is already 01:00 on 16 March in Auckland (UTC+13).
    user = UserFactory(timezone="Pacific/Auckland")
    AiPolicyFactory(user=user)
    reservation = _reserve(user, now=dt.datetime(2026, 3, 31, 12, 0, tzinfo=dt.UTC))

    assert reservation.day_period.starts_on == dt.date(2026, 4, 1)
    assert reservation.month_period.starts_on == dt.date(2026, 4, 1)


def test_reservation_filling_the_budget_exactly_is_admitted(user, entry):
    AiPolicyFactory(user=user, daily_limit_micro_usd=PLAN_ESTIMATE)

    reservation = _reserve(user)

    assert reservation.estimated_micro_usd == PLAN_ESTIMATE


def test_over_the_daily_limit_is_refused_and_nothing_is_held(user, entry):
    AiPolicyFactory(user=user, daily_limit_micro_usd=PLAN_ESTIMATE * 2 - 1)
    first = _reserve(user, request_id="req-1")

    with pytest.raises(BudgetExceeded) as refused:
        _reserve(user, request_id="req-2")

    error = refused.value
    assert error.code == "budget_exceeded"
    assert error.status_code == 402
    assert error.details == {
        "period": "day",
        "limitMicroUsd": PLAN_ESTIMATE * 2 - 1,
        "spentMicroUsd": 0,
        "reservedMicroUsd": PLAN_ESTIMATE,
        "requestedMicroUsd": PLAN_ESTIMATE,
        "resetsAt": "2026-03-16T00:00:00+00:00",
    }
    assert list(Reservation.objects.filter(user=user)) == [first]
    assert _counters(user) == {
        (PeriodKind.DAY, dt.date(2026, 3, 15)): (0, PLAN_ESTIMATE),
        (PeriodKind.MONTH, dt.date(2026, 3, 1)): (0, PLAN_ESTIMATE),
    }


def test_over_the_monthly_limit_is_refused(user, entry):
    AiPolicyFactory(
        user=user, daily_limit_micro_usd=10_000_000, monthly_limit_micro_usd=PLAN_ESTIMATE - 1
    )

    with pytest.raises(BudgetExceeded) as refused:
        _reserve(user)

    assert refused.value.details["period"] == "month"
    assert refused.value.details["resetsAt"] == "2026-04-01T00:00:00+01:00"
    assert Reservation.objects.filter(user=user).count() == 0
    assert set(_counters(user).values()) <= {(0, 0)}


def test_spent_money_counts_against_the_limit(user, entry):
    AiPolicyFactory(user=user, daily_limit_micro_usd=PLAN_ESTIMATE + 100)
    BudgetPeriod.objects.create(
        user=user, kind=PeriodKind.DAY, starts_on=dt.date(2026, 3, 15), spent_micro_usd=101
    )

    with pytest.raises(BudgetExceeded):
        _reserve(user)

    assert Reservation.objects.count() == 0


def test_ai_disabled_refuses_before_pricing(user, entry):
    AiPolicyFactory(user=user, is_ai_enabled=False)

    with pytest.raises(AiDisabled) as refused:
        _reserve(user)

    assert refused.value.code == "ai_disabled"
    assert refused.value.status_code == 403
    assert Reservation.objects.count() == 0
    assert BudgetPeriod.objects.count() == 0
    entry.price_book.refresh_from_db()
    assert entry.price_book.is_locked is False


def test_a_model_without_a_price_cannot_be_reserved(user, entry, policy):
    with pytest.raises(PriceUnknown) as refused:
        _reserve(user, model="unpriced-model")

    assert refused.value.code == "price_unknown"
    assert refused.value.details == {
        "provider": "remote",
        "model": "unpriced-model",
        "priceBookVersion": entry.price_book.version,
    }
    assert Reservation.objects.count() == 0
    assert BudgetPeriod.objects.count() == 0


def test_local_models_reserve_nothing_even_with_a_zero_budget(user, local_price_book):
    AiPolicyFactory(user=user, daily_limit_micro_usd=0, monthly_limit_micro_usd=0)

    reservation = _reserve(user, provider="local", model="extractive")

    assert reservation.estimated_micro_usd == 0
    assert reservation.price_book.version == 1
    assert set(_counters(user).values()) == {(0, 0)}


def test_policy_defaults_come_from_settings(user, entry):
    with override_settings(
        BILLING_DEFAULT_DAILY_LIMIT_MICRO_USD=PLAN_ESTIMATE - 1,
        BILLING_DEFAULT_MONTHLY_LIMIT_MICRO_USD=7_777,
    ):
        with pytest.raises(BudgetExceeded):
            _reserve(user)
        # The refused request created nothing, not even the policy row.
        assert AiPolicy.objects.filter(user=user).count() == 0

        _reserve(user, plan=CostPlan(max_output_tokens=100))

    policy = AiPolicy.objects.get(user=user)
    assert policy.daily_limit_micro_usd == PLAN_ESTIMATE - 1
    assert policy.monthly_limit_micro_usd == 7_777
    assert policy.is_ai_enabled is True


def test_reserving_the_same_attempt_again_returns_the_same_reservation(user, entry, policy):
    first = _reserve(user)
    again = _reserve(user)

    assert again.pk == first.pk
    assert Reservation.objects.count() == 1
    assert _counters(user)[(PeriodKind.DAY, dt.date(2026, 3, 15))] == (0, PLAN_ESTIMATE)


def test_the_next_attempt_of_a_request_is_a_new_reservation(user, entry, policy):
    first = _reserve(user)
    second = _reserve(user, attempt=2)

    assert second.pk != first.pk
    assert _counters(user)[(PeriodKind.DAY, dt.date(2026, 3, 15))] == (0, 2 * PLAN_ESTIMATE)


def test_same_attempt_for_another_model_is_a_conflict(user, entry, policy):
    PriceBookEntryFactory(price_book=entry.price_book, provider="remote", model="model-y")
    _reserve(user)

    with pytest.raises(ReservationConflict):
        _reserve(user, model="model-y")

    assert Reservation.objects.count() == 1


def test_reserving_a_closed_attempt_again_is_refused(user, entry, policy):
    reservation = _reserve(user)
    reservation_release(reservation=reservation, now=NOW)

    with pytest.raises(ReservationClosed):
        _reserve(user)

    assert _counters(user)[(PeriodKind.DAY, dt.date(2026, 3, 15))] == (0, 0)


def test_reservations_of_other_users_do_not_count(user, other_user, entry):
    AiPolicyFactory(user=user, daily_limit_micro_usd=PLAN_ESTIMATE)
    AiPolicyFactory(user=other_user, daily_limit_micro_usd=PLAN_ESTIMATE)
    _reserve(other_user)

    reservation = _reserve(user)

    assert reservation.user == user
    assert _counters(user)[(PeriodKind.DAY, dt.date(2026, 3, 15))] == (0, PLAN_ESTIMATE)


def test_query_embedding_priced_with_its_own_model(user, entry, policy):
    PriceBookEntryFactory(
        price_book=entry.price_book,
        provider="local",
        model="minilm",
        embedding_micro_usd_per_million=0,
    )
    reservation = _reserve(user, embedding_provider="local", embedding_model="minilm")

    # The 12 query tokens are free with the local embedder: 19,751 - 1.
    assert reservation.estimated_micro_usd == PLAN_ESTIMATE - 1
    assert (reservation.embedding_provider, reservation.embedding_model) == ("local", "minilm")
