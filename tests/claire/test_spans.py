"""Answer spans: the clause of the best messages that answers, by the kind of question, stated
first in reported form and cited. Every sentence here is written for the test."""

from __future__ import annotations

import datetime as dt

import pytest

from claire.ai.local.extractive import compose_answer, content_terms
from claire.ai.local.spans import (
    AMOUNT,
    COUNT,
    DURATION,
    PERSON,
    PLACE,
    REASON,
    SAID,
    TIME,
    answer_span,
    is_kin_word,
    question_kind,
)
from claire.ai.types import EvidenceSource

UTC = dt.UTC


def _source(label: str, sender: str, text: str, day: int = 3) -> EvidenceSource:
    return EvidenceSource(
        label=label,
        text=text,
        sender=sender,
        sent_at=dt.datetime(2026, 5, day, 12, tzinfo=UTC),
        chat_title="Crew",
    )


def _first(question: str, *evidence: EvidenceSource) -> str:
    return compose_answer(question, evidence, "UTC").split("\n\n")[0]


def _span(question: str, *texts: str) -> str | None:
    span = answer_span(
        question, list(texts), terms_of=lambda text: set(content_terms(text)), kin=is_kin_word
    )
    return span.text if span else None


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("how much was the ferry?", AMOUNT),
        ("what did the vet charge us?", AMOUNT),
        ("Do I owe Kit anything for the tickets?", AMOUNT),
        ("how many people signed up?", COUNT),
        ("how's the shop doing, any numbers?", COUNT),
        ("when does Ida start at the clinic?", TIME),
        ("what time is the pickup?", TIME),
        ("what was my 10k time?", DURATION),
        ("how long did the drive take?", DURATION),
        ("where are we meeting Sunday?", PLACE),
        ("which bakery did Rita tell me to try?", PLACE),
        ("what pastry place did Rita recommend?", PLACE),
        ("who is bringing the speakers?", PERSON),
        ("what's the name of the electrician Kofi sent?", PERSON),
        ("why did Theo skip the hike?", REASON),
        ("what ended up being wrong with the boiler?", REASON),
        ("what did Omar recommend for Gaia?", SAID),
        ("did anyone mention Lia's allergy?", SAID),
    ],
)
def test_the_kind_of_value_a_question_asks_for(question, kind):
    assert question_kind(question) == kind


def test_words_of_one_stem_or_language_kin_are_kin_and_others_are_not():
    assert is_kin_word("gas", "gasolina")
    assert is_kin_word("allergy", "allergic")
    assert is_kin_word("pastry", "pasteis")
    assert is_kin_word("ferry", "ferry")
    assert not is_kin_word("contract", "contact")
    assert not is_kin_word("the", "theatre")
    assert not is_kin_word("go", "gold")


def test_an_amount_question_states_the_clauses_with_money_in_any_language():
    assert _span("how much was the ferry?", "el ferry costó €36 en total, o sea €12 cada uno") == (
        "el ferry costó €36 en total, o sea €12 cada uno"
    )
    assert _span(
        "what did the vet charge for the jab?",
        "Vet was lovely. She charged $85 for the jab, and the pills are extra. See you soon",
    ) == ("She charged $85 for the jab")


def test_a_question_whose_kind_no_message_gives_states_no_other_clause():
    assert _span("how much was the ferry?", "island trip is on!! ferry leaves at 9") is None
    assert _span("when is the tasting?", "the tasting was so good, thanks for organising") is None


def test_a_time_and_a_duration_are_told_apart():
    assert _span("when does Ida start?", "Got the job!! I start on 3 June, first shift 7am") == (
        "I start on 3 June, first shift 7am"
    )
    assert _span("what was Kit's 5k time?", "5k done, Kit ran 24:31, course was muddy") == (
        "Kit ran 24:31"
    )
    assert _span("how long did the drive take?", "left at dawn, drive took 6 hours with stops") == (
        "drive took 6 hours with stops"
    )


def test_a_place_question_takes_the_proper_name_its_words_point_to():
    text = (
        "anota: Adega Velha pro jantar (chega cedo), pastéis na Padaria Lua — não na da praça — "
        "e pega o barco pro Gaia de manhã"
    )
    first = _first(
        "what pastry place did Rita tell me to go to?",
        _source("S1", "Rita", "my cousin works at Helix Labs now"),
        _source("S2", "Rita", text),
    )
    assert first == "**Rita** said: pastéis na Padaria Lua [S2]"
    assert _span("where are we meeting on Sunday?", "Sunday works, meet at Quay Market by 10") == (
        "meet at Quay Market by 10"
    )


def test_a_who_question_takes_the_clause_naming_someone():
    assert _span(
        "who is bringing the speakers to the party?",
        "for the party: Jonah brings the speakers, I'll do snacks",
    ) == ("Jonah brings the speakers")


def test_a_cause_and_a_fault_are_stated_from_their_clause():
    assert _span(
        "why did Theo skip the hike?", "skipping sunday sorry, my ankle is swollen because I fell"
    ) == ("because I fell")
    first = _first(
        "what was wrong with the boiler in the end?",
        _source("S1", "Kofi", "engineer came for the boiler, turned out it was the fan, fixed now"),
    )
    assert first == "**Kofi** said: turned out it was the fan [S1]"


def test_what_someone_recommended_is_the_clause_of_their_message_on_the_topic():
    first = _first(
        "what did Omar recommend for Gaia?",
        _source(
            "S1",
            "Omar",
            "go early to the market, then walk over the bridge to Gaia for the port cellars, "
            "skip the cable car, and try the grilled sardines near the river before you leave",
        ),
    )
    assert first == "**Omar** said: then walk over the bridge to Gaia for the port cellars [S1]"


def test_a_yes_no_question_says_yes_then_the_sentence_that_supports_it():
    answer = compose_answer(
        "did anyone mention Lia's allergy?",
        (
            _source("S1", "Dad", "Reminder for Sunday: no sesame in anything, Lia is allergic"),
            _source("S2", "Lia", "what's for dinner"),
        ),
        "UTC",
    )
    assert answer.startswith(
        "Yes. **Dad** said (Crew, Sun 3 May 2026, 12:00): "
        "Reminder for Sunday: no sesame in anything, Lia is allergic [S1]"
    )


def test_a_span_that_is_the_whole_message_is_reported_once_first():
    answer = compose_answer(
        "how much was parking?",
        (_source("S1", "Pia", "parking today?"), _source("S2", "Pia", "parking was $14")),
        "UTC",
    )
    assert answer.startswith("**Pia** said (Crew, Sun 3 May 2026, 12:00): parking was $14 [S2]")
    assert answer.count("parking was $14") == 1


def test_a_name_the_question_already_says_does_not_answer_it():
    first = _first(
        "what bakery did Rita tell me to try in Braga?",
        _source("S1", "You", "Braga in two weeks!! any tips?"),
        _source("S2", "Rita", "jantar na Adega Velha, and the bakery is Forno Azul"),
    )
    assert first == "**Rita** said: and the bakery is Forno Azul [S2]"
