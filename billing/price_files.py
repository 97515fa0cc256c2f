"""Reading price files (JSON or TOML) for ``manage.py load_price_book``.

A file holds ``entries``: a list of tables with ``provider``, ``model`` and the integer
micro-USD rates named like the ``PriceBookEntry`` fields (rates per million tokens; omitted
rates are zero). Optional top-level ``note`` and ``effective_from`` (ISO 8601 with an offset).
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from django.utils.dateparse import parse_datetime

from billing.errors import PriceBookInvalid
from billing.services.price_books import PriceInput

PRICE_FIELDS = (
    "input_micro_usd_per_million",
    "cached_input_micro_usd_per_million",
    "output_micro_usd_per_million",
    "embedding_micro_usd_per_million",
    "step_reserve_micro_usd",
)
_TOP_LEVEL_KEYS = {"entries", "note", "effective_from"}


@dataclass(frozen=True)
class PriceFile:
    entries: tuple[PriceInput, ...]
    note: str
    effective_from: datetime | None


def _document_load(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix.lower() == ".toml":
            return tomllib.loads(text)
        if path.suffix.lower() == ".json":
            loaded = json.loads(text)
            if not isinstance(loaded, dict):
                raise PriceBookInvalid(message="A price file is an object with 'entries'.")
            return loaded
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as error:
        raise PriceBookInvalid(message=f"{path.name} is not valid: {error}") from None
    raise PriceBookInvalid(message="A price file ends in .json or .toml.")


def _effective_from_parse(value: Any) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        parsed: datetime | None = value
    elif isinstance(value, str):
        parsed = parse_datetime(value)
    else:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise PriceBookInvalid(message="effective_from is an ISO 8601 time with a UTC offset.")
    return parsed


def price_file_read(path: Path) -> PriceFile:
    document = _document_load(path)
    unknown = set(document) - _TOP_LEVEL_KEYS
    if unknown:
        raise PriceBookInvalid(message=f"Unknown keys in the price file: {sorted(unknown)}.")
    raw_entries = document.get("entries")
    if not isinstance(raw_entries, list) or not raw_entries:
        raise PriceBookInvalid(message="The price file needs a non-empty 'entries' list.")
    entries: list[PriceInput] = []
    seen: set[tuple[str, str]] = set()
    for index, raw in enumerate(raw_entries):
        if not isinstance(raw, dict):
            raise PriceBookInvalid(message=f"Entry {index} is not a table.")
        unknown_fields = set(raw) - {"provider", "model", *PRICE_FIELDS}
        if unknown_fields:
            raise PriceBookInvalid(
                message=f"Entry {index} has unknown fields: {sorted(unknown_fields)}."
            )
        provider, model = str(raw.get("provider", "")), str(raw.get("model", ""))
        if (provider, model) in seen:
            raise PriceBookInvalid(message=f"Entry {index} repeats {provider}/{model}.")
        seen.add((provider, model))
        prices = {name: raw.get(name, 0) for name in PRICE_FIELDS}
        if any(isinstance(value, bool) for value in prices.values()):
            raise PriceBookInvalid(message=f"Entry {index} has a non-numeric price.")
        entries.append(PriceInput(provider=provider, model=model, **prices))
    return PriceFile(
        entries=tuple(entries),
        note=str(document.get("note", "")),
        effective_from=_effective_from_parse(document.get("effective_from")),
    )
