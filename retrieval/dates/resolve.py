"""Scanning a question for its time expression and resolving it to a window."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from retrieval.dates.rules import _RULES
from retrieval.dates.terms import (
    _DASH,
    _DAY_NAMES,
    _FULL_WEEKDAY,
    _MONTH_NAMES,
    _NUMBER,
    _VAGUE,
    _WEEKDAYS,
    _YEAR,
    BEFORE_AFTER_DAYS,
    CANADIAN_TIMEZONES,
    MONTH_FIRST_PREFIXES,
    MONTH_FIRST_TIMEZONES,
    SOUTHERN_TIMEZONE_PREFIXES,
    Direction,
    _Context,
    _Hit,
    _Window,
)
from retrieval.dates.windows import _add_months, _days, _number, _until_now, _vague_amount
from retrieval.lexicon import fold_text
from retrieval.types import TimeRange

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
