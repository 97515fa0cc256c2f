"""Query counts of the per-answer hot path, once a user's rows exist."""

import pytest

from billing.models import Ending
from billing.services.reservations import budget_reserve, reservation_settle
from billing.types import UsageInput, UsageTelemetry
from tests.billing.conftest import NOW, PLAN

pytestmark = pytest.mark.django_db


def test_reserve_and_settle_query_counts(user, entry, policy, django_assert_num_queries):
    budget_reserve(
        user=user, request_id="warm", provider="remote", model="model-x", plan=PLAN, now=NOW
    )

    # savepoint, policy, version in force, entry, lock periods, idempotency check,
    # counters, insert, release savepoint
    with django_assert_num_queries(9):
        reservation = budget_reserve(
            user=user, request_id="hot", provider="remote", model="model-x", plan=PLAN, now=NOW
        )
    # savepoint, lock reservation (+ its version), entry, lock periods, counters, reservation,
    # event, release savepoint
    with django_assert_num_queries(8):
        reservation_settle(
            reservation=reservation,
            usage=UsageInput(uncached_input_tokens=10, output_tokens=10),
            ending=Ending.COMPLETED,
            telemetry=UsageTelemetry(),
            now=NOW,
        )
