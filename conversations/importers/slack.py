"""A Slack workspace export, as the folder or the ``.zip`` Slack hands out.

Layout: ``users.json``; the conversation lists ``channels.json`` (public), ``groups.json``
(private), ``dms.json`` and ``mpims.json`` (whichever the export has); one folder per
conversation (named after the channel, or the DM's id) holding one JSON file per day.

``ts`` is unique within a channel and is the message id; a reply names its thread through
``thread_ts``. ``edited.ts`` is the edit time. ``message_changed`` and ``message_deleted``
events, which some exports keep, are applied to their target message, so one channel's
messages are collected before they are handed out. Join/leave/topic events and the like
become system messages. ``<@U123>`` mentions are written as ``@Name``, and a user's email
becomes an identity, so the same colleague seen elsewhere is one person.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path, PurePosixPath
from typing import Any

from conversations.identities import IncomingIdentity
from conversations.importers.base import ImportFormatError, ParsedExport, ParseOptions, json_load
from conversations.models import ChatKind, MessageKind, Platform
from conversations.services import IncomingChat, IncomingMessage

# (list file, kind of conversation, folder named after "name" or "id")
_CONVERSATION_LISTS = (
    ("channels.json", ChatKind.GROUP, "name"),
    ("groups.json", ChatKind.GROUP, "name"),
    ("mpims.json", ChatKind.GROUP, "name"),
    ("dms.json", ChatKind.DIRECT, "id"),
)
_ORDINARY_SUBTYPES = frozenset(
    {"", "thread_broadcast", "reply_broadcast", "me_message", "file_share", "bot_message"}
)
_DAY_FILE = re.compile(r"^\d{4}-\d{2}-\d{2}\.json$")
_MARKUP = re.compile(r"<([^<>]+)>")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class _User:
    identity: IncomingIdentity
    names: tuple[str, ...]  # everything --self may name them by


@dataclass(frozen=True)
class _Conversation:
    chat: IncomingChat
    folder: str


class _ExportTree:
    """Read-only access to the export's files, whether unpacked or zipped."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._archive: zipfile.ZipFile | None = None
        self._prefix = ""
        if path.is_dir():
            return
        try:
            self._archive = zipfile.ZipFile(path)
        except (OSError, zipfile.BadZipFile) as error:
            raise ImportFormatError(
                path, None, f"not a Slack export folder or zip: {error}"
            ) from None
        # An export re-zipped from its folder has one directory level on top.
        users = [
            name
            for name in self._archive.namelist()
            if PurePosixPath(name).name == "users.json" and name.count("/") <= 1
        ]
        if users:
            self._prefix = users[0].removesuffix("users.json")

    def display(self, name: str) -> str:
        return str(self.path / name)

    def exists(self, name: str) -> bool:
        if self._archive is None:
            return (self.path / name).is_file()
        try:
            self._archive.getinfo(self._prefix + name)
        except KeyError:
            return False
        return True

    def read_json(self, name: str) -> Any:
        try:
            if self._archive is None:
                raw = (self.path / name).read_bytes()
            else:
                raw = self._archive.read(self._prefix + name)
        except (OSError, KeyError) as error:
            raise ImportFormatError(self.display(name), None, f"cannot read: {error}") from None
        return json_load(self.display(name), raw)

    def day_files(self, folder: str) -> list[str]:
        if self._archive is None:
            directory = self.path / folder
            names = [child.name for child in directory.iterdir()] if directory.is_dir() else []
        else:
            start = f"{self._prefix}{folder}/"
            names = [
                name[len(start) :]
                for name in self._archive.namelist()
                if name.startswith(start) and "/" not in name[len(start) :]
            ]
        return [f"{folder}/{name}" for name in sorted(names) if _DAY_FILE.match(name)]

    def close(self) -> None:
        if self._archive is not None:
            self._archive.close()


def parse_slack(path: Path, *, options: ParseOptions) -> ParsedExport:
    tree = _ExportTree(path)
    try:
        if not tree.exists("users.json"):
            raise ImportFormatError(path, None, "not a Slack export: users.json is missing")
        users = _users(tree)
        lists = [entry for entry in _CONVERSATION_LISTS if tree.exists(entry[0])]
        if not lists:
            raise ImportFormatError(
                path,
                None,
                "not a Slack export: no channels.json, groups.json, dms.json or mpims.json",
            )
        conversations = [
            conversation
            for list_name, kind, folder_key in lists
            for conversation in _conversations(tree, list_name, kind, folder_key, users, options)
        ]
    except BaseException:
        tree.close()
        raise
    return ParsedExport(
        chats=tuple(conversation.chat for conversation in conversations),
        messages=_all_messages(tree, conversations, users, options),
    )


def _users(tree: _ExportTree) -> dict[str, _User]:
    users: dict[str, _User] = {}
    for index, user in enumerate(_list(tree, "users.json", tree.read_json("users.json"))):
        if not isinstance(user, dict) or not user.get("id"):
            raise ImportFormatError(
                tree.display("users.json"), None, f"[{index}]: a user needs an 'id'"
            )
        profile = user.get("profile") or {}
        display_name = (
            profile.get("display_name")
            or profile.get("real_name")
            or user.get("real_name")
            or user.get("name")
            or user["id"]
        )
        names = (
            user["id"],
            user.get("name") or "",
            user.get("real_name") or "",
            profile.get("real_name") or "",
            profile.get("display_name") or "",
            profile.get("email") or "",
        )
        users[user["id"]] = _User(
            identity=IncomingIdentity(
                platform=Platform.SLACK,
                platform_user_id=user["id"],
                handle=user.get("name") or "",
                email=profile.get("email") or "",
                display_name=display_name,
            ),
            names=tuple(name for name in names if name),
        )
    return users


def _conversations(
    tree: _ExportTree,
    list_name: str,
    kind: str,
    folder_key: str,
    users: dict[str, _User],
    options: ParseOptions,
) -> Iterator[_Conversation]:
    for index, item in enumerate(_list(tree, list_name, tree.read_json(list_name))):
        if not isinstance(item, dict) or not item.get("id") or not item.get(folder_key):
            raise ImportFormatError(
                tree.display(list_name), None, f"[{index}]: needs 'id' and '{folder_key}'"
            )
        members = [users[member] for member in item.get("members") or [] if member in users]
        others = [user for user in members if not options.is_self(*user.names)]
        if list_name in ("channels.json", "groups.json"):
            title = f"#{item['name']}"
        else:
            title = ", ".join(user.identity.label for user in others or members)
        yield _Conversation(
            chat=IncomingChat(
                platform=Platform.SLACK,
                platform_chat_id=str(item["id"]),
                title=title,
                kind=kind,
                participants=tuple(user.identity for user in others),
            ),
            folder=str(item[folder_key]),
        )


def _all_messages(
    tree: _ExportTree,
    conversations: list[_Conversation],
    users: dict[str, _User],
    options: ParseOptions,
) -> Iterator[tuple[str, IncomingMessage]]:
    try:
        for conversation in conversations:
            chat_id = conversation.chat.platform_chat_id
            for message in _channel_messages(tree, conversation.folder, users, options):
                yield chat_id, message
    finally:
        tree.close()


def _channel_messages(
    tree: _ExportTree, folder: str, users: dict[str, _User], options: ParseOptions
) -> list[IncomingMessage]:
    """One channel's messages in order, with later edit and delete events applied."""
    by_ts: dict[str, IncomingMessage] = {}
    for day_file in tree.day_files(folder):
        for index, raw in enumerate(_list(tree, day_file, tree.read_json(day_file))):
            where = f"[{index}]"
            if not isinstance(raw, dict) or raw.get("type", "message") != "message":
                continue
            subtype = raw.get("subtype") or ""
            if subtype == "message_changed":
                changed = _message(tree, day_file, where, raw.get("message"), users, options)
                original = by_ts.get(changed.platform_message_id)
                by_ts[changed.platform_message_id] = (
                    replace(
                        original,
                        text=changed.text,
                        kind=changed.kind,
                        edited_at=changed.edited_at or _timestamp(tree, day_file, where, raw),
                    )
                    if original is not None
                    else changed
                )
            elif subtype == "message_deleted":
                deleted_ts = str(raw.get("deleted_ts") or "")
                if not deleted_ts:
                    raise ImportFormatError(
                        tree.display(day_file), None, f"{where}: message_deleted needs 'deleted_ts'"
                    )
                original = by_ts.get(deleted_ts)
                by_ts[deleted_ts] = (
                    replace(original, is_deleted=True)
                    if original is not None
                    else IncomingMessage(
                        platform_message_id=deleted_ts,
                        sent_at=_parse_ts(tree, day_file, where, deleted_ts),
                        is_deleted=True,
                    )
                )
            else:
                message = _message(tree, day_file, where, raw, users, options)
                by_ts[message.platform_message_id] = message
    return list(by_ts.values())


def _message(
    tree: _ExportTree,
    day_file: str,
    where: str,
    raw: Any,
    users: dict[str, _User],
    options: ParseOptions,
) -> IncomingMessage:
    if not isinstance(raw, dict):
        raise ImportFormatError(
            tree.display(day_file), None, f"{where}: a message must be an object"
        )
    ts = str(raw.get("ts") or "")
    sent_at = _timestamp(tree, day_file, where, raw)
    subtype = raw.get("subtype") or ""
    text = _render(str(raw.get("text") or ""), users)
    thread_ts = str(raw.get("thread_ts") or "")
    edited = raw.get("edited")
    edited_at = (
        _parse_ts(tree, day_file, where, str(edited["ts"]))
        if isinstance(edited, dict) and edited.get("ts")
        else None
    )
    reply_to = thread_ts if thread_ts and thread_ts != ts else ""
    if subtype == "tombstone":
        return IncomingMessage(platform_message_id=ts, sent_at=sent_at, is_deleted=True)
    if subtype not in _ORDINARY_SUBTYPES:
        return IncomingMessage(
            platform_message_id=ts, sent_at=sent_at, text=text, kind=MessageKind.SYSTEM
        )

    sender, is_from_self = _sender(raw, users, options)
    files = [item for item in raw.get("files") or [] if isinstance(item, dict)]
    if files and not text:
        text = ", ".join(str(item.get("title") or item.get("name") or "file") for item in files)
    return IncomingMessage(
        platform_message_id=ts,
        sent_at=sent_at,
        text=text,
        sender=sender,
        is_from_self=is_from_self,
        kind=MessageKind.MEDIA if files else MessageKind.TEXT,
        reply_to_platform_message_id=reply_to,
        edited_at=edited_at,
    )


def _sender(
    raw: dict[str, Any], users: dict[str, _User], options: ParseOptions
) -> tuple[IncomingIdentity | None, bool]:
    user_id = str(raw.get("user") or "")
    if user_id in users:
        known = users[user_id]
        return known.identity, options.is_self(*known.names)
    profile = raw.get("user_profile") or {}
    if user_id:
        # Someone no longer in users.json (a deactivated guest): what the message says of them.
        name = profile.get("display_name") or profile.get("real_name") or profile.get("name")
        identity = IncomingIdentity(
            platform=Platform.SLACK, platform_user_id=user_id, display_name=name or user_id
        )
        return identity, options.is_self(user_id, name or "")
    bot_id = str(raw.get("bot_id") or "")
    bot_name = raw.get("username") or (raw.get("bot_profile") or {}).get("name") or ""
    if bot_id or bot_name:
        identity = IncomingIdentity(
            platform=Platform.SLACK, platform_user_id=bot_id, display_name=bot_name or bot_id
        )
        return identity, False
    return None, False


def _render(text: str, users: dict[str, _User]) -> str:
    """Slack's markup as the app shows it: mentions by name, links by label, no escapes."""

    def replace_markup(match: re.Match[str]) -> str:
        target, _, label = match[1].partition("|")
        if target.startswith("@"):
            user = users.get(target[1:])
            return "@" + (user.identity.label if user is not None else label or target[1:])
        if target.startswith("#"):
            return "#" + (label or target[1:])
        if target.startswith("!subteam^"):
            return label or "@team"
        if target.startswith("!"):
            return "@" + (label or target[1:]).lstrip("@")
        return label or target

    rendered = _MARKUP.sub(replace_markup, text)
    # Slack escapes exactly these three; anything else that looks like an entity was typed.
    return rendered.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _timestamp(tree: _ExportTree, day_file: str, where: str, raw: dict[str, Any]) -> datetime:
    ts = raw.get("ts")
    if not ts:
        raise ImportFormatError(tree.display(day_file), None, f"{where}: a message needs 'ts'")
    return _parse_ts(tree, day_file, where, str(ts))


def _parse_ts(tree: _ExportTree, day_file: str, where: str, ts: str) -> datetime:
    """Slack's "1704059065.123456": seconds and microseconds, read exactly (not as a float)."""
    seconds, _, fraction = ts.partition(".")
    # ASCII digits only: str.isdigit() also accepts "²", which int() refuses.
    if not (seconds.isascii() and seconds.isdigit()) or not (
        fraction == "" or (fraction.isascii() and fraction.isdigit())
    ):
        raise ImportFormatError(tree.display(day_file), None, f"{where}: invalid ts {ts!r}")
    try:
        return _EPOCH + timedelta(seconds=int(seconds), microseconds=int((fraction + "000000")[:6]))
    except OverflowError:
        raise ImportFormatError(
            tree.display(day_file), None, f"{where}: ts {ts[:40]!r} is out of range"
        ) from None


def _list(tree: _ExportTree, name: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ImportFormatError(tree.display(name), None, "expected a JSON list")
    return value
