"""Factories for price books and their entries, AI policies, budget periods, reservations and
usage events (all amounts in integer micro-USD)."""

from __future__ import annotations

import datetime as dt

import factory
from factory.django import DjangoModelFactory

from billing.models import (
    AiPolicy,
    BudgetPeriod,
    Ending,
    PeriodKind,
    PriceBook,
    PriceBookEntry,
    Reservation,
    ReservationState,
    UsageEvent,
)
from tests.factories.conversations import UserFactory

# Test price books start after the seeded version 1 (local models, in force since 2000).
PRICES_FROM = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


class PriceBookFactory(DjangoModelFactory[PriceBook]):
    class Meta:
        model = PriceBook

    version = factory.Sequence(lambda n: 100 + n)
    effective_from = PRICES_FROM
    note = "test prices"


class PriceBookEntryFactory(DjangoModelFactory[PriceBookEntry]):
    class Meta:
        model = PriceBookEntry

    price_book = factory.SubFactory(PriceBookFactory)
    provider = "remote"
    model = factory.Sequence(lambda n: f"model-{n}")
    input_micro_usd_per_million = 2_500_000
    cached_input_micro_usd_per_million = 1_250_000
    output_micro_usd_per_million = 10_000_000
    embedding_micro_usd_per_million = 20_000
    step_reserve_micro_usd = 3_000


class AiPolicyFactory(DjangoModelFactory[AiPolicy]):
    class Meta:
        model = AiPolicy
        django_get_or_create = ("user",)

    user = factory.SubFactory(UserFactory)
    is_ai_enabled = True
    daily_limit_micro_usd = 1_000_000
    monthly_limit_micro_usd = 10_000_000


class BudgetPeriodFactory(DjangoModelFactory[BudgetPeriod]):
    class Meta:
        model = BudgetPeriod

    user = factory.SubFactory(UserFactory)
    kind = PeriodKind.DAY
    starts_on = dt.date(2026, 3, 15)


class ReservationFactory(DjangoModelFactory[Reservation]):
    """An open reservation whose hold is *not* counted in its periods; tests of the counters
    reserve through ``billing.services.reservations.budget_reserve`` instead."""

    class Meta:
        model = Reservation

    user = factory.SubFactory(UserFactory)
    request_id = factory.Sequence(lambda n: f"request-{n}")
    price_book = factory.SubFactory(PriceBookFactory, is_locked=True)
    provider = "remote"
    model = "model-x"
    day_period = factory.SubFactory(
        BudgetPeriodFactory, user=factory.SelfAttribute("..user"), kind=PeriodKind.DAY
    )
    month_period = factory.SubFactory(
        BudgetPeriodFactory,
        user=factory.SelfAttribute("..user"),
        kind=PeriodKind.MONTH,
        starts_on=dt.date(2026, 3, 1),
    )
    estimated_micro_usd = 0
    state = ReservationState.OPEN
    created_at = dt.datetime(2026, 3, 15, 12, 0, tzinfo=dt.UTC)
    expires_at = factory.LazyAttribute(lambda row: row.created_at + dt.timedelta(minutes=5))


class UsageEventFactory(DjangoModelFactory[UsageEvent]):
    class Meta:
        model = UsageEvent

    user = factory.SubFactory(UserFactory)
    request_id = factory.Sequence(lambda n: f"request-{n}")
    provider = "remote"
    model = "model-x"
    ending = Ending.COMPLETED
    input_tokens = 1_000
    output_tokens = 200
    estimated_micro_usd = 5_000
    settled_micro_usd = 4_500
    created_at = dt.datetime(2026, 3, 15, 12, 0, tzinfo=dt.UTC)
