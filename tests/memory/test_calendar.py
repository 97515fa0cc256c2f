"""The plans calendar that "Open calendar" links to: plans on the day their messages name."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from conversations.models import Chat, ChatKind
from memory import services
from memory.calendar import calendar_week_for_user
from tests.memory.helpers import chat_of, ingest, message_row, say

pytestmark = pytest.mark.django_db

# Tuesday 3 March 2026, 18:00 in Lisbon (UTC+0 in winter).
T0 = datetime(2026, 3, 3, 18, 0, tzinfo=UTC)


def _plans(user) -> None:
    group = chat_of("crew", "Rita", "Leo", kind=ChatKind.GROUP)
    ingest(
        user,
        group,
        say("p1", T0, "Dinner Friday at 8 at Casa Nova?", sender="Leo"),
        say("p2", T0 + timedelta(minutes=5), "Count me in!", sender="Rita", reply_to="p1"),
        say("c1", T0 + timedelta(days=1), "Can we move Casa Nova to Saturday at 8?", sender="Leo"),
        say("k1", T0 + timedelta(days=2), "Lunch at Tasca Rita sometime?", sender="Rita"),
    )
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def _entries(week):
    return {
        day.day: [(entry.plan.activity, entry.plan.status, entry.is_dated) for entry in day.entries]
        for day in week.days
        if day.entries
    }


def test_a_plan_sits_on_the_day_its_latest_step_names(user):
    _plans(user)

    week = calendar_week_for_user(user=user, day=date(2026, 3, 4))

    assert week.first_day == date(2026, 3, 2)
    assert [day.day for day in week.days] == [date(2026, 3, 2) + timedelta(n) for n in range(7)]
    entries = _entries(week)
    # Moved from Friday to Saturday: read against the message that moved it.
    assert entries[date(2026, 3, 7)] == [("dinner", "changed", True)]
    # The lunch names no day: shown on the day it was last discussed, marked so.
    assert entries[date(2026, 3, 5)] == [("lunch", "proposed", False)]
    assert set(entries) == {date(2026, 3, 5), date(2026, 3, 7)}
    assert week.previous_week == date(2026, 2, 23)
    assert week.next_week == date(2026, 3, 9)
    assert _entries(calendar_week_for_user(user=user, day=date(2026, 3, 9))) == {}


def test_calendar_page_shows_the_week_with_links_to_the_messages(user, other_user, client):
    _plans(user)
    _plans(other_user)
    client.force_login(user)

    response = client.get("/calendar/", {"date": "2026-03-07"})

    assert response.status_code == 200
    page = response.content.decode()
    assert "week of Mon 2 Mar 2026" in page
    assert 'class="day selected" data-day="2026-03-07"' in page
    own = message_row(user, "crew", "c1")
    foreign = message_row(other_user, "crew", "c1")
    assert f"/chats/{own.chat_id}/?message={own.pk}" in page
    assert f"?message={foreign.pk}" not in page
    assert 'href="?date=2026-02-23" rel="prev"' in page


def test_calendar_page_refuses_a_malformed_date_and_needs_a_login(user, client):
    assert client.get("/calendar/").status_code == 302
    client.force_login(user)

    response = client.get("/calendar/", {"date": "next friday"})

    assert response.status_code == 400
    assert "is not a date; use YYYY-MM-DD" in response.content.decode()
    assert client.get("/calendar/").status_code == 200
