"""A plan question with a day or window: a plan that was never for a day inside it is not its
answer (another occurrence, another plan with the same people); search answers instead. Every
sentence here is written for these tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from conversations.models import Chat
from memory import services
from retrieval.evidence import EvidenceLimits
from retrieval.pipeline import Retrieval, retrieve
from retrieval.types import Scope
from tests.memory.helpers import chat_of, ingest, message_row, say

pytestmark = pytest.mark.django_db

# Monday 16 March 2026, 09:00 UTC (Lisbon is UTC in March).
NOW = datetime(2026, 3, 16, 9, 0, tzinfo=UTC)
LIMITS = EvidenceLimits(max_sources=8, max_tokens=6000)


def _refresh(user) -> None:
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def _ask(user, question: str) -> Retrieval:
    return retrieve(
        user=user, question=question, now=NOW, scope=Scope.everywhere(), evidence_limits=LIMITS
    )


def _history(user) -> None:
    noor = chat_of("noor-dm", "Noor")
    ingest(
        user,
        noor,
        say("1", NOW - timedelta(days=14), "Climbing saturday 10am, who's coming?", sender="Noor"),
        say("2", NOW - timedelta(days=14, minutes=-5), "count me in"),
        say("3", NOW - timedelta(days=1), "I'll pick you up friday 6:15 at the ferry"),
        say("4", NOW - timedelta(days=1, minutes=-3), "perfect", sender="Noor"),
    )
    _refresh(user)


def test_a_plan_never_set_for_the_day_asked_is_not_the_answer(user):
    _history(user)
    retrieval = _ask(user, "what time am I getting Noor friday")
    assert retrieval.compiled.intent == "plan_recall"
    assert retrieval.compiled.time_range is not None
    findings = " ".join(text for text, _ in retrieval.memory_findings)
    assert "7 March" not in findings
    climbing = {message_row(user, "noor-dm", mid).pk for mid in ("1", "2")}
    assert not climbing & set(retrieval.memory.message_ids if retrieval.memory else ())


def test_a_plan_for_the_day_asked_is_still_the_answer(user):
    _history(user)
    retrieval = _ask(user, "what time is climbing with Noor on the 7th")
    findings = " ".join(text for text, _ in retrieval.memory_findings)
    assert "7 March" in findings


def test_a_holiday_names_the_occasion_so_a_plan_days_before_it_still_answers(user):
    # Easter Sunday 2026 is 5 April; the trip for it leaves on the Thursday before.
    ingest(
        user,
        chat_of("ines-dm", "Ines"),
        say("e1", NOW - timedelta(days=5), "booked our easter train! thu 2 april, 07:40 to Porto"),
        say("e2", NOW - timedelta(days=5, minutes=-4), "yay, can't wait", sender="Ines"),
    )
    _refresh(user)
    retrieval = _ask(user, "what time is my easter train")
    assert retrieval.compiled.time_range is not None
    booked = message_row(user, "ines-dm", "e1").pk
    assert retrieval.memory is not None
    assert booked in retrieval.memory.message_ids
