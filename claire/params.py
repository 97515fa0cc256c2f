"""Numbers read from request text (ids, cursors).

``str.isdigit()`` is true for "²" and other Unicode digits, which ``int()`` refuses or reads as
another number; an id past the database's bigint range fails in PostgreSQL rather than here.
These helpers accept ASCII digits only, within the range of the column they are compared with.
"""

from __future__ import annotations

import re

BIGINT_MAX = 2**63 - 1
_ASCII_DIGITS = re.compile(r"[0-9]{1,19}")


def ascii_int(text: str, *, maximum: int = BIGINT_MAX) -> int | None:
    """The non-negative integer ``text`` spells in ASCII digits, or None (also when it is
    above ``maximum``)."""
    if not _ASCII_DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if value <= maximum else None


def positive_id(value: object) -> int | None:
    """A database id (1 .. bigint max) from an int or its ASCII decimal text, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 < value <= BIGINT_MAX else None
    if isinstance(value, str):
        parsed = ascii_int(value.strip())
        return parsed if parsed else None
    return None
