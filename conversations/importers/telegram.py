"""Telegram Desktop "Export chat history" / "Export Telegram data" in JSON (``result.json``).

Two shapes: a single chat (``{"name", "type", "id", "messages": [...]}``) and a full export
(``{"personal_information": {...}, "chats": {"list": [...]}, "left_chats": {...}}``). In a
full export the owner's ``user_id`` marks their own messages, so ``--self`` is not needed.

Text is a string or a list of plain strings and entities (``{"type": "bold", "text": ...}``);
it is flattened to plain text. ``date_unixtime`` (UTC) wins over the naive ``date``. Sender
ids come as ``user123``: the number is the platform user id, so a contact imported here and
seen by a Telegram bridge is one person. Service messages become system messages, written
out the way the app shows them.

The whole file is parsed at once (the standard library has no streaming JSON reader); the
messages are then handed out lazily.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from conversations.identities import IncomingIdentity
from conversations.importers.base import ImportFormatError, ParsedExport, ParseOptions, json_load
from conversations.models import ChatKind, MessageKind, Platform
from conversations.services import IncomingChat, IncomingMessage

_DIRECT_TYPES = frozenset({"personal_chat", "bot_chat", "saved_messages"})
_MEDIA_FIELDS = ("photo", "file", "media_type")


def parse_telegram(path: Path, *, options: ParseOptions) -> ParsedExport:
    if path.is_dir():
        path = path / "result.json"
    try:
        data = json_load(path, path.read_bytes())
    except OSError as error:
        raise ImportFormatError(path, None, f"cannot read: {error.strerror}") from None
    if not isinstance(data, dict):
        raise ImportFormatError(path, None, "not a Telegram export: the top level is not an object")

    self_ids: set[str] = set()
    if isinstance(data.get("chats"), dict):
        owner = data.get("personal_information") or {}
        if owner.get("user_id") is not None:
            self_ids.add(str(owner["user_id"]))
        sections = [("chats.list", data["chats"])]
        if isinstance(data.get("left_chats"), dict):
            sections.append(("left_chats.list", data["left_chats"]))
        located = [
            (f"{name}[{index}]", chat)
            for name, section in sections
            for index, chat in enumerate(_list(path, section.get("list"), name))
        ]
    elif "messages" in data:
        located = [("", data)]
    else:
        raise ImportFormatError(
            path,
            None,
            "not a Telegram export: expected 'messages' (one chat) or 'chats.list' (all chats)",
        )

    chats: list[IncomingChat] = []
    bodies: list[tuple[str, str, list[Any]]] = []
    seen: set[str] = set()
    for where, chat in located:
        incoming = _chat(path, where, chat)
        messages = _list(path, chat.get("messages"), _join(where, "messages"))
        if incoming.platform_chat_id in seen:
            # A chat can be in both lists (left, then re-joined); its messages are the same.
            continue
        seen.add(incoming.platform_chat_id)
        chats.append(incoming)
        bodies.append((where, incoming.platform_chat_id, messages))
    return ParsedExport(
        chats=tuple(chats),
        messages=_messages(path, bodies, self_ids, options),
        message_count=sum(len(messages) for _, _, messages in bodies),
    )


def _chat(path: Path, where: str, chat: Any) -> IncomingChat:
    if not isinstance(chat, dict) or chat.get("id") is None:
        raise ImportFormatError(path, None, f"{where or 'the chat'}: a chat needs an 'id'")
    chat_type = str(chat.get("type") or "")
    title = chat.get("name") or ("Saved Messages" if chat_type == "saved_messages" else "")
    return IncomingChat(
        platform=Platform.TELEGRAM,
        platform_chat_id=str(chat["id"]),
        title=str(title),
        kind=ChatKind.DIRECT if chat_type in _DIRECT_TYPES else ChatKind.GROUP,
    )


def _messages(
    path: Path,
    bodies: list[tuple[str, str, list[Any]]],
    self_ids: set[str],
    options: ParseOptions,
) -> Iterator[tuple[str, IncomingMessage]]:
    for where, platform_chat_id, messages in bodies:
        for index, message in enumerate(messages):
            location = f"{_join(where, 'messages')}[{index}]"
            yield platform_chat_id, _message(path, location, message, self_ids, options)


def _message(
    path: Path, where: str, message: Any, self_ids: set[str], options: ParseOptions
) -> IncomingMessage:
    if not isinstance(message, dict):
        raise ImportFormatError(path, None, f"{where}: a message must be an object")
    if message.get("id") is None:
        raise ImportFormatError(path, None, f"{where}: a message needs an 'id'")
    where = f"{where} (id {message['id']})"
    sent_at = _time(path, where, message, "date", options)
    if sent_at is None:
        raise ImportFormatError(path, None, f"{where}: a message needs 'date' or 'date_unixtime'")
    reply_to = message.get("reply_to_message_id")
    # A reply to a message of another chat has no target here.
    if reply_to is None or message.get("reply_to_peer_id") is not None:
        reply_to = ""
    edited_at = _time(path, where, message, "edited", options)
    if message.get("type") == "service":
        return IncomingMessage(
            platform_message_id=str(message["id"]),
            sent_at=sent_at,
            text=_service_text(message),
            kind=MessageKind.SYSTEM,
            reply_to_platform_message_id=str(reply_to),
            edited_at=edited_at,
        )

    sender_name = str(message.get("from") or "")
    from_id = str(message.get("from_id") or "")
    user_id = from_id.removeprefix("user") if from_id.startswith("user") else from_id
    is_from_self = user_id in self_ids or options.is_self(sender_name, from_id, user_id)
    sender = None
    if sender_name or user_id:
        sender = IncomingIdentity(
            platform=Platform.TELEGRAM,
            platform_user_id=user_id,
            display_name=sender_name or "Deleted Account",
        )
    is_media = any(message.get(name) for name in _MEDIA_FIELDS)
    return IncomingMessage(
        platform_message_id=str(message["id"]),
        sent_at=sent_at,
        text=_flatten(path, where, message.get("text", "")),
        sender=sender,
        is_from_self=is_from_self,
        kind=MessageKind.MEDIA if is_media else MessageKind.TEXT,
        reply_to_platform_message_id=str(reply_to),
        edited_at=edited_at,
    )


def _time(
    path: Path, where: str, message: dict[str, Any], name: str, options: ParseOptions
) -> datetime | None:
    unixtime = message.get(f"{name}_unixtime")
    written = message.get(name)
    try:
        if unixtime is not None:
            return datetime.fromtimestamp(int(unixtime), tz=UTC)
        if written is None:
            return None
        parsed = datetime.fromisoformat(str(written))
    except (TypeError, ValueError, OverflowError):
        raise ImportFormatError(
            path, None, f"{where}: {name} is not a time: {unixtime or written!r}"
        ) from None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=options.timezone)


def _flatten(path: Path, where: str, text: Any) -> str:
    """Telegram's rich text as plain text: entity texts in order (links keep their label)."""
    if isinstance(text, str):
        return text
    if not isinstance(text, list):
        raise ImportFormatError(path, None, f"{where}: text must be a string or a list")
    parts: list[str] = []
    for part in text:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict) and isinstance(part.get("text", ""), str):
            parts.append(part.get("text", ""))
        else:
            raise ImportFormatError(
                path, None, f"{where}: a text entity must be a string or an object with 'text'"
            )
    return "".join(parts)


def _service_text(message: dict[str, Any]) -> str:
    actor = str(message.get("actor") or "")
    action = str(message.get("action") or "")
    members = ", ".join(str(member or "Deleted Account") for member in message.get("members") or [])
    title = message.get("title") or ""
    described = {
        "create_group": f'created the group "{title}"',
        "create_channel": f'created the channel "{title}"',
        "migrate_from_group": "upgraded the group to a supergroup",
        "invite_members": f"added {members}",
        "remove_members": f"removed {members}",
        "join_group_by_link": "joined the group via an invite link",
        "edit_group_title": f'changed the group name to "{title}"',
        "edit_group_photo": "changed the group photo",
        "delete_group_photo": "removed the group photo",
        "pin_message": "pinned a message",
        "phone_call": "called",
        "group_call": "started a voice chat",
    }.get(action, action.replace("_", " "))
    return f"{actor} {described}".strip()


def _list(path: Path, value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ImportFormatError(path, None, f"{where} must be a list")
    return value


def _join(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name
