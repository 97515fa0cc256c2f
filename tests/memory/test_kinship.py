"""Relationships to the user from contact names, forms of address and signatures."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from conversations.models import Chat, ChatKind, Person
from memory import services
from memory.kinship import (
    addressed_relation,
    relation_of_contact_name,
    relatives_of_user,
    signed_relation,
)
from memory.models import FactBasis, FactKind, PersonFact, PersonFactSource
from tests.memory.helpers import chat_of, ingest, message_row, say

T0 = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)


def _at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


@pytest.mark.parametrize(
    ("name", "relation"),
    [
        ("Mom", "mother"),
        ("Dad ❤️", "father"),
        ("My brother", "brother"),
        ("Tomasz (sister)", "sister"),
        ("mum", "mother"),
        ("Granny", "grandmother"),
        ("Tomasz", None),
        ("Tomasz's Mom", None),
        ("Mom's Bakery", None),
        ("Bro", "brother"),
    ],
)
def test_a_contact_name_states_a_relation_only_when_it_is_one(name, relation):
    assert relation_of_contact_name(name) == relation


@pytest.mark.parametrize(
    ("text", "relation"),
    [
        ("thanks dad 😂", "father"),
        ("yes mom", "mother"),
        ("Mum, can you call me tonight?", "mother"),
        ("ok see you at 6, mom!", "mother"),
        ("love you grandma ❤️", "grandmother"),
        ("lol mom just sent me a chain email", None),
        ("I called dad yesterday", None),
        ("tell your mom I said hi", None),
        ("thanks bro", None),
        ("no idea, sis", None),
        ("Dad made soup again", None),
    ],
)
def test_a_form_of_address_is_a_relation_word_said_to_the_reader(text, relation):
    assert addressed_relation(text) == relation


@pytest.mark.parametrize(
    ("text", "relation"),
    [
        ("Dinner moved to 5 on Sunday. Love, Mom", "mother"),
        ("Call me when you land\n- Dad", "father"),
        ("I love mom's soup", None),
        ("we love you mom", None),
    ],
)
def test_a_signature_is_a_relation_word_closing_the_message(text, relation):
    assert signed_relation(text) == relation


def _relations(user) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for fact in PersonFact.objects.filter(
        user=user, kind=FactKind.RELATIONSHIP, related_person__isnull=True
    ).select_related("person"):
        found.setdefault(fact.person.display_name, set()).add(fact.value)
    return found


def _refresh(user) -> None:
    services.facts_rebuild(user=user)


@pytest.mark.django_db
def test_a_contact_saved_under_a_relation_word_is_that_relative_with_their_message(user):
    ingest(
        user,
        chat_of("grp-garden", "Mom", "Ines Duarte", kind=ChatKind.GROUP),
        say("g1", _at(0), "The tulips are up", sender="Mom"),
    )
    ingest(
        user,
        chat_of("dm-parent", "Mom"),
        say("p2", _at(1), "Are you eating properly?", sender="Mom"),
    )
    _refresh(user)
    assert _relations(user) == {"Mom": {"mother"}}
    link = PersonFactSource.objects.get(fact__kind=FactKind.RELATIONSHIP)
    assert link.message == message_row(user, "dm-parent", "p2")
    assert link.basis == FactBasis.CONTACT_NAME
    assert link.fact.valid_from == _at(1)


@pytest.mark.django_db
def test_the_user_addressing_someone_by_a_relation_word_relates_them(user):
    ingest(
        user,
        chat_of("dm-t", "Tomasz Wierzba"),
        say("t1", _at(0), "I fixed the shelf, come look", sender="Tomasz Wierzba"),
        say("t2", _at(1), "thanks dad 😂"),
    )
    ingest(
        user,
        chat_of("dm-o", "Oskar Lind"),
        say("o1", _at(2), "I called dad yesterday, he's fine"),
    )
    _refresh(user)
    assert _relations(user) == {"Tomasz Wierzba": {"father"}}
    link = PersonFactSource.objects.get(fact__kind=FactKind.RELATIONSHIP)
    assert (link.message, link.basis) == (
        message_row(user, "dm-t", "t2"),
        FactBasis.ADDRESSED,
    )


@pytest.mark.django_db
def test_a_signature_in_a_direct_chat_relates_its_author(user):
    ingest(
        user,
        chat_of("dm-h", "Hanna Berg"),
        say("h1", _at(0), "Lunch is at 2 on Sunday.\nLove, Mom", sender="Hanna Berg"),
    )
    _refresh(user)
    assert _relations(user) == {"Hanna Berg": {"mother"}}
    assert PersonFactSource.objects.get().basis == FactBasis.SIGNATURE


@pytest.mark.django_db
def test_in_a_family_group_a_members_parent_word_to_someone_is_the_users_parent(user):
    family = replace(
        chat_of("grp-fam", "Hanna Berg", "Jonas Berg", kind=ChatKind.GROUP), title="Berg family 🏡"
    )
    ingest(
        user,
        family,
        say("f1", _at(0), "Cake is ready!", sender="Hanna Berg"),
        say("f2", _at(1), "happy birthday mom!!", sender="Jonas Berg", reply_to="f1"),
    )
    friends = chat_of("grp-friends", "Ola Nowak", "Ida Kowal", kind=ChatKind.GROUP)
    ingest(
        user,
        friends,
        say("g1", _at(2), "New haircut", sender="Ola Nowak"),
        say("g2", _at(3), "love it mom!!", sender="Ida Kowal", reply_to="g1"),
    )
    _refresh(user)
    assert _relations(user) == {"Hanna Berg": {"mother"}}


@pytest.mark.django_db
def test_a_statement_and_a_contact_name_are_one_fact_with_both_sources(user):
    ingest(
        user,
        chat_of("dm-bro", "Bro"),
        say("b1", _at(0), "landed!", sender="Bro"),
    )
    ingest(
        user,
        chat_of("dm-work", "Ines Duarte"),
        say("w1", _at(5), "my brother Bro is visiting, I'll be slow today"),
    )
    _refresh(user)
    fact = PersonFact.objects.get(kind=FactKind.RELATIONSHIP)
    assert (fact.person.display_name, fact.value) == ("Bro", "brother")
    bases = sorted(fact.source_links.values_list("basis", flat=True))
    assert bases == [FactBasis.CONTACT_NAME, FactBasis.STATEMENT]
    assert fact.valid_from == _at(0)


@pytest.mark.django_db
def test_a_rejected_kinship_fact_is_not_derived_again(user):
    ingest(user, chat_of("dm-parent", "Dad"), say("d1", _at(0), "call me", sender="Dad"))
    _refresh(user)
    fact = PersonFact.objects.get(kind=FactKind.RELATIONSHIP)
    services.person_fact_reject(user=user, fact_id=fact.pk)
    _refresh(user)
    assert not PersonFact.objects.filter(kind=FactKind.RELATIONSHIP).exists()


@pytest.mark.django_db
def test_an_excluded_chat_proves_nothing(user):
    ingest(
        user,
        chat_of("dm-x", "Tomasz Wierzba"),
        say("x1", _at(0), "yes mom"),
    )
    Chat.objects.filter(user=user).update(is_excluded_from_ai=True)
    _refresh(user)
    assert _relations(user) == {}


@pytest.mark.django_db
def test_relatives_of_the_user_are_one_human_or_nobody(user, other_user):
    ingest(user, chat_of("dm-m", "Mom"), say("m1", _at(0), "hi!", sender="Mom"))
    ingest(user, chat_of("dm-s1", "Alva"), say("s1", _at(1), "thanks sis… no wait, Alva, sister"))
    ingest(
        user,
        chat_of("dm-note", "Ines Duarte"),
        say("n1", _at(2), "my sister Alva and my sister Greta are coming"),
    )
    ingest(user, chat_of("dm-s2", "Greta"), say("s2", _at(3), "hey", sender="Greta"))
    ingest(other_user, chat_of("dm-m", "Dad"), say("m1", _at(0), "hi!", sender="Dad"))
    _refresh(user)
    _refresh(other_user)
    found = relatives_of_user(user=user, relations={"mother", "sister", "father"})
    mom = Person.objects.get(user=user, display_name="Mom")
    assert set(found) == {"mother"}
    assert found["mother"].person_ids == (mom.pk,)
    assert found["mother"].direct_chat_id == Chat.objects.get(user=user, platform_chat_id="dm-m").pk
