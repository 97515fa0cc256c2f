"""Reads of billing data, always scoped by the user. Nothing here writes: a user without a
policy row or period rows reads the defaults and zero counters."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.conf import settings
from django.db.models import Q, QuerySet, Sum
from django.utils import timezone

from billing.errors import AiDisabled, BudgetExceeded
from billing.models import AiPolicy, BudgetPeriod, UsageEvent
from billing.periods import PeriodKey, period_keys
from billing.types import EffectivePolicy, PeriodSpend, SpendSummary
from claire.accounts.models import User


def ai_policy_for_user(*, user: User) -> EffectivePolicy:
    """The user's policy, or the settings defaults when staff never set one. (Remote consent
    is not billing's: ``claire.accounts.consent``.)"""
    policy = AiPolicy.objects.filter(user=user).first()
    if policy is None:
        return EffectivePolicy(
            is_ai_enabled=bool(settings.BILLING_DEFAULT_AI_ENABLED),
            daily_limit_micro_usd=int(settings.BILLING_DEFAULT_DAILY_LIMIT_MICRO_USD),
            monthly_limit_micro_usd=int(settings.BILLING_DEFAULT_MONTHLY_LIMIT_MICRO_USD),
        )
    return EffectivePolicy(
        is_ai_enabled=policy.is_ai_enabled,
        daily_limit_micro_usd=policy.daily_limit_micro_usd,
        monthly_limit_micro_usd=policy.monthly_limit_micro_usd,
    )


def _period_spend(*, key: PeriodKey, row: BudgetPeriod | None, limit_micro_usd: int) -> PeriodSpend:
    return PeriodSpend(
        kind=key.kind,
        starts_on=key.starts_on,
        resets_at=key.resets_at,
        limit_micro_usd=limit_micro_usd,
        spent_micro_usd=row.spent_micro_usd if row else 0,
        reserved_micro_usd=row.reserved_micro_usd if row else 0,
    )


def spend_for_user(*, user: User, now: datetime | None = None) -> SpendSummary:
    """Today's and this month's spent, reserved, limit and remaining, in the user's
    home timezone."""
    now = now or timezone.now()
    policy = ai_policy_for_user(user=user)
    day_key, month_key = period_keys(zone=user.zoneinfo, now=now)
    rows = {
        row.kind: row
        for row in BudgetPeriod.objects.filter(
            Q(kind=day_key.kind, starts_on=day_key.starts_on)
            | Q(kind=month_key.kind, starts_on=month_key.starts_on),
            user=user,
        )
    }
    return SpendSummary(
        policy=policy,
        day=_period_spend(
            key=day_key, row=rows.get(day_key.kind), limit_micro_usd=policy.daily_limit_micro_usd
        ),
        month=_period_spend(
            key=month_key,
            row=rows.get(month_key.kind),
            limit_micro_usd=policy.monthly_limit_micro_usd,
        ),
    )


def ai_access_check(*, user: User, now: datetime | None = None) -> SpendSummary:
    """The request-start check: raises ``AiDisabled`` when AI is off for the user and
    ``BudgetExceeded`` when a period has nothing left at all. Passing it does not admit a
    generation -- only ``budget_reserve`` does, with the request's actual estimate."""
    summary = spend_for_user(user=user, now=now)
    if not summary.policy.is_ai_enabled:
        raise AiDisabled()
    for period in (summary.day, summary.month):
        if period.remaining_micro_usd <= 0:
            raise BudgetExceeded(
                details={
                    "period": period.kind,
                    "limitMicroUsd": period.limit_micro_usd,
                    "spentMicroUsd": period.spent_micro_usd,
                    "reservedMicroUsd": period.reserved_micro_usd,
                    "requestedMicroUsd": 0,
                    "resetsAt": period.resets_at.isoformat(),
                }
            )
    return summary


def usage_events_for_user(*, user: User) -> QuerySet[UsageEvent]:
    return UsageEvent.objects.filter(user=user)


def settled_cost_by_request(*, user: User, request_ids: Iterable[str]) -> dict[str, int]:
    """What each of ``request_ids`` was charged in micro-USD (all its attempts), for the
    requests that have usage; one query."""
    wanted = [request_id for request_id in request_ids if request_id]
    if not wanted:
        return {}
    rows = (
        UsageEvent.objects.filter(user=user, request_id__in=wanted)
        .values("request_id")
        .annotate(total=Sum("settled_micro_usd"))
    )
    return {row["request_id"]: int(row["total"]) for row in rows}
