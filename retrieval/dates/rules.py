"""The date rules: one pattern and handler per kind of expression ("last Friday")."""

from __future__ import annotations

import re
from datetime import date, timedelta

from retrieval.dates.terms import (
    _ANY_MONTH,
    _ANY_WEEKDAY,
    _FULL_MONTH,
    _FULL_WEEKDAY,
    _MONTHS,
    _NUMBER,
    _ORDINAL,
    _PART,
    _VAGUE,
    _WEEKDAYS,
    _YEAR,
    EARLIER_HOURS,
    OTHER_DAY_DAYS,
    RECENTLY_DAYS,
    VAGUE_AGO_OFFSETS,
    Handler,
    _Context,
    _Rule,
    _Window,
)
from retrieval.dates.windows import (
    _HOLIDAY_ALTERNATION,
    _HOLIDAY_SPELLINGS,
    _HOLIDAYS,
    _SEASON_GOES_ON,
    _SEASON_START_MONTH,
    _add_months,
    _at,
    _canadian_thanksgiving,
    _choose,
    _dated,
    _day,
    _days,
    _month_window,
    _number,
    _pick,
    _safe_date,
    _until_now,
    _vague_amount,
    _week_start,
    _with_part,
    _year_window,
    _yearly,
)


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
