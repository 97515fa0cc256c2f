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
    UsageEvent,
)
from tests.factories._times import ANCHOR
from tests.factories.conversations import UserFactory


class PriceBookFactory(DjangoModelFactory[PriceBook]):
    class Meta:
        model = PriceBook

    version = factory.Sequence(lambda n: 1000 + n)
    effective_from = ANCHOR
    note = "test prices"


class PriceBookEntryFactory(DjangoModelFactory[PriceBookEntry]):
    class Meta:
        model = PriceBookEntry

    price_book = factory.SubFactory(PriceBookFactory)
    provider = "openai"
    model = factory.Sequence(lambda n: f"model-{n}")
    input_micro_usd_per_million = 150_000
    output_micro_usd_per_million = 600_000


class AiPolicyFactory(DjangoModelFactory[AiPolicy]):
    class Meta:
        model = AiPolicy

    user = factory.SubFactory(UserFactory)
    daily_limit_micro_usd = 500_000
    monthly_limit_micro_usd = 5_000_000


class BudgetPeriodFactory(DjangoModelFactory[BudgetPeriod]):
    class Meta:
        model = BudgetPeriod

    user = factory.SubFactory(UserFactory)
    kind = PeriodKind.DAY
    starts_on = ANCHOR.date()


class ReservationFactory(DjangoModelFactory[Reservation]):
    """An open hold against the user's day and month of the anchor."""

    class Meta:
        model = Reservation

    user = factory.SubFactory(UserFactory)
    request_id = factory.Sequence(lambda n: f"request-{n}")
    price_book = factory.SubFactory(PriceBookFactory)
    provider = "openai"
    model = "gpt-4o-mini"
    day_period = factory.SubFactory(
        BudgetPeriodFactory, user=factory.SelfAttribute("..user"), kind=PeriodKind.DAY
    )
    month_period = factory.SubFactory(
        BudgetPeriodFactory,
        user=factory.SelfAttribute("..user"),
        kind=PeriodKind.MONTH,
        starts_on=ANCHOR.date().replace(day=1),
    )
    estimated_micro_usd = 1_200
    created_at = ANCHOR
    expires_at = ANCHOR + dt.timedelta(minutes=10)


class UsageEventFactory(DjangoModelFactory[UsageEvent]):
    class Meta:
        model = UsageEvent

    user = factory.SubFactory(UserFactory)
    request_id = factory.Sequence(lambda n: f"request-{n}")
    route = "search"
    profile = "answer"
    provider = "local"
    model = "extractive"
    ending = Ending.COMPLETED
    created_at = ANCHOR
