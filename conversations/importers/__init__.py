"""Parsers for message exports, one module per format; see ``base`` for what they return."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from conversations.importers.base import ImportFormatError, ParsedExport, ParseOptions
from conversations.importers.jsonl import parse_jsonl
from conversations.importers.slack import parse_slack
from conversations.importers.telegram import parse_telegram
from conversations.importers.whatsapp import parse_whatsapp


class Parser(Protocol):
    def __call__(self, path: Path, *, options: ParseOptions) -> ParsedExport: ...


PARSERS: dict[str, Parser] = {
    "whatsapp": parse_whatsapp,
    "telegram": parse_telegram,
    "slack": parse_slack,
    "jsonl": parse_jsonl,
}


def export_parse(*, format: str, path: Path, options: ParseOptions) -> ParsedExport:
    """Read an export of the given format; raises ``ImportFormatError`` on malformed input."""
    return PARSERS[format](path, options=options)


__all__ = [
    "PARSERS",
    "ImportFormatError",
    "ParseOptions",
    "ParsedExport",
    "export_parse",
    "parse_jsonl",
    "parse_slack",
    "parse_telegram",
    "parse_whatsapp",
]
