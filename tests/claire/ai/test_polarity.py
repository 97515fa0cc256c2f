"""A message settles a yes/no question about something done or still so only when it says
exactly one of the two."""

from __future__ import annotations

import pytest

from claire.ai.local.polarity import (
    asks_done_or_still,
    is_yes_no_question,
    reports_own_deed,
    settled,
)


@pytest.mark.parametrize(
    ("question", "text", "verdict"),
    [
        ("Has Lena sent the invoice yet?", "Invoice attached, sorry for the wait!", "yes"),
        ("Did I ever get the floor plans?", "here are the floor plans you wanted", "yes"),
        ("Was the parking fine sorted out?", "they approved the refund this morning", "yes"),
        ("Has Omar finished the slides?", "slides v1 are up, I still need to do the charts", "no"),
        ("Is Priya still doing the relay?", "knee is bad, not doing the relay this year", "no"),
        ("Did the couch get delivered?", "delivery got postponed to next week", "no"),
        ("Has Tom paid the deposit?", "I think so? not sure tbh", ""),
        ("Is the dishwasher fixed?", "the dishwasher is in the kitchen", ""),
        ("Did Jo return the drill?", "I returned the drill but the bits are not in the box", ""),
    ],
)
def test_a_message_settles_the_question_only_when_it_says_one_thing(question, text, verdict):
    assert settled(question, text) == verdict


@pytest.mark.parametrize(
    "question",
    [
        "Did Ana say she can't come?",
        "Didn't Rui pay already?",
        "Has anyone mentioned the lease?",
        "What did Tom send?",
        "When is the plumber coming?",
    ],
)
def test_questions_a_negation_would_not_decide_are_left_alone(question):
    assert not asks_done_or_still(question)
    assert settled(question, "not yet, still waiting") == ""


@pytest.mark.parametrize(
    "question",
    [
        "did I end up phoning Ottilie?",
        "am i bouldering with Fen this week? what day",
        "is there cake at the retro",
        "the courier text about my box, do I need to pay it?",
        "ok so has Bruno got his tent back",
        "est-ce que Ottilie a répondu ?",
    ],
)
def test_yes_no_questions_are_recognised_in_casual_and_clause_forms(question):
    assert is_yes_no_question(question)


@pytest.mark.parametrize(
    "question", ["what day is bouldering", "who has the tent", "when did Bruno call"]
)
def test_open_questions_are_not_yes_no(question):
    assert not is_yes_no_question(question)


@pytest.mark.parametrize(
    ("question", "text", "done"),
    [
        ("did I end up phoning Ottilie?", "phoned Ottilie, she is fine", True),
        ("did I end up phoning Ottilie?", "J'ai appelé Ottilie hier soir", True),
        ("did Ines get my tax form", "Hi Ines, attached is my tax form", True),
        ("did I end up phoning Ottilie?", "I'll phone Ottilie tomorrow", False),
        ("did I end up phoning Ottilie?", "haven't phoned Ottilie yet", False),
        ("did I end up phoning Ottilie?", "Ottilie says hi", False),
    ],
)
def test_an_own_message_reports_the_deed_only_when_it_says_it_is_done(question, text, done):
    assert reports_own_deed(question, text) is done


def test_a_modal_question_is_not_settled_by_a_done_message():
    assert settled("should I pay the plumber?", "paid the plumber") == ""


@pytest.mark.parametrize(
    "question",
    [
        "the parking fine — should I pay it?",
        "my sister's visit \u2013 is it still happening?",
        "that voucher email -- did I use it?",
        "the band photos —did Ines send them",
    ],
)
def test_a_yes_no_clause_after_a_dash_is_a_yes_no_question(question: str) -> None:
    assert is_yes_no_question(question)


@pytest.mark.parametrize(
    "question",
    ["the gala — when is it?", "re-do the form?", "well-known dentist - who is it?"],
)
def test_a_hyphen_or_an_open_question_after_a_dash_is_not_yes_no(question: str) -> None:
    assert not is_yes_no_question(question)
