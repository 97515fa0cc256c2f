"""A user can never see or touch another user's data: foreign ids answer 404, like missing ones."""

import pytest

from tests.factories import ChatFactory, MessageFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def foreign_chat(other_user):
    chat = ChatFactory(user=other_user)
    MessageFactory(chat=chat)
    return chat


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/chats/{id}", None),
        ("patch", "/api/chats/{id}", {"excludedFromAi": True}),
        ("get", "/api/chats/{id}/messages", None),
    ],
)
def test_foreign_chat_is_not_found(api_client, foreign_chat, method, path, body):
    response = getattr(api_client, method)(path.format(id=foreign_chat.pk), body, format="json")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    foreign_chat.refresh_from_db()
    assert foreign_chat.is_excluded_from_ai is False


def test_missing_and_foreign_chats_answer_alike(api_client, foreign_chat):
    foreign = api_client.get(f"/api/chats/{foreign_chat.pk}")
    missing = api_client.get("/api/chats/999999999")
    assert foreign.status_code == missing.status_code == 404
    assert foreign.json() == missing.json()


def test_lists_show_only_own_data(api_client, user, foreign_chat):
    own = ChatFactory(user=user)
    MessageFactory(chat=own)
    chats = api_client.get("/api/chats").json()["chats"]
    assert [chat["id"] for chat in chats] == [own.pk]
    people = api_client.get("/api/people").json()["people"]
    assert all(person["id"] != foreign_chat.messages.first().sender_person_id for person in people)
    assert len(people) == 1


def test_foreign_chat_page_is_not_found(client, user, foreign_chat):
    client.force_login(user)
    assert client.get(f"/chats/{foreign_chat.pk}/").status_code == 404


def test_chat_messages_paginate_by_keyset(api_client, user):
    chat = ChatFactory(user=user)
    created = [MessageFactory(chat=chat) for _ in range(5)]
    first = api_client.get(f"/api/chats/{chat.pk}/messages?limit=2").json()
    assert [m["id"] for m in first["messages"]] == [created[4].pk, created[3].pk]
    second = api_client.get(
        f"/api/chats/{chat.pk}/messages", {"limit": 2, "before": first["nextCursor"]}
    ).json()
    assert [m["id"] for m in second["messages"]] == [created[2].pk, created[1].pk]
    last = api_client.get(
        f"/api/chats/{chat.pk}/messages", {"limit": 2, "before": second["nextCursor"]}
    ).json()
    assert [m["id"] for m in last["messages"]] == [created[0].pk]
    assert "nextCursor" not in last


def test_exclude_from_ai_switch(api_client, user):
    chat = ChatFactory(user=user)
    response = api_client.patch(f"/api/chats/{chat.pk}", {"excludedFromAi": True}, format="json")
    assert response.status_code == 200
    assert response.json()["excludedFromAi"] is True
    chat.refresh_from_db()
    assert chat.is_excluded_from_ai is True
