"""Statements memory can make about a question, each with the messages that prove it.

An answer should say the fact asked for before it quotes anything: the plan's status, day,
time and place and what changed; whether a loop is still open, with whom and since when; the
ranked people with how much the user exchanged with them. ``Finding`` is that statement in
plain words plus the message ids it rests on; ``memory.evidence`` builds them from
the same memory rows it cites, and the answerer states them first, cited.

Rendering is pure (rows and the user's timezone in, words out) so it is tested on its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from claire.ai.suspicious import suspicious_text
from memory.deeds import DeedAnswer
from memory.extract import ACTIVITIES
from memory.models import Loop, LoopKind, LoopStatus, PlanStatus
from memory.selectors import PlanStepView, PlanTimeline, RelationshipMetrics
from memory.when_words import (
    CLOCK_AFTER,
    CLOCK_BEFORE,
    DAY_RANGE_END,
    EVENING_AFTER,
    NUMBER_WORDS,
    NUMERIC_DATE,
    day_of_month,
    hour_of_word,
    is_month_first,
    numeric_date,
    relative_day,
    weekday_with_day,
    weekend_day,
)
from retrieval.dates import message_relative_date
from retrieval.dates.terms import WEEKDAY_NUMBERS
from retrieval.gazetteer import CITY_FORMS
from retrieval.lexicon import fold_text


@dataclass(frozen=True)
class Finding:
    """One statement of memory and the ids of the messages that prove it (best first)."""

    text: str
    message_ids: tuple[int, ...] = ()


def day_text(day: date) -> str:
    """ "Saturday 7 March"."""
    return f"{day:%A} {day.day} {day:%B}"


def span_text(first: date, last: date | None) -> str:
    """ "Friday 11 to Sunday 13 September", "Monday 30 November to Tuesday 1 December"."""
    if last is None or last <= first:
        return day_text(first)
    start = f"{first:%A} {first.day}" if first.month == last.month else day_text(first)
    return f"{start} to {day_text(last)}"


# A span of days longer than this is no weekend or trip read from "11th-13th".
SPAN_DAYS_MAX = 14


def last_day_said(label: str, first: date) -> date | None:
    """The last day of a span said in ``label`` ("the 11th-13th", "Friday to Sunday"): the
    first date after ``first`` with that day of the month (or that weekday), within
    ``SPAN_DAYS_MAX`` days."""
    found = DAY_RANGE_END.search(label)
    if found is None:
        return None
    if found.group("weekday"):
        weekday = WEEKDAY_NUMBERS[found.group("weekday").lower()]
        return first + timedelta(days=(weekday - first.weekday() - 1) % 7 + 1)
    number = int(found.group(1) or found.group(2))
    for offset in range(1, SPAN_DAYS_MAX + 1):
        candidate = first + timedelta(days=offset)
        if candidate.day == number:
            return candidate
    return None


def moment_text(moment: datetime, zone: ZoneInfo) -> str:
    """ "Tue 3 March, 18:05" in the user's timezone."""
    local = moment.astimezone(zone)
    return f"{local:%a} {local.day} {local:%B}, {local:%H:%M}"


# A clock time as people write it: "8pm", "8:30 pm", "20:00", "20h", "20 Uhr", "at 8",
# "alle 20", "half 7" (7:30).
_HOUR_WORD_AFTER = "|".join(CLOCK_AFTER)
_HOUR_WORD_BEFORE = "|".join(word for word in CLOCK_BEFORE if word != "@")
_CLOCK = re.compile(
    rf"\bhalf\s+(?P<halfpast>\d{{1,2}}|{NUMBER_WORDS})\b"
    r"|(?<![\d:/.])(?P<hour>\d{1,2})(?:[:h.](?P<minute>\d{2}))?\s*"
    rf"(?P<half>am|pm|h\b|{_HOUR_WORD_AFTER}\b)?"
    rf"|(?:\b(?:{_HOUR_WORD_BEFORE})|@)\s*(?P<bare>\d{{1,2}})(?![:.\d]|\s*(?:am|pm|h)\b)\b",
    re.IGNORECASE,
)
# "a las 9 de la noche", "8 du soir": the hour is in the afternoon or evening.
_EVENING_AFTER = re.compile(rf"\s*(?:{EVENING_AFTER})\b", re.IGNORECASE)
# A date written with numbers ("6/3", "am 6.3.") holds no clock time.
_NUMBER_DATE = re.compile(rf"(?<![\w/.:])(?:{NUMERIC_DATE})", re.IGNORECASE)
# Activities that happen in the evening: "dinner at 8" is 20:00.
_EVENING = frozenset(
    {
        "dinner",
        "drinks",
        "party",
        "concert",
        "movie",
        "cinema",
        "game night",
        # A table booked at "8" is a dinner table, in any language.
        "table",
        "mesa",
        "tisch",
        "tavolo",
        "cena",
        "jantar",
        "dîner",
        "abendessen",
        "theatre",
        "theater",
        "show",
    }
)


# "8-10am", "between 10 and 12", "from 6 to 9pm": a window, not one time.
_RANGE_START = r"between|from|tra\s+le|fra\s+le|entre(?:\s+(?:as|las|les))?|zwischen"
_CLOCK_RANGE = re.compile(
    rf"(?:\b(?:{_RANGE_START})\s+)?(?<![\d:])(?P<h1>\d{{1,2}})(?::(?P<m1>\d{{2}}))?\s*"
    r"(?P<a1>am|pm)?\s*(?:-|\u2013|\bto\b|\band\b|\be(?:\s+(?:le|as))?\b|\by(?:\s+las)?\b"
    r"|\bet\b|\bund\b)\s*(?P<h2>\d{1,2})(?::(?P<m2>\d{2}))?\s*(?P<a2>am|pm)?\b",
    re.IGNORECASE,
)


def _range_text(label: str) -> str:
    """ "8:00-10:00 (8-10am)" (with an en dash) for a window of hours; "" when ``label``
    names none."""
    for match in _CLOCK_RANGE.finditer(label):
        said = match.group(0).lower()
        if not (match.group("a2") or match.group("a1") or re.match(_RANGE_START, said) is not None):
            continue
        h1, h2 = int(match.group("h1")), int(match.group("h2"))
        m1, m2 = int(match.group("m1") or 0), int(match.group("m2") or 0)
        if h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59:
            continue
        a2 = (match.group("a2") or "").lower()
        a1 = (match.group("a1") or a2).lower()
        if a2 == "pm" and h2 < 12:
            h2 += 12
        if a1 == "pm" and h1 < 12 and h1 + 12 <= h2:
            h1 += 12
        if h1 >= h2 and not a2:
            continue
        first, last = f"{h1}:{m1:02d}", f"{h2}:{m2:02d}"
        if not (a1 or a2):
            return f"{first}\u2013{last}"
        shown = _twelve_hour(h1, m1)
        if (h1 < 12) == (h2 < 12):
            shown = shown[:-2]
        return f"{first}\u2013{last} ({shown}\u2013{_twelve_hour(h2, m2)})"
    return ""


def clock_text(label: str, *, activity: str = "") -> str:
    """The clock time a plan's words name, as "20:00 (8pm)" (a window as "8:00-10:00
    (8-10am)"); "" when they name none. A bare hour ("at 8") is read in the evening for
    evening activities and for 1-6."""
    label = _NUMBER_DATE.sub(" ", label)
    window = _range_text(label)
    if window:
        return window
    for match in _CLOCK.finditer(label):
        minute_text = ""
        if match.group("halfpast"):
            hour, minute, half = hour_of_word(match.group("halfpast")) or 99, 30, ""
            minute_text = "30"
        elif match.group("bare"):
            hour, minute, half = int(match.group("bare")), 0, ""
        else:
            minute_text = match.group("minute")
            half = (match.group("half") or "").lower()
            if not minute_text and half not in ("am", "pm", "h"):
                continue
            hour, minute = int(match.group("hour")), int(minute_text or 0)
        if hour > 23 or minute > 59:
            continue
        if not half and hour < 12 and _EVENING_AFTER.match(label, match.end()):
            half = "pm"
        if half == "pm" and hour < 12:
            hour += 12
        elif half == "am" and hour == 12:
            hour = 0
        elif (
            not half
            and hour < 12
            and (
                activity in _EVENING
                or (hour <= 6 and not minute_text and not minute)
                or (match.group("halfpast") and hour <= 6)
            )
        ):
            hour += 12
        elif not half and hour < 12:
            # "7:15" with nothing else: said as written, morning or evening unknown.
            return f"{hour}:{minute:02d}"
        return f"{hour}:{minute:02d} ({_twelve_hour(hour, minute)})"
    return ""


def _twelve_hour(hour: int, minute: int) -> str:
    """ "8pm", "8:30am", "12pm": the same time as people often write it."""
    half = "am" if hour < 12 else "pm"
    shown = hour % 12 or 12
    return f"{shown}{half}" if not minute else f"{shown}:{minute:02d}{half}"


PLAN_PEOPLE_NAMED = 3

_STATUS_WORDS = {
    PlanStatus.PROPOSED: "proposed but unconfirmed",
    PlanStatus.CONFIRMED: "confirmed",
    PlanStatus.CHANGED: "moved",
    PlanStatus.CANCELLED: "cancelled",
}


@dataclass(frozen=True)
class PlanWhen:
    """When a plan is for, read from one step's words against that step's send time."""

    day: date | None
    clock: str
    step: PlanStepView | None
    # The last day of a plan over several days ("thu 4 to sat 6").
    last_day: date | None = None

    def overlaps(self, first_day: date, last_day: date) -> bool:
        """Whether the plan's days (its first to its last) meet ``first_day``..``last_day``:
        a Friday-to-Sunday trip is on "this weekend" though it starts on the Friday."""
        if self.day is None:
            return False
        return self.day <= last_day and (self.last_day or self.day) >= first_day

    @property
    def text(self) -> str:
        parts = [span_text(self.day, self.last_day)] if self.day else []
        if self.clock:
            parts.append(f"at {self.clock}")
        return " ".join(parts)


# Day names the date reader does not know, as the English day it does.
_DAY_NAMES = {
    "mon": "monday",
    "tue": "tuesday",
    "tues": "tuesday",
    "wed": "wednesday",
    "thu": "thursday",
    "thur": "thursday",
    "thurs": "thursday",
    "fri": "friday",
    "sat": "saturday",
    "sun": "sunday",
    "segunda": "monday",
    "terca": "tuesday",
    "quarta": "wednesday",
    "quinta": "thursday",
    "sexta": "friday",
    "sabado": "saturday",
    "domingo": "sunday",
    "lunes": "monday",
    "martes": "tuesday",
    "miercoles": "wednesday",
    "jueves": "thursday",
    "viernes": "friday",
    "lundi": "monday",
    "mardi": "tuesday",
    "mercredi": "wednesday",
    "jeudi": "thursday",
    "vendredi": "friday",
    "samedi": "saturday",
    "dimanche": "sunday",
    "montag": "monday",
    "dienstag": "tuesday",
    "mittwoch": "wednesday",
    "donnerstag": "thursday",
    "freitag": "friday",
    "samstag": "saturday",
    "sonntag": "sunday",
    "lunedi": "monday",
    "martedi": "tuesday",
    "mercoledi": "wednesday",
    "giovedi": "thursday",
    "venerdi": "friday",
    "domenica": "sunday",
    "sabato": "saturday",
    # Months the date reader does not know, as the English month.
    "gennaio": "january",
    "janeiro": "january",
    "enero": "january",
    "janvier": "january",
    "maggio": "may",
    "maio": "may",
    "mayo": "may",
    "giugno": "june",
    "junho": "june",
    "junio": "june",
    "juin": "june",
    "luglio": "july",
    "julho": "july",
    "julio": "july",
    "juillet": "july",
    "agosto": "august",
    "aout": "august",
    "settembre": "september",
    "setembro": "september",
    "septiembre": "september",
    "ottobre": "october",
    "outubro": "october",
    "octubre": "october",
    "dicembre": "december",
    "novembre": "november",
    "novembro": "november",
    "noviembre": "november",
    "febbraio": "february",
    "fevereiro": "february",
    "febrero": "february",
    "fevrier": "february",
    "marzo": "march",
    "aprile": "april",
    "abril": "april",
    "avril": "april",
    "mars": "march",
    "marz": "march",
    "septembre": "september",
    "octobre": "october",
    "decembre": "december",
    "dezembro": "december",
    "diciembre": "december",
    "oggi": "today",
    "domani": "tomorrow",
    "hoje": "today",
    "hoy": "today",
    "heute": "today",
    "amanha": "tomorrow",
    "manana": "tomorrow",
    "demain": "tomorrow",
    "morgen": "tomorrow",
}
# "15 oct", "3 de outubro": the month first, as the date reader reads it.
_DAY_BEFORE_MONTH = re.compile(
    r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:de\s+)?((?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
    r"[a-z]*)\b"
)
_WEEKDAY_BEFORE_MONTH = re.compile(
    r"\b[a-z]+day,?\s+(?=(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d)"
)
_DAY_WORD = re.compile(r"[^\W\d_]+")
# A weekday with a day of the month ("saturday 19th", "tuesday the 13th"): the date decides.
_ORDINAL_AFTER_DAY = re.compile(
    r"\b[a-z]+day\s+(?:the\s+(\d{1,2})(?:st|nd|rd|th)?|(\d{1,2})(?:st|nd|rd|th))\b"
    r"(?![:.]\d|\s*(?:am|pm|h)\b)"
)


def _ordinal(match: re.Match[str]) -> str:
    number = int(match.group(1) or match.group(2))
    ordinals = {1: "st", 2: "nd", 3: "rd"}
    suffix = "th" if 10 <= number % 100 <= 20 else ordinals.get(number % 10, "th")
    return f"the {number}{suffix}"


def _english_days(label: str) -> str:
    """``label`` with day words of other languages and short forms as English day names; a
    weekday said with a date gives way to the date ("sun nov 22" is 19 September)."""
    folded = fold_text(label)
    english = _DAY_WORD.sub(lambda match: _DAY_NAMES.get(match.group(0), match.group(0)), folded)
    english = _DAY_BEFORE_MONTH.sub(r"\2 \1", english)
    english = _WEEKDAY_BEFORE_MONTH.sub("", english)
    # "saturday 19th", "tuesday the 13th": the date decides; a bare number after a weekday
    # that is not its date ("friday 8") is no date (``day_said`` reads the ones that are).
    english = _ORDINAL_AFTER_DAY.sub(_ordinal, english)
    return _WEEKDAY_NUMBER.sub(r"\1", english)


_WEEKDAY_INDEX = {
    name: index
    for index, name in enumerate(
        ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    )
}
# A weekday and a bare number after it ("jueves 5", "giovedì 9", "Friday 13").
_WEEKDAY_NUMBER = re.compile(
    r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s+"
    r"(?:(?:le|dia|el|den|il|the)\s+)?(\d{1,2})\b"
    r"(?![:.]\d|\s*(?:am|pm|h|uhr)\b|\s*(?:st|nd|rd|th)\b)"
    # "saturday 19 december": the month said decides the date (read as a date, not as the
    # nearest Saturday the 19th).
    r"(?!\s+(?:de\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)"
)


_SPAN_SEPARATOR = re.compile(r"\s+(?:-|\u2013|\u2014|to|until|till)\s+")


def day_said(
    label: str, sent_day: date, *, month_first: bool = False, sent_hour: int = 12
) -> date | None:
    """The day ``label`` names when it is one the shared date reader has no grammar for:
    a weekday with its day of the month (kept only when they agree), a date written with
    numbers, a day of the month after a small word ("el 14", "am 14."), the weekend after
    next, a short or foreign "tomorrow" ("tmrw", "pasado mañana"). ``None`` otherwise."""
    english = _DAY_WORD.sub(
        lambda match: _DAY_NAMES.get(match.group(0), match.group(0)), fold_text(label)
    )
    # "Sat 19 Sep - Mon 21": a span's first day is the date; its last is read apart.
    english = _SPAN_SEPARATOR.split(english, maxsplit=1)[0]
    paired = _WEEKDAY_NUMBER.search(english)
    if paired is not None:
        return weekday_with_day(_WEEKDAY_INDEX[paired.group(1)], int(paired.group(2)), sent_day)
    if any(re.search(rf"\b{name}\b", english) for name in _WEEKDAY_INDEX):
        return None
    return (
        numeric_date(label, sent_day, month_first=month_first)
        or day_of_month(label, sent_day)
        or weekend_day(label, sent_day)
        or relative_day(label, sent_day, sent_hour=sent_hour)
    )


# "25-27 Sept", "3 au 5 octobre": the first and the last day of a span, the month said once.
_LEADING_RANGE = re.compile(
    r"(?<![\d:/.])(\d{1,2})(?:st|nd|rd|th)?\s?(?:-|\u2013|to|au|al|bis|a)\s?"
    r"(\d{1,2})((?:st|nd|rd|th)?\s+(?:de\s+)?[^\W\d_]{3,}\.?)",
    re.IGNORECASE,
)


def when_of(step: PlanStepView, *, activity: str, zone: ZoneInfo) -> PlanWhen:
    sent = step.sent_at.astimezone(zone)
    label = step.event_label
    span = _LEADING_RANGE.search(label)
    last_number = None
    if span is not None and int(span.group(1)) < int(span.group(2)):
        # Read the span's first day as the date, then its last day within the span's reach.
        last_number = int(span.group(2))
        label = label[: span.start()] + span.group(1) + span.group(3) + label[span.end() :]
    day = day_said(label, sent.date(), month_first=is_month_first(zone.key), sent_hour=sent.hour)
    if day is None:
        window = message_relative_date(_english_days(label), step.sent_at, zone, direction="future")
        day = window.start.astimezone(zone).date() if window is not None else None
    last_day = last_day_said(step.event_label, day) if day is not None else None
    if day is not None and last_number is not None:
        last_day = next(
            (
                day + timedelta(days=offset)
                for offset in range(1, SPAN_DAYS_MAX + 1)
                if (day + timedelta(days=offset)).day == last_number
            ),
            None,
        )
    return PlanWhen(
        day=day,
        clock=clock_text(step.event_label, activity=activity),
        step=step,
        last_day=last_day,
    )


# "the 26th", "el 26", "am 26.": a day of the month with no month or weekday said.
_BARE_DAY_OF_MONTH = re.compile(
    r"^(?:on\s+)?(?:the|el|le|il|dia|am|o)?\s*\d{1,2}(?:st|nd|rd|th|\.)?(?=\s|$)"
)


def _only_day_of_month(said: PlanWhen) -> bool:
    label = fold_text(said.step.event_label).strip() if said.step is not None else ""
    return bool(_BARE_DAY_OF_MONTH.match(label))


_CLOCK_VALUE = re.compile(r"(\d{1,2}):(\d{2})")


def clocks_agree(one: str, other: str) -> bool:
    """Whether two clock texts (``clock_text``) name the same time: equal, or one said without
    morning or evening ("2:30") and the other the same hour with it ("14:30 (2:30pm)")."""
    if one == other:
        return True
    first, second = _CLOCK_VALUE.match(one), _CLOCK_VALUE.match(other)
    if first is None or second is None or ("(" in one and "(" in other):
        return False
    if first.group(2) != second.group(2) or "-" in one or "-" in other:
        return False
    return int(first.group(1)) % 12 == int(second.group(1)) % 12


def _fuller_clock(current: str, said: str) -> str:
    """The clock of the two that says morning or evening ("14:30 (2:30pm)" over "2:30")."""
    if current and said and "(" in said and "(" not in current:
        return said
    return current or said


def when_merged(current: PlanWhen, said: PlanWhen) -> PlanWhen | None:
    """``current`` made more precise by ``said`` ("Saturday" then "Saturday 7am"), or
    ``None`` when ``said`` names another day or another clock time (a different time). A
    bare day of the month ("the 26th") of the plan's date names that date, whatever month
    it would otherwise be read in."""
    if (
        current.day is not None
        and said.day is not None
        and current.day != said.day
        and not (said.day.day == current.day.day and _only_day_of_month(said))
    ):
        return None
    if current.clock and said.clock and not clocks_agree(current.clock, said.clock):
        return None
    return PlanWhen(
        day=current.day or said.day,
        clock=_fuller_clock(current.clock, said.clock),
        step=said.step
        if (said.clock and not current.clock) or (said.day and not current.day)
        else current.step,
        last_day=current.last_day or said.last_day,
    )


def plan_whens(plan: PlanTimeline, zone: ZoneInfo) -> list[PlanWhen]:
    """Each time the plan was set (proposed or moved), oldest first. A time said with the same
    day or clock makes the current one more precise ("Sun 22nd, we leave 8am"); a confirmation
    that names another time (a pickup, a reminder) leaves it as it is; a time with no day
    keeps the day it had ("we now land at 11:40pm"), a day with no time keeps the hour."""
    whens: list[PlanWhen] = []
    # The plan's first step sets its time whatever it says (a booking starts confirmed).
    first = plan.steps[0] if plan.steps else None
    for step in plan.steps:
        if not step.event_label or (step.status == PlanStatus.CANCELLED and step is not first):
            # A call-off names the day it calls off; only the first step's day is the plan's
            # ("Friday's off" read with nothing before it).
            continue
        when = when_of(step, activity=plan.activity, zone=zone)
        if not when.text:
            continue
        if whens:
            merged = when_merged(whens[-1], when)
            if merged is not None:
                whens[-1] = merged
                continue
            if step.status not in (PlanStatus.PROPOSED, PlanStatus.CHANGED):
                continue
            if when.day is None:
                when = PlanWhen(
                    day=whens[-1].day, clock=when.clock, step=step, last_day=whens[-1].last_day
                )
            elif not when.clock and when.day != whens[-1].day:
                # "Shall we move to Sunday? Same time": another day keeps the hour it had.
                when = PlanWhen(
                    day=when.day, clock=whens[-1].clock, step=step, last_day=when.last_day
                )
        elif step.status not in (PlanStatus.PROPOSED, PlanStatus.CHANGED) and step is not first:
            continue
        whens.append(when)
    return whens


def plan_current_when(plan: PlanTimeline, zone: ZoneInfo) -> PlanWhen | None:
    whens = plan_whens(plan, zone)
    return whens[-1] if whens else None


def plan_finding(
    plan: PlanTimeline,
    *,
    zone: ZoneInfo,
    names: Mapping[int, str],
    chat_titles: Mapping[int, str],
    today: date | None = None,
) -> Finding:
    """ "The dinner with Ana at Casa Nova is changed: now Saturday 7 March at 20:00 (it was
    Friday 6 March at 19:00); the change was said in Weekend crew." citing the step that set
    the status, the step that set the time and the first proposal. A plan whose days are all
    before ``today`` is told in the past: "The dinner … was confirmed: Friday 6 March"."""
    subject = f"The {plan.activity or 'plan'}"
    people = list(dict.fromkeys(names[pid] for pid in plan.person_ids if names.get(pid)))
    if len(people) > PLAN_PEOPLE_NAMED:
        people = [*people[:PLAN_PEOPLE_NAMED], f"{len(people) - PLAN_PEOPLE_NAMED} more"]
    if people:
        subject += " with " + _join(people)
    if plan.place:
        preposition = "in" if fold_text(plan.place) in CITY_FORMS else "at"
        subject += f" {preposition} {plan.place}"
    whens = plan_whens(plan, zone)
    current = whens[-1] if whens else None
    status = plan.status
    latest = plan.steps[-1] if plan.steps else None
    ended = (
        today is not None
        and current is not None
        and current.day is not None
        and (current.last_day or current.day) < today
    )
    sentence = f"{subject} {'was' if ended else 'is'} {_STATUS_WORDS.get(status, str(status))}"
    if status == PlanStatus.CANCELLED:
        if current is not None:
            sentence += f" (it was for {current.text})"
    elif current is not None:
        sentence += f": {'now ' if len(whens) > 1 else ''}{current.text}"
        was = [whens[-2].text] if len(whens) > 1 else []
        if plan.previous_place:
            # What changed, from and to: the place it was at too.
            was.append(f"at {plan.previous_place}")
        if was:
            sentence += f" (it was {' '.join(was)})"
    if latest is not None and status in (PlanStatus.CHANGED, PlanStatus.CANCELLED):
        where = chat_titles.get(latest.chat_id, "")
        said = "said" if status == PlanStatus.CHANGED else "called off"
        if where:
            sentence += f"; {said} in {where} ({latest.platform})"
    ids = [
        *([latest.message_id] if latest is not None else []),
        *([current.step.message_id] if current is not None and current.step else []),
        *([plan.place_step_id] if plan.place_step_id is not None else []),
        *([plan.steps[0].message_id] if plan.steps else []),
    ]
    return Finding(text=sentence + ".", message_ids=tuple(dict.fromkeys(ids)))


def _join(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


_LOOP_OPEN = {
    LoopKind.QUESTION_TO_USER: "{name} asked you and you have not replied yet (since {since})",
    LoopKind.REQUEST_BY_USER: "you asked {name} and they have not answered yet (since {since})",
    LoopKind.PROMISE_BY_USER: "you promised {name} and have not done it yet (since {since})",
}
_LOOP_DONE = {
    LoopKind.QUESTION_TO_USER: "you replied to {name} on {when}",
    LoopKind.REQUEST_BY_USER: "{name} answered on {when}",
    LoopKind.PROMISE_BY_USER: "you did it on {when}",
}


@dataclass(frozen=True)
class LoopState:
    """A loop with how it stands (open, resolved by a message, closed by the user)."""

    kind: LoopKind
    status: LoopStatus
    person_name: str
    opened_by_message_id: int
    opened_at: datetime
    resolved_by_message_id: int | None
    closed_at: datetime | None
    resolved_at: datetime | None = None
    # For a promise to pay: the amount ("$22") and the message that states it.
    amount: str = ""
    amount_message_id: int | None = None
    # What it is about and by when, in the answer's words (``owed.owed_detail``).
    detail: str = ""
    # A loop about money closed by a message that says it was paid ("sent you the $40").
    is_paid: bool = False

    @classmethod
    def of_row(cls, row: Loop, name: str) -> LoopState:
        """The state of a stored loop (its ``resolved_by`` read with it), under ``name``."""
        return cls(
            kind=LoopKind(row.kind),
            status=LoopStatus(row.status),
            person_name=name,
            opened_by_message_id=row.opened_by_id,
            opened_at=row.opened_at,
            resolved_by_message_id=row.resolved_by_id,
            closed_at=row.closed_at,
            resolved_at=row.resolved_by.sent_at if row.resolved_by is not None else None,
        )


def loop_sentence(loop: LoopState, zone: ZoneInfo) -> str:
    said = _loop_state_sentence(loop, zone)
    if loop.detail:
        return f"{said} — {_continued(loop.detail)}"
    return said


def _continued(sentence: str) -> str:
    """A sentence carried on after a dash: its capital dropped when it opens with "You" (the
    detail's own "you asked …"), kept when it opens with a person's name."""
    first = sentence.split(" ", 1)[0]
    if first in ("You", "Your"):
        return sentence[0].lower() + sentence[1:]
    return sentence


def _loop_state_sentence(loop: LoopState, zone: ZoneInfo) -> str:
    name = loop.person_name or "someone"
    if loop.status == LoopStatus.OPEN and loop.amount and loop.kind == LoopKind.PROMISE_BY_USER:
        since = moment_text(loop.opened_at, zone)
        return f"you owe {name} {loop.amount} and said you would pay it back (since {since})"
    if loop.status == LoopStatus.OPEN and loop.amount and loop.kind == LoopKind.QUESTION_TO_USER:
        since = moment_text(loop.opened_at, zone)
        return f"{name} says you owe them {loop.amount}, not paid yet (since {since})"
    if loop.status == LoopStatus.OPEN:
        return _LOOP_OPEN[loop.kind].format(name=name, since=moment_text(loop.opened_at, zone))
    when = loop.resolved_at or loop.closed_at or loop.opened_at
    if loop.status == LoopStatus.CLOSED_BY_USER:
        return f"you marked it done on {moment_text(when, zone)}"
    if loop.is_paid:
        return f"you paid {name} on {moment_text(when, zone)}"
    return _LOOP_DONE[loop.kind].format(name=name, when=moment_text(when, zone))


def loop_answer_finding(loop: LoopState, zone: ZoneInfo, *, asks_if_owed: bool = False) -> Finding:
    """The yes/no answer to "did I reply / pay back / send …?": yes when the loop is closed,
    no while it is open, citing the closing message (then the opening one). Asked whether
    something is still owed ("do I owe Bo money?", ``asks_if_owed``): yes while it is open."""
    if asks_if_owed:
        answer = "Yes" if loop.status == LoopStatus.OPEN else "No"
    else:
        answer = "Not yet" if loop.status == LoopStatus.OPEN else "Yes"
    ids = [
        *([loop.resolved_by_message_id] if loop.resolved_by_message_id else []),
        loop.opened_by_message_id,
    ]
    text = f"{answer}: {_loop_state_sentence(loop, zone)}."
    if loop.detail:
        # What it was about in a sentence of its own: the yes or no stands alone first.
        text += f" {loop.detail}."
    return Finding(text=text, message_ids=tuple(ids))


# Open loops a "what is still open?" answer states one by one.
SHOWN_LOOPS = 8


def open_loops_finding(loops: Sequence[LoopState], zone: ZoneInfo) -> Finding:
    if not loops:
        return Finding(text="Nothing is waiting: no open question, request or promise.")
    count = len(loops)
    noun = "thing is" if count == 1 else "things are"
    items = "; ".join(loop_sentence(loop, zone) for loop in loops[:SHOWN_LOOPS])
    more = f"; and {count - SHOWN_LOOPS} more" if count > SHOWN_LOOPS else ""
    ids = [
        message_id
        for loop in loops[:SHOWN_LOOPS]
        for message_id in (loop.opened_by_message_id, loop.amount_message_id)
        if message_id
    ]
    return Finding(
        text=f"{count} {noun} still open: {items}{more}.", message_ids=tuple(dict.fromkeys(ids))
    )


def ranking_findings(
    ranked: Sequence[RelationshipMetrics],
    *,
    counts: Mapping[int, int],
    window_text: str,
    heading: str,
    last_contact: Mapping[int, datetime] | None = None,
    zone: ZoneInfo | None = None,
    fuller: Mapping[int, str] | None = None,
) -> list[Finding]:
    """ "The people you exchanged the most messages with in the last 90 days:" then one line
    per person, "1. Ana Souza: 120 messages", consecutive ranks, each citing one of the
    messages exchanged with that person. With ``last_contact`` (drifted contacts) each line
    says when the last exchange was, and cites it: "1. Ana Souza: last message Tue 3 March,
    18:05; 40 messages". A fuller name the person goes by (``fuller``) follows the saved one,
    "1. Ana S (Ana Souza)"; a name holding instructions is never repeated."""
    if not ranked:
        return [Finding(text=f"Nobody {window_text}: no messages exchanged in that window.")]
    findings = [Finding(text=f"{heading} {window_text}:")]
    for place, item in enumerate(ranked, start=1):
        count = counts.get(item.person_id, 0)
        noun = "message" if count == 1 else "messages"
        last = (last_contact or {}).get(item.person_id)
        said = f"{count} {noun}"
        if last is not None:
            said = f"last message {moment_text(last, zone or ZoneInfo('UTC'))}; {said}"
        name = item.display_name
        if suspicious_text(name):
            name = "a sender with a suspicious name"
        elif (fuller or {}).get(item.person_id) and not suspicious_text(
            (fuller or {})[item.person_id]
        ):
            name = f"{name} ({(fuller or {})[item.person_id]})"
        findings.append(
            Finding(
                text=f"{place}. {name}: {said}",
                message_ids=item.representative_message_ids[:1],
            )
        )
    return findings


def deed_finding(answer: DeedAnswer, zone: ZoneInfo) -> Finding:
    """ "Yes, you did it on Mon 14 September in Ivo (slack). You wrote: …" or "No,
    not as far as your messages show. On … you said: …": the yes or no in a first sentence of
    its own, then what the message says (never restated when suspicious)."""
    when = moment_text(answer.sent_at, zone)
    where = f" in {answer.chat_title} ({answer.platform})" if answer.chat_title else ""
    if suspicious_text(answer.text) or suspicious_text(answer.chat_title):
        said = ""
    else:
        who = f"{answer.sender_name} wrote" if answer.sender_name else "You wrote"
        said = f" {who}: {' '.join(answer.text.split())}"
    if answer.is_done:
        head = (
            f"Yes, {answer.sender_name} confirmed it on {when}{where}."
            if answer.sender_name
            else f"Yes, you did it on {when}{where}."
        )
    else:
        head = "No, not as far as your messages show."
        said = f" The last word on it was on {when}{where}." + said
    ids = [answer.message_id]
    if answer.acknowledged_by_message_id is not None:
        ids.append(answer.acknowledged_by_message_id)
    if answer.raised_by_message_id is not None:
        ids.append(answer.raised_by_message_id)
    return Finding(text=head + said, message_ids=tuple(ids))


# A time or day as people write it after "to" or "instead of": "Thursday Nov 12", "the 12th",
# "4", "4pm", "8:30", "tomorrow".
_CHANGE_TIME = (
    r"(?:(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\b\.?"
    r"(?:\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b)?)"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
    r"|the\s+\d{1,2}(?:st|nd|rd|th)\b|today|tonight|tomorrow|next\s+week"
    r"|\d{1,2}(?::\d{2})?\s*(?:am|pm|h\b)?(?!\s*(?:%|lbs?|kg|km|mi|miles|people|min))(?!\d))"
)
# "move it to Sunday", "we're moving the demo to Thursday Nov 12", "pushed back to 9".
_MOVED_TO = re.compile(
    r"\b(?:move[sd]?|moving|push(?:ed|ing)?|postpon\w*|reschedul\w*|chang(?:e|ed|ing)|"
    r"bump(?:ed|ing)?|shift(?:ed|ing)?)\b[^.!?\n]{0,40}?\b(?:to|until|till)\s+(?:the\s+)?"
    rf"(?:at\s+)?(?P<new>{_CHANGE_TIME})",
    re.IGNORECASE,
)
# "dinner at 5 instead of 3", "Sunday instead of Saturday".
_INSTEAD_OF = re.compile(
    rf"\b(?:instead\s+of|rather\s+than)\s+(?:at\s+)?(?:the\s+)?(?P<old>{_CHANGE_TIME})",
    re.IGNORECASE,
)
_ACTIVITY_WORD = re.compile(r"\b(" + "|".join(map(re.escape, ACTIVITIES)) + r")s?\b", re.I)
_BARE_NUMBER = re.compile(r"^\d{1,2}(?::\d{2})?$")


def _time_said(phrase: str, *, activity: str, sent_at: datetime, zone: ZoneInfo) -> str:
    """A changed time as the answer states it: "Thursday 26 November at 16:00 (4pm)"; a bare
    number is an hour ("at 4")."""
    phrase = phrase.strip()
    if _BARE_NUMBER.match(phrase):
        phrase = f"at {phrase}"
    window = message_relative_date(_english_days(phrase), sent_at, zone, direction="future")
    day = window.start.astimezone(zone).date() if window is not None else None
    return PlanWhen(day=day, clock=clock_text(phrase, activity=activity), step=None).text


def change_statement(text: str, *, sender: str, sent_at: datetime, zone: ZoneInfo) -> str:
    """What a message says was moved, in the answer's own words: "Mom moved the dinner: now
    Thursday 26 November at 16:00 (4pm), instead of 14:00 (2pm)." "" when the message moves
    nothing to a time or day it names ("I'm moving to Lisbon" moves no plan)."""
    if suspicious_text(text):
        return ""
    activity_match = _ACTIVITY_WORD.search(text)
    activity = activity_match.group(1).lower() if activity_match else ""
    instead = _INSTEAD_OF.search(text)
    moved = _MOVED_TO.search(text)
    if instead is not None:
        # The new time is said before "instead of", in the same sentence.
        before = re.split(r"[.!?\n]", text[: instead.start()])[-1]
        new = _time_said(before, activity=activity, sent_at=sent_at, zone=zone)
        old = _time_said(instead.group("old"), activity=activity, sent_at=sent_at, zone=zone)
    elif moved is not None:
        new = _time_said(
            text[moved.start("new") :].split("\n")[0][:40],
            activity=activity,
            sent_at=sent_at,
            zone=zone,
        )
        old = ""
    else:
        return ""
    if not new or new == old:
        return ""
    # The day the message names elsewhere ("on Thursday") completes a clock time alone.
    if not re.match(r"[A-Z]", new):
        day_window = message_relative_date(
            _english_days(
                text if instead is None else text[: instead.start()] + " " + text[instead.end() :]
            ),
            sent_at,
            zone,
            direction="future",
        )
        if day_window is not None:
            new = f"{day_text(day_window.start.astimezone(zone).date())} {new}"
    who = sender or "Someone"
    sentence = f"{who} moved the {activity or 'plan'}: now {new}"
    if old:
        sentence += f", instead of {old.removeprefix('at ')}"
    return sentence + "."


# "the quiz night on Thursday is off", "we have to cancel dinner", "o jantar foi cancelado",
# "la cena se cancela", "le dîner est annulé", "das Essen fällt aus".
_CANCELLED = re.compile(
    r"\b(?:cancel(?:l?ed|l?ing|s)?|call(?:ed|ing)?\s+(?:it\s+)?off|(?:is|are)\s+off(?!\s+(?:to|for|work|today|tomorrow))"
    r"|not\s+happening|no\s+longer\s+happening|won't\s+happen|scrap(?:ped|ping)?"
    r"|cancelad[oa]s?|desmarcad[oa]s?|se\s+cancela|suspendid[oa]|annul[ée]e?s?|abgesagt"
    r"|f[äa]llt\s+aus)\b",
    re.IGNORECASE,
)
# A cancellation is of something planned: an activity word, or "plan(s)".
_PLANNED_THING = re.compile(
    r"\b(" + "|".join(map(re.escape, ACTIVITIES)) + r"|plans?|trip|party|meeting|session"
    r"|class|practice|game|match|booking|reservation|quiz(?:\s+night)?|gig|concert|show|event"
    r"|rehearsal|appointment|jantar|almo[cç]o|festa|cena|comida|fiesta|d[îi]ner|f[êe]te|essen"
    r"|feier)s?\b",
    re.IGNORECASE,
)


def cancel_statement(text: str, *, sender: str) -> str:
    """What a message says was called off, in the answer's words ("Ana called off the quiz
    night: “the quiz night on Thursday is off …”"), or "" when it cancels no planned thing
    ("I cancelled my gym membership" has no activity word; a question asks, it does not
    cancel)."""
    if suspicious_text(text) or "?" in text:
        return ""
    cancelled = _CANCELLED.search(text)
    if cancelled is None:
        return ""
    sentence = re.split(r"(?<=[.!?\n])", text[: cancelled.end()])[-1]
    thing = _PLANNED_THING.search(sentence) or _PLANNED_THING.search(text)
    if thing is None:
        return ""
    said = " ".join(text.split())
    if len(said) > 140:
        said = said[:139].rstrip() + "…"
    return f"{sender or 'Someone'} called off the {thing.group(1).lower()}: “{said}”"
