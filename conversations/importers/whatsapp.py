"""WhatsApp "Export chat" files: the Android ``.txt`` and the iOS ``_chat.txt`` (alone or in
the ``.zip`` the phone shares).

Android writes ``31/12/2023, 21:41 - Ana: text`` (or ``12/31/23, 9:41 PM - ...`` in US
locales); iOS writes ``[31/12/2023, 21:41:05] Ana: text`` and marks attachments and system
lines with invisible left-to-right marks. A message runs until the next header line, so
multi-line messages keep their line breaks. The export carries no ids: a message's id is a
hash of the chat, its written timestamp, its sender and its position among that sender's
messages with the same timestamp, so importing the same (or a longer, later) export again
finds the same messages.

Dates are day-first or month-first depending on the phone's locale, and the file does not
say which. The whole file is read once to decide (a first component above 12 means
day-first, a second one above 12 month-first); without such a date, ``.`` separators and
24-hour times mean day-first and AM/PM means month-first. ``--date-order`` overrides it.
"""

from __future__ import annotations

import hashlib
import re
import zipfile
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import islice
from pathlib import Path

from conversations.identities import IncomingIdentity, normalise_name
from conversations.importers.base import (
    DateOrder,
    ImportFormatError,
    ParsedExport,
    ParseOptions,
    text_lines,
)
from conversations.models import ChatKind, MessageKind, Platform
from conversations.services import IncomingChat, IncomingMessage

# Invisible direction marks and isolates iOS puts around names, numbers and attachments.
_BIDI_MARKS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_SPACE = "[ \u00a0\u202f]"

_HEADER = re.compile(
    rf"""
    ^[\u200e\u200f]*
    (?P<bracket>\[)?
    (?P<date>\d{{1,4}}(?P<separator>[./-])\d{{1,2}}(?P=separator)\d{{1,4}}),?{_SPACE}
    (?P<time>\d{{1,2}}[:.]\d{{2}}(?:[:.]\d{{2}})?)
    (?:{_SPACE}?(?P<meridiem>[AaPp]\.?{_SPACE}?[Mm]\.?))?
    (?(bracket)\]{_SPACE}|{_SPACE}-{_SPACE})
    (?P<rest>.*)$
    """,
    re.VERBOSE,
)

# What WhatsApp writes itself (in English exports). Actors never contain ": ", which keeps
# "Ana: I added Ben to the list" a message.
_SYSTEM = re.compile(
    r"""^(?:
        Messages\ and\ calls\ are\ end-to-end\ encrypted
      | Messages\ to\ this\ (?:chat|group)\ are\ now
      | This\ chat\ is\ with\ a\ business\ account
      | Disappearing\ messages\ were
      | (?:Your\ )?security\ code\ (?:with\ [^:]+\ )?changed
      | Missed\ (?:voice|video|group\ voice|group\ video)\ call
      | You'?re\ now\ an\ admin
      | [^:]+?\ created\ (?:the\ )?group
      | [^:]+?\ (?:added|removed)\ [^:]+$
      | [^:]+?\ left$
      | [^:]+?\ joined\ (?:using\ this\ group's\ invite\ link|from\ the\ community)
      | [^:]+?\ changed\ (?:the\ subject|this\ group's|the\ group\ description
                          |their\ phone\ number|to\ \+)
      | [^:]+?\ deleted\ this\ group's\ icon
      | [^:]+?\ turned\ (?:on|off)\ disappearing\ messages
      | [^:]+?'s\ security\ code\ changed
      | [^:]+?\ pinned\ a\ message
    )""",
    re.VERBOSE,
)
_GROUP_EVENT = re.compile(
    r"created (?:the )?group|\b(?:added|removed)\b|changed (?:the subject|this group's)"
)
_MEDIA_ANDROID = re.compile(r"^(?:<Media omitted>|\S.*\.\w{2,5} \(file attached\))(?:\n|$)")
_MEDIA_IOS = re.compile(
    r"(?:^|\n)(?:.*\b(?:image|video|audio|sticker|GIF|document|Contact card|video note) omitted"
    r"|<attached: [^>]+>)(?:\n|$)"
)
_DELETED = re.compile(r"^(?:This message was deleted|You deleted this message)\.?$")
_EDITED_MARK = re.compile(r"\s*<This message was edited>$")
_PHONE = re.compile(r"^\+?[\d\s().-]{7,}$")
_EXPORT_NAME = re.compile(r"^WhatsApp[ _-]Chat(?: with| -)?[ _]*", re.IGNORECASE)


@dataclass(frozen=True)
class _Entry:
    """One message as written: its header fields and its whole text."""

    line: int
    date_parts: tuple[str, str, str]
    separator: str
    time: str
    meridiem: str
    sender: str | None  # None for WhatsApp's own (system) lines
    text: str
    is_marked: bool  # the text began with an invisible mark (iOS attachments and events)


def parse_whatsapp(path: Path, *, options: ParseOptions) -> ParsedExport:
    title = _chat_title(path)
    platform_chat_id = f"export:{normalise_name(title)}"
    first_component_evidence: int | None = None
    second_component_evidence: int | None = None
    senders: set[str] = set()
    has_group_events = False
    count = 0
    uses_dots = uses_meridiem = False
    last_line = 0
    for entry in _entries(path):
        count += 1
        last_line = entry.line
        first, second, _ = entry.date_parts
        if len(first) < 4:
            if int(first) > 12 and first_component_evidence is None:
                first_component_evidence = entry.line
            if int(second) > 12 and second_component_evidence is None:
                second_component_evidence = entry.line
        uses_dots = uses_dots or entry.separator == "."
        uses_meridiem = uses_meridiem or bool(entry.meridiem)
        if entry.sender is None:
            has_group_events = has_group_events or bool(_GROUP_EVENT.search(entry.text))
        else:
            senders.add(normalise_name(entry.sender))

    if count == 0:
        raise ImportFormatError(path, None, "no messages: the chat export is empty")
    warnings: tuple[str, ...] = ()
    cut_line = _line_cut_short(path)
    if cut_line is not None:
        # The last message may have lost its end: it is left out and reported, not stored
        # with a truncated text that a later, complete export would then "edit".
        if count == 1:
            raise ImportFormatError(
                path, cut_line, "the file ends mid-line and holds no complete message"
            )
        count -= 1
        warnings = (
            f"{path}:{cut_line}: the file ends mid-line, so the export looks cut short: "
            f"{count} messages were imported; the last message (from line {last_line}) "
            "was not. Export the chat again to import it.",
        )
    date_order: DateOrder = options.date_order
    if date_order == "auto":
        if first_component_evidence is not None and second_component_evidence is not None:
            raise ImportFormatError(
                path,
                second_component_evidence,
                "dates are month-first here but day-first on line "
                f"{first_component_evidence}; pass --date-order dmy or mdy",
            )
        if first_component_evidence is not None:
            date_order = "dmy"
        elif second_component_evidence is not None:
            date_order = "mdy"
        else:
            date_order = "mdy" if uses_meridiem and not uses_dots else "dmy"

    kind = ChatKind.GROUP if len(senders) > 2 or has_group_events else ChatKind.DIRECT
    chat = IncomingChat(
        platform=Platform.WHATSAPP, platform_chat_id=platform_chat_id, title=title, kind=kind
    )
    return ParsedExport(
        chats=(chat,),
        messages=_messages(path, platform_chat_id, date_order, options, limit=count),
        message_count=count,
        warnings=warnings,
    )


def _line_cut_short(path: Path) -> int | None:
    """The number of the last line of a ``.txt`` export that does not end with a line break
    (WhatsApp ends every line with one), else None."""
    if path.suffix.lower() == ".zip":
        return None
    try:
        with path.open("rb") as stream:
            line_count = sum(1 for _ in stream)
            if line_count == 0:
                return None
            stream.seek(-1, 2)
            return None if stream.read(1) == b"\n" else line_count
    except OSError as error:
        raise ImportFormatError(path, None, f"cannot read: {error.strerror}") from None


def _messages(
    path: Path,
    platform_chat_id: str,
    date_order: DateOrder,
    options: ParseOptions,
    *,
    limit: int,
) -> Iterator[tuple[str, IncomingMessage]]:
    ordinals: Counter[tuple[str, str]] = Counter()
    for entry in islice(_entries(path), limit):
        written_at = _written_at(path, entry, date_order)
        key = (written_at.isoformat(), entry.sender or "")
        ordinal = ordinals[key]
        ordinals[key] += 1
        digest = hashlib.sha256(
            "\x1f".join([platform_chat_id, *key, str(ordinal)]).encode("utf-8")
        ).hexdigest()
        yield platform_chat_id, _message(entry, digest[:32], written_at, options)


def _message(
    entry: _Entry, platform_message_id: str, written_at: datetime, options: ParseOptions
) -> IncomingMessage:
    return replace(
        _message_read(entry, platform_message_id, written_at, options), source_line=entry.line
    )


def _message_read(
    entry: _Entry, platform_message_id: str, written_at: datetime, options: ParseOptions
) -> IncomingMessage:
    sent_at = written_at.replace(tzinfo=options.timezone)
    text = entry.text
    if entry.sender is None:
        return IncomingMessage(
            platform_message_id=platform_message_id,
            sent_at=sent_at,
            text=text,
            kind=MessageKind.SYSTEM,
        )
    is_from_self = options.is_self(entry.sender)
    sender = (
        IncomingIdentity(platform=Platform.WHATSAPP, phone=entry.sender, display_name=entry.sender)
        if _PHONE.match(entry.sender)
        else IncomingIdentity(platform=Platform.WHATSAPP, display_name=entry.sender)
    )
    if _DELETED.match(text):
        return IncomingMessage(
            platform_message_id=platform_message_id,
            sent_at=sent_at,
            sender=sender,
            is_from_self=is_from_self,
            is_deleted=True,
        )
    # The edit time is not in the export; a changed text on re-import records its own.
    text = _EDITED_MARK.sub("", text)
    is_media = bool(_MEDIA_ANDROID.match(text)) or (
        entry.is_marked and bool(_MEDIA_IOS.search(text))
    )
    return IncomingMessage(
        platform_message_id=platform_message_id,
        sent_at=sent_at,
        text=text,
        sender=sender,
        is_from_self=is_from_self,
        kind=MessageKind.MEDIA if is_media else MessageKind.TEXT,
    )


def _entries(path: Path) -> Iterator[_Entry]:
    """Messages as written, each with its continuation lines joined back on."""
    header: re.Match[str] | None = None
    header_line = 0
    continuation: list[str] = []
    for number, line in _chat_lines(path):
        match = _HEADER.match(line)
        if match is not None:
            if header is not None:
                yield _entry(header, header_line, continuation)
            header, header_line, continuation = match, number, []
        elif header is None:
            if not line.strip():
                continue
            raise ImportFormatError(
                path,
                number,
                "not a WhatsApp message line: expected a date and time first, like "
                "'31/12/2023, 21:41 - Name: text' or '[31/12/2023, 21:41:05] Name: text'",
            )
        else:
            continuation.append(line)
    if header is not None:
        yield _entry(header, header_line, continuation)


def _entry(header: re.Match[str], line: int, continuation: list[str]) -> _Entry:
    raw_rest = header["rest"]
    rest = _BIDI_MARKS.sub("", raw_rest)
    if _SYSTEM.match(rest) or ": " not in raw_rest:
        sender: str | None = None
        raw_text = raw_rest
    else:
        raw_sender, raw_text = raw_rest.split(": ", 1)
        sender = _BIDI_MARKS.sub("", raw_sender).strip() or None
    is_marked = raw_text.startswith(("\u200e", "\u200f"))
    text = _BIDI_MARKS.sub("", raw_text)
    if is_marked and _SYSTEM.match(text):
        # iOS writes its own events under the group's (or the contact's) name.
        sender = None
    first, second, third = re.split(r"[./-]", header["date"])
    return _Entry(
        line=line,
        date_parts=(first, second, third),
        separator=header["separator"],
        time=header["time"],
        meridiem=re.sub(r"[^APMapm]", "", header["meridiem"] or "").upper(),
        sender=sender,
        # Blank lines before the next header separate messages; they are not part of one.
        text="\n".join([text, *(_BIDI_MARKS.sub("", part) for part in continuation)]).rstrip(),
        is_marked=is_marked,
    )


def _written_at(path: Path, entry: _Entry, date_order: DateOrder) -> datetime:
    first, second, third = entry.date_parts
    if len(first) == 4:
        year, month, day = first, second, third
    elif date_order == "mdy":
        month, day, year = first, second, third
    elif date_order == "ymd":
        year, month, day = first, second, third
    else:
        day, month, year = first, second, third
    time_parts = [int(part) for part in re.split(r"[:.]", entry.time)]
    hour, minute = time_parts[0], time_parts[1]
    second_of_minute = time_parts[2] if len(time_parts) > 2 else 0
    if entry.meridiem:
        if not 1 <= hour <= 12:
            raise ImportFormatError(path, entry.line, f"invalid 12-hour time {entry.time!r}")
        hour = hour % 12 + (12 if entry.meridiem.startswith("P") else 0)
    full_year = int(year) + 2000 if len(year) <= 2 else int(year)
    try:
        # The export's wall-clock time; the caller attaches the zone it was written in.
        return datetime(full_year, int(month), int(day), hour, minute, second_of_minute)
    except ValueError as error:
        raise ImportFormatError(
            path,
            entry.line,
            f"invalid date or time {'/'.join(entry.date_parts)} {entry.time} "
            f"read as {date_order}: {error}",
        ) from None


def _chat_lines(path: Path) -> Iterator[tuple[int, str]]:
    if path.suffix.lower() != ".zip":
        yield from text_lines(path)
        return
    try:
        archive = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as error:
        raise ImportFormatError(path, None, f"not a readable zip file: {error}") from None
    with archive:
        texts = [name for name in archive.namelist() if name.lower().endswith(".txt")]
        chosen = next((name for name in texts if Path(name).name == "_chat.txt"), None)
        if chosen is None and len(texts) == 1:
            chosen = texts[0]
        if chosen is None:
            raise ImportFormatError(path, None, "no _chat.txt (or single .txt chat) in the zip")
        member_path = Path(f"{path}/{chosen}")
        line = 0
        try:
            with archive.open(chosen) as member:
                for line, text in text_lines(member_path, member):
                    yield line, text
        except (zipfile.BadZipFile, EOFError, zlib.error) as error:
            raise ImportFormatError(
                member_path, line + 1, f"the zip is damaged or cut short here: {error}"
            ) from None


def _chat_title(path: Path) -> str:
    """The chat's name as the export file carries it ("WhatsApp Chat with Ana.txt" -> "Ana")."""
    stem = path.parent.name if path.name == "_chat.txt" else path.stem
    return _EXPORT_NAME.sub("", stem).strip() or stem
