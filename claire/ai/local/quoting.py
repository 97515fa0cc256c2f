"""Quoting and attribution: a message cleaned for quoting, who said it and when, and the lines that
cite it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from claire.ai.local.terms import _Sentence
from claire.ai.suspicious import (
    suspicious_text,
    without_links,
)
from claire.ai.types import EvidenceSource

MAX_QUOTES = 5
MAX_QUOTE_CHARS = 280

MAX_REPORTED_CHARS = 320

# Quotes never start a line, so only inline markup needs escaping.
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_<>~])")


def _quote(text: str) -> str:
    """Message text made inert inside Markdown: one line, no live markup, no citation marks,
    and no link when the text is suspicious."""
    if suspicious_text(text):
        text = without_links(text)
    cleaned = " ".join(text.split())
    cleaned = cleaned.replace("[", "(").replace("]", ")")
    cleaned = _MARKDOWN_SPECIALS.sub(r"\\\1", cleaned)
    if len(cleaned) > MAX_QUOTE_CHARS:
        cleaned = cleaned[: MAX_QUOTE_CHARS - 1].rstrip() + "…"
    return cleaned


def _when(source: EvidenceSource, timezone: str, *, turn: int | None = None) -> str:
    """When the source's message was sent, or, with ``turn``, that message of its window (""
    when its time is not known: never another message's time)."""
    if turn is None:
        sent_at = source.sent_at
    else:
        sent_at = source.turn_sent_at[turn] if turn < len(source.turn_sent_at) else None
    if sent_at is None:
        return ""
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    local = sent_at.astimezone(zone)
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M}"


def _name(text: str, fallback: str) -> str:
    """A sender name or chat title as shown: one that holds instructions or spam is not
    repeated ("a sender with a suspicious name")."""
    if not text:
        return "Someone" if fallback == "sender" else ""
    if suspicious_text(text):
        return f"a {fallback} with a suspicious name"
    return _quote(text)


def _attribution(source: EvidenceSource, timezone: str) -> str:
    sender = _name(source.sender, "sender")
    title = _name(source.chat_title, "chat")
    context = [title] if title else []
    when = _when(source, timezone)
    if when:
        context.append(when)
    return f"**{sender}** ({', '.join(context)})" if context else f"**{sender}**"


def _excerpt(source: EvidenceSource, sentences: Sequence[_Sentence]) -> str:
    """The whole message when it is short, else its best sentences in their own order: the
    best one, and the second when both fit in a quote (a cut quote loses its end)."""
    if len(source.text) <= MAX_QUOTE_CHARS:
        return source.text
    chosen = list(sentences[:1])
    if len(sentences) > 1 and (
        len(sentences[0].text) + len(sentences[1].text) + 3 <= MAX_QUOTE_CHARS
    ):
        chosen.append(sentences[1])
    chosen.sort(key=lambda sentence: sentence.position)
    return " … ".join(sentence.text for sentence in chosen)


def _line(text: str, source: EvidenceSource, timezone: str) -> str:
    return f"- {_attribution(source, timezone)}: “{_quote(text)}” [{source.label}]"


def _time_key(source: EvidenceSource) -> tuple[bool, float, str]:
    timestamp = source.sent_at.timestamp() if source.sent_at is not None else 0.0
    return (source.sent_at is None, timestamp, source.label)


def _chronological(sources: Sequence[EvidenceSource]) -> list[EvidenceSource]:
    return sorted(sources, key=_time_key)


def _same_words(span: str, text: str) -> bool:
    return " ".join(span.split()).strip(" .!?") == " ".join(text.split()).strip(" .!?")


def _span_line(sender: str, span: str, source: EvidenceSource) -> str:
    """The span stated in the answer's words: "**Rita** said: … [S1]" ("You wrote: …")."""
    cleaned = _MARKDOWN_SPECIALS.sub(
        r"\\\1", " ".join(span.split()).replace("[", "(").replace("]", ")")
    )
    who = "You" if sender.lower() in {"you", "me"} else f"**{_name(sender, 'sender')}**"
    verb = "wrote" if who == "You" else "said"
    return f"{who} {verb}: {cleaned} [{source.label}]"


def _reported_line(
    sender: str, text: str, source: EvidenceSource, timezone: str, *, turn: int | None = None
) -> str:
    """One message reported in the answer's words: "**Ivo** said (chat, when): … [S1]"; with
    ``turn`` (its place in the source's window), the time is that message's own."""
    cleaned = _quote(text)
    if len(cleaned) > MAX_REPORTED_CHARS:
        cleaned = cleaned[: MAX_REPORTED_CHARS - 1].rstrip() + "…"
    who = "You" if sender.lower() in {"you", "me"} else f"**{_name(sender, 'sender')}**"
    verb = "wrote" if who == "You" else "said"
    title = _name(source.chat_title, "chat")
    context = [title] if title else []
    when = _when(source, timezone, turn=turn if source.turns else None)
    if when:
        context.append(when)
    where = f" ({', '.join(context)})" if context else ""
    return f"{who} {verb}{where}: {cleaned} [{source.label}]"
