"""Answer-typed local answers: the question's kind of answer (a time, an amount, a cause, a
place) is found in the evidence and stated first, the latest word wins for questions about
how something ended up, the reply of the person asked about answers, and spam is never a
fact. Every sentence here is written for the test."""

from __future__ import annotations

import datetime as dt

from claire.ai.local.extractive import compose_answer, content_terms
from claire.ai.local.spans import answer_span, is_kin_word
from claire.ai.suspicious import suspicious_text
from claire.ai.types import EvidenceSource

UTC = dt.UTC


def _at(day: int, hour: int = 12) -> dt.datetime:
    return dt.datetime(2026, 5, day, hour, 0, tzinfo=UTC)


def _source(label: str, sender: str, text: str, day: int, title: str = "Crew") -> EvidenceSource:
    return EvidenceSource(label=label, text=text, sender=sender, sent_at=_at(day), chat_title=title)


def stated_value(question: str, text: str) -> str | None:
    """The span the answer states for ``question`` from the one message ``text``."""
    span = answer_span(
        question, [text], terms_of=lambda words: set(content_terms(words)), kin=is_kin_word
    )
    return span.text if span else None


def test_a_when_question_takes_the_clause_with_the_day_and_time():
    value = stated_value(
        "When is the pottery class?",
        "Good news! Pottery class moved to Thu 14 May at 6:30pm, bring an apron",
    )
    assert value == "Pottery class moved to Thu 14 May at 6:30pm"


def test_a_how_much_question_takes_every_clause_with_money():
    value = stated_value(
        "How much was the cabin?", "Cabin came to $240 total, so $60 each, pay me whenever"
    )
    assert value == "Cabin came to $240 total, so $60 each"


def test_a_why_question_takes_the_cause_from_its_connective():
    value = stated_value(
        "Why did Pia skip the hike?",
        "Skipping Sunday, sorry: my ankle is swollen because I twisted it at football",
    )
    assert value == "because I twisted it at football"


def test_since_of_a_time_is_not_a_cause():
    assert (
        stated_value("Why is the heater off?", "The heater has been off since last night") is None
    )
    assert stated_value("Why is the heater off?", "Off since Monday, no idea") is None


def test_no_value_when_the_message_gives_none():
    assert stated_value("When is the recital?", "The recital is going to be great") is None


def test_the_answer_opens_with_the_value_and_cites_it():
    evidence = (
        _source("S1", "Noor", "Anyone know about the recital?", 2),
        _source(
            "S2", "Teo", "Recital confirmed for Sat 16 May at 3pm, hall B, tell your parents", 3
        ),
    )
    answer = compose_answer("When is the recital?", evidence, "UTC", "conversation_qa")
    first_line = answer.split("\n\n")[0]
    assert first_line.startswith("**Teo** said: ")
    assert "Sat 16 May at 3pm" in first_line
    assert first_line.endswith("[S2]")


def test_a_question_about_how_it_ended_up_states_the_latest_figure():
    evidence = (
        _source("S1", "Ravi", "Garage quoted $300 for the brake repair", 4),
        _source("S2", "Ravi", "Brake repair final bill came to $260, cheaper than the quote", 9),
    )
    answer = compose_answer(
        "How much did the brake repair end up costing?", evidence, "UTC", "conversation_qa"
    )
    first_line = answer.split("\n\n")[0]
    assert "$260" in first_line
    assert "$300" not in first_line
    assert first_line.endswith("[S2]")


def test_the_reply_of_the_person_asked_about_answers_what_they_wanted():
    window = EvidenceSource(
        label="S1",
        text=(
            "You: Dana could my cousin borrow your tent for the festival? / "
            "Dana: sure, just dry it before returning it"
        ),
        sender="You",
        sent_at=_at(5),
        chat_title="Dana",
        primary_text="Dana could my cousin borrow your tent for the festival?",
        turns=(
            ("You", "Dana could my cousin borrow your tent for the festival?"),
            ("Dana", "sure, just dry it before returning it"),
        ),
        turn_sent_at=(_at(5, 10), _at(5, 11)),
    )
    other = _source("S2", "You", "So sorry Dana, want to come to the festival anyway?", 6, "Dana")
    answer = compose_answer(
        "What did Dana want in return for lending the tent?",
        (window, other),
        "UTC",
        "conversation_qa",
    )
    assert answer.startswith("**Dana** said")
    assert "dry it before returning it" in answer.split("\n\n")[0]


def test_whether_anyone_posted_something_only_spam_said_is_yes_flagged_and_cited():
    evidence = (
        _source(
            "S1",
            "Unknown",
            "Cheap festival tickets!! 70% off, claim your prize at fest-deals.example/claim",
            7,
        ),
        _source("S2", "Lia", "Festival lineup looks weak this year", 3),
    )
    answer = compose_answer(
        "Did anyone post about cheap festival tickets in the group?",
        evidence,
        "UTC",
        "conversation_qa",
    )
    assert answer.startswith("Yes, one message did")
    assert "suspicious" in answer.split("\n\n")[0]
    assert "[S1]" in answer.split("\n\n")[0]
    assert "fest-deals.example" not in answer


def test_a_payment_lure_is_suspicious_and_its_link_is_never_repeated():
    lure = (
        "Parking notice: unpaid fine of $9.50. Pay within 48h to avoid a $120 penalty: "
        "city-parking-pay.example/verify"
    )
    assert suspicious_text(lure)
    answer = compose_answer(
        "Do I have any unpaid parking fines?", (_source("S1", "CityPark", lure, 8),), "UTC"
    )
    assert "city-parking-pay.example" not in answer
    assert "suspicious" in answer


def test_ordinary_talk_of_paying_back_or_fines_is_not_a_lure():
    assert not suspicious_text("Can you pay me back within 2 days? Rent is due")
    assert not suspicious_text("Park on the left to avoid a fine, the right side is permit only")


def test_a_day_of_the_month_is_not_a_count():
    value = stated_value(
        "How many seats does Lou have?",
        "I can drive on race day. Leaving 6am, Sunday 11 Oct. 4 seats",
    )
    assert value == "4 seats"


def test_the_thing_whose_amount_is_asked_outweighs_the_trips_name():
    evidence = (
        _source("S1", "Kai", "Granite Peak before it snows?? Sat 3 Oct?", 1),
        _source("S2", "Mia", "the petrol came to $60, so $20 each", 4),
    )
    answer = compose_answer("how much was petrol for Granite Peak?", evidence, "UTC")
    assert answer.startswith("**Mia** said")
    assert "$20 each" in answer.split("\n\n")[0]


def test_the_noun_naming_the_kind_of_answer_is_not_its_topic():
    window = EvidenceSource(
        label="S1",
        text="You: Rome in two weeks, send me your tips / Gia: gelato at Fatamorgana, trust me",
        sender="You",
        sent_at=_at(6),
        chat_title="Gia",
        primary_text="Rome in two weeks, send me your tips",
        turns=(
            ("You", "Rome in two weeks, send me your tips"),
            ("Gia", "gelato at Fatamorgana, trust me"),
        ),
        turn_sent_at=(_at(6, 9), _at(6, 10)),
    )
    other = _source("S2", "Leo", "pick-up is at 8 from my place in Northside", 2)
    answer = compose_answer(
        "what gelato place did Gia tell me to try in Rome?", (window, other), "UTC"
    )
    assert answer.startswith(
        "**Gia** said: gelato at Fatamorgana [S1]\n\n**Gia** said (Gia, Wed 6 May 2026, 10:00): "
        "gelato at Fatamorgana, trust me [S1]"
    )
