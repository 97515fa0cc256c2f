"""Date words, timezone conventions, pattern fragments and the window types the rules share."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Literal
from zoneinfo import ZoneInfo

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
# Public for the readers of a weekday said in other words ("Friday to Sunday").
WEEKDAY_NUMBERS = _WEEKDAYS
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
