"""The demo-v3 story set loads and keeps the invariants its README promises."""

from __future__ import annotations

import json
from collections import Counter

from evals.golden.story import STORY_SETS, story_set_load

INTENT_FLOOR = 8


def _story_arcs() -> dict[str, dict]:
    return json.loads((STORY_SETS["demo-v3"] / "story.json").read_text(encoding="utf-8"))["arcs"]


def test_demo_v3_asks_every_intent_often_enough():
    story = story_set_load(STORY_SETS["demo-v3"])
    intents = Counter(question.intent for question in story.questions)
    assert set(intents) == {
        "identity_lookup",
        "plan_recall",
        "people_ranking",
        "conversation_qa",
        "action_request",
        "catch_up",
        "unresolved",
        "no_evidence",
    }
    assert min(intents.values()) >= INTENT_FLOOR, intents
    assert len(story.questions) >= 100
    assert len({chat.platform for chat in story.chats.values()}) >= 6


def test_demo_v3_evidence_exists_and_precedes_the_question():
    story = story_set_load(STORY_SETS["demo-v3"])
    sent_at = {message.id: message.sent_at for message in story.messages}
    assert len(sent_at) == len(story.messages), "message ids are unique"
    for question in story.questions:
        referenced = [mid for item in question.evidence for mid in item]
        referenced += list(question.must_not_obey)
        for message_id in referenced:
            assert message_id in sent_at, (question.id, message_id)
            assert sent_at[message_id] <= question.asked_at, (question.id, message_id)
        assert set(question.people) <= set(story.people), question.id
        if question.is_no_evidence:
            assert not question.evidence, question.id


def test_demo_v3_holds_out_whole_arcs():
    story = story_set_load(STORY_SETS["demo-v3"])
    arcs = _story_arcs()
    dev_arcs = {q.arc for q in story.questions if q.split == "dev"}
    heldout_arcs = {q.arc for q in story.questions if q.split == "heldout"}
    assert dev_arcs and heldout_arcs
    assert not dev_arcs & heldout_arcs
    assert all(arcs[q.arc]["split"] == q.split for q in story.questions)
    heldout_share = len([q for q in story.questions if q.split == "heldout"]) / len(story.questions)
    assert 0.28 <= heldout_share <= 0.42
    arc_of = {mid: name for name, arc in arcs.items() for mid in arc["messages"]}
    for question in story.questions:
        for message_id in [mid for item in question.evidence for mid in item]:
            assert arcs[arc_of[message_id]]["split"] == question.split, (question.id, message_id)
