"""A message settles a yes/no question about something done or still so only when it says
exactly one of the two."""

from __future__ import annotations

import pytest

from claire.ai.local.polarity import asks_done_or_still, settled


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
