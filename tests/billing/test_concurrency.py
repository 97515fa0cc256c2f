"""Reservations under real concurrency: threads with their own PostgreSQL connections."""

import threading
from collections import Counter

import pytest
from django.db import connection, connections

from billing.errors import BudgetExceeded
from billing.models import (
    BudgetPeriod,
    Ending,
    PeriodKind,
    PriceBook,
    Reservation,
    ReservationState,
)
from billing.services.reservations import budget_reserve, reservation_settle
from billing.types import CostPlan, UsageInput, UsageTelemetry
from tests.billing.conftest import NOW
from tests.factories import AiPolicyFactory, PriceBookEntryFactory, PriceBookFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# 1,000 output tokens at 1 USD per million tokens: 1,000 micro-USD per request.
PLAN = CostPlan(max_output_tokens=1_000)
REQUEST_COST = 1_000


def _priced_user(*, daily_limit):
    # A version already in use: the first use of a version serializes on its row while it is
    # being locked, which would hide a missing budget lock.
    book = PriceBookFactory()
    PriceBookEntryFactory(
        price_book=book,
        provider="remote",
        model="model-x",
        input_micro_usd_per_million=1_000_000,
        cached_input_micro_usd_per_million=0,
        output_micro_usd_per_million=1_000_000,
        embedding_micro_usd_per_million=0,
        step_reserve_micro_usd=0,
    )
    PriceBook.objects.filter(pk=book.pk).update(is_locked=True)
    user = UserFactory()
    AiPolicyFactory(user=user, daily_limit_micro_usd=daily_limit, monthly_limit_micro_usd=10**9)
    return user


class LimitWatcher(threading.Thread):
    """Reads the user's day row over and over while the workers run, recording the largest
    spent + reserved any committed state showed."""

    def __init__(self, user):
        super().__init__()
        self.user = user
        self.stop = threading.Event()
        self.largest = 0
        self.reads = 0

    def run(self):
        try:
            while not self.stop.is_set():
                for row in BudgetPeriod.objects.filter(user=self.user, kind=PeriodKind.DAY):
                    self.largest = max(self.largest, row.spent_micro_usd + row.reserved_micro_usd)
                self.reads += 1
        finally:
            connection.close()


def _run_threads(count, work):
    barrier = threading.Barrier(count)
    outcomes = [None] * count

    def run(index):
        try:
            barrier.wait(timeout=60)
            outcomes[index] = work(index)
        except BudgetExceeded:
            outcomes[index] = "refused"
        except Exception as error:  # reported by the assertion below, with its type
            outcomes[index] = f"error: {error!r}"
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    return outcomes


def test_fifty_concurrent_reservations_against_a_budget_for_ten():
    limit = 10 * REQUEST_COST
    user = _priced_user(daily_limit=limit)
    watcher = LimitWatcher(user)
    watcher.start()

    def reserve(index):
        budget_reserve(
            user=user,
            request_id=f"concurrent-{index}",
            provider="remote",
            model="model-x",
            plan=PLAN,
            now=NOW,
        )
        return "reserved"

    try:
        outcomes = _run_threads(50, reserve)
    finally:
        watcher.stop.set()
        watcher.join()

    assert Counter(outcomes) == {"reserved": 10, "refused": 40}
    day = BudgetPeriod.objects.get(user=user, kind=PeriodKind.DAY)
    assert (day.spent_micro_usd, day.reserved_micro_usd) == (0, limit)
    assert day.spent_micro_usd + day.reserved_micro_usd <= limit
    assert Reservation.objects.filter(user=user, state=ReservationState.OPEN).count() == 10
    assert watcher.reads > 0
    assert watcher.largest <= limit


def test_concurrent_settlements_and_reservations_keep_the_counters_exact():
    limit = 10 * REQUEST_COST
    user = _priced_user(daily_limit=limit)
    held = [
        budget_reserve(
            user=user,
            request_id=f"held-{index}",
            provider="remote",
            model="model-x",
            plan=PLAN,
            now=NOW,
        )
        for index in range(10)
    ]
    watcher = LimitWatcher(user)
    watcher.start()

    def settle_or_reserve(index):
        if index < 10:
            # Each settled request used 400 output tokens: 400 charged, 600 released.
            reservation_settle(
                reservation=held[index],
                usage=UsageInput(output_tokens=400),
                ending=Ending.COMPLETED,
                telemetry=UsageTelemetry(),
                now=NOW,
            )
            return "settled"
        budget_reserve(
            user=user,
            request_id=f"late-{index}",
            provider="remote",
            model="model-x",
            plan=PLAN,
            now=NOW,
        )
        return "reserved"

    try:
        outcomes = _run_threads(30, settle_or_reserve)
    finally:
        watcher.stop.set()
        watcher.join()

    counts = Counter(outcomes)
    assert counts["settled"] == 10
    assert counts["reserved"] + counts["refused"] == 20
    # After all ten settled (4,000 spent) at most six more fit; how many of the twenty got in
    # depends on the interleaving, but the counters must match the reservations exactly.
    assert counts["reserved"] <= 6
    day = BudgetPeriod.objects.get(user=user, kind=PeriodKind.DAY)
    open_reservations = Reservation.objects.filter(user=user, state=ReservationState.OPEN)
    assert day.spent_micro_usd == 10 * 400
    assert day.reserved_micro_usd == open_reservations.count() * REQUEST_COST
    assert open_reservations.count() == counts["reserved"]
    assert watcher.largest <= limit
