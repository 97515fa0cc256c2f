"""Shared prompt pieces, so every model sees evidence labelled the way answers cite it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from claire.ai.types import EvidenceSource, MemoryFinding

# What a quoted message could use to pass itself off as part of the prompt: a run of angle
# brackets (the ``<<<SOURCES`` / ``SOURCES>>>`` fence) and a source mark of its own ("[S9]").
_FENCE = re.compile(r"<{3,}|>{3,}")
_SOURCE_MARK = re.compile(r"\[(S\d+)\]")


def inert(text: str) -> str:
    """``text`` on one line, unable to close the sources fence or to pose as a source mark:
    ``SOURCES>>>`` becomes ``SOURCES>`` and ``[S9]`` becomes ``(S9)``."""
    flat = " ".join(text.split())
    return _SOURCE_MARK.sub(r"(\1)", _FENCE.sub(lambda match: match.group(0)[0], flat))


def evidence_block(evidence: Sequence[EvidenceSource], *, timezone: str = "UTC") -> str:
    """One line per source: ``[S1] Ana, 2026-03-01 10:00 (Weekend plans): text``. Every part
    that comes from a message (sender, chat title, text) is made ``inert``."""
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    lines = []
    for source in evidence:
        header = inert(source.sender) or "Unknown sender"
        if source.sent_at is not None:
            header += f", {source.sent_at.astimezone(zone):%Y-%m-%d %H:%M}"
        if source.chat_title:
            header += f" ({inert(source.chat_title)})"
        text = inert(source.text)
        lines.append(f"[{source.label}] {header}: {text}")
    return "\n".join(lines)


def findings_block(findings: Sequence[MemoryFinding]) -> str:
    """What personal memory derived from the sources (a plan's status and day, a loop's
    state, a ranking with counts), for the model to state first and cite; "" when nothing.
    Derived text can hold names and titles from messages, so it is made ``inert`` too."""
    if not findings:
        return ""
    lines = []
    for finding in findings:
        marks = "".join(f"[{label}]" for label in finding.labels)
        lines.append(f"- {inert(finding.text)} {marks}".rstrip())
    return (
        "\n\nWhat your memory derived from these sources (state it first, in your own words, "
        "with the same marks; the sources stay the authority):\n" + "\n".join(lines)
    )
