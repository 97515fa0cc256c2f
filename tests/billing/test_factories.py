import pytest

from tests.billing.factories import (
    AiPolicyFactory,
    BudgetPeriodFactory,
    PriceBookEntryFactory,
    PriceBookFactory,
    ReservationFactory,
    UsageEventFactory,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "factory",
    [
        PriceBookFactory,
        PriceBookEntryFactory,
        AiPolicyFactory,
        BudgetPeriodFactory,
        ReservationFactory,
        UsageEventFactory,
    ],
)
def test_factory_builds_a_valid_saved_row(factory):
    row = factory()

    row.full_clean()
    assert type(row).objects.filter(pk=row.pk).exists()
