"""Plans read when a question is asked (``memory.timeline``): changes said in
another chat or on another platform, several occurrences of one topic, plans for a window,
what to bring and who drives, and the words they are said with. Every sentence here is
written for these tests."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from conversations.models import Chat, ChatKind
from memory import services
from memory.extract import plan_signal
from memory.findings import (
    PlanWhen,
    clock_text,
    last_day_said,
    span_text,
    when_merged,
)
from retrieval.compile import classify_intent
from retrieval.evidence import EvidenceLimits
from retrieval.lexicon import fold_text
from retrieval.pipeline import Retrieval, retrieve
from retrieval.types import Scope
from tests.memory.helpers import chat_of, ingest, message_row, say

pytestmark = pytest.mark.django_db

# Wednesday 4 March 2026, 18:00 UTC (Lisbon is UTC in March).
T0 = datetime(2026, 3, 4, 18, 0, tzinfo=UTC)
LIMITS = EvidenceLimits(max_sources=8, max_tokens=6000)


def _refresh(user) -> None:
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def _ask(user, question: str, now: datetime) -> Retrieval:
    return retrieve(
        user=user, question=question, now=now, scope=Scope.everywhere(), evidence_limits=LIMITS
    )


def _findings(retrieval: Retrieval) -> list[str]:
    return [text for text, _labels in retrieval.memory_findings]


def _cited(retrieval: Retrieval) -> set[int]:
    assert retrieval.memory is not None
    return set(retrieval.memory.message_ids)


# --- Words -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("Fri 13 Mar 9-11am", "9:00\u201311:00 (9\u201311am)"),
        ("Monday between 2 and 4pm", "14:00\u201316:00 (2\u20134pm)"),
        ("from 11 to 1pm", "11:00\u201313:00 (11am\u20131pm)"),
        ("between 10 and 12", "10:00\u201312:00"),
        ("Sat 7pm", "19:00 (7pm)"),
        # A range of days is no clock time.
        ("Mar 10\u201314", ""),
    ],
)
def test_clock_ranges_are_read_as_windows(label, expected):
    assert clock_text(label) == expected


def test_the_new_time_of_a_change_is_the_one_said_with_it():
    # Before "instead of": the new time comes first.
    assert plan_signal("Can we do the tasting at 5 instead of 3 on Friday?").event_label == (
        "on Friday at 5"
    )
    # A day named as the one given up is not the new one.
    moved = plan_signal(
        "Cambio de planes: the van rental dropped our Friday slot, so packing is Saturday at "
        "11am now"
    )
    assert moved.event_label == "Saturday at 11am"
    # "Thursday the 12th" keeps its date.
    assert plan_signal("Choir concert Thursday the 12th at 7pm?").event_label == (
        "Thursday the 12th at 7pm"
    )


def test_a_time_with_the_same_day_or_clock_makes_the_plan_more_precise():
    day_only = PlanWhen(day=date(2026, 3, 7), clock="", step=None)
    precise = PlanWhen(day=date(2026, 3, 7), clock="8:00 (8am)", step=None)
    other_day = PlanWhen(day=date(2026, 3, 8), clock="", step=None)
    assert when_merged(day_only, precise) == PlanWhen(
        day=date(2026, 3, 7), clock="8:00 (8am)", step=None
    )
    assert when_merged(precise, other_day) is None
    assert when_merged(precise, PlanWhen(day=None, clock="9:00 (9am)", step=None)) is None


@pytest.mark.parametrize(
    "question",
    [
        "when is the electrician coming?",
        "what time does Ana land tonight?",
        "when are Rui and Eva getting in?",
        "what have I got on this weekend?",
        "what am I supposed to bring to Leo's barbecue?",
        "who's driving on Sunday?",
        "where's the tasting tomorrow?",
    ],
)
def test_plan_phrasings_compile_to_plan_recall(question):
    intent, _pattern = classify_intent(fold_text(question))
    assert intent == "plan_recall"


@pytest.mark.parametrize(
    "question",
    ["what time is it in Tokyo?", "when is Ana's birthday?", "who is Ana?"],
)
def test_other_questions_do_not_become_plans_by_these_phrasings(question):
    _intent, pattern = classify_intent(fold_text(question))
    assert pattern is None or pattern.name not in (
        "when_does_it_happen",
        "whats_on",
        "bring_or_drive",
    )


# --- Reading plans ---------------------------------------------------------------------------


def test_a_change_texted_on_another_platform_moves_the_plan(user):
    booking = chat_of("Repairs", "Rita", kind=ChatKind.DIRECT, platform="telegram")
    texts = chat_of("rita-sms", "Rita", platform="sms")
    ingest(
        user,
        booking,
        say("1", T0 - timedelta(days=3), "My fuse box keeps tripping, could you book someone?"),
        say(
            "2",
            T0 - timedelta(days=3, hours=-2),
            "Done: the electrician from Sparkwell comes Monday 9 March between 9 and 11am.",
            sender="Rita",
            platform="telegram",
        ),
    )
    ingest(
        user,
        texts,
        say(
            "3",
            T0 - timedelta(days=1),
            "Hi, Rita here. Sparkwell had a gap, they can come Tue 10 Mar, 2-4pm instead of "
            "Monday. OK?",
            sender="Rita",
            platform="sms",
        ),
        say("4", T0 - timedelta(days=1, minutes=-20), "Tue 2-4 works, thanks", platform="sms"),
    )
    _refresh(user)
    retrieval = _ask(user, "when is the electrician coming?", now=T0)
    assert retrieval.compiled.intent == "plan_recall"
    first = _findings(retrieval)[0]
    assert "is moved: now Tuesday 10 March at 14:00\u201316:00 (2\u20134pm)" in first
    assert "(it was Monday 9 March at 9:00\u201311:00 (9\u201311am))" in first
    assert {message_row(user, "rita-sms", "3").pk, message_row(user, "Repairs", "2").pk} <= (
        _cited(retrieval)
    )


def test_a_delay_said_later_is_the_current_time_and_another_occurrence_is_left_out(user):
    family = chat_of("Family", "Ana", "Rui", kind=ChatKind.GROUP)
    ana = chat_of("ana-dm", "Ana", platform="signal")
    ingest(
        user,
        family,
        say(
            "1",
            T0 - timedelta(days=6),
            "Easter lunch at ours on Sunday the 8th at 1pm, Ana is flying in that weekend",
            sender="Rui",
        ),
    )
    ingest(
        user,
        ana,
        say(
            "2",
            T0 - timedelta(days=3),
            "my flight lands Wed the 4th at 8:10pm, can you get me at the airport?",
            sender="Ana",
            platform="signal",
        ),
        say("3", T0 - timedelta(days=3, minutes=-10), "of course!", platform="signal"),
        say(
            "4",
            T0 - timedelta(hours=2),
            "ugh we're delayed, we now land at 9:35pm",
            sender="Ana",
            platform="signal",
        ),
    )
    _refresh(user)
    retrieval = _ask(user, "what time does Ana land tonight?", now=T0)
    first = _findings(retrieval)[0]
    assert first.startswith("The flight with Ana is moved: now Wednesday 4 March at 21:35")
    assert message_row(user, "ana-dm", "4").pk in _cited(retrieval)
    assert message_row(user, "Family", "1").pk not in _cited(retrieval)


def test_weekend_plans_are_read_from_messages_naming_a_day_in_it(user):
    crew = chat_of("Wall crew", "Bea", "Tom", kind=ChatKind.GROUP)
    move = chat_of("Packing day \U0001f4e6", "Lia", "Tom", kind=ChatKind.GROUP, platform="telegram")
    lia = chat_of("lia-dm", "Lia", platform="signal")
    ingest(
        user,
        crew,
        say("1", T0 - timedelta(days=1), "anyone for sat 10h at the boulder gym?", sender="Bea"),
        say("2", T0 - timedelta(days=1, minutes=-5), "me!! 10 \U0001f44d"),
        # Someone else's plan for another weekend.
        say("3", T0 - timedelta(days=1, minutes=-30), "I'm away the 14th", sender="Tom"),
    )
    ingest(
        user,
        move,
        say(
            "4",
            T0 - timedelta(days=8),
            "packing day is SATURDAY MAR 7, 9am at my flat, pizza on me",
            sender="Lia",
            platform="telegram",
        ),
    )
    ingest(
        user,
        lia,
        say(
            "5",
            T0 - timedelta(hours=3),
            "change of plans, the van is only free on Sunday, so packing is Sunday at 10am now",
            sender="Lia",
            platform="signal",
        ),
    )
    _refresh(user)
    retrieval = _ask(user, "what have I got on this weekend?", now=T0)
    findings = _findings(retrieval)
    assert any("Bea" in text and "Saturday 7 March at 10:00 (10am)" in text for text in findings)
    assert any(
        "Lia" in text and "moved: now Sunday 8 March at 10:00 (10am)" in text for text in findings
    )
    assert message_row(user, "lia-dm", "5").pk in _cited(retrieval)


def test_what_to_bring_is_the_answer_to_the_users_question_in_the_plan_chat(user):
    party = chat_of("Leo's 40th", "Leo", "Mia", kind=ChatKind.GROUP)
    ingest(
        user,
        party,
        say(
            "1",
            T0 - timedelta(days=5),
            "Barbecue for my 40th! Sat 7 Mar, 4pm, Parque Verde. Be there",
            sender="Leo",
        ),
        say("2", T0 - timedelta(days=2), "yay, what should we bring?"),
        say("3", T0 - timedelta(days=2, minutes=-3), "napkins and lemons please!", sender="Mia"),
    )
    _refresh(user)
    retrieval = _ask(user, "what am I supposed to bring to Leo's barbecue?", now=T0)
    findings = _findings(retrieval)
    assert findings[0].startswith("The barbecue with Leo")
    assert "Saturday 7 March at 16:00 (4pm)" in findings[0]
    assert "Mia asked you to bring: napkins and lemons please!" in findings
    assert message_row(user, "Leo's 40th", "3").pk in _cited(retrieval)


def test_who_drives_is_said_with_the_message_that_says_so(user):
    hikers = chat_of("Hikers", "Joe", "Kim", kind=ChatKind.GROUP)
    kim = chat_of("kim-dm", "Kim")
    ingest(
        user,
        hikers,
        say("1", T0 - timedelta(days=4), "Ridge hike Sun 8 Mar? leaving 7am", sender="Joe"),
        say("2", T0 - timedelta(days=4, minutes=-5), "in!", sender="Kim"),
    )
    ingest(
        user,
        kim,
        say(
            "3",
            T0 - timedelta(hours=5),
            "Joe's car is in the shop so I'm driving on Sunday, I'll pick you up at 6:40",
            sender="Kim",
        ),
    )
    _refresh(user)
    retrieval = _ask(user, "who's driving to the ridge hike?", now=T0)
    findings = _findings(retrieval)
    assert findings[0].startswith("The hike with Joe")
    assert any(text.startswith("Kim said (") and "6:40" in text for text in findings)
    assert message_row(user, "kim-dm", "3").pk in _cited(retrieval)


def test_a_topic_nobody_mentions_reads_no_plan(user):
    crew = chat_of("crew", "Nora")
    ingest(user, crew, say("1", T0 - timedelta(days=1), "Dinner Friday at 8?", sender="Nora"))
    _refresh(user)
    retrieval = _ask(user, "when is the dentist appointment?", now=T0)
    assert not any("dentist" in text for text in _findings(retrieval))


@pytest.mark.parametrize(
    "text, label",
    [
        ("sure, thu 3 to sat 5 at the lake house", "thu 3 to sat 5"),
        ("what about the 28th-30th for the cabin?", "the 28th-30th"),
        # A clock range after a day is no span of days.
        ("pottery Saturday 3 to 5pm?", "Saturday 3 5pm"),
        ("booked the barn, Friday to Sunday 🎉", "Friday to Sunday"),
        ("kayaking from Saturday till Mon?", "Saturday till Mon"),
        ("cottage rented thursday through saturday", "thursday through saturday"),
    ],
)
def test_a_span_of_days_keeps_its_last_day_in_the_label(text, label):
    assert plan_signal(text).event_label == label


def test_a_span_of_days_is_stated_first_day_to_last():
    assert last_day_said("the 28th-30th", date(2031, 5, 28)) == date(2031, 5, 30)
    assert last_day_said("fri 30 to sun 1", date(2031, 5, 30)) == date(2031, 6, 1)
    assert last_day_said("the 28th", date(2031, 5, 28)) is None
    # Friday 30 May 2031 to the Sunday after; a weekday said as the end is never the first day.
    assert last_day_said("Friday to Sunday", date(2031, 5, 30)) == date(2031, 6, 1)
    assert last_day_said("sat till mon", date(2031, 5, 31)) == date(2031, 6, 2)
    assert last_day_said("fri to fri", date(2031, 5, 30)) == date(2031, 6, 6)
    assert last_day_said("Friday", date(2031, 5, 30)) is None
    assert span_text(date(2031, 5, 28), date(2031, 5, 30)) == "Wednesday 28 to Friday 30 May"
    assert span_text(date(2031, 5, 30), date(2031, 6, 1)) == ("Friday 30 May to Sunday 1 June")
    merged = when_merged(
        PlanWhen(day=date(2031, 5, 28), clock="", step=None, last_day=date(2031, 5, 30)),
        PlanWhen(day=date(2031, 5, 28), clock="18:00 (6pm)", step=None),
    )
    assert merged is not None and merged.text == "Wednesday 28 to Friday 30 May at 18:00 (6pm)"
