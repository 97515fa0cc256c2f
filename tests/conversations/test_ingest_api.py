import pytest

from conversations.models import Chat, Message, Person, PersonIdentity

pytestmark = pytest.mark.django_db

URL = "/api/ingest/batches"


def _batch(messages, chats=None, platform="telegram"):
    return {
        "platform": platform,
        "connection": {"accountId": "acct-1", "displayName": "My phone"},
        "chats": chats
        if chats is not None
        else [
            {
                "chatId": "c1",
                "title": "Weekend plans",
                "kind": "group",
                "participants": [
                    {"userId": "u-ana", "displayName": "Ana", "phone": "+351 910 000 001"},
                    {"userId": "u-ben", "displayName": "Ben"},
                ],
            }
        ],
        "messages": messages,
    }


def _message(n, **overrides):
    item = {
        "chatId": "c1",
        "messageId": f"m{n}",
        "sentAt": f"2026-03-01T10:{n:02d}:00+01:00",
        "text": f"message number {n}",
        "sender": {"userId": "u-ana", "displayName": "Ana"},
    }
    item.update(overrides)
    return item


def test_batch_of_500_is_accepted_and_reposting_creates_nothing(api_client, user):
    messages = [_message(n % 60, messageId=f"m{n}") for n in range(500)]
    response = api_client.post(URL, _batch(messages), format="json")
    assert response.status_code == 200, response.content
    assert response.json()["messagesCreated"] == 500
    assert Message.objects.filter(user=user).count() == 500

    again = api_client.post(URL, _batch(messages), format="json")
    assert again.status_code == 200
    assert again.json() == {
        "chatsCreated": 0,
        "peopleCreated": 0,
        "messagesCreated": 0,
        "messagesUpdated": 0,
        "messagesDeleted": 0,
        "messagesUnchanged": 500,
    }
    assert Message.objects.filter(user=user).count() == 500
    assert Chat.objects.filter(user=user).count() == 1


def test_participants_become_people_with_identities(api_client, user):
    api_client.post(URL, _batch([_message(1)]), format="json")
    ana = Person.objects.get(user=user, display_name="Ana")
    assert set(ana.identities.values_list("kind", "value")) == {
        ("platform_id", "u-ana"),
        ("phone", "+351910000001"),
    }
    chat = Chat.objects.get(user=user)
    assert chat.kind == "group"
    assert chat.connection.external_account_id == "acct-1"
    assert set(chat.participants.values_list("display_name", flat=True)) == {"Ana", "Ben"}
    message = Message.objects.get(user=user)
    assert message.sender_person == ana
    assert message.sent_at.isoformat() == "2026-03-01T09:01:00+00:00"


def test_edit_changes_text_hash_and_keeps_edit_time(api_client, user):
    api_client.post(URL, _batch([_message(1)]), format="json")
    original = Message.objects.get(user=user)
    response = api_client.post(
        URL,
        _batch([_message(1, text="message, corrected", editedAt="2026-03-01T11:00:00Z")]),
        format="json",
    )
    assert response.json()["messagesUpdated"] == 1
    edited = Message.objects.get(pk=original.pk)
    assert edited.text == "message, corrected"
    assert edited.content_hash != original.content_hash
    assert edited.edited_at.isoformat() == "2026-03-01T11:00:00+00:00"


def test_delete_is_soft_and_a_resent_original_stays_deleted(api_client, user):
    api_client.post(URL, _batch([_message(1)]), format="json")
    response = api_client.post(URL, _batch([_message(1, deleted=True)]), format="json")
    assert response.json()["messagesDeleted"] == 1
    message = Message.objects.get(user=user)
    assert message.deleted_at is not None

    api_client.post(URL, _batch([_message(1)]), format="json")
    assert Message.objects.get(user=user).deleted_at is not None


def test_delete_before_the_original_leaves_a_tombstone(api_client, user):
    api_client.post(URL, _batch([_message(2, deleted=True)]), format="json")
    api_client.post(URL, _batch([_message(2)]), format="json")
    message = Message.objects.get(user=user)
    assert message.deleted_at is not None
    assert message.text == ""


def test_reply_links_in_either_order(api_client, user):
    api_client.post(URL, _batch([_message(2, replyToMessageId="m1")]), format="json")
    api_client.post(URL, _batch([_message(1)]), format="json")
    reply = Message.objects.get(user=user, platform_message_id="m2")
    assert reply.reply_to.platform_message_id == "m1"


def test_from_self_messages_have_no_sender_person(api_client, user):
    api_client.post(URL, _batch([_message(1, sender=None, fromSelf=True)]), format="json")
    message = Message.objects.get(user=user)
    assert message.is_from_self is True
    assert message.sender_person is None


def test_invalid_items_refuse_the_whole_batch_with_per_item_errors(api_client, user):
    messages = [
        _message(1),
        _message(2, sentAt="not a date"),
        _message(3, sender=None),
        _message(4, chatId="nope"),
    ]
    response = api_client.post(URL, _batch(messages), format="json")
    assert response.status_code == 400
    body = response.json()["error"]
    assert body["code"] == "invalid_batch"
    assert [(e["index"], e["field"]) for e in body["details"]["errors"]] == [
        (1, "sentAt"),
        (2, "sender"),
        (3, "chatId"),
    ]
    assert not Message.objects.exists()
    assert not Chat.objects.exists()
    assert not Person.objects.exists()


def test_naive_timestamps_are_refused(api_client):
    response = api_client.post(
        URL, _batch([_message(1, sentAt="2026-03-01T10:00:00")]), format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["details"]["errors"][0]["field"] == "sentAt"
    assert not Message.objects.exists()


def test_batch_over_the_limit_is_refused(api_client, settings):
    settings.INGEST_MAX_BATCH_MESSAGES = 3
    response = api_client.post(URL, _batch([_message(n) for n in range(4)]), format="json")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "batch_too_large"
    assert not Message.objects.exists()


def test_messages_may_target_a_chat_known_from_an_earlier_batch(api_client, user):
    api_client.post(URL, _batch([_message(1)]), format="json")
    response = api_client.post(URL, _batch([_message(2)], chats=[]), format="json")
    assert response.status_code == 200
    assert Message.objects.filter(user=user).count() == 2


def test_same_ids_for_two_users_stay_separate(api_client, other_api_client, user, other_user):
    api_client.post(URL, _batch([_message(1)]), format="json")
    other_api_client.post(URL, _batch([_message(1, text="theirs")]), format="json")
    assert Message.objects.get(user=user).text == "message number 1"
    assert Message.objects.get(user=other_user).text == "theirs"
    assert PersonIdentity.objects.filter(value="u-ana").count() == 2


def test_ingest_requires_authentication(client):
    response = client.post(URL, _batch([_message(1)]), content_type="application/json")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
    assert not Message.objects.exists()


def test_malformed_json_has_a_stable_code(api_client):
    response = api_client.post(URL, "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_json"


def _chat_state(user):
    chat = Chat.objects.get(user=user, platform_chat_id="c1")
    return {
        "title": chat.title,
        "kind": chat.kind,
        "connection": chat.connection.external_account_id if chat.connection else None,
        "excluded": chat.is_excluded_from_ai,
        "participants": sorted(chat.participants.values_list("display_name", flat=True)),
    }


def _people_state(user):
    return sorted(
        (identity.person.display_name, identity.kind, identity.value)
        for identity in PersonIdentity.objects.filter(user=user).select_related("person")
    )


STORED_CHAT = {
    "title": "Weekend plans",
    "kind": "group",
    "connection": "acct-1",
    "excluded": True,
    "participants": ["Ana", "Ben"],
}


@pytest.fixture
def stored_group_chat(api_client, user):
    """The chat and its people as a first batch sent them, then taken out of AI by the user."""
    assert api_client.post(URL, _batch([_message(1)]), format="json").status_code == 200
    chat = Chat.objects.get(user=user, platform_chat_id="c1")
    patched = api_client.patch(f"/api/chats/{chat.pk}", {"excludedFromAi": True}, format="json")
    assert patched.status_code == 200
    assert _chat_state(user) == STORED_CHAT
    return _people_state(user)


def test_a_message_naming_a_stored_chat_changes_nothing_about_the_chat(
    api_client, user, stored_group_chat
):
    later = {"platform": "telegram", "messages": [_message(2)]}
    response = api_client.post(URL, later, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["messagesCreated"] == 1
    assert _chat_state(user) == STORED_CHAT
    assert _people_state(user) == stored_group_chat


def test_a_chat_listed_again_with_only_its_id_keeps_every_stored_field(
    api_client, user, stored_group_chat
):
    later = {"platform": "telegram", "chats": [{"chatId": "c1"}], "messages": [_message(2)]}
    response = api_client.post(URL, later, format="json")

    assert response.status_code == 200, response.content
    assert _chat_state(user) == STORED_CHAT
    assert _people_state(user) == stored_group_chat


def test_a_chat_listed_with_a_new_kind_and_title_takes_them(api_client, user, stored_group_chat):
    later = {
        "platform": "telegram",
        "chats": [{"chatId": "c1", "kind": "direct", "title": "Ana"}],
        "messages": [_message(2)],
    }
    assert api_client.post(URL, later, format="json").status_code == 200

    assert _chat_state(user) == {**STORED_CHAT, "kind": "direct", "title": "Ana"}


def test_a_person_named_by_one_identifier_keeps_their_name_and_other_identifiers(
    api_client, user, stored_group_chat
):
    later = {
        "platform": "telegram",
        "chats": [{"chatId": "c1", "participants": [{"userId": "u-ana"}]}],
        "messages": [_message(2, sender={"userId": "u-ana"})],
    }
    response = api_client.post(URL, later, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["peopleCreated"] == 0
    assert _people_state(user) == stored_group_chat
    assert ("Ana", "phone", "+351910000001") in stored_group_chat
    message = Message.objects.get(user=user, platform_message_id="m2")
    assert message.sender_person.display_name == "Ana"
