"""The question's "my brother", "mom" name the one person memory knows as that relative."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from conversations.models import Chat, ChatKind, Person
from memory import services
from retrieval.compile import compile_question
from retrieval.types import Scope
from tests.memory.helpers import chat_of, ingest, say

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=10)


def _compile(user, question: str):
    return compile_question(user=user, question=question, now=NOW, scope=Scope.everywhere())


def _family(user) -> None:
    ingest(user, chat_of("dm-mum", "Mum"), say("m1", T0, "Home safe?", sender="Mum"))
    ingest(
        user,
        chat_of("dm-oskar", "Oskar Lind"),
        say(
            "o1",
            T0 + timedelta(hours=1),
            "Made it to Lisbon! The new flat is tiny",
            sender="Oskar Lind",
        ),
    )
    ingest(
        user,
        chat_of("grp-work", "Ines Duarte", kind=ChatKind.GROUP),
        say("w1", T0 + timedelta(hours=2), "sorry, my brother Oskar is visiting so I'm offline"),
    )
    services.facts_rebuild(user=user)


def _ids(user, name: str) -> tuple[int, ...]:
    return (Person.objects.get(user=user, display_name=name).pk,)


def _direct(user, platform_chat_id: str) -> int:
    return Chat.objects.get(user=user, platform_chat_id=platform_chat_id).pk


def test_my_brother_names_the_users_brother(user):
    _family(user)
    compiled = _compile(user, "where does my brother live now?")
    assert [(p.name, p.person_ids, p.descriptors, p.chat_id) for p in compiled.people] == [
        ("my brother", _ids(user, "Oskar Lind"), (), _direct(user, "dm-oskar"))
    ]
    assert "brother" not in compiled.keywords


def test_a_parent_word_on_its_own_names_the_parent_before_other_names(user):
    _family(user)
    ingest(user, chat_of("dm-pia", "Pia Holm"), say("p1", T0, "hej", sender="Pia Holm"))
    compiled = _compile(user, "reply to mum about what Pia wants for her birthday")
    assert [(p.name, p.person_ids) for p in compiled.people] == [
        ("mum", _ids(user, "Mum")),
        ("Pia", _ids(user, "Pia Holm")),
    ]
    assert compiled.requested_action is not None


def test_someone_elses_relative_or_an_unknown_one_stays_a_descriptor(user):
    _family(user)
    for question in ("what did his mum say?", "where does Ines's mum live?"):
        refs = _compile(user, question).people
        assert all(ref.person_ids != _ids(user, "Mum") for ref in refs), question
    sister = _compile(user, "where does my sister live?").people
    assert [(p.name, p.person_ids, p.descriptors) for p in sister] == [(None, (), ("sister",))]


def test_two_people_with_the_same_relation_name_nobody(user):
    _family(user)
    ingest(
        user,
        chat_of("dm-notes", "Ines Duarte"),
        say("n1", T0 + timedelta(hours=3), "my brother Emil says hi too"),
    )
    ingest(user, chat_of("dm-emil", "Emil Lind"), say("e1", T0, "hi", sender="Emil Lind"))
    services.facts_rebuild(user=user)
    refs = _compile(user, "where does my brother live now?").people
    assert [(p.name, p.person_ids, p.descriptors) for p in refs] == [(None, (), ("brother",))]


def test_another_users_relatives_are_never_read(user, other_user):
    _family(other_user)
    refs = _compile(user, "where does my brother live now?").people
    assert [(p.name, p.person_ids) for p in refs] == [(None, ())]


def test_memory_answers_where_my_brother_lives_in_the_users_words(user):
    from memory.evidence import memory_message_ids

    _family(user)
    compiled = _compile(user, "where does my brother live now?")
    hits = memory_message_ids(user=user, compiled=compiled, now=NOW)
    assert hits is not None
    notes = list(hits.notes.values())
    assert any("Oskar Lind lives in Lisbon" in note for note in notes)
