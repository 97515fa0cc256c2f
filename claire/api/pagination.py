"""Keyset pages for every ``/api/`` list: one cursor format, one limit rule.

A list is ordered newest first by a key (``(moment, id)``, or ``id`` alone); a page holds at
most ``limit`` items and, when more follow, ``nextCursor``: the key of its last item. The next
request passes it back as ``before``. The cursor is the key's parts joined by ``_``, each in
ASCII decimal digits, a moment as microseconds since the epoch: exact, URL-safe and opaque to
clients. Anything else is ``invalid_cursor``; a limit that is not a number is
``invalid_limit``, and numbers outside ``1..maximum`` are clamped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Generic, TypeVar

from rest_framework.request import Request

from claire.errors import CodedError
from claire.params import ascii_int, positive_id

T = TypeVar("T")

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# The last microsecond a Python datetime holds (9999-12-31T23:59:59.999999Z) after the epoch.
CURSOR_MAX_MICROSECONDS = (datetime.max.replace(tzinfo=UTC) - EPOCH) // timedelta(microseconds=1)
CURSOR_PARAMETER = "before"

KeyPart = datetime | int


@dataclass(frozen=True)
class KeysetPage(Generic[T]):
    items: list[T]
    next_cursor: str | None


def page_limit(request: Request, *, default: int, maximum: int) -> int:
    text = request.query_params.get("limit")
    if text is None or text == "":
        return default
    try:
        return min(max(int(text), 1), maximum)
    except ValueError:
        raise CodedError(code="invalid_limit", message="limit must be a number.") from None


def cursor_encode(*key: KeyPart) -> str:
    """The cursor of an item whose ordering key is ``key``."""
    return "_".join(
        str((part - EPOCH) // timedelta(microseconds=1))
        if isinstance(part, datetime)
        else str(part)
        for part in key
    )


def _invalid_cursor() -> CodedError:
    return CodedError(code="invalid_cursor", message="The cursor is not valid.")


def before_moment_and_id(request: Request) -> tuple[datetime, int] | None:
    """The ``(moment, id)`` key a client passed back as ``before``, or None on the first page."""
    value = request.query_params.get(CURSOR_PARAMETER)
    if not value:
        return None
    micros_text, _, id_text = value.partition("_")
    micros = ascii_int(micros_text, maximum=CURSOR_MAX_MICROSECONDS)
    object_id = positive_id(id_text)
    if micros is None or object_id is None:
        raise _invalid_cursor()
    return EPOCH + timedelta(microseconds=micros), object_id


def before_id(request: Request) -> int | None:
    """The ``id`` key a client passed back as ``before``, or None on the first page."""
    value = request.query_params.get(CURSOR_PARAMETER)
    if value is None or value == "":
        return None
    object_id = positive_id(value)
    if object_id is None:
        raise _invalid_cursor()
    return object_id


def keyset_page(
    rows: Sequence[T], *, limit: int, key: Callable[[T], tuple[KeyPart, ...]]
) -> KeysetPage[T]:
    """The page of ``rows`` (read with ``limit + 1`` to learn whether more follow)."""
    items = list(rows[:limit])
    has_more = len(rows) > limit and bool(items)
    return KeysetPage(items=items, next_cursor=cursor_encode(*key(items[-1])) if has_more else None)
