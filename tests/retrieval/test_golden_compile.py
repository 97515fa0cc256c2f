"""Runs the golden compilation table (tests/retrieval/golden_compile.py) against the real
compiler and a real contact book in PostgreSQL."""

from __future__ import annotations

from datetime import datetime

import pytest

from retrieval.compile import compile_question
from retrieval.types import Scope
from tests.retrieval.golden_compile import GOLDEN, Golden
from tests.retrieval.people_book import CONTACTS, contact_book_create

WITH_DIRECT_CHAT = {contact.display_name for contact in CONTACTS if contact.has_direct_chat}


def test_the_table_has_at_least_150_cases():
    assert len(GOLDEN) >= 150


def test_the_table_covers_every_intent_and_both_timezones():
    assert {case.intent for case in GOLDEN} == {
        "identity_lookup",
        "plan_recall",
        "people_ranking",
        "conversation_qa",
        "action_request",
        "catch_up",
        "unresolved",
    }
    assert {case.tz for case in GOLDEN} == {"Europe/Lisbon", "America/New_York"}


@pytest.mark.django_db
@pytest.mark.parametrize("case", GOLDEN, ids=lambda case: f"{case.question} @ {case.now}")
def test_golden_compilation(case: Golden, user):
    ids_by_name = contact_book_create(user)
    names_by_id = {person_id: name for name, person_id in ids_by_name.items()}
    user.timezone = case.tz

    compiled = compile_question(
        user=user,
        question=case.question,
        now=datetime.fromisoformat(case.now),
        scope=Scope.everywhere(),
    )

    assert str(compiled.intent) == case.intent
    if case.window is None:
        assert compiled.time_range is None
    else:
        assert compiled.time_range is not None
        assert (compiled.time_range.start.isoformat(), compiled.time_range.end.isoformat()) == (
            case.window
        )
        assert compiled.time_range.timezone == case.tz
        expected_target = (
            "event" if case.intent in ("plan_recall", "action_request") else "messages"
        )
        assert str(compiled.time_range.applies_to) == expected_target
    people = [
        (
            person.name,
            tuple(sorted(names_by_id[person_id] for person_id in person.person_ids)),
            person.descriptors,
        )
        for person in compiled.people
    ]
    assert people == list(case.people)
    for person, (_name, display_names, _descriptors) in zip(
        compiled.people, case.people, strict=True
    ):
        single = display_names[0] if len(display_names) == 1 else None
        expected_chat = single is not None and single in WITH_DIRECT_CHAT
        assert (person.chat_id is not None) == expected_chat
    if case.location is None:
        assert compiled.location is None
    else:
        assert compiled.location is not None
        as_of = compiled.location.as_of.isoformat() if compiled.location.as_of else None
        assert (compiled.location.city, as_of) == case.location
    assert tuple(str(status) for status in compiled.plan_status) == case.expected_plan_status
    ranking = (str(compiled.ranking.kind), compiled.ranking.limit) if compiled.ranking else None
    assert ranking == case.ranking
    if case.action is None:
        assert compiled.requested_action is None
    else:
        assert compiled.requested_action is not None
        assert str(compiled.requested_action.type) == case.action
        assert compiled.requested_action.requires_approval is True
    assert str(compiled.route) == case.expected_route
    assert compiled.keywords == case.keywords
