"""Calendar helpers: windows of days, weeks, months and years; holiday and season dates."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, time, timedelta

from retrieval.dates.terms import (
    _NUMBER_WORDS,
    COUPLE,
    FEW,
    PART_OF_DAY_HOURS,
    SEVERAL,
    _Context,
    _Window,
)


def _at(ctx: _Context, day: date, hour: int = 0) -> datetime:
    """The first instant of local ``day`` at ``hour`` (hours past 24 roll into the next day).

    Going through UTC turns a wall time that a DST gap skips into the instant after the gap.
    """
    day = day + timedelta(days=hour // 24)
    local = datetime.combine(day, time(hour % 24), tzinfo=ctx.tz)
    return local.astimezone(UTC).astimezone(ctx.tz)


def _days(ctx: _Context, first: date, after_last: date) -> _Window:
    return _Window(_at(ctx, first), _at(ctx, after_last))


def _day(ctx: _Context, day: date) -> _Window:
    return _days(ctx, day, day + timedelta(days=1))


def _week_start(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + (day.month - 1) + months
    year, month = divmod(index, 12)
    month += 1
    return date(year, month, min(day.day, _month_length(year, month)))


def _month_length(year: int, month: int) -> int:
    following = date(year + (month == 12), month % 12 + 1, 1)
    return (following - timedelta(days=1)).day


def _month_window(ctx: _Context, year: int, month: int) -> _Window:
    first = date(year, month, 1)
    return _days(ctx, first, _add_months(first, 1))


def _year_window(ctx: _Context, year: int) -> _Window:
    return _days(ctx, date(year, 1, 1), date(year + 1, 1, 1))


def _until_now(ctx: _Context, start: datetime) -> _Window | None:
    if start.astimezone(UTC) >= ctx.now.astimezone(UTC):
        return None
    return _Window(start, ctx.now, until_now=True)


def _number(text: str | None) -> int:
    if text is None:
        return 1
    text = text.strip()
    return int(text) if text.isdigit() else _NUMBER_WORDS[text]


def _vague_amount(text: str) -> int:
    if "couple" in text:
        return COUPLE
    if "several" in text:
        return SEVERAL
    return FEW


def _pick(ctx: _Context, windows: Sequence[_Window]) -> _Window | None:
    """One occurrence of a bare reference, by the context's direction (module docstring)."""
    now = ctx.now.astimezone(UTC)
    ordered = sorted(windows, key=lambda window: window.start_utc)
    started = [window for window in ordered if window.start_utc <= now]
    not_ended = [window for window in ordered if window.end_utc > now]
    if ctx.direction == "past":
        return started[-1] if started else None
    if ctx.direction == "future":
        return not_ended[0] if not_ended else None
    for window in ordered:
        if window.start_utc <= now < window.end_utc:
            return window
    before = [window for window in ordered if window.end_utc <= now]
    after = [window for window in ordered if window.start_utc > now]
    if not after:
        return before[-1] if before else None
    if not before:
        return after[0]
    if after[0].start_utc - now < now - before[-1].end_utc:
        return after[0]
    return before[-1]


def _choose(ctx: _Context, modifier: str | None, windows: Sequence[_Window]) -> _Window | None:
    """``last``: the latest occurrence that has ended; ``next``: the earliest that starts after
    now; ``this``: the one containing now, else the one starting this calendar year; none: by
    direction."""
    now = ctx.now.astimezone(UTC)
    ordered = sorted(windows, key=lambda window: window.start_utc)
    if modifier == "last":
        ended = [window for window in ordered if window.end_utc <= now]
        return ended[-1] if ended else None
    if modifier == "next":
        upcoming = [window for window in ordered if window.start_utc > now]
        return upcoming[0] if upcoming else None
    if modifier == "this":
        for window in ordered:
            if window.start_utc <= now < window.end_utc:
                return window
        this_year = [window for window in ordered if window.start.year == ctx.today.year]
        return this_year[0] if this_year else None
    return _pick(ctx, ordered)


def _yearly(ctx: _Context, make: Callable[[int], _Window | None]) -> list[_Window]:
    windows = []
    for year in range(ctx.today.year - 2, ctx.today.year + 3):
        window = make(year)
        if window is not None:
            windows.append(window)
    return windows


def _with_part(ctx: _Context, day: date, part: str | None) -> _Window:
    if part is None:
        return _day(ctx, day)
    first_hour, end_hour = PART_OF_DAY_HOURS[part]
    return _Window(_at(ctx, day, first_hour), _at(ctx, day, end_hour))


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _year_of(text: str) -> int:
    year = int(text)
    return year + 2000 if year < 100 else year


def _dated(ctx: _Context, month: int, day: int, year: str | None) -> list[_Window]:
    """The windows of day ``day`` of ``month``: that year's only, or one per nearby year."""
    if year is not None:
        exact = _safe_date(_year_of(year), month, day)
        return [_day(ctx, exact)] if exact else []
    return _yearly(
        ctx, lambda y: _day(ctx, found) if (found := _safe_date(y, month, day)) else None
    )


def _easter(year: int) -> date:
    """Gregorian Easter Sunday (the anonymous Gregorian algorithm)."""
    a = year % 19
    b, c = divmod(year, 100)
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    ell = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * ell) // 451
    month, day = divmod(h + ell - 7 * m + 114, 31)
    return date(year, month, day + 1)


def _thanksgiving(year: int) -> date:
    first = date(year, 11, 1)
    first_thursday = first + timedelta(days=(3 - first.weekday()) % 7)
    return first_thursday + timedelta(weeks=3)


def _canadian_thanksgiving(year: int) -> tuple[date, date]:
    """The long weekend of the second Monday of October (Saturday to Monday): the dinner is
    held on any of its days."""
    first = date(year, 10, 1)
    monday = first + timedelta(days=(0 - first.weekday()) % 7, weeks=1)
    return monday - timedelta(days=2), monday + timedelta(days=1)


# Holiday name -> (first day, day after the last) for the occurrence of a given year.
_HOLIDAYS: dict[str, Callable[[int], tuple[date, date]]] = {
    "holidays": lambda y: (date(y, 12, 20), date(y + 1, 1, 7)),
    "christmas eve": lambda y: (date(y, 12, 24), date(y, 12, 25)),
    "christmas": lambda y: (date(y, 12, 25), date(y, 12, 26)),
    "boxing day": lambda y: (date(y, 12, 26), date(y, 12, 27)),
    "new year's eve": lambda y: (date(y, 12, 31), date(y + 1, 1, 1)),
    "new year's day": lambda y: (date(y, 1, 1), date(y, 1, 2)),
    "new year": lambda y: (date(y - 1, 12, 31), date(y, 1, 2)),
    "easter": lambda y: (_easter(y) - timedelta(days=2), _easter(y) + timedelta(days=2)),
    "thanksgiving": lambda y: (_thanksgiving(y), _thanksgiving(y) + timedelta(days=1)),
    "halloween": lambda y: (date(y, 10, 31), date(y, 11, 1)),
    "valentine's day": lambda y: (date(y, 2, 14), date(y, 2, 15)),
}
_HOLIDAY_SPELLINGS: dict[str, str] = {
    "the holidays": "holidays",
    "the holiday season": "holidays",
    "the festive season": "holidays",
    "the christmas holidays": "holidays",
    "christmas holidays": "holidays",
    "christmas eve": "christmas eve",
    "christmas day": "christmas",
    "christmas": "christmas",
    "xmas": "christmas",
    "boxing day": "boxing day",
    "new year's eve": "new year's eve",
    "new years eve": "new year's eve",
    "nye": "new year's eve",
    "new year's day": "new year's day",
    "new years day": "new year's day",
    "new year's": "new year",
    "new years": "new year",
    "new year": "new year",
    "the new year": "new year",
    "easter weekend": "easter",
    "easter": "easter",
    "thanksgiving": "thanksgiving",
    "halloween": "halloween",
    "valentine's day": "valentine's day",
    "valentines day": "valentine's day",
    "valentine's": "valentine's day",
    "valentines": "valentine's day",
}
# Holiday names as people write them ("thanksgiving", "xmas"): they name an event too.
HOLIDAY_NAMES = frozenset(_HOLIDAY_SPELLINGS)
_HOLIDAY_ALTERNATION = "|".join(
    re.escape(spelling).replace(r"\ ", r"\s+")
    for spelling in sorted(_HOLIDAY_SPELLINGS, key=len, reverse=True)
)

# Meteorological seasons as (first month, length in months) in the northern hemisphere.
# Words that may follow a season named as a time: function words, and the stretches a
# season names ("summer holidays", "winter break").
_SEASON_GOES_ON = (
    r"(?:of|in|on|at|to|and|or|but|so|is|was|were|are|be|been|has|had|have|will|did|do|does"
    r"|we|i|you|he|she|they|it|my|our|when|while|that|this|then|before|after|since|until|with"
    r"|for|from|about|what|who|where|how|why|which|if|again|too|already|yet|last|next|just"
    r"|holidays?|hols|break|term|semester|season|vacation|months?|weeks?|weekends?"
    r"|time|period)"
)
_SEASON_START_MONTH = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
