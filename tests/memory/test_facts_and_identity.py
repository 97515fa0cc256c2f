from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from claire.errors import NotFound
from conversations.models import Chat, Person
from fixtures.services import demo_corpus_load
from retrieval.memory import services
from retrieval.memory.extract import fact_claims
from retrieval.memory.models import FactKind, Loop, MemoryPolicy, PersonFact, PersonFactSource
from retrieval.memory.selectors import identity_lookup, person_facts_for_user
from tests.memory.helpers import beat_message_ids, chat_of, ingest, message_row, say

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 2, 1, 12, 0, tzinfo=UTC)


def _refresh(user) -> None:
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def _person(user, name: str) -> Person:
    return Person.objects.get(user=user, display_name=name)


def test_fact_claims_read_first_person_statements_and_introductions():
    claims = fact_claims(
        "I'm from Lima originally, but I've lived in Madrid for a year. I work at Acme Labs.",
        is_from_self=False,
        is_direct=True,
    )
    assert [(c.subject, c.kind, c.value) for c in claims] == [
        ("sender", "origin", "Lima"),
        ("sender", "lives_in", "Madrid"),
        ("sender", "works_at", "Acme Labs"),
    ]
    (relation, lives) = fact_claims(
        "meet my sister Joana! She just moved to Porto from Lyon",
        is_from_self=False,
        is_direct=False,
    )
    assert (relation.subject, relation.kind, relation.value, relation.related_to_sender) == (
        "named:Joana",
        "relationship",
        "sister",
        True,
    )
    assert (lives.kind, lives.value, lives.previous) == ("lives_in", "Porto", "Lyon")
    # The user's own statements say nothing about the user's contacts...
    assert fact_claims("I moved to Berlin", is_from_self=True, is_direct=True) == []
    # ...except who they are to the user.
    (mine,) = fact_claims("My sister Clara got the job!", is_from_self=True, is_direct=False)
    assert (mine.subject, mine.value, mine.related_to_user, mine.related_to_sender) == (
        "named:Clara",
        "sister",
        True,
        False,
    )
    assert fact_claims("How is your mum, Rosa?", is_from_self=False, is_direct=True) == []
    (yours,) = fact_claims("Say hi to your mum Rosa!", is_from_self=False, is_direct=True)
    assert (yours.subject, yours.value, yours.related_to_user) == ("named:Rosa", "mother", True)
    (theirs,) = fact_claims("I'm with my roommate Leo", is_from_self=False, is_direct=False)
    assert (theirs.subject, theirs.value, theirs.related_to_sender) == (
        "named:Leo",
        "flatmate",
        True,
    )
    # A relation word before a lowercase word names nobody.
    assert fact_claims("my friend said no", is_from_self=True, is_direct=False) == []
    # Someone else moving is not the author moving.
    assert fact_claims("He moved to Berlin", is_from_self=False, is_direct=True) == []


def test_an_offer_is_the_new_employer_only_when_the_job_starts():
    [claim] = fact_claims(
        "I got the offer from Nordvik Games!! Lead designer, starting next month",
        is_from_self=False,
        is_direct=True,
    )
    assert (claim.subject, claim.kind, claim.value) == ("sender", "works_at", "Nordvik Games")
    assert (
        fact_claims(
            "I got an offer from Acme Labs, not sure yet", is_from_self=False, is_direct=True
        )
        == []
    )


def test_a_later_message_supersedes_by_send_time_not_import_order(user):
    chat = chat_of("dm-rita", "Rita")
    # The newer message is imported first.
    ingest(
        user, chat, say("2", T0 + timedelta(days=30), "Big news: I moved to Berlin!", sender="Rita")
    )
    ingest(user, chat, say("1", T0, "I live in Lisbon, near the river", sender="Rita"))
    _refresh(user)
    facts = person_facts_for_user(user=user, person_ids=[_person(user, "Rita").pk])
    assert [(f.value, f.valid_from, f.is_current) for f in facts] == [
        ("Lisbon", T0, False),
        ("Berlin", T0 + timedelta(days=30), True),
    ]
    lisbon, berlin = facts
    assert lisbon.superseded_by_id == berlin.fact_id
    assert lisbon.source_message_ids == (message_row(user, "dm-rita", "1").pk,)
    assert berlin.source_message_ids == (message_row(user, "dm-rita", "2").pk,)


def test_deleting_the_only_source_deletes_the_fact_and_the_old_value_is_current_again(user):
    chat = chat_of("dm-rita", "Rita")
    ingest(
        user,
        chat,
        say("1", T0, "I live in Lisbon", sender="Rita"),
        say("2", T0 + timedelta(days=30), "I moved to Berlin!", sender="Rita"),
    )
    _refresh(user)
    ingest(user, chat, say("2", T0 + timedelta(days=30), "", sender="Rita", is_deleted=True))
    # Gone at once, inside the ingest, before any refresh runs.
    assert list(PersonFact.objects.filter(user=user).values_list("value", flat=True)) == ["Lisbon"]
    _refresh(user)
    (only,) = person_facts_for_user(user=user)
    assert (only.value, only.is_current) == ("Lisbon", True)


def test_sensitive_attributes_are_not_persisted_by_default_and_gone_with_their_source(user):
    chat = chat_of("dm-rita", "Rita")
    ingest(user, chat, say("1", T0, "I'm Brazilian, by the way", sender="Rita"))
    _refresh(user)
    assert PersonFact.objects.filter(user=user).count() == 0

    MemoryPolicy.objects.create(user=user, persist_sensitive_facts=True, sensitive_purpose="test")
    _refresh(user)
    fact = PersonFact.objects.get(user=user)
    assert (fact.kind, fact.value, fact.is_sensitive) == (FactKind.NATIONALITY, "Brazilian", True)

    ingest(user, chat, say("1", T0, "", sender="Rita", is_deleted=True))
    assert PersonFact.objects.filter(user=user).count() == 0
    assert PersonFactSource.objects.filter(fact__user=user).count() == 0


def test_facts_are_scoped_to_their_user(user, other_user):
    ingest(other_user, chat_of("dm-rita", "Rita"), say("1", T0, "I live in Lisbon", sender="Rita"))
    _refresh(other_user)
    _refresh(user)
    assert person_facts_for_user(user=user) == []
    assert PersonFact.objects.filter(user=other_user).count() == 1


def test_facts_from_excluded_chats_are_not_read(user):
    ingest(user, chat_of("dm-rita", "Rita"), say("1", T0, "I live in Lisbon", sender="Rita"))
    _refresh(user)
    Chat.objects.filter(user=user).update(is_excluded_from_ai=True)
    assert person_facts_for_user(user=user) == []


def test_identity_lookup_finds_the_person_met_in_a_city_with_a_derived_nationality(user):
    ingest(
        user,
        chat_of("dm-ines", "Ines"),
        say("0", T0 - timedelta(days=30), "morning!", sender="Ines"),
        say("1", T0, "Landed in Tokyo! So tired"),
        say("2", T0 + timedelta(days=9), "Lands in Lisbon tomorrow at 9"),
    )
    ingest(
        user,
        chat_of("dm-yuki", "Yuki", platform="telegram"),
        say(
            "1",
            T0 + timedelta(days=2),
            "Great meeting you at the ramen class! I'm from Osaka",
            sender="Yuki",
        ),
        say("2", T0 + timedelta(days=2, hours=1), "Likewise!"),
    )
    ingest(
        user,
        chat_of("dm-lena", "Lena"),
        say("1", T0 + timedelta(days=3), "I'm from Berlin, see you at the hostel", sender="Lena"),
    )
    _refresh(user)
    result = identity_lookup(user=user, descriptors=["Japanese"], city="Tokyo")
    (match,) = result.matches
    assert match.display_name == "Yuki"
    (derived,) = match.derived
    assert (derived.name, derived.value, derived.reason) == (
        "nationality",
        "Japanese",
        "origin Osaka",
    )
    yuki_message = message_row(user, "dm-yuki", "1").pk
    assert derived.source_message_ids == (yuki_message,)
    assert yuki_message in match.evidence_message_ids
    # Nationality was derived, not stored.
    assert not PersonFact.objects.filter(user=user, kind=FactKind.NATIONALITY).exists()
    # Both were first met during the stay; only one matches "Japanese".
    everyone = identity_lookup(user=user, city="Tokyo")
    assert {m.display_name for m in everyone.matches} == {"Yuki", "Lena"}
    # Outside the window: nothing, and the window is reported back.
    later = T0 + timedelta(days=60)
    empty = identity_lookup(
        user=user,
        descriptors=["Japanese"],
        city="Tokyo",
        start=later,
        end=later + timedelta(days=7),
    )
    assert empty.matches == ()
    assert (empty.searched_start, empty.searched_end) == (later, later + timedelta(days=7))
    assert identity_lookup(user=user, descriptors=["Russian"], city="Tokyo").matches == ()


def test_demo_corpus_identity_questions(user, demo_corpus):
    demo_corpus_load(user=user, corpus=demo_corpus)
    _refresh(user)
    (russian,) = identity_lookup(user=user, descriptors=["Russian"], city="Mexico City").matches
    assert russian.display_name == "Dmitri Volkov"
    assert beat_message_ids(user, demo_corpus, "identity.dmitri.met_in_mexico_city") & set(
        russian.evidence_message_ids
    )
    from_moscow = {
        message_row(user, ref.platform_chat_id, ref.platform_message_id).pk
        for ref in demo_corpus.story["identity.dmitri.from_moscow"].evidence
    }
    assert from_moscow & set(russian.evidence_message_ids)
    met = identity_lookup(user=user, city="Mexico City", limit=10).matches
    assert {m.display_name for m in met} == {"Dmitri Volkov", "Valeria Gómez", "Diego Hernández"}
    ana = _person(user, "Ana Souza")
    (brother,) = identity_lookup(
        user=user, descriptors=["brother"], related_to_person_ids=[ana.pk]
    ).matches
    assert brother.display_name == "Bruno Souza"
    assert brother.evidence_message_ids
    assert set(brother.evidence_message_ids) <= beat_message_ids(
        user, demo_corpus, "fact.ana.brother_bruno"
    )
    clara = _person(user, "Clara Moreira")
    current = person_facts_for_user(
        user=user, person_ids=[clara.pk], kinds=[FactKind.LIVES_IN], include_superseded=False
    )
    assert [f.value for f in current] == ["Berlin"]
    assert set(current[0].source_message_ids) <= beat_message_ids(
        user, demo_corpus, "fact.clara.moved_to_berlin"
    )


def test_rejecting_a_fact_removes_it_for_good_and_restores_what_it_superseded(
    user, other_user, api_client, other_api_client
):
    chat = chat_of("dm-rita", "Rita")
    ingest(
        user,
        chat,
        say("1", T0, "I live in Lisbon", sender="Rita"),
        say("2", T0 + timedelta(days=30), "I moved to Berlin!", sender="Rita"),
    )
    _refresh(user)
    berlin = PersonFact.objects.get(user=user, value="Berlin")
    with pytest.raises(NotFound):
        services.person_fact_reject(user=other_user, fact_id=berlin.pk)
    assert other_api_client.delete(f"/api/memory/facts/{berlin.pk}").status_code == 404
    assert api_client.delete(f"/api/memory/facts/{berlin.pk}").status_code == 204
    (lisbon,) = person_facts_for_user(user=user)
    assert (lisbon.value, lisbon.is_current) == ("Lisbon", True)
    _refresh(user)
    assert [(f.value, f.is_current) for f in person_facts_for_user(user=user)] == [("Lisbon", True)]


def test_sensitive_facts_older_than_the_retention_are_not_kept(user):
    chat = chat_of("dm-rita", "Rita")
    old = timezone.now() - timedelta(days=60)
    ingest(user, chat, say("1", old, "I'm Brazilian, by the way", sender="Rita"))
    ingest(user, chat_of("dm-leo", "Leo"), say("1", timezone.now(), "I'm Italian!", sender="Leo"))
    MemoryPolicy.objects.create(
        user=user, persist_sensitive_facts=True, sensitive_retention_days=30
    )
    _refresh(user)
    assert list(PersonFact.objects.filter(user=user).values_list("value", flat=True)) == ["Italian"]


def test_deleting_a_chat_deletes_what_only_it_supported(user):
    user.first_name = "Sam"
    user.save()
    direct = chat_of("dm-rita", "Rita")
    ingest(
        user,
        direct,
        say("0", T0, "hi"),
        say(
            "1",
            T0 + timedelta(minutes=1),
            "I live in Lisbon. Could you send me the photos?",
            sender="Rita",
        ),
    )
    other = chat_of("dm-rita-2", "Rita", platform="telegram")
    ingest(user, other, say("1", T0, "I live in Lisbon", sender="Rita", platform="telegram"))
    _refresh(user)
    fact = PersonFact.objects.get(user=user)
    assert fact.sources.count() == 2
    assert Loop.objects.filter(user=user).count() == 1
    Chat.objects.get(user=user, platform_chat_id="dm-rita").delete()
    assert Loop.objects.filter(user=user).count() == 0
    assert PersonFact.objects.get(pk=fact.pk).sources.count() == 1
    Chat.objects.filter(user=user).delete()
    assert PersonFact.objects.filter(user=user).count() == 0
