"""Conversation data: platform connections, chats, people and their identities, messages.

This app is the only owner of these tables and the only code that writes them
(``conversations.services``). Every row carries its owner (``user``) so that every query can
be, and is, scoped by user (``conversations.selectors``).
"""

from __future__ import annotations

import hashlib
import unicodedata

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import Q

# The text search configuration of the stored tsvector; queries must use the same one.
TEXT_SEARCH_CONFIG = "english"


class Platform(models.TextChoices):
    WHATSAPP = "whatsapp", "WhatsApp"
    TELEGRAM = "telegram", "Telegram"
    IMESSAGE = "imessage", "iMessage"
    SIGNAL = "signal", "Signal"
    SLACK = "slack", "Slack"
    DISCORD = "discord", "Discord"
    SMS = "sms", "SMS"
    EMAIL = "email", "Email"
    OTHER = "other", "Other"


class ChatKind(models.TextChoices):
    DIRECT = "direct", "Direct"
    GROUP = "group", "Group"


class IdentityKind(models.TextChoices):
    """What an identity value is; phone numbers and emails can match across platforms."""

    PLATFORM_ID = "platform_id", "Platform user id"
    HANDLE = "handle", "Handle"
    PHONE = "phone", "Phone number"
    EMAIL = "email", "Email address"
    NAME = "name", "Display name"


class MessageKind(models.TextChoices):
    TEXT = "text", "Text"
    MEDIA = "media", "Media"
    SYSTEM = "system", "System"


def content_hash_of(text: str) -> str:
    """SHA-256 of the NFC-normalised text: equal for equal content, whatever the encoding."""
    normalised = unicodedata.normalize("NFC", text)
    return hashlib.sha256(normalised.encode("utf-8")).hexdigest()


class PlatformConnection(models.Model):
    """One account of the user on one platform (a phone, a workspace, a mailbox)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="platform_connections"
    )
    platform = models.CharField(max_length=16, choices=Platform.choices)
    external_account_id = models.CharField(max_length=255)
    display_name = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_ingested_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "platform", "external_account_id"],
                name="platform_connection_unique_account",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_platform_display()}: {self.display_name or self.external_account_id}"


class Person(models.Model):
    """A contact of the user. One human can have identities on several platforms."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="people"
    )
    display_name = models.CharField(max_length=255)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "people"
        indexes = [
            models.Index(fields=["user", "display_name"], name="person_user_name"),
            # Fuzzy name matching ("Dmitri" ~ "Dmitry") when questions name people.
            GinIndex(
                fields=["display_name"], name="person_name_trigram", opclasses=["gin_trgm_ops"]
            ),
        ]

    def __str__(self) -> str:
        return self.display_name


class PersonIdentity(models.Model):
    """A way a person shows up on a platform: a user id, a handle, a phone number, an email.

    ``value`` is normalised (see ``conversations.identities``) so that the same phone number
    or email written differently is one identity. Phone numbers and emails use the platform
    ``other`` so they match across platforms.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="person_identities"
    )
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="identities")
    platform = models.CharField(max_length=16, choices=Platform.choices)
    kind = models.CharField(max_length=16, choices=IdentityKind.choices)
    value = models.CharField(max_length=255)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "person identities"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "platform", "kind", "value"], name="person_identity_unique_value"
            )
        ]
        indexes = [models.Index(fields=["person"], name="person_identity_person")]

    def __str__(self) -> str:
        return f"{self.platform}:{self.kind}:{self.value}"


class Chat(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chats"
    )
    connection = models.ForeignKey(
        PlatformConnection, on_delete=models.SET_NULL, null=True, blank=True, related_name="chats"
    )
    platform = models.CharField(max_length=16, choices=Platform.choices)
    platform_chat_id = models.CharField(max_length=255)
    title = models.CharField(max_length=512, blank=True)
    kind = models.CharField(max_length=8, choices=ChatKind.choices, default=ChatKind.DIRECT)
    is_excluded_from_ai = models.BooleanField(
        default=False, help_text="Never searched, embedded or shown to a model."
    )
    participants: models.ManyToManyField[Person, ChatParticipant] = models.ManyToManyField(
        Person, through="ChatParticipant", related_name="chats"
    )
    last_message_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "platform", "platform_chat_id"], name="chat_unique_platform_id"
            )
        ]
        indexes = [
            models.Index(fields=["user", "-last_message_at"], name="chat_user_recent"),
        ]

    def __str__(self) -> str:
        return self.title or self.platform_chat_id


class ChatParticipant(models.Model):
    chat = models.ForeignKey(Chat, on_delete=models.CASCADE, related_name="memberships")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="memberships")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["chat", "person"], name="chat_participant_unique")
        ]

    def __str__(self) -> str:
        return f"{self.person_id} in {self.chat_id}"


class Message(models.Model):
    """One message. Soft-deleted messages keep their row (``deleted_at``) but lose their text
    from every search and index; edits keep ``edited_at`` and change ``content_hash``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="messages"
    )
    chat = models.ForeignKey(Chat, on_delete=models.CASCADE, related_name="messages")
    platform_message_id = models.CharField(max_length=255)
    sender_person = models.ForeignKey(
        Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="messages_sent"
    )
    is_from_self = models.BooleanField(default=False)
    sender_name = models.CharField(
        max_length=255, blank=True, help_text="The sender's display name as the platform showed it."
    )
    kind = models.CharField(max_length=8, choices=MessageKind.choices, default=MessageKind.TEXT)
    text = models.TextField(blank=True)
    content_hash = models.CharField(max_length=64)
    sent_at = models.DateTimeField()
    reply_to = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="replies"
    )
    reply_to_platform_message_id = models.CharField(max_length=255, blank=True)
    edited_at = models.DateTimeField(null=True, blank=True)
    deleted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Maintained by PostgreSQL on every write, so lexical search never parses text at query time.
    search_vector = models.GeneratedField(
        expression=SearchVector("text", config=TEXT_SEARCH_CONFIG),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "chat", "platform_message_id"], name="message_unique_platform_id"
            ),
            models.CheckConstraint(
                condition=~(Q(is_from_self=True) & Q(sender_person__isnull=False)),
                name="message_sender_is_self_or_person",
            ),
        ]
        indexes = [
            models.Index(
                fields=["chat", "sent_at", "id"],
                name="message_chat_time",
                condition=Q(deleted_at__isnull=True),
            ),
            models.Index(
                fields=["user", "sent_at", "id"],
                name="message_user_time",
                condition=Q(deleted_at__isnull=True),
            ),
            models.Index(fields=["sender_person", "sent_at"], name="message_sender_time"),
            GinIndex(
                fields=["search_vector"],
                name="message_search_vector",
                condition=Q(deleted_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.chat_id}/{self.platform_message_id}"

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None
