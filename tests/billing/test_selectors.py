import datetime as dt

import pytest
from django.test import override_settings

from billing.errors import AiDisabled, BudgetExceeded
from billing.models import BudgetPeriod, PeriodKind
from billing.selectors import ai_access_check, ai_policy_for_user, spend_for_user
from tests.billing.conftest import NOW
from tests.factories import AiPolicyFactory

pytestmark = pytest.mark.django_db


@override_settings(
    BILLING_DEFAULT_AI_ENABLED=True,
    BILLING_DEFAULT_DAILY_LIMIT_MICRO_USD=11,
    BILLING_DEFAULT_MONTHLY_LIMIT_MICRO_USD=22,
)
def test_policy_of_a_user_without_a_row_is_the_settings_defaults(user):
    policy = ai_policy_for_user(user=user)

    assert policy.is_ai_enabled is True
    assert (policy.daily_limit_micro_usd, policy.monthly_limit_micro_usd) == (11, 22)


def test_policy_row_overrides_the_defaults(user):
    AiPolicyFactory(user=user, is_ai_enabled=False, daily_limit_micro_usd=5)

    policy = ai_policy_for_user(user=user)

    assert policy.is_ai_enabled is False
    assert policy.daily_limit_micro_usd == 5


def test_spend_for_user_reads_the_current_local_periods(user):
    AiPolicyFactory(user=user, daily_limit_micro_usd=1_000, monthly_limit_micro_usd=5_000)
    BudgetPeriod.objects.create(
        user=user, kind=PeriodKind.DAY, starts_on=dt.date(2026, 3, 14), spent_micro_usd=999
    )
    BudgetPeriod.objects.create(
        user=user,
        kind=PeriodKind.DAY,
        starts_on=dt.date(2026, 3, 15),
        spent_micro_usd=100,
        reserved_micro_usd=50,
    )
    BudgetPeriod.objects.create(
        user=user, kind=PeriodKind.MONTH, starts_on=dt.date(2026, 3, 1), spent_micro_usd=4_900
    )

    summary = spend_for_user(user=user, now=NOW)

    assert (summary.day.starts_on, summary.day.spent_micro_usd) == (dt.date(2026, 3, 15), 100)
    assert summary.day.remaining_micro_usd == 850
    assert summary.month.remaining_micro_usd == 100
    assert summary.remaining_micro_usd == 100
    assert summary.day.resets_at == dt.datetime(2026, 3, 16, tzinfo=dt.UTC)


def test_access_check_refuses_when_ai_is_off(user):
    AiPolicyFactory(user=user, is_ai_enabled=False)

    with pytest.raises(AiDisabled):
        ai_access_check(user=user, now=NOW)


def test_access_check_refuses_an_exhausted_budget(user):
    AiPolicyFactory(user=user, daily_limit_micro_usd=100)
    BudgetPeriod.objects.create(
        user=user,
        kind=PeriodKind.DAY,
        starts_on=dt.date(2026, 3, 15),
        spent_micro_usd=60,
        reserved_micro_usd=40,
    )

    with pytest.raises(BudgetExceeded) as refused:
        ai_access_check(user=user, now=NOW)

    assert refused.value.details["period"] == "day"
    assert refused.value.details["resetsAt"] == "2026-03-16T00:00:00+00:00"


def test_access_check_passes_with_budget_left(user):
    AiPolicyFactory(user=user, daily_limit_micro_usd=100)

    summary = ai_access_check(user=user, now=NOW)

    assert summary.day.remaining_micro_usd == 100
    assert BudgetPeriod.objects.count() == 0
