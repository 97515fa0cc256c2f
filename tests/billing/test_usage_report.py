"""The operator's usage report: percentiles, sums and rates by profile, from usage events."""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from billing.models import Ending
from billing.reports import usage_report
from tests.factories import ReservationFactory, UsageEventFactory, UserFactory

pytestmark = pytest.mark.django_db

AT = dt.datetime(2026, 3, 15, 12, 0, tzinfo=dt.UTC)
DAY = dt.timedelta(days=1)


@pytest.fixture
def events():
    user, other = UserFactory(), UserFactory()
    # Ten answers with first tokens at 100..1000 ms and completions at 1..10 s.
    for index in range(1, 11):
        UsageEventFactory(
            user=user,
            profile="answer",
            route="hybrid" if index <= 7 else "people_ranking",
            time_to_first_token_ms=index * 100,
            duration_ms=index * 1000,
            source_count=index,
            settled_micro_usd=10,
            estimated_micro_usd=20,
        )
    UsageEventFactory(
        user=user,
        profile="answer",
        route="no_evidence",
        ending=Ending.NO_CALL,
        input_tokens=0,
        output_tokens=0,
        settled_micro_usd=0,
        estimated_micro_usd=0,
    )
    UsageEventFactory(user=user, profile="answer", route="hybrid", ending=Ending.CANCELLED)
    # Reserved for one model, answered by another: a fallback.
    reservation = ReservationFactory(user=user, provider="remote", model="model-a")
    UsageEventFactory(
        user=user,
        profile="answer",
        route="hybrid",
        ending=Ending.FAILED,
        reservation=reservation,
        provider="remote",
        model="model-b",
    )
    UsageEventFactory(user=other, profile="extract", settled_micro_usd=7)
    # Outside the period.
    UsageEventFactory(user=user, profile="answer", created_at=AT - 2 * DAY)
    return user, other


def test_the_report_breaks_usage_down_by_profile(events):
    report = usage_report(start=AT - DAY, end=AT + DAY)
    answer, extract = report.profiles
    assert (answer.profile, answer.events, extract.profile, extract.events) == (
        "answer",
        13,
        "extract",
        1,
    )
    # percentile_cont over the ten timed answers (the others have no timings).
    assert (answer.ttft_p50_ms, answer.ttft_p95_ms) == (550.0, 955.0)
    assert (answer.duration_p50_ms, answer.duration_p95_ms) == (5500.0, 9550.0)
    assert answer.settled_micro_usd == 10 * 10 + 0 + 4_500 + 4_500
    assert (answer.no_call_rate, answer.cancellation_rate, answer.stream_failure_rate) == (
        round(1 / 13, 4),
        round(1 / 13, 4),
        round(1 / 13, 4),
    )
    assert answer.fallback_rate == round(1 / 13, 4)
    assert answer.routes == {"hybrid": 9, "no_evidence": 1, "people_ranking": 3}
    assert extract.settled_micro_usd == 7


def test_the_report_can_be_one_users(events):
    user, _ = events
    report = usage_report(start=AT - DAY, end=AT + DAY, user=user)
    assert [p.profile for p in report.profiles] == ["answer"]


def test_the_command_prints_json_and_refuses_naive_times(events):
    out = StringIO()
    call_command(
        "usage_report",
        since=(AT - DAY).isoformat(),
        until=(AT + DAY).isoformat(),
        json=True,
        stdout=out,
    )
    document = json.loads(out.getvalue())
    assert [p["profile"] for p in document["profiles"]] == ["answer", "extract"]
    text = StringIO()
    call_command(
        "usage_report", since=(AT - DAY).isoformat(), until=(AT + DAY).isoformat(), stdout=text
    )
    assert "answer: 13 event(s); first token p50/p95 550.0/955.0 ms" in text.getvalue()
    assert "routes: hybrid 9, no_evidence 1, people_ranking 3" in text.getvalue()
    with pytest.raises(CommandError, match="UTC offset"):
        call_command("usage_report", since="2026-03-14T00:00")
