"""Building blocks for personal-memory tests: ingest through the real conversations service."""

from __future__ import annotations

from datetime import datetime

from claire.accounts.models import User
from conversations.identities import IncomingIdentity
from conversations.models import ChatKind, Message
from conversations.services import IncomingChat, IncomingMessage, IngestResult, messages_ingest
from fixtures.demo_corpus import DemoCorpus


def person_identity(name: str, platform: str = "whatsapp") -> IncomingIdentity:
    """The same phone number on every platform, so one name is one person across platforms."""
    phone = "+35191" + str(sum(ord(char) * (index + 1) for index, char in enumerate(name))).zfill(7)
    return IncomingIdentity(platform=platform, phone=phone, display_name=name)


def chat_of(
    chat_id: str, *members: str, kind: str = ChatKind.DIRECT, platform: str = "whatsapp"
) -> IncomingChat:
    return IncomingChat(
        platform=platform,
        platform_chat_id=chat_id,
        title=chat_id,
        kind=kind,
        participants=tuple(person_identity(name, platform) for name in members),
    )


def say(
    message_id: str,
    sent_at: datetime,
    text: str,
    *,
    sender: str | None = None,
    platform: str = "whatsapp",
    is_deleted: bool = False,
    reply_to: str = "",
) -> IncomingMessage:
    return IncomingMessage(
        platform_message_id=message_id,
        sent_at=sent_at,
        text=text,
        sender=person_identity(sender, platform) if sender else None,
        is_from_self=sender is None,
        is_deleted=is_deleted,
        reply_to_platform_message_id=reply_to,
    )


def ingest(user: User, chat: IncomingChat, *messages: IncomingMessage) -> IngestResult:
    return messages_ingest(
        user=user, chats=[chat], messages=[(chat.platform_chat_id, m) for m in messages]
    )


def message_row(user: User, platform_chat_id: str, platform_message_id: str) -> Message:
    return Message.objects.get(
        user=user, chat__platform_chat_id=platform_chat_id, platform_message_id=platform_message_id
    )


def beat_message_ids(user: User, corpus: DemoCorpus, key: str) -> set[int]:
    return {
        message_row(user, ref.platform_chat_id, ref.platform_message_id).pk
        for ref in corpus.story[key].evidence
    }
