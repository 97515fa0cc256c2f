"""The demo-v5 story set loads through the story loader and holds the shape its README states."""

from __future__ import annotations

import json
from collections import Counter

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


def _story():
    return story_set_load(STORY_SETS["demo-v5"])


def _arcs():
    return json.loads((STORY_SETS["demo-v5"] / "story.json").read_text(encoding="utf-8"))["arcs"]


def test_demo_v5_is_registered_and_loads():
    story = _story()

    assert story.name == "demo-v5"
    assert story.owner_timezone == "Europe/Madrid"
    assert 700 <= len(story.messages) <= 850
    assert len({chat.platform for chat in story.chats.values()}) >= 6
    assert {chat.kind for chat in story.chats.values()} == {"direct", "group"}


def test_demo_v5_history_crosses_a_daylight_saving_change():
    offsets = {message.sent_at.utcoffset() for message in _story().messages}

    assert len(offsets) == 2


def test_demo_v5_questions_cover_every_intent_with_a_held_out_share():
    questions = _story().questions
    intents = Counter(question.intent for question in questions)
    held_out_intents = {question.intent for question in questions if question.split == "heldout"}
    held_out = sum(1 for question in questions if question.split == "heldout")

    assert len(questions) >= 100
    assert set(intents) == INTENTS
    assert held_out_intents == INTENTS
    assert min(intents.values()) >= 5
    assert 0.35 <= held_out / len(questions) <= 0.45


def test_demo_v5_held_out_arcs_are_disjoint_from_dev_arcs():
    story = _story()
    arcs = _arcs()
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


def test_demo_v5_evidence_precedes_each_question():
    story = _story()
    sent = {message.id: message.sent_at for message in story.messages}

    for question in story.questions:
        for item in question.evidence:
            assert all(sent[message_id] < question.asked_at for message_id in item), question.id
        for message_id in question.must_not_obey:
            assert sent[message_id] < question.asked_at, question.id
        if question.is_no_evidence:
            assert not question.evidence, question.id
