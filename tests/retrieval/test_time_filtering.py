"""Filtering stored messages by a compiled window: half-open boundaries, local days across DST
changes, and the difference between the user's day and the UTC day."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from conversations.models import Message
from retrieval.dates import resolve_time_expression
from retrieval.types import TimeRange
from tests.factories import ChatFactory, MessageFactory

LISBON = ZoneInfo("Europe/Lisbon")
NEW_YORK = ZoneInfo("America/New_York")


def _window(text: str, now: datetime, tz: ZoneInfo) -> TimeRange:
    time_range, _span = resolve_time_expression(text, now=now, tz=tz)
    assert time_range is not None
    return time_range


def _messages_at(user, moments):
    chat = ChatFactory(user=user)
    return {
        MessageFactory(chat=chat, sent_at=moment, text=name).pk: name
        for name, moment in moments.items()
    }


def _names_in(user, time_range: TimeRange, names_by_id: dict[int, str]) -> set[str]:
    ids = Message.objects.filter(user=user).filter(time_range.as_q()).values_list("pk", flat=True)
    return {names_by_id[pk] for pk in ids}


@pytest.mark.django_db
def test_the_start_is_included_and_the_end_excluded(user):
    time_range = _window("yesterday", datetime(2026, 3, 14, 10, 0, tzinfo=LISBON), LISBON)
    names_by_id = _messages_at(
        user,
        {
            "just before": datetime(2026, 3, 12, 23, 59, 59, 999999, tzinfo=LISBON),
            "at start": datetime(2026, 3, 13, 0, 0, tzinfo=LISBON),
            "last microsecond": datetime(2026, 3, 13, 23, 59, 59, 999999, tzinfo=LISBON),
            "at end": datetime(2026, 3, 14, 0, 0, tzinfo=LISBON),
        },
    )
    assert _names_in(user, time_range, names_by_id) == {"at start", "last microsecond"}
    assert time_range.contains(datetime(2026, 3, 13, 0, 0, tzinfo=LISBON))
    assert not time_range.contains(datetime(2026, 3, 14, 0, 0, tzinfo=LISBON))


@pytest.mark.django_db
def test_the_short_day_of_spring_forward_in_lisbon(user):
    # 29 March 2026: 01:00 becomes 02:00; the day is [00:00+00:00, 24:00+01:00) = 23 hours.
    time_range = _window("yesterday", datetime(2026, 3, 30, 9, 0, tzinfo=LISBON), LISBON)
    names_by_id = _messages_at(
        user,
        {
            "00:30 before the change": datetime(2026, 3, 29, 0, 30, tzinfo=UTC),
            "02:30 after the change": datetime(2026, 3, 29, 1, 30, tzinfo=UTC),
            "23:30 local": datetime(2026, 3, 29, 22, 30, tzinfo=UTC),
            # 23:30 UTC on the 29th is already 00:30 on the 30th in Lisbon.
            "23:30 UTC": datetime(2026, 3, 29, 23, 30, tzinfo=UTC),
        },
    )
    assert _names_in(user, time_range, names_by_id) == {
        "00:30 before the change",
        "02:30 after the change",
        "23:30 local",
    }
    assert time_range.duration == timedelta(hours=23)


@pytest.mark.django_db
def test_the_long_day_of_fall_back_in_lisbon_includes_both_one_thirties(user):
    time_range = _window("yesterday", datetime(2026, 10, 26, 9, 0, tzinfo=LISBON), LISBON)
    names_by_id = _messages_at(
        user,
        {
            "first 01:30": datetime(2026, 10, 25, 0, 30, tzinfo=UTC),  # 01:30 summer time
            "second 01:30": datetime(2026, 10, 25, 1, 30, tzinfo=UTC),  # 01:30 winter time
            "23:59 local": datetime(2026, 10, 25, 23, 59, tzinfo=UTC),
            "previous evening": datetime(2026, 10, 24, 22, 59, tzinfo=UTC),  # 23:59 summer
            "next midnight": datetime(2026, 10, 26, 0, 0, tzinfo=UTC),
        },
    )
    assert _names_in(user, time_range, names_by_id) == {
        "first 01:30",
        "second 01:30",
        "23:59 local",
    }
    assert time_range.duration == timedelta(hours=25)


@pytest.mark.django_db
def test_last_night_across_spring_forward_in_new_york(user):
    time_range = _window("last night", datetime(2026, 3, 8, 10, 0, tzinfo=NEW_YORK), NEW_YORK)
    names_by_id = _messages_at(
        user,
        {
            "17:59": datetime(2026, 3, 7, 17, 59, tzinfo=NEW_YORK),
            "18:00": datetime(2026, 3, 7, 18, 0, tzinfo=NEW_YORK),
            "01:59 standard": datetime(2026, 3, 8, 6, 59, tzinfo=UTC),
            "03:00 daylight": datetime(2026, 3, 8, 7, 0, tzinfo=UTC),
            "04:59": datetime(2026, 3, 8, 4, 59, tzinfo=NEW_YORK),
            "05:00": datetime(2026, 3, 8, 5, 0, tzinfo=NEW_YORK),
        },
    )
    assert _names_in(user, time_range, names_by_id) == {
        "18:00",
        "01:59 standard",
        "03:00 daylight",
        "04:59",
    }


@pytest.mark.django_db
def test_a_window_never_reads_another_users_messages(user, other_user):
    time_range = _window("yesterday", datetime(2026, 3, 14, 10, 0, tzinfo=LISBON), LISBON)
    _messages_at(other_user, {"theirs": datetime(2026, 3, 13, 12, 0, tzinfo=LISBON)})
    assert not Message.objects.filter(user=user).filter(time_range.as_q()).exists()


def test_contains_compares_instants_not_wall_clock_times():
    time_range = _window("yesterday", datetime(2026, 10, 26, 9, 0, tzinfo=LISBON), LISBON)
    # The same wall-clock time, 01:30 on 25 October, twice: both instants are inside.
    first = datetime(2026, 10, 25, 1, 30, tzinfo=LISBON, fold=0)
    second = datetime(2026, 10, 25, 1, 30, tzinfo=LISBON, fold=1)
    assert first.astimezone(UTC) != second.astimezone(UTC)
    assert time_range.contains(first)
    assert time_range.contains(second)
    assert time_range.contains(datetime(2026, 10, 25, 23, 30, tzinfo=UTC))
    assert not time_range.contains(datetime(2026, 10, 26, 0, 0, tzinfo=UTC))


def test_a_time_range_needs_aware_ordered_bounds():
    aware = datetime(2026, 3, 13, tzinfo=LISBON)
    with pytest.raises(ValueError, match="aware"):
        TimeRange(start=datetime(2026, 3, 13), end=aware, timezone="Europe/Lisbon", label="x")
    with pytest.raises(ValueError, match="end after"):
        TimeRange(start=aware, end=aware, timezone="Europe/Lisbon", label="x")
    time_range = TimeRange(
        start=aware, end=aware + timedelta(days=1), timezone="Europe/Lisbon", label="x"
    )
    with pytest.raises(ValueError, match="aware"):
        time_range.contains(datetime(2026, 3, 13, 12, 0))
