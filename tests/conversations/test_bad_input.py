"""Malformed input to the conversations API and pages answers 4xx with a stable code, writes
nothing, and never reaches a 500."""

from __future__ import annotations

import json

import pytest

from conversations.models import Chat, Message, Person
from tests.factories import ChatFactory, MessageFactory

pytestmark = pytest.mark.django_db

URL = "/api/ingest/batches"


def _batch(messages=None, chats=None):
    return {
        "platform": "telegram",
        "chats": chats if chats is not None else [{"chatId": "c1", "title": "Plans"}],
        "messages": messages if messages is not None else [],
    }


def _message(**overrides):
    item = {
        "chatId": "c1",
        "messageId": "m1",
        "sentAt": "2026-03-01T10:00:00+01:00",
        "text": "see you at the lake",
        "sender": {"userId": "u-ana", "displayName": "Ana"},
    }
    item.update(overrides)
    return item


def _assert_nothing_written(user):
    assert Chat.objects.filter(user=user).count() == 0
    assert Message.objects.filter(user=user).count() == 0
    assert Person.objects.filter(user=user).count() == 0


def _item_error(response):
    assert response.status_code == 400, response.content
    body = response.json()["error"]
    assert body["code"] == "invalid_batch"
    [error] = body["details"]["errors"]
    return error


def test_nested_sender_error_names_the_nested_field(api_client, user):
    response = api_client.post(
        URL, _batch([_message(sender={"email": "not-an-address"})]), format="json"
    )
    error = _item_error(response)
    assert error["item"] == "message"
    assert error["field"] == "sender.email"
    assert "email" in error["message"].lower()
    _assert_nothing_written(user)


def test_nested_participant_error_names_its_position(api_client, user):
    chats = [{"chatId": "c1", "participants": [{"userId": "u1"}, {"email": "nope"}]}]
    response = api_client.post(URL, _batch(chats=chats), format="json")
    error = _item_error(response)
    assert error["item"] == "chat"
    assert error["field"] == "participants.1.email"
    _assert_nothing_written(user)


@pytest.mark.parametrize(
    "sent_at",
    [
        "2026-02-30T10:00:00+01:00",  # no February 30
        "2026-03-01T25:00:00+01:00",  # no hour 25
        "2026-03-01T10:61:00Z",  # no minute 61
        "2026-03-01T10:00:00+25:00",  # offsets stop below 24 hours
    ],
)
def test_impossible_date_or_time_is_an_item_error(api_client, user, sent_at):
    response = api_client.post(URL, _batch([_message(sentAt=sent_at)]), format="json")
    error = _item_error(response)
    assert error["field"] == "sentAt"
    assert error["message"].startswith("Not a real date and time")
    _assert_nothing_written(user)


@pytest.mark.parametrize(
    "sent_at", ["9999-12-31T23:00:00-05:00", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00+01:00"]
)
def test_time_at_the_edge_of_the_calendar_is_out_of_range(api_client, user, sent_at):
    response = api_client.post(URL, _batch([_message(sentAt=sent_at)]), format="json")
    error = _item_error(response)
    assert error["field"] == "sentAt"
    assert error["message"] == "Give a time from 1900 to 2199."
    _assert_nothing_written(user)


def test_edited_at_is_checked_like_sent_at(api_client, user):
    response = api_client.post(
        URL, _batch([_message(editedAt="2026-02-30T10:00:00Z")]), format="json"
    )
    assert _item_error(response)["field"] == "editedAt"
    _assert_nothing_written(user)


def test_deeply_nested_json_is_refused_before_parsing_finishes(api_client, user):
    body = '{"platform": "telegram", "messages": ' + "[" * 100_000 + "]" * 100_000 + "}"
    response = api_client.generic("POST", URL, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "json_too_deep"
    _assert_nothing_written(user)


def test_json_that_parses_but_nests_too_deep_is_refused(api_client, user):
    nested: object = "x"
    for _ in range(200):
        nested = {"a": nested}
    batch = _batch([_message(sender=nested)])
    response = api_client.post(URL, batch, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "json_too_deep"
    _assert_nothing_written(user)


def test_text_longer_than_the_limit_is_an_item_error(api_client, user, settings):
    settings.INGEST_MAX_TEXT_CHARS = 65_536
    # Distinct words: their tsvector would pass PostgreSQL's 1 MB limit without the bound.
    text = " ".join(f"w{n:07d}x" for n in range(120_000))
    response = api_client.post(URL, _batch([_message(text=text)]), format="json")
    error = _item_error(response)
    assert error["field"] == "text"
    assert error["message"] == "A message text holds at most 65536 characters."
    _assert_nothing_written(user)


def test_text_at_the_limit_with_distinct_words_is_stored(api_client, user, settings):
    settings.INGEST_MAX_TEXT_CHARS = 65_536
    text = " ".join(f"w{n:07d}x" for n in range(65_536 // 10))[:65_536]
    response = api_client.post(URL, _batch([_message(text=text)]), format="json")
    assert response.status_code == 200, response.content
    assert Message.objects.get(user=user).text == text


@pytest.mark.parametrize(("text", "reason"), [("a\x00b", "null"), ("a\ud800b", "surrogate")])
def test_nul_bytes_and_lone_surrogates_are_item_errors(api_client, user, text, reason):
    body = json.dumps(_batch([_message(text=text)]))  # \u0000 and \ud800 escapes
    response = api_client.generic("POST", URL, body, content_type="application/json")
    error = _item_error(response)
    assert error["field"] == "text"
    assert reason in error["message"].lower()
    _assert_nothing_written(user)


def test_too_many_chats_is_413(api_client, user, settings):
    settings.INGEST_MAX_BATCH_CHATS = 3
    chats = [{"chatId": f"c{n}"} for n in range(4)]
    response = api_client.post(URL, _batch(chats=chats), format="json")
    assert response.status_code == 413
    assert response.json()["error"] == {
        "code": "batch_too_large",
        "message": "A batch holds at most 3 chats.",
        "details": {"field": "chats", "limit": 3},
    }
    _assert_nothing_written(user)


def test_too_many_participants_in_one_chat_is_413(api_client, user, settings):
    settings.INGEST_MAX_CHAT_PARTICIPANTS = 2
    chats = [{"chatId": "c1", "participants": [{"userId": f"u{n}"} for n in range(3)]}]
    response = api_client.post(URL, _batch(chats=chats), format="json")
    assert response.status_code == 413
    assert response.json()["error"]["details"] == {"field": "participants", "limit": 2}
    _assert_nothing_written(user)


def test_too_many_participants_in_one_batch_is_413(api_client, user, settings):
    settings.INGEST_MAX_BATCH_PARTICIPANTS = 5
    chats = [
        {"chatId": f"c{c}", "participants": [{"userId": f"u{c}-{n}"} for n in range(3)]}
        for c in range(2)
    ]
    response = api_client.post(URL, _batch(chats=chats), format="json")
    assert response.status_code == 413
    assert response.json()["error"]["message"] == "A batch lists at most 5 participants."
    _assert_nothing_written(user)


def test_batches_within_the_chat_limits_are_stored(api_client, user, settings):
    settings.INGEST_MAX_BATCH_CHATS = 2
    settings.INGEST_MAX_CHAT_PARTICIPANTS = 2
    chats = [
        {"chatId": f"c{c}", "participants": [{"userId": f"u{c}-{n}"} for n in range(2)]}
        for c in range(2)
    ]
    response = api_client.post(URL, _batch(chats=chats), format="json")
    assert response.status_code == 200, response.content
    assert Chat.objects.filter(user=user).count() == 2


@pytest.mark.parametrize(
    "cursor",
    [
        "2026-02-30T10:00:00+00:00_5",  # impossible date
        "2026-03-01T10:00:00+25:00_5",  # impossible offset
        "2026-03-01T10:00:00+00:00_²",  # a Unicode digit
        "2026-03-01T10:00:00+00:00_99999999999999999999",  # past bigint
        "2026-03-01T10:00:00_5",  # no offset
    ],
)
def test_bad_message_cursor_is_invalid_cursor(api_client, user, cursor):
    chat = ChatFactory(user=user)
    MessageFactory(chat=chat)
    response = api_client.get(f"/api/chats/{chat.pk}/messages", {"before": cursor})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_cursor"


@pytest.mark.parametrize("anchor", ["²", "99999999999999999999"])
def test_chat_page_with_a_bad_anchor_shows_the_latest_messages(client, user, anchor):
    chat = ChatFactory(user=user)
    MessageFactory(chat=chat, text="the newest line")
    client.force_login(user)
    response = client.get(f"/chats/{chat.pk}/", {"message": anchor})
    assert response.status_code == 200
    assert "the newest line" in response.content.decode()


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "2026-02-30"])
def test_calendar_at_the_ends_of_the_calendar_is_400(client, user, day):
    client.force_login(user)
    response = client.get("/calendar/", {"date": day})
    assert response.status_code == 400
    assert "is not a date" in response.content.decode()
