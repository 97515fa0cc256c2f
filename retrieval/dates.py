"""Relative and absolute date expressions -> half-open windows in the user's timezone.

Our own rules, not a library's: the rules are part of the product (the answer says which window
it read), so they are written down in docs/RETRIEVAL.md and pinned by tests. In short:

- Calendar arithmetic happens on local dates; a window's bounds are local wall-clock times
  (midnight, or a part-of-day hour) converted through the timezone, so a local day across a DST
  change lasts 23 or 25 hours.
- Weeks start on Monday. "last Friday" is the most recent Friday strictly before today, "next
  Friday" the first Friday strictly after today, "this Friday" the Friday of the current week.
- A bare reference without a modifier ("Friday", "in March", "14 March", "at Christmas") picks
  an occurrence by ``direction``: ``past`` (the latest one that has started), ``future`` (the
  earliest one that has not ended) or ``nearest`` (the one containing now, else the closer
  one, the past one on a tie). The occurrence containing now counts in every direction.
- "last week/month/year" is the previous calendar unit; "the last week", "the past 3 days",
  "the last 24 hours" are rolling windows that end now.
- Numeric dates: a number above 12 is the day; otherwise month-first in United States (and
  Philippine) timezones, day-first everywhere else. A year-less date follows ``direction``.
- Compounds: "since X" = [X.start, now); "between X and Y" / "from X to Y" = [X.start, Y.end)
  in either order; "before X" / "after X" = the 14 days before / after X.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from retrieval.lexicon import fold_text
from retrieval.types import TimeRange

Direction = Literal["past", "future", "nearest"]

# Parts of a day as [start hour, end hour) on that day; "night" runs into the next morning.
PART_OF_DAY_HOURS: dict[str, tuple[int, int]] = {
    "morning": (5, 12),
    "afternoon": (12, 18),
    "evening": (18, 24),
    "night": (18, 29),
}
RECENTLY_DAYS = 14
# "Earlier" reaches back at least this many hours (a question asked just after midnight).
EARLIER_HOURS = 12
BEFORE_AFTER_DAYS = 14
OTHER_DAY_DAYS = 7
FEW = 3
COUPLE = 2
SEVERAL = 5
# "a couple of days ago" / "a few weeks ago": offsets (in units) of the window's first and last
# unit counted back from the current one.
VAGUE_AGO_OFFSETS: dict[str, tuple[int, int]] = {"couple": (1, 3), "few": (2, 5)}

MONTH_FIRST_TIMEZONES: frozenset[str] = frozenset(
    {
        "America/New_York",
        "America/Chicago",
        "America/Denver",
        "America/Los_Angeles",
        "America/Phoenix",
        "America/Anchorage",
        "America/Adak",
        "America/Boise",
        "America/Detroit",
        "America/Juneau",
        "America/Sitka",
        "America/Nome",
        "America/Yakutat",
        "America/Metlakatla",
        "America/Menominee",
        "America/Puerto_Rico",
        "Pacific/Honolulu",
        "Asia/Manila",
        "US/Eastern",
        "US/Central",
        "US/Mountain",
        "US/Pacific",
        "US/Alaska",
        "US/Hawaii",
    }
)
MONTH_FIRST_PREFIXES: tuple[str, ...] = (
    "America/Indiana/",
    "America/Kentucky/",
    "America/North_Dakota/",
)
# Thanksgiving is in October in Canada: the zones of Canadian cities.
CANADIAN_TIMEZONES: frozenset[str] = frozenset(
    {
        "America/Toronto",
        "America/Montreal",
        "America/Vancouver",
        "America/Edmonton",
        "America/Winnipeg",
        "America/Regina",
        "America/Halifax",
        "America/St_Johns",
        "America/Moncton",
        "America/Glace_Bay",
        "America/Goose_Bay",
        "America/Whitehorse",
        "America/Yellowknife",
        "America/Iqaluit",
        "America/Swift_Current",
        "America/Dawson_Creek",
        "America/Fort_Nelson",
    }
)
# Seasons flip south of the equator.
SOUTHERN_TIMEZONE_PREFIXES: tuple[str, ...] = (
    "Australia/",
    "Antarctica/",
    "America/Argentina/",
    "America/Sao_Paulo",
    "America/Buenos_Aires",
    "America/Santiago",
    "America/Montevideo",
    "America/Asuncion",
    "America/La_Paz",
    "America/Lima",
    "Africa/Johannesburg",
    "Africa/Maputo",
    "Africa/Windhoek",
    "Africa/Harare",
    "Africa/Lusaka",
    "Africa/Luanda",
    "Pacific/Auckland",
    "Pacific/Chatham",
    "Pacific/Fiji",
    "Indian/Mauritius",
    "Indian/Reunion",
)

_WEEKDAYS: dict[str, int] = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tues": 1,
    "tue": 1,
    "wednesday": 2,
    "wed": 2,
    "thursday": 3,
    "thurs": 3,
    "thur": 3,
    "thu": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sat": 5,
    "sunday": 6,
    "sun": 6,
}
_MONTHS: dict[str, int] = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}
_NUMBER_WORDS: dict[str, int] = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_DASH = " \u2013 "
_DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

_FULL_WEEKDAY = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_ANY_WEEKDAY = _FULL_WEEKDAY + r"|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun"
_FULL_MONTH = (
    r"january|february|march|april|may|june|july|august|september|october|november|december"
)
_ANY_MONTH = _FULL_MONTH + r"|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec"
_NUMBER = r"\d{1,3}|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_VAGUE = r"a\s+couple\s+of|a\s+couple|couple\s+of|a\s+few|few|several"
_PART = r"(?:\s+(?P<part>morning|afternoon|evening|night))?"
_ORDINAL = r"(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d{2}"


@dataclass(frozen=True)
class _Context:
    now: datetime
    tz: ZoneInfo
    today: date
    direction: Direction
    month_first: bool
    southern: bool
    canadian: bool = False


@dataclass(frozen=True)
class _Window:
    start: datetime
    end: datetime
    until_now: bool = False

    @property
    def start_utc(self) -> datetime:
        return self.start.astimezone(UTC)

    @property
    def end_utc(self) -> datetime:
        return self.end.astimezone(UTC)


@dataclass(frozen=True)
class _Hit:
    start: int
    end: int
    window: _Window
    standalone: bool


Handler = Callable[[re.Match[str], _Context], _Window | None]


@dataclass(frozen=True)
class _Rule:
    name: str
    regex: re.Pattern[str]
    handler: Handler
    standalone: bool


# --- calendar helpers ---------------------------------------------------------------------


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


# --- rule handlers ------------------------------------------------------------------------


def _today(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _with_part(ctx, ctx.today, m.group("part"))


def _yesterday(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _with_part(ctx, ctx.today - timedelta(days=1), m.group("part"))


def _tomorrow(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _with_part(ctx, ctx.today + timedelta(days=1), m.group("part"))


def _day_before_yesterday(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _with_part(ctx, ctx.today - timedelta(days=2), m.group("part"))


def _day_after_tomorrow(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _with_part(ctx, ctx.today + timedelta(days=2), m.group("part"))


def _this_part(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _with_part(ctx, ctx.today, m.group("part"))


def _tonight(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _with_part(ctx, ctx.today, "night")


def _last_night(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _with_part(ctx, ctx.today - timedelta(days=1), "night")


def _weekday(m: re.Match[str], ctx: _Context) -> _Window | None:
    modifier = (m.group("modifier") or "").split()
    target = _WEEKDAYS[m.group("weekday")]
    today = ctx.today
    current = today.weekday()
    if modifier in (["last"], ["this", "past"], ["past"]):
        day = today - timedelta(days=(current - target) % 7 or 7)
    elif modifier == ["next"]:
        # "next Thursday" is the Thursday of next week ("this Thursday" is this week's): said
        # on a Wednesday it is eight days ahead, not tomorrow.
        day = _week_start(today) + timedelta(days=7 + target)
    elif modifier in (["this", "coming"], ["coming"]):
        day = today + timedelta(days=(target - current) % 7 or 7)
    elif modifier == ["this"]:
        day = _week_start(today) + timedelta(days=target)
    else:
        before = today - timedelta(days=(current - target) % 7)
        after = today + timedelta(days=(target - current) % 7)
        chosen = _pick(ctx, [_day(ctx, before), _day(ctx, after)])
        if chosen is None:
            return None
        day = chosen.start.date()
    return _with_part(ctx, day, m.group("part"))


def _days_ago(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _with_part(ctx, ctx.today - timedelta(days=_number(m.group("n"))), m.group("part"))


def _days_ahead(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _with_part(ctx, ctx.today + timedelta(days=_number(m.group("n"))), m.group("part"))


def _unit_window(ctx: _Context, unit: str, offset: int, count: int = 1) -> _Window:
    """``count`` calendar units starting ``offset`` units from the current one."""
    if unit == "day":
        first = ctx.today + timedelta(days=offset)
        return _days(ctx, first, first + timedelta(days=count))
    if unit == "week":
        first = _week_start(ctx.today) + timedelta(weeks=offset)
        return _days(ctx, first, first + timedelta(weeks=count))
    if unit == "month":
        first = _add_months(ctx.today.replace(day=1), offset)
        return _days(ctx, first, _add_months(first, count))
    first = date(ctx.today.year + offset, 1, 1)
    return _days(ctx, first, date(first.year + count, 1, 1))


def _unit(text: str) -> str:
    return text.rstrip("s")


def _relative_unit(m: re.Match[str], ctx: _Context) -> _Window | None:
    offset = {"last": -1, "this": 0, "next": 1}[m.group("modifier")]
    return _unit_window(ctx, _unit(m.group("unit")), offset)


def _units_ago(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _unit_window(ctx, _unit(m.group("unit")), -_number(m.group("n")))


def _units_ahead(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _unit_window(ctx, _unit(m.group("unit")), _number(m.group("n")))


def _week_before_last(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _unit_window(ctx, "week", -2)


def _vague_ago(m: re.Match[str], ctx: _Context) -> _Window | None:
    amount = "couple" if "couple" in m.group("vague") else "few"
    nearest, farthest = VAGUE_AGO_OFFSETS[amount]
    return _unit_window(ctx, _unit(m.group("unit")), -farthest, farthest - nearest + 1)


def _earlier_this(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _until_now(ctx, _unit_window(ctx, _unit(m.group("unit")), 0).start)


def _earlier(m: re.Match[str], ctx: _Context) -> _Window | None:
    """ "What did Ana say earlier?": today so far, and at least the last ``EARLIER_HOURS``
    hours (asked at 8 am, "earlier" may be last night)."""
    return _until_now(ctx, min(_at(ctx, ctx.today), ctx.now - timedelta(hours=EARLIER_HOURS)))


def _rolling(m: re.Match[str], ctx: _Context) -> _Window | None:
    unit = _unit(m.group("unit"))
    if m.group("n"):
        amount = _number(m.group("n"))
    elif m.group("vague"):
        amount = _vague_amount(m.group("vague"))
    else:
        amount = 1
    if unit == "hour":
        return _until_now(ctx, ctx.now - timedelta(hours=amount))
    if unit == "day":
        first = ctx.today - timedelta(days=amount)
    elif unit == "week":
        first = ctx.today - timedelta(weeks=amount)
    elif unit == "month":
        first = _add_months(ctx.today, -amount)
    else:
        first = _add_months(ctx.today, -12 * amount)
    return _until_now(ctx, _at(ctx, first))


def _recently(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _until_now(ctx, _at(ctx, ctx.today - timedelta(days=RECENTLY_DAYS)))


def _other_day(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _days(ctx, ctx.today - timedelta(days=OTHER_DAY_DAYS), ctx.today)


def _weekend_of(ctx: _Context, week_start: date) -> _Window:
    saturday = week_start + timedelta(days=5)
    return _days(ctx, saturday, saturday + timedelta(days=2))


def _weekend(m: re.Match[str], ctx: _Context) -> _Window | None:
    modifier = " ".join((m.group("modifier") or "").split())
    monday = _week_start(ctx.today)
    if modifier in ("last", "this past", "past"):
        # The most recent complete weekend: the one in progress does not count.
        return _weekend_of(ctx, monday - timedelta(weeks=1))
    if modifier == "this":
        return _weekend_of(ctx, monday)
    if modifier in ("next", "this coming", "coming"):
        current = _weekend_of(ctx, monday)
        if current.start.date() > ctx.today:
            return current
        return _weekend_of(ctx, monday + timedelta(weeks=1))
    return _pick(ctx, [_weekend_of(ctx, monday + timedelta(weeks=k)) for k in (-1, 0, 1)])


def _month_name(m: re.Match[str], ctx: _Context) -> _Window | None:
    month = _MONTHS[m.group("month")]
    year = m.groupdict().get("year")
    if year:
        return _month_window(ctx, int(year), month)
    modifier = m.groupdict().get("modifier")
    return _choose(ctx, modifier, _yearly(ctx, lambda year: _month_window(ctx, year, month)))


def _year(m: re.Match[str], ctx: _Context) -> _Window | None:
    return _year_window(ctx, int(m.group("year")))


# "early 2022", "mid-2022", "late 2022": a third of the year each (months from, to).
_YEAR_THIRDS = {"early": (1, 5), "mid": (5, 9), "late": (9, 13)}


def _year_part(m: re.Match[str], ctx: _Context) -> _Window | None:
    year = int(m.group("year"))
    first, after_last = _YEAR_THIRDS[m.group("third")]
    return _days(ctx, date(year, first, 1), _add_months(date(year, 1, 1), after_last - 1))


def _month_day(m: re.Match[str], ctx: _Context) -> _Window | None:
    windows = _dated(ctx, _MONTHS[m.group("month")], int(m.group("day")), m.group("year"))
    chosen = _pick(ctx, windows) if windows else None
    if chosen is None:
        return None
    return _with_part(ctx, chosen.start.date(), m.group("part"))


def _iso_date(m: re.Match[str], ctx: _Context) -> _Window | None:
    found = _safe_date(int(m.group("year")), int(m.group("month")), int(m.group("day")))
    return _with_part(ctx, found, m.group("part")) if found else None


def _numeric_date(m: re.Match[str], ctx: _Context) -> _Window | None:
    first, second = int(m.group("a")), int(m.group("b"))
    if m.group("sep") == "." or first > 12:
        day, month = first, second
    elif second > 12 or ctx.month_first:
        month, day = first, second
    else:
        day, month = first, second
    if not 1 <= month <= 12:
        return None
    windows = _dated(ctx, month, day, m.group("year"))
    chosen = _pick(ctx, windows) if windows else None
    return _with_part(ctx, chosen.start.date(), m.group("part")) if chosen else None


def _day_of_month(m: re.Match[str], ctx: _Context) -> _Window | None:
    day = int(m.group("day"))
    windows = []
    for offset in range(-3, 4):
        first = _add_months(ctx.today.replace(day=1), offset)
        found = _safe_date(first.year, first.month, day)
        if found is not None:
            windows.append(_day(ctx, found))
    return _pick(ctx, windows)


def _holiday(m: re.Match[str], ctx: _Context) -> _Window | None:
    key = _HOLIDAY_SPELLINGS[" ".join(m.group("holiday").split())]
    bounds = _canadian_thanksgiving if key == "thanksgiving" and ctx.canadian else _HOLIDAYS[key]
    return _choose(ctx, m.group("modifier"), _yearly(ctx, lambda year: _days(ctx, *bounds(year))))


def _season(m: re.Match[str], ctx: _Context) -> _Window | None:
    start_month = _SEASON_START_MONTH[m.group("season")]
    if ctx.southern:
        start_month = (start_month + 6 - 1) % 12 + 1

    def occurrence(year: int) -> _Window:
        first = date(year, start_month, 1)
        return _days(ctx, first, _add_months(first, 3))

    if m.group("year"):
        return occurrence(int(m.group("year")))
    return _choose(ctx, m.group("modifier"), _yearly(ctx, occurrence))


def _rule(name: str, pattern: str, handler: Handler, *, standalone: bool = True) -> _Rule:
    regex = re.compile(rf"(?<![\w'])(?:{pattern})(?![\w]|'(?!s\b))")
    return _Rule(name=name, regex=regex, handler=handler, standalone=standalone)


_RULES: tuple[_Rule, ...] = (
    _rule("today", r"today" + _PART, _today),
    _rule("yesterday", r"yesterday" + _PART, _yesterday),
    _rule("tomorrow", r"tomorrow" + _PART, _tomorrow),
    _rule("day_before_yesterday", r"the\s+day\s+before\s+yesterday" + _PART, _day_before_yesterday),
    _rule("day_after_tomorrow", r"the\s+day\s+after\s+tomorrow" + _PART, _day_after_tomorrow),
    _rule("this_part", r"this\s+(?P<part>morning|afternoon|evening)", _this_part),
    _rule("tonight", r"tonight", _tonight),
    _rule("last_night", r"last\s+night", _last_night),
    _rule(
        "weekday_modified",
        rf"(?P<modifier>last|next|this\s+past|this\s+coming|this|coming|past)\s+"
        rf"(?P<weekday>{_ANY_WEEKDAY})" + _PART,
        _weekday,
    ),
    _rule("weekday", rf"(?P<modifier>)(?P<weekday>{_FULL_WEEKDAY})" + _PART, _weekday),
    _rule(
        "weekday_on",
        rf"on\s+(?P<modifier>)(?P<weekday>{_ANY_WEEKDAY})" + _PART,
        _weekday,
    ),
    # "what's on sat 31 oct", "is dinner still on Fri, the 9th of May": the date a weekday
    # is said with is the day, read as one expression from the weekday on.
    _rule(
        "weekday_day_month",
        rf"(?:on\s+)?(?:{_ANY_WEEKDAY})\.?,?\s+(?:the\s+)?(?P<day>\d{{1,2}}){_ORDINAL}\s+"
        rf"(?:of\s+)?(?P<month>{_ANY_MONTH})\.?(?:,?\s+(?P<year>{_YEAR}))?" + _PART,
        _month_day,
    ),
    _rule(
        "weekday_month_day",
        rf"(?:on\s+)?(?:{_ANY_WEEKDAY})\.?,?\s+(?P<month>{_ANY_MONTH})\.?\s+(?:the\s+)?"
        rf"(?P<day>\d{{1,2}}){_ORDINAL}(?:,?\s+(?P<year>{_YEAR}))?" + _PART,
        _month_day,
    ),
    # "where's game night sat", "the party is thu right?": a short weekday as the question's
    # last word (before a tag) is that day; elsewhere "sat" and "sun" are everyday words.
    _rule(
        "weekday_short_last",
        r"(?<!\bthe )(?<!\bi )(?<!\bwe )(?<!\byou )(?<!\bhe )(?<!\bshe )(?<!\bthey )"
        r"(?P<modifier>)(?P<weekday>mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun)(?P<part>(?!))?"
        r"(?=\s*(?:,?\s*(?:right|yeah|again|then|correct))?\s*[?!.]*\s*$)",
        _weekday,
    ),
    _rule("days_ago", rf"(?P<n>{_NUMBER})\s+days?\s+ago" + _PART, _days_ago),
    _rule("days_ahead", rf"in\s+(?P<n>{_NUMBER})\s+days?(?:\s+time)?" + _PART, _days_ahead),
    _rule(
        "relative_unit", r"(?P<modifier>last|this|next)\s+(?P<unit>week|month|year)", _relative_unit
    ),
    _rule("units_ago", rf"(?P<n>{_NUMBER})\s+(?P<unit>weeks?|months?|years?)\s+ago", _units_ago),
    _rule("units_ahead", rf"in\s+(?P<n>{_NUMBER})\s+(?P<unit>weeks?|months?|years?)", _units_ahead),
    _rule("week_before_last", r"the\s+week\s+before\s+last", _week_before_last),
    _rule(
        "vague_ago",
        rf"(?P<vague>{_VAGUE})\s+(?P<unit>days|weeks|months|years)\s+ago",
        _vague_ago,
    ),
    _rule("earlier_this", r"earlier\s+this\s+(?P<unit>week|month|year)", _earlier_this),
    _rule(
        "earlier",
        r"earlier(?:\s+on)?(?!\s+(?:this|than|that|in|on|last|next|today|tonight)\b)",
        _earlier,
    ),
    _rule(
        "rolling",
        rf"(?:the\s+(?:last|past)|this\s+past|past|last(?=\s+(?:{_NUMBER}|{_VAGUE})\s))\s+"
        rf"(?:(?P<n>{_NUMBER})\s+|(?P<vague>{_VAGUE})\s+)?"
        r"(?P<unit>hours?|days?|weeks?|months?|years?)",
        _rolling,
    ),
    _rule("recently", r"recently|lately|of\s+late|in\s+recent\s+days", _recently),
    _rule("other_day", r"the\s+other\s+day", _other_day),
    _rule(
        "weekend",
        r"(?:(?P<modifier>last|next|this\s+past|this\s+coming|this|coming|past)|the)\s+weekend",
        _weekend,
    ),
    _rule(
        "month_in",
        rf"(?:in|during|throughout|for)\s+(?:the\s+month\s+of\s+)?(?P<month>{_FULL_MONTH})"
        rf"(?:,?\s+(?P<year>{_YEAR}))?(?!\s+\d)",
        _month_name,
    ),
    _rule(
        "month_modified",
        rf"(?P<modifier>last|this|next)\s+(?P<month>{_FULL_MONTH})(?!\s+\d)",
        _month_name,
    ),
    _rule("month_year", rf"(?P<month>{_FULL_MONTH}),?\s+(?P<year>{_YEAR})", _month_name),
    _rule(
        "month_bare", rf"(?P<month>{_FULL_MONTH})(?P<year>)(?!\s+\d)", _month_name, standalone=False
    ),
    _rule("year_part", rf"(?:the\s+)?(?P<third>early|mid|late)[-\s]+(?P<year>{_YEAR})", _year_part),
    _rule("year_in", rf"(?:in|during|throughout)\s+(?P<year>{_YEAR})(?![-/.]\d)", _year),
    _rule("year_bare", rf"(?P<year>{_YEAR})(?![-/.]\d)", _year, standalone=False),
    _rule(
        "month_day",
        rf"(?P<month>{_ANY_MONTH})\.?\s+(?:the\s+)?(?P<day>\d{{1,2}}){_ORDINAL}"
        rf"(?:,?\s+(?P<year>{_YEAR}))?" + _PART,
        _month_day,
    ),
    _rule(
        "day_month",
        rf"(?:the\s+)?(?P<day>\d{{1,2}}){_ORDINAL}\s+(?:of\s+)?(?P<month>{_ANY_MONTH})\.?"
        rf"(?:,?\s+(?P<year>{_YEAR}))?" + _PART,
        _month_day,
    ),
    _rule(
        "iso_date",
        r"(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})" + _PART,
        _iso_date,
    ),
    # "24/7" is a figure of speech, and a dotted date needs its year: "2.5" is a number.
    _rule(
        "numeric_date",
        r"(?!24/7(?!/))(?P<a>\d{1,2})(?P<sep>/)(?P<b>\d{1,2})(?:/(?P<year>\d{4}|\d{2}))?" + _PART,
        _numeric_date,
    ),
    _rule(
        "dotted_date",
        r"(?P<a>\d{1,2})(?P<sep>\.)(?P<b>\d{1,2})\.(?P<year>\d{4})" + _PART,
        _numeric_date,
    ),
    _rule("day_of_month", r"(?:on\s+)?the\s+(?P<day>\d{1,2})(?:st|nd|rd|th)", _day_of_month),
    _rule(
        "holiday",
        rf"(?:(?P<modifier>last|this|next)\s+)?(?P<holiday>{_HOLIDAY_ALTERNATION})",
        _holiday,
    ),
    _rule(
        "season",
        r"(?:(?P<modifier>last|this|next)\s+|(?:in|during|over)\s+(?:the\s+)?|the\s+)"
        r"(?P<season>spring|summer|autumn|fall|winter)"
        rf"(?:,?\s+(?:of\s+)?(?P<year>{_YEAR}))?"
        # A season word that qualifies the noun after it is no time: "the spring rolls", "the
        # winter coat", "the summer menu" (a time may go on: "the spring of", "summer break").
        rf"(?!\s+(?!{_SEASON_GOES_ON}\b)[a-z])",
        _season,
    ),
)

_BEFORE_COMPOUND = re.compile(r"(?:^|(?<=[^\w']))(?P<word>since|between|from|before|after)\s+$")
# A measured step before or after a date: "the week before 9 June", "two days after the
# wedding on 3 May", "the Friday before 25 October", "the month before July 2023".
_STEP_BEFORE = re.compile(
    rf"(?:^|(?<=[^\w']))(?:(?:the|that|last)\s+)?(?:(?P<n>{_NUMBER})\s+|(?P<vague>{_VAGUE})\s+)?"
    rf"(?P<unit>days?|weeks?|weekends?|months?|years?|{_FULL_WEEKDAY})\s+$"
)
_BETWEEN_JOIN = re.compile(r"^\s+and\s+$")
_FROM_JOIN = re.compile(r"^\s*(?:\s(?:to|until|till|through|thru)\s|-)\s*$")


def _scan(folded: str, ctx: _Context) -> list[_Hit]:
    """Every rule's matches, reduced to non-overlapping ones: earliest first, longest first."""
    found: list[_Hit] = []
    for rule in _RULES:
        for match in rule.regex.finditer(folded):
            window = rule.handler(match, ctx)
            if window is None or window.start_utc >= window.end_utc:
                continue
            found.append(_Hit(match.start(), match.end(), window, rule.standalone))
    found.sort(key=lambda hit: (hit.start, -(hit.end - hit.start)))
    kept: list[_Hit] = []
    for hit in found:
        if kept and hit.start < kept[-1].end:
            continue
        kept.append(hit)
    return kept


_EXPLICIT_YEAR = re.compile(rf"(?<!\d)({_YEAR})(?!\d)")


def _with_year_of(first: str, second: str, ctx: _Context) -> _Window | None:
    """ "January" in "from January to March 2025" takes March's year: the first part of a
    range read again with the second part's explicit year, when it has none of its own."""
    year = _EXPLICIT_YEAR.search(second)
    if year is None or _EXPLICIT_YEAR.search(first):
        return None
    text = f"{first} {year.group(1)}"
    for rule in _RULES:
        match = rule.regex.fullmatch(text)
        if match is not None:
            return rule.handler(match, ctx)
    return None


def _step_window(
    ctx: _Context, step: re.Match[str], anchor: _Window, *, is_before: bool
) -> _Window:
    """The window a measured step names from ``anchor``: before it, the ``n``-th day, week,
    weekend, month, year or weekday counted back from its start ("the week before 9 June" is 2-8
    June, "two days before" the 7th, "the Friday before" the last Friday before that day); after
    it, the same counted on from its end. A vague count ("a few days before") spans every unit
    from the anchor to the farthest one."""
    unit = step.group("unit")
    vague = step.group("vague")
    count = _vague_amount(vague) if vague else _number(step.group("n")) if step.group("n") else 1
    nearest = 1 if vague else count
    edge = anchor.start.date() if is_before else anchor.end.date()
    sign = -1 if is_before else 1

    def shifted(first: date, units: int) -> date:
        if unit.startswith("month"):
            return _add_months(first, sign * units)
        if unit.startswith("year"):
            return _add_months(first, sign * 12 * units)
        days = 1 if unit.startswith("day") else 7
        return first + timedelta(days=sign * days * units)

    if unit in _WEEKDAYS or unit.startswith("weekend"):
        target = _WEEKDAYS.get(unit, 5)
        length = 2 if unit.startswith("weekend") else 1
        if is_before:
            first = edge - timedelta(days=(edge.weekday() - target) % 7 or 7)
            while first + timedelta(days=length) > edge:
                first -= timedelta(days=7)
        else:
            first = edge + timedelta(days=(target - edge.weekday()) % 7)
        near = first + timedelta(days=sign * 7 * (nearest - 1))
        far = first + timedelta(days=sign * 7 * (count - 1))
        low, high = min(near, far), max(near, far)
        return _days(ctx, low, high + timedelta(days=length))
    near, far = shifted(edge, nearest - 1), shifted(edge, count)
    if is_before:
        return _days(ctx, far, near)
    return _days(ctx, near, far)


def _compounds(folded: str, hits: list[_Hit], ctx: _Context) -> list[_Hit]:
    compounds: list[_Hit] = []
    for index, hit in enumerate(hits):
        before = _BEFORE_COMPOUND.search(folded[: hit.start])
        if before is None:
            continue
        word = before.group("word")
        window: _Window | None = None
        end = hit.end
        start = before.start()
        step = _STEP_BEFORE.search(folded[:start]) if word in ("before", "after") else None
        if step is not None:
            window = _step_window(ctx, step, hit.window, is_before=word == "before")
            start = step.start()
        elif word == "since":
            window = _until_now(ctx, hit.window.start)
        elif word == "before":
            window = _Window(hit.window.start - timedelta(days=BEFORE_AFTER_DAYS), hit.window.start)
        elif word == "after":
            window = _Window(hit.window.end, hit.window.end + timedelta(days=BEFORE_AFTER_DAYS))
        elif index + 1 < len(hits):
            following = hits[index + 1]
            joiner = folded[hit.end : following.start]
            join = _BETWEEN_JOIN if word == "between" else _FROM_JOIN
            if join.match(joiner):
                own = _with_year_of(
                    folded[hit.start : hit.end], folded[following.start : following.end], ctx
                )
                first = min(own or hit.window, following.window, key=lambda w: w.start_utc)
                last = max(own or hit.window, following.window, key=lambda w: w.end_utc)
                window = _Window(first.start, last.end, until_now=last.until_now)
                end = following.end
        if window is not None and window.start_utc < window.end_utc:
            compounds.append(_Hit(start, end, window, True))
    return compounds


def _context(now: datetime, tz: ZoneInfo, direction: Direction) -> _Context:
    if now.tzinfo is None:
        raise ValueError("Resolving dates needs an aware 'now'.")
    local_now = now.astimezone(tz)
    key = tz.key
    return _Context(
        now=local_now,
        tz=tz,
        today=local_now.date(),
        direction=direction,
        month_first=key in MONTH_FIRST_TIMEZONES or key.startswith(MONTH_FIRST_PREFIXES),
        southern=key.startswith(SOUTHERN_TIMEZONE_PREFIXES),
        canadian=key in CANADIAN_TIMEZONES or key.startswith("Canada/"),
    )


def _describe_day(moment: datetime, *, with_year: bool = True) -> str:
    text = f"{_DAY_NAMES[moment.weekday()]} {moment.day} {_MONTH_NAMES[moment.month - 1]}"
    return f"{text} {moment.year}" if with_year else text


def _describe_moment(moment: datetime) -> str:
    return f"{_describe_day(moment)} {moment:%H:%M}"


def describe_window(start: datetime, end: datetime, *, until_now: bool = False) -> str:
    """The window as a person reads it, in local time: "Sat 14 Mar 2026", "Mon 2 Mar - Sun 8
    Mar 2026", "Fri 13 Mar 2026 18:00 - Sat 14 Mar 2026 05:00", "Mon 9 Mar 2026 - now" (with
    an en dash)."""
    is_midnight = start.time() == time(0)
    if until_now:
        return f"{_describe_day(start) if is_midnight else _describe_moment(start)}{_DASH}now"
    if is_midnight and end.time() == time(0):
        last = end - timedelta(days=1)
        if last.date() == start.date():
            return _describe_day(start)
        same_year = last.year == start.year
        return f"{_describe_day(start, with_year=not same_year)}{_DASH}{_describe_day(last)}"
    if end.date() == start.date():
        return f"{_describe_moment(start)}\u2013{end:%H:%M}"
    return f"{_describe_moment(start)}{_DASH}{_describe_moment(end)}"


def _anchored(folded: str, best: _Hit, candidates: list[_Hit], ctx: _Context) -> _Window | None:
    """``best`` read against a dated expression of the same text instead of ``now``, when
    ``best`` names no year and a later expression does: "last Friday, on 23 January 2022" is
    the Friday before that date, "the Sunday before 25 October 2022" the Sunday before it, and
    "recently, in May 2022" is May 2022 (a window running up to now means up to that date).
    None when there is no such anchor."""
    if _EXPLICIT_YEAR.search(folded[best.start : best.end]):
        return None
    anchors = [
        hit
        for hit in candidates
        if hit.start >= best.end and _EXPLICIT_YEAR.search(folded[hit.start : hit.end])
    ]
    if not anchors:
        return None
    anchor = min(anchors, key=lambda hit: (hit.start, -(hit.end - hit.start)))
    if best.window.until_now:
        return anchor.window
    anchor_ctx = replace(ctx, now=anchor.window.end, today=anchor.window.end.date())
    for hit in _scan(folded[best.start : best.end], anchor_ctx):
        if hit.start == 0 and hit.end == best.end - best.start:
            return hit.window
    return None


def resolve_time_expression(
    text: str, *, now: datetime, tz: ZoneInfo, direction: Direction = "past"
) -> tuple[TimeRange | None, tuple[int, int] | None]:
    """The first time expression of ``text`` (earliest, then longest) as a window in ``tz``,
    and its ``(start, end)`` character span in ``text``; ``(None, None)`` when there is none.

    ``now`` is the moment the expression is relative to: the time of asking for a question,
    the send time for a message (see ``message_relative_date``).
    """
    ctx = _context(now, tz, direction)
    folded = fold_text(text)
    hits = _scan(folded, ctx)
    candidates = _compounds(folded, hits, ctx) + [hit for hit in hits if hit.standalone]
    if not candidates:
        return None, None
    best = min(candidates, key=lambda hit: (hit.start, -(hit.end - hit.start)))
    window = _anchored(folded, best, candidates, ctx) or best.window
    phrase = " ".join(text[best.start : best.end].split()).lower()
    described = describe_window(window.start, window.end, until_now=window.until_now)
    time_range = TimeRange(
        start=window.start,
        end=window.end,
        timezone=tz.key,
        label=f"{phrase} ({described}, {tz.key})",
    )
    return time_range, (best.start, best.end)


def message_relative_date(
    text: str, sent_at: datetime, tz: ZoneInfo, *, direction: Direction = "nearest"
) -> TimeRange | None:
    """The window a message's own date words refer to, read against the message's send time.

    "I went there yesterday" sent on 8 May means 7 May, whenever the question is asked. Bare
    weekdays default to the nearest occurrence: "dinner Friday?" sent on a Wednesday is two
    days later, "saw him Friday" sent on a Saturday is the day before.
    """
    time_range, _span = resolve_time_expression(text, now=sent_at, tz=tz, direction=direction)
    return time_range
