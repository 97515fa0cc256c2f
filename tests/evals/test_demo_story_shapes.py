"""The demo-v4 and demo-v5 story sets load through the story loader and hold the shapes their
READMEs state: one test per invariant, run over each set with that set's figures."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

import pytest

from evals.golden.story import STORY_SETS, story_set_load

INTENTS = {
    "identity_lookup",
    "plan_recall",
    "people_ranking",
    "conversation_qa",
    "action_request",
    "catch_up",
    "unresolved",
    "no_evidence",
}


@dataclass(frozen=True)
class Shape:
    """What one set's README promises."""

    name: str
    owner_timezone: str
    messages: tuple[int, int]
    held_out_share: tuple[float, float]
    # Both direct and group chats, and nothing else (None: not promised).
    chat_kinds: frozenset[str] | None = None
    # Every intent is asked in the held-out split too.
    is_every_intent_held_out: bool = False
    # Every message of an evidence item precedes the question (else at least one of them).
    is_all_evidence_earlier: bool = False


DEMO_V4 = Shape(
    name="demo-v4",
    owner_timezone="America/Toronto",
    messages=(800, 1000),
    held_out_share=(0.28, 0.42),
)
DEMO_V5 = Shape(
    name="demo-v5",
    owner_timezone="Europe/Madrid",
    messages=(700, 850),
    held_out_share=(0.35, 0.45),
    chat_kinds=frozenset({"direct", "group"}),
    is_every_intent_held_out=True,
    is_all_evidence_earlier=True,
)
SHAPES = [pytest.param(shape, id=shape.name) for shape in (DEMO_V4, DEMO_V5)]


def _story(shape: Shape):
    return story_set_load(STORY_SETS[shape.name])


@pytest.mark.parametrize("shape", SHAPES)
def test_the_set_is_registered_and_loads(shape):
    story = _story(shape)

    assert story.name == shape.name
    assert story.owner_timezone == shape.owner_timezone
    assert shape.messages[0] <= len(story.messages) <= shape.messages[1]
    assert len({chat.platform for chat in story.chats.values()}) >= 6
    if shape.chat_kinds is not None:
        assert {chat.kind for chat in story.chats.values()} == shape.chat_kinds


@pytest.mark.parametrize("shape", SHAPES)
def test_the_history_crosses_a_daylight_saving_change(shape):
    offsets = {message.sent_at.utcoffset() for message in _story(shape).messages}

    assert len(offsets) == 2


@pytest.mark.parametrize("shape", SHAPES)
def test_questions_cover_every_intent_with_a_held_out_share(shape):
    questions = _story(shape).questions
    intents = Counter(question.intent for question in questions)
    held_out_intents = {question.intent for question in questions if question.split == "heldout"}
    held_out = sum(1 for question in questions if question.split == "heldout")

    assert len(questions) >= 100
    assert set(intents) == INTENTS
    if shape.is_every_intent_held_out:
        assert held_out_intents == INTENTS
    assert min(intents.values()) >= 5
    low, high = shape.held_out_share
    assert low <= held_out / len(questions) <= high


def test_demo_v5_held_out_arcs_are_disjoint_from_dev_arcs():
    story = _story(DEMO_V5)
    arcs = json.loads((STORY_SETS["demo-v5"] / "story.json").read_text(encoding="utf-8"))["arcs"]
    split_of_message = {
        message_id: spec["split"] for spec in arcs.values() for message_id in spec["messages"]
    }

    for question in story.questions:
        assert arcs[question.arc]["split"] == question.split, question.id
        for item in question.evidence:
            for message_id in item:
                assert split_of_message.get(message_id, question.split) == question.split
        for message_id in question.must_not_obey:
            assert split_of_message[message_id] == question.split, question.id


@pytest.mark.parametrize("shape", SHAPES)
def test_evidence_precedes_each_question(shape):
    story = _story(shape)
    sent = {message.id: message.sent_at for message in story.messages}
    earlier = all if shape.is_all_evidence_earlier else any

    for question in story.questions:
        for item in question.evidence:
            assert earlier(sent[message_id] < question.asked_at for message_id in item), question.id
        for message_id in question.must_not_obey:
            assert sent[message_id] < question.asked_at, question.id
        if question.is_no_evidence:
            assert not question.evidence, question.id
