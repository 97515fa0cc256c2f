"""The demo-v6 story set loads through the story loader and holds the shapes its README states:
one test per invariant."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from datetime import timedelta

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
SET_DIR = STORY_SETS["demo-v6"]


def _story():
    return story_set_load(SET_DIR)


def _arcs():
    return json.loads((SET_DIR / "story.json").read_text(encoding="utf-8"))["arcs"]


def test_the_set_is_registered_and_loads():
    story = _story()

    assert story.name == "demo-v6"
    assert story.owner_timezone == "Australia/Sydney"
    assert 700 <= len(story.messages) <= 900
    assert 12 <= len(story.people) <= 16
    assert len({chat.platform for chat in story.chats.values()}) >= 6
    assert {chat.kind for chat in story.chats.values()} == {"direct", "group"}


def test_the_history_crosses_the_spring_daylight_saving_change():
    story = _story()
    before = [m for m in story.messages if m.sent_at.date().isoformat() < "2026-10-04"]
    after = [m for m in story.messages if m.sent_at.date().isoformat() > "2026-10-04"]

    assert {m.sent_at.utcoffset() for m in before} == {timedelta(hours=10)}
    assert {m.sent_at.utcoffset() for m in after} == {timedelta(hours=11)}


def test_questions_cover_every_intent_in_both_splits_with_a_held_out_share():
    questions = _story().questions
    intents = Counter(question.intent for question in questions)
    held_out = [question for question in questions if question.split == "heldout"]

    assert len(questions) >= 100
    assert set(intents) == INTENTS
    assert min(intents.values()) >= 5
    assert {question.intent for question in held_out} == INTENTS
    assert 0.33 <= len(held_out) / len(questions) <= 0.45


def test_held_out_arcs_are_disjoint_from_dev_arcs():
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


def test_every_evidence_message_precedes_its_question():
    story = _story()
    sent = {message.id: message.sent_at for message in story.messages}

    for question in story.questions:
        for item in question.evidence:
            assert all(sent[message_id] < question.asked_at for message_id in item), question.id
        for message_id in question.must_not_obey:
            assert sent[message_id] < question.asked_at, question.id
        if question.is_no_evidence:
            assert not question.evidence, question.id


def test_strict_chat_evidence_and_proposals_stay_in_their_chats():
    story = _story()
    chat_of = {message.id: message.chat for message in story.messages}

    for question in story.questions:
        if question.scope_chat:
            for item in question.evidence:
                assert {chat_of[message_id] for message_id in item} == {question.scope_chat}
        if question.proposal_recipient:
            assert question.intent == "action_request", question.id
            assert question.proposal_recipient in story.people, question.id
        if question.proposal_chat:
            members = {p["person"] for p in story.chats[question.proposal_chat].participants}
            assert question.proposal_recipient in members, question.id


def test_the_identity_features_the_readme_names():
    story = _story()
    first_names = Counter(person.names[0].split()[0] for person in story.people.values())
    handles_of: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for chat in story.chats.values():
        for participant in chat.participants:
            identity = participant.get("handle") or participant.get("userId", "")
            if identity:
                handles_of[participant["person"]].add((chat.platform, identity))
    bare_numbers = [
        participant
        for chat in story.chats.values()
        for participant in chat.participants
        if set(participant) == {"person", "phone"}
    ]
    senders = {message.sender for message in story.messages if isinstance(message.sender, str)}

    assert first_names["Sam"] == 2
    assert any(
        participant.get("displayName") == "Dyl 🦘"
        for chat in story.chats.values()
        for participant in chat.participants
    )
    assert len({platform for platform, _ in handles_of["putri"]}) == 2
    assert [participant["person"] for participant in bare_numbers] == ["gareth"]
    assert "tuan" in story.people and "tuan" not in senders


def test_rankings_name_people_in_order():
    story = _story()
    rankings = [q for q in story.questions if q.intent == "people_ranking"]

    assert len(rankings) >= 8
    for question in rankings:
        assert question.people, question.id
        assert len(question.evidence) == len(question.people), question.id
        assert question.is_ordered == (len(question.people) > 1), question.id
