"""Shared prompt pieces, so every model sees evidence labelled the way answers cite it."""

from __future__ import annotations

from collections.abc import Sequence
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from claire.ai.types import EvidenceSource


def evidence_block(evidence: Sequence[EvidenceSource], *, timezone: str = "UTC") -> str:
    """One line per source: ``[S1] Ana, 2026-03-01 10:00 (Weekend plans): text``."""
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    lines = []
    for source in evidence:
        header = source.sender or "Unknown sender"
        if source.sent_at is not None:
            header += f", {source.sent_at.astimezone(zone):%Y-%m-%d %H:%M}"
        if source.chat_title:
            header += f" ({source.chat_title})"
        text = " ".join(source.text.split())
        lines.append(f"[{source.label}] {header}: {text}")
    return "\n".join(lines)
