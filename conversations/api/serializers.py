"""Wire formats of the conversations API (camelCase, like the rest of the public API)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.utils.dateparse import parse_datetime
from rest_framework import serializers

from conversations.identities import IncomingIdentity
from conversations.models import Chat, ChatKind, Message, MessageKind, Person, Platform
from conversations.services import IncomingChat, IncomingMessage

# Message times outside these bounds are refused: converting 9999-12-31T23:00-05:00 to UTC, or
# adding a day to it, overflows Python's datetime.
EARLIEST_TIME = datetime(1900, 1, 1, tzinfo=UTC)
LATEST_TIME = datetime(2200, 1, 1, tzinfo=UTC)


class AwareDateTimeField(serializers.DateTimeField):
    """An ISO-8601 datetime that must carry its UTC offset: a bridge that sends a naive time
    would otherwise have it silently read in the server's timezone."""

    default_error_messages = {
        "naive": "Include a UTC offset (for example +01:00 or Z).",
        "impossible": "Not a real date and time (check the day, the hour and the offset).",
        "out_of_range": f"Give a time from {EARLIEST_TIME.year} to {LATEST_TIME.year - 1}.",
    }

    def to_internal_value(self, value: Any) -> Any:
        if isinstance(value, str):
            try:
                # Django raises ValueError for well-formed impossible values (February 30,
                # hour 25, offset +25:00) instead of returning None.
                parsed = parse_datetime(value.strip())
            except ValueError:
                self.fail("impossible")
            if parsed is not None and parsed.tzinfo is None:
                self.fail("naive")
            if parsed is not None and not EARLIEST_TIME <= parsed < LATEST_TIME:
                self.fail("out_of_range")
        return super().to_internal_value(value)


class IdentitySerializer(serializers.Serializer[Any]):
    userId = serializers.CharField(required=False, allow_blank=True, max_length=255)
    handle = serializers.CharField(required=False, allow_blank=True, max_length=255)
    phone = serializers.CharField(required=False, allow_blank=True, max_length=64)
    email = serializers.EmailField(required=False, allow_blank=True, max_length=255)
    displayName = serializers.CharField(required=False, allow_blank=True, max_length=255)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not any(str(value).strip() for value in attrs.values()):
            raise serializers.ValidationError(
                "An identity needs at least one of userId, handle, phone, email, displayName.",
                code="empty_identity",
            )
        return attrs


def identity_from(platform: str, data: dict[str, Any]) -> IncomingIdentity:
    return IncomingIdentity(
        platform=platform,
        platform_user_id=data.get("userId", ""),
        handle=data.get("handle", ""),
        phone=data.get("phone", ""),
        email=data.get("email", ""),
        display_name=data.get("displayName", ""),
    )


class IngestChatSerializer(serializers.Serializer[Any]):
    chatId = serializers.CharField(max_length=255)
    title = serializers.CharField(required=False, allow_blank=True, max_length=512, default="")
    # No default: a chat sent again without its kind keeps the stored one.
    kind = serializers.ChoiceField(choices=ChatKind.choices, required=False)
    participants = IdentitySerializer(many=True, required=False, default=list)


class IngestMessageSerializer(serializers.Serializer[Any]):
    chatId = serializers.CharField(max_length=255)
    messageId = serializers.CharField(max_length=255)
    sentAt = AwareDateTimeField()
    text = serializers.CharField(
        required=False, allow_blank=True, trim_whitespace=False, default=""
    )
    sender = IdentitySerializer(required=False, allow_null=True, default=None)
    fromSelf = serializers.BooleanField(required=False, default=False)
    kind = serializers.ChoiceField(choices=MessageKind.choices, default=MessageKind.TEXT)
    replyToMessageId = serializers.CharField(
        required=False, allow_blank=True, max_length=255, default=""
    )
    editedAt = AwareDateTimeField(required=False, allow_null=True, default=None)
    deleted = serializers.BooleanField(required=False, default=False)

    def validate_text(self, value: str) -> str:
        limit = settings.INGEST_MAX_TEXT_CHARS
        if len(value) > limit:
            raise serializers.ValidationError(
                f"A message text holds at most {limit} characters.", code="text_too_long"
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs["fromSelf"] and attrs["sender"] is None and not attrs["deleted"]:
            raise serializers.ValidationError(
                {"sender": "A message needs a sender unless fromSelf is true."},
                code="missing_sender",
            )
        return attrs


class IngestConnectionSerializer(serializers.Serializer[Any]):
    accountId = serializers.CharField(max_length=255)
    displayName = serializers.CharField(required=False, allow_blank=True, max_length=255)


class IngestBatchSerializer(serializers.Serializer[Any]):
    platform = serializers.ChoiceField(choices=Platform.choices)
    connection = IngestConnectionSerializer(required=False)
    chats = serializers.ListField(child=serializers.DictField(), required=False, default=list)
    messages = serializers.ListField(child=serializers.DictField(), allow_empty=True)


def incoming_chat_from(platform: str, account_id: str, data: dict[str, Any]) -> IncomingChat:
    return IncomingChat(
        platform=platform,
        platform_chat_id=data["chatId"],
        title=data["title"],
        kind=data.get("kind"),
        participants=tuple(identity_from(platform, item) for item in data["participants"]),
        connection_account_id=account_id,
    )


def incoming_message_from(platform: str, data: dict[str, Any]) -> tuple[str, IncomingMessage]:
    sender = data["sender"]
    return data["chatId"], IncomingMessage(
        platform_message_id=data["messageId"],
        sent_at=data["sentAt"],
        text=data["text"],
        sender=identity_from(platform, sender) if sender else None,
        is_from_self=data["fromSelf"],
        kind=data["kind"],
        reply_to_platform_message_id=data["replyToMessageId"],
        edited_at=data["editedAt"],
        is_deleted=data["deleted"],
    )


class ChatSerializer(serializers.ModelSerializer[Chat]):
    excludedFromAi = serializers.BooleanField(source="is_excluded_from_ai")
    platformChatId = serializers.CharField(source="platform_chat_id", read_only=True)
    lastMessageAt = serializers.DateTimeField(source="last_message_at", read_only=True)

    class Meta:
        model = Chat
        fields = [
            "id",
            "platform",
            "platformChatId",
            "title",
            "kind",
            "excludedFromAi",
            "lastMessageAt",
        ]
        read_only_fields = ["id", "platform", "title", "kind"]


class ChatUpdateSerializer(serializers.Serializer[Any]):
    excludedFromAi = serializers.BooleanField()


class PersonSerializer(serializers.ModelSerializer[Person]):
    displayName = serializers.CharField(source="display_name")

    class Meta:
        model = Person
        fields = ["id", "displayName"]


class MessageSerializer(serializers.ModelSerializer[Message]):
    chatId = serializers.IntegerField(source="chat_id")
    senderName = serializers.SerializerMethodField()
    senderPersonId = serializers.IntegerField(source="sender_person_id", allow_null=True)
    fromSelf = serializers.BooleanField(source="is_from_self")
    sentAt = serializers.DateTimeField(source="sent_at")
    editedAt = serializers.DateTimeField(source="edited_at", allow_null=True)
    replyToId = serializers.IntegerField(source="reply_to_id", allow_null=True)

    class Meta:
        model = Message
        fields = [
            "id",
            "chatId",
            "senderName",
            "senderPersonId",
            "fromSelf",
            "kind",
            "text",
            "sentAt",
            "editedAt",
            "replyToId",
        ]

    def get_senderName(self, message: Message) -> str:
        if message.is_from_self:
            return "You"
        if message.sender_person is not None:
            return message.sender_person.display_name
        return message.sender_name


# --- Documented shapes (the published schema; the views build these bodies) ------------------


class IngestBatchRequestSerializer(serializers.Serializer[Any]):
    """The batch as the schema publishes it; items are validated one by one (``invalid_batch``
    lists every invalid item with its index)."""

    platform = serializers.ChoiceField(choices=Platform.choices)
    connection = IngestConnectionSerializer(required=False)
    chats = IngestChatSerializer(many=True, required=False)
    messages = IngestMessageSerializer(many=True)


class IngestResultSerializer(serializers.Serializer[Any]):
    chatsCreated = serializers.IntegerField()
    peopleCreated = serializers.IntegerField()
    messagesCreated = serializers.IntegerField()
    messagesUpdated = serializers.IntegerField()
    messagesDeleted = serializers.IntegerField()
    messagesUnchanged = serializers.IntegerField()


class ChatListSerializer(serializers.Serializer[Any]):
    chats = ChatSerializer(many=True)


class MessagePageSerializer(serializers.Serializer[Any]):
    messages = MessageSerializer(many=True)
    nextCursor = serializers.CharField(required=False, help_text="Absent on the last page.")


class PeopleListSerializer(serializers.Serializer[Any]):
    people = PersonSerializer(many=True)


class MeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    email = serializers.EmailField()
    timezone = serializers.CharField()
