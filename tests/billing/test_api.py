import datetime as dt

import pytest
from django.test import override_settings
from django.utils import timezone

from billing.models import AiPolicy, BudgetPeriod, PeriodKind
from tests.factories import AiPolicyFactory

pytestmark = pytest.mark.django_db

URL = "/api/billing/spend"


def _today_rows(user, *, spent, reserved):
    local_today = timezone.now().astimezone(user.zoneinfo).date()
    BudgetPeriod.objects.create(
        user=user,
        kind=PeriodKind.DAY,
        starts_on=local_today,
        spent_micro_usd=spent,
        reserved_micro_usd=reserved,
    )
    BudgetPeriod.objects.create(
        user=user,
        kind=PeriodKind.MONTH,
        starts_on=local_today.replace(day=1),
        spent_micro_usd=spent * 3,
        reserved_micro_usd=reserved,
    )
    return local_today


def test_spend_requires_authentication(client):
    response = client.get(URL)

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


@override_settings(
    BILLING_DEFAULT_DAILY_LIMIT_MICRO_USD=250_000,
    BILLING_DEFAULT_MONTHLY_LIMIT_MICRO_USD=4_000_000,
    REMOTE_CONSENT_DEFAULT=False,
)
def test_a_new_user_sees_the_default_budget_untouched(api_client, user):
    response = api_client.get(URL)

    assert response.status_code == 200
    body = response.json()
    assert body["aiEnabled"] is True
    assert body["remoteConsent"] is False
    assert body["remainingMicroUsd"] == 250_000
    assert body["remainingDisplay"] == "$0.250000"
    assert body["day"]["limitMicroUsd"] == 250_000
    assert body["day"]["spentMicroUsd"] == 0
    assert body["month"]["limitMicroUsd"] == 4_000_000
    assert body["month"]["remainingDisplay"] == "$4.000000"
    # Reading creates nothing.
    assert AiPolicy.objects.count() == 0
    assert BudgetPeriod.objects.count() == 0


def test_spend_reports_spent_reserved_and_remaining(api_client, user):
    AiPolicyFactory(user=user, daily_limit_micro_usd=100_000, monthly_limit_micro_usd=1_000_000)
    local_today = _today_rows(user, spent=12_345, reserved=5_000)

    body = api_client.get(URL).json()

    tomorrow = local_today + dt.timedelta(days=1)
    assert body["day"] == {
        "period": "day",
        "startsOn": local_today.isoformat(),
        "resetsAt": dt.datetime.combine(tomorrow, dt.time.min, tzinfo=user.zoneinfo)
        .astimezone(dt.UTC)
        .isoformat()
        .replace("+00:00", "Z"),
        "limitMicroUsd": 100_000,
        "spentMicroUsd": 12_345,
        "reservedMicroUsd": 5_000,
        "remainingMicroUsd": 82_655,
        "limitDisplay": "$0.100000",
        "spentDisplay": "$0.012345",
        "remainingDisplay": "$0.082655",
    }
    assert body["month"]["spentMicroUsd"] == 37_035
    assert body["month"]["remainingMicroUsd"] == 957_965
    assert body["remainingMicroUsd"] == 82_655


def test_remaining_never_goes_below_zero(api_client, user):
    AiPolicyFactory(user=user, daily_limit_micro_usd=10_000)
    _today_rows(user, spent=12_000, reserved=0)

    body = api_client.get(URL).json()

    assert body["day"]["remainingMicroUsd"] == 0
    assert body["remainingMicroUsd"] == 0


def test_spend_shows_only_the_users_own_money(api_client, user, other_user):
    AiPolicyFactory(user=other_user, daily_limit_micro_usd=9_999_999)
    _today_rows(other_user, spent=50_000, reserved=7)

    body = api_client.get(URL).json()

    assert body["day"]["spentMicroUsd"] == 0
    assert body["day"]["reservedMicroUsd"] == 0
    assert body["day"]["limitMicroUsd"] != 9_999_999


def test_the_user_grants_and_withdraws_remote_consent(api_client, user):
    AiPolicyFactory(user=user, daily_limit_micro_usd=123)
    assert api_client.get(URL).json()["remoteConsent"] is False

    granted = api_client.patch("/api/billing/policy", {"remoteConsent": True}, format="json")

    assert granted.status_code == 200
    assert granted.json()["remoteConsent"] is True
    user.refresh_from_db()
    assert user.remote_consent is True
    assert user.remote_consent_changed_at is not None
    assert AiPolicy.objects.get(user=user).daily_limit_micro_usd == 123

    withdrawn = api_client.patch("/api/billing/policy", {"remoteConsent": False}, format="json")
    assert withdrawn.json()["remoteConsent"] is False
    user.refresh_from_db()
    assert user.remote_consent is False


def test_the_user_cannot_change_limits_or_the_ai_switch(api_client, user):
    AiPolicyFactory(user=user, is_ai_enabled=False, daily_limit_micro_usd=123)

    response = api_client.patch(
        "/api/billing/policy",
        {"remoteConsent": True, "aiEnabled": True, "dailyLimitMicroUsd": 10**9},
        format="json",
    )

    assert response.status_code == 200
    policy = AiPolicy.objects.get(user=user)
    assert (policy.is_ai_enabled, policy.daily_limit_micro_usd) == (False, 123)


def test_consent_must_be_a_boolean(api_client, user):
    response = api_client.patch("/api/billing/policy", {}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert AiPolicy.objects.count() == 0
