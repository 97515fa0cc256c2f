"""Budget periods are calendar days and months of the user's home timezone.

A reservation records the period rows it was counted in, so its settlement lands in the same
periods even when it ends after midnight or after the user changed timezone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from billing.models import PeriodKind


@dataclass(frozen=True)
class PeriodKey:
    kind: str
    starts_on: date
    resets_at: datetime


def _local_midnight(day: date, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, time.min, tzinfo=zone)


def period_keys(*, zone: ZoneInfo, now: datetime) -> tuple[PeriodKey, PeriodKey]:
    """The (day, month) periods containing ``now`` in ``zone``; ``resets_at`` is the next
    local midnight / first of the next month, as an aware datetime."""
    today = now.astimezone(zone).date()
    month_start = today.replace(day=1)
    next_month = (month_start + timedelta(days=32)).replace(day=1)
    return (
        PeriodKey(
            kind=PeriodKind.DAY,
            starts_on=today,
            resets_at=_local_midnight(today + timedelta(days=1), zone),
        ),
        PeriodKey(
            kind=PeriodKind.MONTH,
            starts_on=month_start,
            resets_at=_local_midnight(next_month, zone),
        ),
    )
