"""How people write a day or a clock time in a plan, per language, as data, and the few
readings the shared date reader (``retrieval.dates``) has no grammar for.

A plan's day is read against the send time of the message that says it, in the user's
timezone: "tmrw" sent on Monday is Tuesday, "the 14th" is the next 14th, "jueves 5" is
Thursday the 5th only when the 5th is a Thursday (otherwise the number is not a date), "6/3"
is day then month unless the user's timezone writes month first. Every reading here is a pure
function of (words, send day), tested one by one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, timedelta

# Days said relative to the message, by their offset in days. Longer phrases first: "pasado
# mañana" before "mañana".
RELATIVE_DAYS: Mapping[int, Mapping[str, tuple[str, ...]]] = {
    2: {
        "en": ("the day after tomorrow", "day after tomorrow", "day after tmrw"),
        "pt": ("depois de amanh[aã]",),
        "es": ("pasado ma[nñ]ana",),
        "fr": ("apr[eè]s-demain", "apr[eè]s demain"),
        "de": ("[uü]bermorgen",),
        "it": ("dopodomani",),
    },
    1: {
        "en": ("tomorrow", "tmrw", "tmrow", "tmr", "tmw", "2moro", "2morrow", "tomoz"),
        "pt": ("amanh[aã]",),
        "es": ("ma[nñ]ana",),
        "fr": ("demain",),
        "de": ("morgen",),
        "it": ("domani",),
    },
    0: {
        "en": ("today", "tonight", "tonite", "2nite"),
        "pt": ("hoje", "hj"),
        "es": ("hoy", "esta noche"),
        "fr": ("aujourd['\u2019]hui", "ce soir"),
        "de": ("heute",),
        "it": ("oggi", "stasera", "stanotte"),
    },
}

# Weekends counted from the coming one (0) — "the weekend after next" is the one after it.
WEEKENDS: Mapping[int, Mapping[str, tuple[str, ...]]] = {
    1: {
        "en": ("the weekend after next", "weekend after next"),
        "pt": ("o fim de semana a seguir ao pr[oó]ximo",),
        "es": ("el fin de semana siguiente al pr[oó]ximo",),
        "fr": ("le week-end d['\u2019]apr[eè]s",),
        "de": ("[uü]bern[aä]chstes wochenende", "[uü]bern[aä]chsten wochenende"),
        "it": ("il weekend dopo il prossimo",),
    },
    0: {
        "en": ("this weekend",),
        "pt": ("este fim de semana", "neste fim de semana", "no fim de semana"),
        "es": ("este fin de semana", "el finde", "este finde"),
        "fr": ("ce week-end", "ce weekend"),
        "de": ("dieses wochenende", "am wochenende"),
        "it": ("questo weekend", "questo fine settimana", "nel weekend"),
    },
}

# A number said as the day of the month after a small word: "the 14th", "el 14", "le 14",
# "il 14", "dia 14", "am 14.", "den 14.".
_DAY_OF_MONTH = (
    r"(?:the\s+(?P<en>\d{1,2})(?:st|nd|rd|th)"
    r"|(?:el|le|il|o\s+dia|dia|am|den)\s+(?P<other>\d{1,2})(?!\d)(?:º|°|er|\.)?"
    r"(?!\s*(?:[:h.]\d|am\b|pm\b|uhr\b|h\b|%|€|\$|min|people|personas|pessoas|personnes)))"
)
# "6/3", "6/3/26", "06.03.", "6.3.2026": a date written with numbers.
_NUMERIC_DATE = r"(?P<first>\d{1,2})(?P<sep>[/.])(?P<second>\d{1,2})(?:(?P=sep)(?P<year>\d{2,4})?)?"

# Clock words other than digits with am/pm: the word that comes before an hour ("alle 20",
# "um 8", "a las 9", "vers 20h"), the word after it ("20 Uhr"), and "half 7" (7:30).
CLOCK_BEFORE = (
    "at",
    "@",
    "às",
    "as",
    "a las",
    "à",
    "um",
    "alle",
    "verso le",
    "vers",
    "gegen",
    "hacia las",
    "por volta das",
)
CLOCK_AFTER = ("uhr",)
_NUMBER_WORDS = {
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
NUMBER_WORDS = "|".join(_NUMBER_WORDS)
# "half 7", "half seven": half past, as said in Britain and Ireland.
HALF_PAST = rf"half\s+(?:\d{{1,2}}|{NUMBER_WORDS})\b"
# Said after a bare hour, the part of the day makes it the afternoon or evening: "9 de la
# noche", "8 du soir", "8 di sera", "8 in the evening", "8 Uhr abends".
EVENING_AFTER = (
    r"(?:in\s+the\s+)?(?:evening|night)|de\s+la\s+(?:noche|tarde)|du\s+soir|de\s+l['\u2019]apr[eè]s-midi"
    r"|da\s+(?:noite|tarde)|di\s+sera|del\s+pomeriggio|abends|nachmittags"
)

# Time zones whose people write the month first ("3/6" is March 6).
_MONTH_FIRST_ZONES = ("America/", "US/", "Pacific/Honolulu")


def _alternation(table: Mapping[int, Mapping[str, tuple[str, ...]]]) -> str:
    phrases = [
        phrase
        for by_language in table.values()
        for group in by_language.values()
        for phrase in group
    ]
    return "|".join(sorted(phrases, key=len, reverse=True))


RELATIVE_DAY = _alternation(RELATIVE_DAYS)
WEEKEND = _alternation(WEEKENDS)
# The same shapes without group names, for patterns that hold them among others.
DAY_OF_MONTH = re.sub(r"\?P<\w+>", "?:", _DAY_OF_MONTH)
NUMERIC_DATE = r"\d{1,2}/\d{1,2}(?:/\d{2,4})?(?![\w/])|\d{1,2}\.\d{1,2}\.(?:\d{2,4})?(?!\d)"

_RELATIVE_READ = [
    (offset, re.compile(rf"(?<!\w)(?:{_alternation({offset: table})})(?!\w)", re.IGNORECASE))
    for offset, table in RELATIVE_DAYS.items()
]
_WEEKEND_READ = [
    (offset, re.compile(rf"(?<!\w)(?:{_alternation({offset: table})})(?!\w)", re.IGNORECASE))
    for offset, table in WEEKENDS.items()
]
_DAY_OF_MONTH_READ = re.compile(rf"(?<!\w){_DAY_OF_MONTH}", re.IGNORECASE)
_NUMERIC_READ = re.compile(rf"(?<![\w/.:]){_NUMERIC_DATE}(?![\w/:]|\.\d)")


def is_month_first(zone_key: str) -> bool:
    return zone_key.startswith(_MONTH_FIRST_ZONES)


# Before this hour the night still belongs to the day before: "gotta cancel tmrw" sent at
# 2am is about the coming day, not the one after it.
SMALL_HOURS_END = 6


def relative_day(text: str, sent: date, *, sent_hour: int = 12) -> date | None:
    """ "tmrw", "pasado mañana", "stasera": the day they name from ``sent`` (a "tomorrow"
    sent in the small hours names the day that has just begun)."""
    for offset, pattern in _RELATIVE_READ:
        if pattern.search(text):
            if offset > 0 and sent_hour < SMALL_HOURS_END:
                offset -= 1
            return sent + timedelta(days=offset)
    return None


def weekend_day(text: str, sent: date) -> date | None:
    """The Saturday of "the weekend after next" (or of this weekend) said on ``sent``; said on
    a Sunday, "this weekend" is that Sunday's weekend."""
    for offset, pattern in _WEEKEND_READ:
        if pattern.search(text):
            if sent.weekday() == 6:
                saturday = sent - timedelta(days=1)
            else:
                saturday = sent + timedelta(days=(5 - sent.weekday()) % 7)
            return saturday + timedelta(weeks=offset)
    return None


def _next_with_day(sent: date, day: int) -> date | None:
    """The first date on or after ``sent`` whose day of the month is ``day``."""
    year, month = sent.year, sent.month
    for _ in range(3):
        try:
            found = date(year, month, day)
        except ValueError:
            found = None
        if found is not None and found >= sent:
            return found
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return None


def day_of_month(text: str, sent: date) -> date | None:
    """ "the 14th", "el 14", "am 14.": the next 14th from ``sent``."""
    match = _DAY_OF_MONTH_READ.search(text)
    if match is None:
        return None
    number = int(match.group("en") or match.group("other"))
    return _next_with_day(sent, number) if 1 <= number <= 31 else None


def numeric_date(text: str, sent: date, *, month_first: bool) -> date | None:
    """ "6/3", "06.03.", "6/3/26": day and month (month and day where the user's zone writes
    them so; a number above 12 settles it), in the year that puts it nearest ahead."""
    match = _NUMERIC_READ.search(text)
    if match is None or (
        match.group("sep") == "."
        and not match.group(0).endswith(".")
        and match.group("year") is None
    ):
        # "8.30" is a clock; a dotted date ends with a dot or a year ("6.3.", "6.3.2026").
        return None
    first, second = int(match.group("first")), int(match.group("second"))
    day, month = (second, first) if month_first else (first, second)
    if month > 12 and day <= 12:
        day, month = month, day
    if not (1 <= month <= 12):
        return None
    year_said = match.group("year")
    years = (
        [int(year_said) + (2000 if len(year_said) == 2 else 0)]
        if year_said
        else [sent.year, sent.year + 1]
    )
    for year in years:
        try:
            found = date(year, month, day)
        except ValueError:
            return None
        # A date a few days back is still the one meant (said after the event).
        if year_said or found >= sent - timedelta(days=7):
            return found
    return None


def weekday_with_day(weekday: int, number: int, sent: date) -> date | None:
    """ "jueves 5", "Friday 13": the coming date with that day of the month when it falls on
    that weekday; ``None`` when it does not (the number is then no date: an hour, a count)."""
    found = _next_with_day(sent - timedelta(days=7), number) if 1 <= number <= 31 else None
    while found is not None and found < sent + timedelta(days=62):
        if found.weekday() == weekday:
            return found
        found = _next_with_day(found + timedelta(days=1), number)
    return None


def hour_of_word(word: str) -> int | None:
    """ "seven" → 7, "7" → 7."""
    word = word.lower()
    if word.isdigit():
        return int(word)
    return _NUMBER_WORDS.get(word)


# The end of a span of days said right after its first day: "thu 4 to sat 6", "the
# 11th-13th", "25th to the 27th", "Friday to Sunday". The end needs a weekday or an ordinal,
# so that "Saturday 3 to 5" (a clock range) is not read as one.
DAY_RANGE_END = re.compile(
    r"\s*(?:-|\u2013|to|till|until|thru|through)\s*(?:the\s+)?"
    r"(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?"
    r"|(\d{1,2})(?:st|nd|rd|th)"
    r"|(?P<weekday>monday|mon|tuesday|tues|tue|wednesday|wed|thursday|thurs|thur|thu"
    r"|friday|fri|saturday|sat|sunday|sun)\.?(?!\s*\d))"
    r"\b(?![:.]\d|\s*(?:am|pm|h)\b)",
    re.IGNORECASE,
)
