"""The demo-v4 story set loads through the story loader and holds the shape its README states."""

from __future__ import annotations

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
    return story_set_load(STORY_SETS["demo-v4"])


def test_demo_v4_is_registered_and_loads():
    story = _story()

    assert story.name == "demo-v4"
    assert story.owner_timezone == "America/Toronto"
    assert 800 <= len(story.messages) <= 1000
    assert len({chat.platform for chat in story.chats.values()}) >= 6


def test_demo_v4_history_crosses_a_daylight_saving_change():
    offsets = {message.sent_at.utcoffset() for message in _story().messages}

    assert len(offsets) == 2


def test_demo_v4_questions_cover_every_intent_with_a_held_out_third():
    questions = _story().questions
    intents = Counter(question.intent for question in questions)
    held_out = sum(1 for question in questions if question.split == "heldout")

    assert len(questions) >= 100
    assert set(intents) == INTENTS
    assert min(intents.values()) >= 5
    assert 0.28 <= held_out / len(questions) <= 0.42


def test_demo_v4_evidence_precedes_each_question():
    story = _story()
    sent = {message.id: message.sent_at for message in story.messages}

    for question in story.questions:
        for item in question.evidence:
            assert any(sent[message_id] < question.asked_at for message_id in item), question.id
        for message_id in question.must_not_obey:
            assert sent[message_id] < question.asked_at, question.id
        if question.is_no_evidence:
            assert not question.evidence, question.id
