"""What every export parser returns, and the one error they raise.

Parsers are pure: they read a file, a folder or a zip and produce ``IncomingChat`` records and
``(platform_chat_id, IncomingMessage)`` pairs for ``conversations.services.messages_ingest``.
They never touch the database, so a parser can be tested, and a whole file validated, without
one. Every chat a message names is in ``ParsedExport.chats``, which is complete before the
first message is read.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Any, Literal

from conversations.identities import normalise_name
from conversations.services import IncomingChat, IncomingMessage

DateOrder = Literal["auto", "dmy", "mdy", "ymd"]
DATE_ORDERS: tuple[DateOrder, ...] = ("auto", "dmy", "mdy", "ymd")


class ImportFormatError(Exception):
    """The input does not follow its format. ``str()`` is ``"<path>:<line>: <message>"`` (or
    ``"<path>: <message>"`` when the problem has no single line), so the person running the
    import can open the file at the right place."""

    def __init__(self, path: str | Path, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"


@dataclass(frozen=True)
class ParseOptions:
    """How to read an export.

    ``self_name`` names the sender who is the importing user (matched on the normalised display
    name, or on a platform id/handle/email where the format has them). ``timezone`` is used
    only for times the export writes without an offset.
    """

    timezone: tzinfo
    self_name: str = ""
    date_order: DateOrder = "auto"

    def is_self(self, *candidates: str) -> bool:
        if not self.self_name.strip():
            return False
        wanted = normalise_name(self.self_name)
        return any(candidate and normalise_name(candidate) == wanted for candidate in candidates)


@dataclass(frozen=True)
class ParsedExport:
    """One export: its chats (all known up front) and a lazy stream of its messages.

    ``message_count`` is the number of messages the stream yields when the parser knows it
    in advance (for a progress bar), else ``None``.
    """

    chats: tuple[IncomingChat, ...]
    messages: Iterator[tuple[str, IncomingMessage]]
    message_count: int | None = None
    # What the parser left out and why (a file cut short), for the import's report.
    warnings: tuple[str, ...] = ()


# Message times outside these bounds are refused (datetime arithmetic near year 9999 overflows).
EARLIEST_TIME = datetime(1900, 1, 1, tzinfo=UTC)
LATEST_TIME = datetime(2200, 1, 1, tzinfo=UTC)


def text_problem(text: str, *, max_chars: int | None = None) -> str | None:
    """Why PostgreSQL could not store ``text`` as a message text, or None."""
    if "\x00" in text:
        return "contains a NUL byte"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "contains a lone surrogate (not valid Unicode text)"
    if max_chars is not None and len(text) > max_chars:
        return f"is {len(text)} characters long; at most {max_chars} are imported"
    return None


def time_problem(moment: datetime) -> str | None:
    """Why ``moment`` is not accepted as a message time, or None."""
    if moment.tzinfo is not None and not EARLIEST_TIME <= moment < LATEST_TIME:
        return f"time {moment.isoformat()} is outside {EARLIEST_TIME.year}-{LATEST_TIME.year - 1}"
    return None


def json_load(path: str | Path, text: str | bytes) -> Any:
    """Parse a whole JSON document, turning a syntax error into one naming file and line."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ImportFormatError(path, None, "invalid JSON: nested too deeply") from None
    except json.JSONDecodeError as error:
        raise ImportFormatError(
            path, error.lineno, f"invalid JSON: {error.msg} (column {error.colno})"
        ) from None
    except UnicodeDecodeError as error:
        raise ImportFormatError(path, None, f"not UTF-8 text: {error.reason}") from None


def chat_title_from_senders(names: list[str]) -> str:
    """A title for a chat whose export has none: who is in it, as a messaging app shows it."""
    shown = names[:4]
    title = ", ".join(shown)
    if len(names) > len(shown):
        title += f" +{len(names) - len(shown)}"
    return title[:512]


def text_lines(path: Path, lines: Iterable[bytes] | None = None) -> Iterator[tuple[int, str]]:
    """(line number, text) for each line of a UTF-8 file, without its line ending.

    Each line is decoded on its own so that a bad byte is reported on its own line (a text
    stream decodes in blocks and would blame an earlier one). ``lines`` reads from an open
    binary stream (a zip member) instead of ``path``, which then only names it in errors.
    """
    if lines is not None:
        yield from _decoded_lines(path, lines)
        return
    try:
        stream = path.open("rb")
    except OSError as error:
        raise ImportFormatError(path, None, f"cannot read: {error.strerror}") from None
    with stream:
        yield from _decoded_lines(path, stream)


def _decoded_lines(path: Path, lines: Iterable[bytes]) -> Iterator[tuple[int, str]]:
    for number, raw in enumerate(lines, start=1):
        if number == 1 and raw.startswith(codecs.BOM_UTF8):
            raw = raw[len(codecs.BOM_UTF8) :]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ImportFormatError(path, number, f"not UTF-8 text: {error.reason}") from None
        yield number, text.rstrip("\r\n")
