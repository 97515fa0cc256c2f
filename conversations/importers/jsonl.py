"""The neutral JSON-Lines format: one message per line (documented in docs/IMPORT_FORMATS.md).

Required on every line: ``conversation_id``, ``message_id``, ``sender``, ``text`` and
``sent_at`` (ISO-8601 with a UTC offset). Optional: ``platform`` (default ``other``),
``conversation_title``, ``conversation_kind``, ``kind``, ``reply_to``, ``edited_at``,
``deleted``, ``sender_id``, ``is_from_self``. Anything else on a line is ignored, so richer
files (the LoCoMo conversion carries session indexes and image captions) import as they are.

The file is read twice: once to validate every line and learn each conversation's title, kind
and platform (so a broken line stops the import before anything is written), then again,
lazily, to stream the messages.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings

from conversations.identities import IncomingIdentity, normalise_name
from conversations.importers.base import (
    ImportFormatError,
    ParsedExport,
    ParseOptions,
    chat_title_from_senders,
    text_lines,
    text_problem,
)
from conversations.models import ChatKind, MessageKind, Platform
from conversations.services import IncomingChat, IncomingMessage

Fail = Callable[[str], ImportFormatError]

# Django's choices compute .values on every access; these are checked on every line.
_PLATFORMS = frozenset(Platform.values)
_MESSAGE_KINDS = frozenset(MessageKind.values)
_CHAT_KINDS = frozenset(ChatKind.values)

REQUIRED_FIELDS = ("conversation_id", "message_id", "sender", "text", "sent_at")


@dataclass
class _Conversation:
    platform: str
    first_line: int
    title: str = ""
    kind: str = ""
    sender_keys: set[str] = field(default_factory=set)
    other_senders: list[str] = field(default_factory=list)

    def chat(self, platform_chat_id: str) -> IncomingChat:
        kind = self.kind or (ChatKind.GROUP if len(self.sender_keys) > 2 else ChatKind.DIRECT)
        return IncomingChat(
            platform=self.platform,
            platform_chat_id=platform_chat_id,
            title=self.title or chat_title_from_senders(self.other_senders),
            kind=kind,
        )


@dataclass(frozen=True)
class _Line:
    platform: str
    platform_chat_id: str
    title: str
    chat_kind: str
    message: IncomingMessage


def parse_jsonl(path: Path, *, options: ParseOptions) -> ParsedExport:
    conversations: dict[str, _Conversation] = {}
    line_of_message: dict[tuple[str, str], int] = {}
    superseded: set[int] = set()
    for number, line in _lines(path, options=options):
        key = (line.platform_chat_id, line.message.platform_message_id)
        if key in line_of_message:
            superseded.add(line_of_message[key])
        line_of_message[key] = number
        conversation = conversations.get(line.platform_chat_id)
        if conversation is None:
            conversation = _Conversation(platform=line.platform, first_line=number)
            conversations[line.platform_chat_id] = conversation
        elif conversation.platform != line.platform:
            raise ImportFormatError(
                path,
                number,
                f"conversation_id {line.platform_chat_id!r} has platform {line.platform!r} "
                f"here but {conversation.platform!r} on line {conversation.first_line}",
            )
        conversation.title = conversation.title or line.title
        conversation.kind = conversation.kind or line.chat_kind
        sender = line.message.sender
        if sender is not None:
            sender_key = sender.platform_user_id or normalise_name(sender.display_name)
            if sender_key not in conversation.sender_keys:
                conversation.sender_keys.add(sender_key)
                if not line.message.is_from_self:
                    conversation.other_senders.append(sender.label)
    return ParsedExport(
        chats=tuple(
            conversation.chat(platform_chat_id)
            for platform_chat_id, conversation in conversations.items()
        ),
        # Only the last line of a message is handed on, so that re-importing a file that
        # carries an edit as a second line finds the message unchanged.
        messages=(
            (line.platform_chat_id, line.message)
            for number, line in _lines(path, options=options)
            if number not in superseded
        ),
        message_count=len(line_of_message),
    )


def _lines(path: Path, *, options: ParseOptions) -> Iterator[tuple[int, _Line]]:
    for number, raw in text_lines(path):
        if raw.strip():
            yield number, _line_parse(path, number, raw, options=options)


def _line_parse(path: Path, number: int, raw: str, *, options: ParseOptions) -> _Line:
    def fail(message: str) -> ImportFormatError:
        return ImportFormatError(path, number, message)

    try:
        data = json.loads(raw)
    except RecursionError:
        raise fail("invalid JSON: nested too deeply") from None
    except json.JSONDecodeError as error:
        raise fail(f"invalid JSON: {error.msg} (column {error.colno})") from None
    if not isinstance(data, dict):
        raise fail(f"expected a JSON object, found {type(data).__name__}")
    missing = [name for name in REQUIRED_FIELDS if name not in data]
    if missing:
        raise fail(f"missing required field {', '.join(repr(name) for name in missing)}")

    platform = _string(data, "platform", fail, default=Platform.OTHER)
    if platform not in _PLATFORMS:
        raise fail(f"platform {platform!r} is not one of {', '.join(Platform.values)}")
    kind = _string(data, "kind", fail, default=MessageKind.TEXT)
    if kind not in _MESSAGE_KINDS:
        raise fail(f"kind {kind!r} is not one of {', '.join(MessageKind.values)}")
    chat_kind = _string(data, "conversation_kind", fail, default="")
    if chat_kind and chat_kind not in _CHAT_KINDS:
        raise fail(f"conversation_kind {chat_kind!r} is not one of {', '.join(ChatKind.values)}")

    conversation_id = _identifier(data, "conversation_id", fail)
    message_id = _identifier(data, "message_id", fail)
    sender_name = _string(data, "sender", fail)
    sender_id = _identifier(data, "sender_id", fail, required=False)
    text = _string(data, "text", fail)
    is_deleted = _boolean(data, "deleted", fail)
    is_from_self = _boolean(data, "is_from_self", fail) or options.is_self(sender_name, sender_id)

    title = _string(data, "conversation_title", fail, default="")
    for name, value in (("text", text), ("sender", sender_name), ("conversation_title", title)):
        problem = text_problem(value, max_chars=settings.INGEST_MAX_TEXT_CHARS)
        if problem is not None:
            raise fail(f"{name} {problem}")
    sender = None
    if kind != MessageKind.SYSTEM and (sender_name.strip() or sender_id):
        sender = IncomingIdentity(
            platform=platform, platform_user_id=sender_id, display_name=sender_name
        )
    elif kind != MessageKind.SYSTEM and not (is_from_self or is_deleted):
        raise fail("sender is empty (allowed only for system, deleted or own messages)")

    return _Line(
        platform=platform,
        platform_chat_id=conversation_id,
        title=title,
        chat_kind=chat_kind,
        message=IncomingMessage(
            platform_message_id=message_id,
            sent_at=_aware_datetime(data, "sent_at", fail),
            text=text,
            sender=sender,
            is_from_self=is_from_self,
            kind=kind,
            reply_to_platform_message_id=_identifier(data, "reply_to", fail, required=False),
            edited_at=(
                _aware_datetime(data, "edited_at", fail)
                if data.get("edited_at") is not None
                else None
            ),
            is_deleted=is_deleted,
            source_line=number,
        ),
    )


def _string(data: dict[str, Any], name: str, fail: Fail, *, default: str | None = None) -> str:
    value = data.get(name)
    if value is None and default is not None:
        return default
    if not isinstance(value, str):
        raise fail(f"{name} must be a string, found {_json_type(value)}")
    return value


def _identifier(data: dict[str, Any], name: str, fail: Fail, *, required: bool = True) -> str:
    """Ids may be written as strings or integers; they are stored as strings."""
    value = data.get(name)
    if value is None and not required:
        return ""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise fail(f"{name} must be a string or an integer, found {_json_type(value)}")
    text = str(value).strip()
    if required and not text:
        raise fail(f"{name} is empty")
    if len(text) > 255:
        raise fail(f"{name} is longer than 255 characters")
    return text


def _boolean(data: dict[str, Any], name: str, fail: Fail) -> bool:
    value = data.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise fail(f"{name} must be true or false, found {_json_type(value)}")
    return value


def _aware_datetime(data: dict[str, Any], name: str, fail: Fail) -> datetime:
    value = data.get(name)
    if not isinstance(value, str):
        raise fail(f"{name} must be an ISO-8601 string, found {_json_type(value)}")
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        raise fail(f"{name} is not an ISO-8601 date-time: {value!r}") from None
    if parsed.tzinfo is None or parsed.utcoffset() is None:
        raise fail(f"{name} has no UTC offset: {value!r} (write e.g. +01:00 or Z)")
    return parsed


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "number", float: "number", str: "string"}.get(
        type(value), "list" if isinstance(value, list) else "object"
    )
