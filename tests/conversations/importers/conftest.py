from __future__ import annotations

from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from conversations.importers import ParsedExport, ParseOptions
from conversations.services import IncomingMessage

SAMPLES = Path(__file__).parent / "samples"
LISBON = ZoneInfo("Europe/Lisbon")


def lisbon_options(**overrides) -> ParseOptions:
    return ParseOptions(**{"timezone": LISBON, **overrides})


def parsed_messages(parsed: ParsedExport) -> list[tuple[str, IncomingMessage]]:
    return list(parsed.messages)


@pytest.fixture
def samples() -> Path:
    return SAMPLES
