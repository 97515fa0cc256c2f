"""Details a message must spell out and memory never records: a flight's number, what was
given, what someone said once an event was over. A question asking one is refused when the
messages on its topic do not give it, even when a plan card matched its topic; sentences and
names are written for the test."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from retrieval.answerability import EvidenceSignals, answerability_decide, refusal_note
from retrieval.evidence import EvidenceLimits
from retrieval.pipeline import retrieve
from retrieval.slots import (
    FLIGHT_SLOT,
    GIFT_SLOT,
    asked_slot,
    asks_after_event,
    named_days,
)
from retrieval.types import Scope
from tests.memory.helpers import chat_of, ingest, say

T0 = datetime(2026, 3, 3, 18, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=12)
LIMITS = EvidenceLimits(max_sources=6, max_tokens=4000)


def _ask(user, question: str):
    return retrieve(
        user=user, question=question, now=NOW, scope=Scope.everywhere(), evidence_limits=LIMITS
    )


@pytest.mark.parametrize(
    "question",
    [
        "which flight is Odile on?",
        "what flight did the twins book",
        "Benedek's flight number?",
        "¿en qué vuelo viene Marisa?",
    ],
)
def test_a_question_about_which_flight_asks_for_a_flight(question):
    assert asked_slot(question) == FLIGHT_SLOT


@pytest.mark.parametrize(
    "question",
    [
        "what did Ines give her brother for his graduation?",
        "what gift did the neighbours bring",
        "What did Farid get his mum for mother's day?",
        "what present did Yusuf pick",
    ],
)
def test_a_question_about_what_was_given_asks_for_a_gift(question):
    assert asked_slot(question) == GIFT_SLOT


@pytest.mark.parametrize(
    "question",
    [
        "when does Odile fly to Lisbon?",
        "what did Ines give up for lent",
        "what did Farid buy at the hardware store",
        "did the flight land on time?",
    ],
)
def test_other_questions_on_flights_and_buying_ask_for_neither(question):
    assert asked_slot(question) not in (FLIGHT_SLOT, GIFT_SLOT)


def test_a_flight_is_given_by_a_code_and_number_not_by_a_day():
    assert FLIGHT_SLOT.is_given_in("she's on TP 1351, lands at 9")
    assert FLIGHT_SLOT.is_given_in("booked flight no. 204 for the twins")
    assert FLIGHT_SLOT.is_given_in("we're on the EZY8145? no, U2 8145")
    assert FLIGHT_SLOT.is_given_in("she's getting the 6:15pm from Porto")
    assert FLIGHT_SLOT.is_given_in("the plane leaves at 9 from gate 12")
    assert not FLIGHT_SLOT.is_given_in("Odile flies up on Friday the 20th, staying a week")
    assert not FLIGHT_SLOT.is_given_in("ok see you in 25 min")


def test_a_gift_is_given_by_a_word_of_giving():
    assert GIFT_SLOT.is_given_in("Ines gave him a fountain pen")
    assert GIFT_SLOT.is_given_in("we got her a voucher for the spa")
    assert GIFT_SLOT.is_given_in("le regalé un libro")
    assert not GIFT_SLOT.is_given_in("remember to buy two boxes of pastries for dinner")
    assert not GIFT_SLOT.is_given_in("dinner at mine on Sunday at 6")


@pytest.mark.parametrize(
    "question",
    [
        "what did Halvard say about my pitch afterwards?",
        "how did Corinne react after the recital",
        "what did the coach think after the match?",
    ],
)
def test_a_question_about_what_was_said_once_it_was_over_asks_after_the_event(question):
    assert asks_after_event(question)


@pytest.mark.parametrize(
    "question",
    [
        "what did Halvard say about my pitch?",
        "what did Corinne do after lunch",
        "how did the recital go?",
    ],
)
def test_a_question_about_the_event_itself_does_not_ask_after_it(question):
    assert not asks_after_event(question)


def test_days_named_by_day_and_month_are_read_in_the_year_ahead():
    sent = date(2026, 9, 29)
    assert named_days("moved from Tue 6 Oct to Thu 15 Oct, 2:30pm", sent) == [
        date(2026, 10, 6),
        date(2026, 10, 15),
    ]
    assert named_days("see you January 4th", date(2026, 12, 20)) == [date(2027, 1, 4)]
    assert named_days("it was on 2 March", date(2026, 3, 9)) == [date(2026, 3, 2)]
    assert named_days("we may go in 2 weeks", sent) == []


def _signals(**values) -> EvidenceSignals:
    base = {"terms": ("pitch",), "unknown_terms": (), "best_similarity": 0.6, "best_coverage": 1.0}
    return EvidenceSignals(misspelled_terms=(), **{**base, **values})


def test_nothing_said_after_the_event_is_refused_and_said_so():
    refused = answerability_decide(_signals(is_after_given=False))
    assert refused.rule == "nothing_after"
    assert "after it took place" in refusal_note(refused)
    assert answerability_decide(_signals(is_after_given=True)).rule is None
    assert answerability_decide(_signals(is_after_given=None)).rule is None


def _pitch_history(user, *, later: str | None) -> None:
    chat = chat_of("halvard-mail", "Halvard", platform="email")
    messages = [
        say(
            "p1",
            T0,
            "Hi, the investor pitch is on Fri 6 March, 10am. Could you present the roadmap?",
            sender="Halvard",
            platform="email",
        ),
        say("p2", T0 + timedelta(hours=2), "Yes, I'll present the roadmap", platform="email"),
        say(
            "p3",
            T0 + timedelta(days=1),
            "Great, send me the roadmap deck before the pitch",
            sender="Halvard",
            platform="email",
        ),
    ]
    if later:
        messages.append(
            say("p4", T0 + timedelta(days=4), later, sender="Halvard", platform="email")
        )
    ingest(user, chat, *messages)


@pytest.mark.django_db
def test_what_someone_said_afterwards_with_nothing_after_the_event_is_refused(user):
    _pitch_history(user, later=None)
    retrieval = _ask(user, "what did Halvard say about my roadmap pitch afterwards?")
    assert retrieval.unanswerable_rule == "nothing_after"
    assert retrieval.is_no_evidence


@pytest.mark.django_db
def test_what_someone_said_after_the_event_answers(user):
    _pitch_history(user, later="The roadmap part of the pitch went down really well, thanks")
    retrieval = _ask(user, "what did Halvard say about my roadmap pitch afterwards?")
    assert retrieval.unanswerable_rule is None
    assert not retrieval.is_no_evidence


def _visit_history(user, *, detail: str) -> None:
    chat = chat_of("mama", "Mama")
    ingest(
        user,
        chat,
        say("v1", T0, f"Uncle Teodor is flying up on Friday 13 March. {detail}", sender="Mama"),
        say("v2", T0 + timedelta(hours=1), "great! I'll pick him up from the airport"),
        say("v3", T0 + timedelta(days=1), "can you bring the folding table", sender="Mama"),
    )


@pytest.mark.django_db
def test_which_flight_with_only_the_day_of_the_flight_is_refused(user):
    _visit_history(user, detail="He stays a week.")
    retrieval = _ask(user, "what flight is uncle Teodor on?")
    assert retrieval.unanswerable_rule in {"missing_slot", "no_topic", "unknown_topic"}
    assert retrieval.is_no_evidence


@pytest.mark.django_db
def test_which_flight_with_the_flight_given_answers(user):
    _visit_history(user, detail="His flight is LO 379 from Warsaw.")
    retrieval = _ask(user, "what flight is uncle Teodor on?")
    assert retrieval.unanswerable_rule is None
    assert not retrieval.is_no_evidence


def test_a_missing_detail_is_told_as_what_the_messages_do_not_say():
    flight = answerability_decide(_signals(slot="flight", is_slot_given=False))
    gift = answerability_decide(_signals(slot="gift", is_slot_given=False))
    assert flight.rule == gift.rule == "missing_slot"
    assert "which flight" in refusal_note(flight)
    assert "what was given" in refusal_note(gift)
    assert refusal_note(answerability_decide(_signals(slot="gift", is_slot_given=True))) == ""
