"""Importing one export file: parse it, then feed ``messages_ingest`` in chunks.

One file is one transaction: a malformed line near the end, or any failure, rolls back every
chat, person and message the file had already written. Re-importing a file changes nothing,
because ``messages_ingest`` is idempotent on (chat, platform message id) and every parser
derives stable ids.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path
from typing import TypeVar
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from claire.accounts.models import User
from conversations.importers import PARSERS, ParseOptions, export_parse
from conversations.importers.base import DateOrder, ImportFormatError, text_problem, time_problem
from conversations.models import Chat, Person
from conversations.services import (
    IncomingChat,
    IncomingMessage,
    IngestResult,
    messages_ingest,
)

logger = logging.getLogger(__name__)

IMPORT_FORMATS = tuple(PARSERS)
CHUNK_SIZE = 500

# Called after each chunk with (messages done, messages in the file or None when unknown).
ImportProgress = Callable[[int, int | None], None]

_T = TypeVar("_T")


@dataclass(frozen=True)
class ImportSummary:
    path: str
    chats: int
    chats_created: int
    people: int
    people_created: int
    messages: int
    messages_created: int
    messages_updated: int
    messages_deleted: int
    messages_unchanged: int
    warnings: tuple[str, ...] = ()

    def describe(self) -> str:
        return (
            f"Imported {Path(self.path).name}: "
            f"{_count(self.chats, 'chat')} ({self.chats_created} new), "
            f"{_count(self.people, 'person', 'people')} ({self.people_created} new), "
            f"{_count(self.messages, 'message')}: {self.messages_created} created, "
            f"{self.messages_updated} updated, {self.messages_deleted} deleted, "
            f"{self.messages_unchanged} unchanged."
        )


def _count(number: int, singular: str, plural: str = "") -> str:
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def import_file(
    *,
    user: User,
    format: str,
    path: Path,
    self_name: str = "",
    timezone: str = "",
    date_order: DateOrder = "auto",
    progress: ImportProgress | None = None,
) -> ImportSummary:
    """Import one export of ``format`` for ``user``, atomically.

    Times the export writes without an offset are read in ``timezone`` (default: the user's
    own). Raises ``ImportFormatError`` naming the file and line of malformed input; nothing
    is written then.
    """
    options = ParseOptions(
        timezone=ZoneInfo(timezone or user.timezone), self_name=self_name, date_order=date_order
    )
    parsed = export_parse(format=format, path=path, options=options)
    _check_chats(path, parsed.chats)
    messages = _checked(path, parsed.messages)
    totals = _Totals()
    with transaction.atomic():
        # Chats (with their participants) once; each chunk then names its chats again only
        # because messages_ingest requires it, without re-resolving the participants.
        chats_result = messages_ingest(user=user, chats=parsed.chats, messages=[])
        totals.add(chats_result, messages=0)
        bare_chats = {
            chat.platform_chat_id: replace(chat, participants=()) for chat in parsed.chats
        }
        for chunk in _chunks(messages, CHUNK_SIZE):
            chunk_chats = _chats_of(chunk, bare_chats)
            result = messages_ingest(user=user, chats=chunk_chats, messages=chunk)
            totals.add(result, messages=len(chunk))
            if progress is not None:
                progress(totals.messages, parsed.message_count)
        people = _people_in_chats(user=user, chats=parsed.chats)

    summary = ImportSummary(
        path=str(path),
        chats=len(parsed.chats),
        chats_created=chats_result.chats_created,
        people=people,
        people_created=totals.people_created,
        messages=totals.messages,
        messages_created=totals.messages_created,
        messages_updated=totals.messages_updated,
        messages_deleted=totals.messages_deleted,
        messages_unchanged=totals.messages_unchanged,
        warnings=parsed.warnings,
    )
    logger.info(
        "conversations.import",
        extra={
            "user_id": user.pk,
            "format": format,
            "chats": summary.chats,
            "chats_created": summary.chats_created,
            "people_created": summary.people_created,
            "messages": summary.messages,
            "messages_created": summary.messages_created,
            "messages_updated": summary.messages_updated,
            "messages_deleted": summary.messages_deleted,
        },
    )
    return summary


@dataclass
class _Totals:
    """Running counts over the chunks (IngestResult also keeps every id, which a long import
    does not need)."""

    messages: int = 0
    people_created: int = 0
    messages_created: int = 0
    messages_updated: int = 0
    messages_deleted: int = 0
    messages_unchanged: int = 0

    def add(self, result: IngestResult, *, messages: int) -> None:
        self.messages += messages
        self.people_created += result.people_created
        self.messages_created += result.messages_created
        self.messages_updated += result.messages_updated
        self.messages_deleted += result.messages_deleted
        self.messages_unchanged += result.messages_unchanged


def _checked(
    path: Path, messages: Iterator[tuple[str, IncomingMessage]]
) -> Iterator[tuple[str, IncomingMessage]]:
    """The messages, stopping at the first one PostgreSQL could not store (a NUL byte, a lone
    surrogate, a text over ``INGEST_MAX_TEXT_CHARS``, a time out of range) with an
    ``ImportFormatError`` naming its line when the format has lines (its id otherwise)."""
    for number, (chat_id, message) in enumerate(messages, start=1):
        problems = [
            f"{name} {problem}"
            for name, value in (
                ("text", message.text),
                ("sender", message.sender.display_name if message.sender else ""),
                ("message id", message.platform_message_id),
            )
            if (problem := text_problem(value, max_chars=_max_chars(name))) is not None
        ]
        problems += [
            problem
            for moment in (message.sent_at, message.edited_at)
            if moment is not None and (problem := time_problem(moment)) is not None
        ]
        if problems:
            where = "" if message.source_line else f"message {number}: "
            raise ImportFormatError(path, message.source_line, where + "; ".join(problems))
        yield chat_id, message


def _check_chats(path: Path, chats: tuple[IncomingChat, ...]) -> None:
    for chat in chats:
        names = [chat.title, chat.platform_chat_id]
        names += [part.display_name for part in chat.participants]
        problems = {problem for name in names if (problem := text_problem(name)) is not None}
        if problems:
            raise ImportFormatError(
                path, None, f"chat {chat.platform_chat_id[:40]!r}: a name {sorted(problems)[0]}"
            )


def _max_chars(name: str) -> int | None:
    return settings.INGEST_MAX_TEXT_CHARS if name == "text" else None


def _chunks(items: Iterator[_T], size: int) -> Iterator[list[_T]]:
    while chunk := list(islice(items, size)):
        yield chunk


def _chats_of(
    chunk: list[tuple[str, IncomingMessage]], chats: dict[str, IncomingChat]
) -> list[IncomingChat]:
    return [chats[chat_id] for chat_id in dict.fromkeys(chat_id for chat_id, _ in chunk)]


def _people_in_chats(*, user: User, chats: tuple[IncomingChat, ...]) -> int:
    """People taking part in the file's chats (senders become participants on ingest)."""
    if not chats:
        return 0
    by_platform: dict[str, list[str]] = {}
    for chat in chats:
        by_platform.setdefault(chat.platform, []).append(chat.platform_chat_id)
    matching = Q()
    for platform, chat_ids in by_platform.items():
        matching |= Q(platform=platform, platform_chat_id__in=chat_ids)
    chat_rows = Chat.objects.filter(matching, user=user)
    return Person.objects.filter(user=user, memberships__chat__in=chat_rows).distinct().count()
