from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from claire.errors import CodedError, NotFound
from conversations.identities import IncomingIdentity
from conversations.models import Chat, Person
from conversations.services import IncomingChat, IncomingMessage, messages_ingest
from retrieval.memory import services
from retrieval.memory.models import Loop, LoopStatus, PersonMerge
from retrieval.memory.selectors import (
    merge_suggestions,
    people_ranking,
    person_ids_expand,
)
from tests.memory.helpers import chat_of, ingest, say

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def _emma_on_two_platforms(user) -> tuple[Person, Person]:
    """One human with no shared identifier: a phone number on iMessage, an email address."""
    phone = IncomingIdentity(
        platform="imessage", phone="+353 85 555 0101", display_name="Emma Clarke"
    )
    email = IncomingIdentity(platform="email", email="emma@example.ie", display_name="Emma C.")
    for platform, identity, chat_id in (
        ("imessage", phone, "im-emma"),
        ("email", email, "mail-emma"),
    ):
        messages_ingest(
            user=user,
            chats=[
                IncomingChat(platform=platform, platform_chat_id=chat_id, participants=(identity,))
            ],
            messages=[
                (
                    chat_id,
                    IncomingMessage(
                        platform_message_id="1",
                        sent_at=NOW - timedelta(days=3),
                        text="hello",
                        sender=identity,
                    ),
                ),
                (
                    chat_id,
                    IncomingMessage(
                        platform_message_id="2",
                        sent_at=NOW - timedelta(days=2),
                        text="hi!",
                        is_from_self=True,
                    ),
                ),
            ],
        )
    return (
        Person.objects.get(user=user, display_name="Emma Clarke"),
        Person.objects.get(user=user, display_name="Emma C."),
    )


def test_merge_suggestions_find_similar_names_but_not_different_people(user):
    clarke, short = _emma_on_two_platforms(user)
    ingest(user, chat_of("dm-emil", "Emil Clarke"), say("1", NOW, "hey", sender="Emil Clarke"))
    (suggestion,) = merge_suggestions(user=user)
    assert {suggestion.person_id, suggestion.other_person_id} == {clarke.pk, short.pk}
    assert suggestion.reasons == ("similar name",)
    services.person_merge(user=user, kept_person_id=clarke.pk, merged_person_id=short.pk)
    assert merge_suggestions(user=user) == []


def test_merge_makes_one_person_in_the_ranking_and_split_reverses_it(user):
    clarke, short = _emma_on_two_platforms(user)
    assert len(people_ranking(user=user, now=NOW)) == 2
    merge = services.person_merge(user=user, kept_person_id=clarke.pk, merged_person_id=short.pk)
    (emma,) = people_ranking(user=user, now=NOW)
    assert (emma.person_id, emma.display_name) == (clarke.pk, "Emma Clarke")
    assert (emma.received_30d, emma.sent_30d) == (2, 2)
    assert emma.platforms == ("email", "imessage")
    assert emma.active_days_90d == 2
    assert len(emma.representative_message_ids) == 3
    assert person_ids_expand(user=user, person_ids=[short.pk]) == tuple(
        sorted((clarke.pk, short.pk))
    )

    services.person_split(user=user, merge_id=merge.pk, now=NOW)
    assert {item.person_id for item in people_ranking(user=user, now=NOW)} == {clarke.pk, short.pk}
    assert person_ids_expand(user=user, person_ids=[short.pk]) == (short.pk,)
    # Conversation rows were never rewritten.
    assert Person.objects.filter(user=user).count() == 2


def test_merges_never_cross_users(user, other_user):
    mine, _ = _emma_on_two_platforms(user)
    _, theirs = _emma_on_two_platforms(other_user)
    with pytest.raises(NotFound):
        services.person_merge(user=user, kept_person_id=mine.pk, merged_person_id=theirs.pk)
    with pytest.raises(NotFound):
        services.person_merge(user=other_user, kept_person_id=mine.pk, merged_person_id=theirs.pk)
    assert PersonMerge.objects.count() == 0


def test_merging_into_a_merged_person_goes_to_the_kept_one_and_self_merge_is_refused(user):
    for name in ("Ana Souza", "Ana S.", "Ana"):
        ingest(user, chat_of(f"dm-{name}", name), say("1", NOW, "hey", sender=name))
    full, short, bare = (
        Person.objects.get(user=user, display_name=n) for n in ("Ana Souza", "Ana S.", "Ana")
    )
    services.person_merge(user=user, kept_person_id=full.pk, merged_person_id=short.pk)
    second = services.person_merge(user=user, kept_person_id=short.pk, merged_person_id=bare.pk)
    assert second.kept_person_id == full.pk
    with pytest.raises(CodedError):
        services.person_merge(user=user, kept_person_id=full.pk, merged_person_id=full.pk)
    with pytest.raises(CodedError):
        services.person_merge(user=user, kept_person_id=short.pk, merged_person_id=full.pk)
    assert PersonMerge.objects.filter(user=user, split_at__isnull=True).count() == 2


def test_api_merge_split_and_suggestions(user, api_client, other_api_client):
    clarke, short = _emma_on_two_platforms(user)
    response = api_client.get("/api/memory/merge-suggestions")
    assert response.status_code == 200
    assert len(response.json()["suggestions"]) == 1
    # Someone else cannot merge my people.
    refused = other_api_client.post(
        "/api/memory/merges", {"keepPersonId": clarke.pk, "mergePersonId": short.pk}, format="json"
    )
    assert refused.status_code == 404
    assert PersonMerge.objects.count() == 0
    created = api_client.post(
        "/api/memory/merges", {"keepPersonId": clarke.pk, "mergePersonId": short.pk}, format="json"
    )
    assert created.status_code == 201
    body = created.json()
    assert (body["keptPersonId"], body["mergedPersonId"], body["splitAt"]) == (
        clarke.pk,
        short.pk,
        None,
    )
    assert other_api_client.post(f"/api/memory/merges/{body['id']}/split").status_code == 404
    split = api_client.post(f"/api/memory/merges/{body['id']}/split")
    assert split.status_code == 200
    assert split.json()["splitAt"] is not None


def test_api_loops_list_and_close(user, api_client, other_api_client):
    ingest(user, chat_of("dm-leo", "Leo"), say("1", NOW, "Could you send me the invoice?"))
    services.loops_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )
    (loop,) = api_client.get("/api/memory/loops").json()["loops"]
    assert loop["kind"] == "request_by_user"
    assert other_api_client.get("/api/memory/loops").json()["loops"] == []
    assert other_api_client.post(f"/api/memory/loops/{loop['id']}/close").status_code == 404
    closed = api_client.post(f"/api/memory/loops/{loop['id']}/close")
    assert closed.status_code == 200
    assert Loop.objects.get(pk=loop["id"]).status == LoopStatus.CLOSED_BY_USER
    assert api_client.get("/api/memory/loops").json()["loops"] == []


def test_api_person_facts_relationships_and_plans(user, api_client, other_api_client):
    sent = timezone.now() - timedelta(days=1)
    ingest(
        user,
        chat_of("dm-rita", "Rita"),
        say("1", sent, "I live in Lisbon. Dinner Friday at 8 at Casa Nova?", sender="Rita"),
        say("2", sent + timedelta(minutes=5), "Count me in!"),
    )
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )
    rita = Person.objects.get(user=user, display_name="Rita")
    facts = api_client.get(f"/api/memory/people/{rita.pk}/facts").json()["facts"]
    assert [(f["kind"], f["value"], f["isCurrent"]) for f in facts] == [
        ("lives_in", "Lisbon", True)
    ]
    assert other_api_client.get(f"/api/memory/people/{rita.pk}/facts").status_code == 404
    (plan,) = api_client.get("/api/memory/plans").json()["plans"]
    assert (plan["place"], plan["status"], [s["status"] for s in plan["steps"]]) == (
        "Casa Nova",
        "confirmed",
        ["proposed", "confirmed"],
    )
    (person,) = api_client.get("/api/memory/relationships").json()["people"]
    assert (person["personId"], person["messages30d"]) == (rita.pk, {"received": 1, "sent": 1})
    assert other_api_client.get("/api/memory/relationships").json()["people"] == []
