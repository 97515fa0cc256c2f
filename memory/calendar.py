"""The plans calendar: a week of the user's plans, placed on the day they are for.

A plan's day is read from the words of its latest step that names a time ("Saturday at 8"),
against that message's own send time and in the user's timezone -- the same reading
``plan_recall`` uses. A plan whose messages name no day is shown on the day it was last
discussed, marked as such. Read-only: opening the calendar creates nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from claire.accounts.models import User
from memory.selectors import PlanTimeline, plans_for_user
from retrieval.dates import message_relative_date

# Plans are made at most this long before the day they are for (older ones are not read).
PLANNING_HORIZON = timedelta(days=60)
MAX_PLANS_READ = 500


@dataclass(frozen=True)
class CalendarEntry:
    plan: PlanTimeline
    day: date
    # True when the messages name the day; False when it is the day the plan was last discussed.
    is_dated: bool


@dataclass(frozen=True)
class CalendarDay:
    day: date
    entries: tuple[CalendarEntry, ...]


@dataclass(frozen=True)
class CalendarWeek:
    first_day: date
    days: tuple[CalendarDay, ...]

    @property
    def previous_week(self) -> date:
        return self.first_day - timedelta(days=7)

    @property
    def next_week(self) -> date:
        return self.first_day + timedelta(days=7)


def plan_day(*, plan: PlanTimeline, user: User) -> tuple[date, bool]:
    """The local day ``plan`` is for and whether its messages name it (else: the day it was
    last discussed)."""
    zone = user.zoneinfo
    for step in reversed(plan.steps):
        if not step.event_label:
            continue
        window = message_relative_date(step.event_label, step.sent_at, zone, direction="future")
        if window is not None:
            return window.start.astimezone(zone).date(), True
    return plan.last_sent_at.astimezone(zone).date(), False


def calendar_week_for_user(*, user: User, day: date) -> CalendarWeek:
    """The Monday-to-Sunday week holding ``day``, each day with the plans it holds."""
    zone = user.zoneinfo
    first_day = day - timedelta(days=day.weekday())
    after_last = first_day + timedelta(days=7)
    week_start = datetime.combine(first_day, time(0), tzinfo=zone)
    week_end = datetime.combine(after_last, time(0), tzinfo=zone)
    plans = plans_for_user(
        user=user,
        sent_after=week_start - PLANNING_HORIZON,
        sent_before=week_end,
        limit=MAX_PLANS_READ,
    )
    by_day: dict[date, list[CalendarEntry]] = {}
    for plan in plans:
        plan_date, is_dated = plan_day(plan=plan, user=user)
        if first_day <= plan_date < after_last:
            by_day.setdefault(plan_date, []).append(
                CalendarEntry(plan=plan, day=plan_date, is_dated=is_dated)
            )
    days = tuple(
        CalendarDay(
            day=first_day + timedelta(days=offset),
            entries=tuple(
                sorted(
                    by_day.get(first_day + timedelta(days=offset), []),
                    key=lambda entry: (not entry.is_dated, entry.plan.first_sent_at),
                )
            ),
        )
        for offset in range(7)
    )
    return CalendarWeek(first_day=first_day, days=days)
