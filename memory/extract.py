"""Deterministic extraction of plans and loops from message text.

General English patterns only: activities with a time or a place, confirmations, changes and
cancellations, questions addressed to the user, requests and promises the user made. Nothing
here knows any particular person, place or corpus. Functions are pure (text in, facts out) so
the rules are testable one by one; ``memory.services`` applies them to messages.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from claire.ai.suspicious import suspicious_text
from memory.models import PlanStatus
from memory.plan_words import (
    AGREEMENT,
    ARRIVED,
    BOOKED_THINGS,
    BOOKING,
    CANCELLATION,
    CHANGE,
    DEFERRAL,
    DONE,
    FINISHED,
    I_OWE,
    LATER_TIME,
    OWED_TO_ME,
    PLEASE,
    PROMISE,
    REQUEST,
    TAKE_ON,
    TENTATIVE,
    phrases_regex,
)
from memory.when_words import (
    CLOCK_AFTER,
    CLOCK_BEFORE,
    DAY_OF_MONTH,
    DAY_RANGE_END,
    EVENING_AFTER,
    HALF_PAST,
    NUMERIC_DATE,
    RELATIVE_DAY,
    WEEKEND,
)

_FLAGS = re.IGNORECASE

ACTIVITIES = (
    "dinner",
    "lunch",
    "brunch",
    "breakfast",
    "drinks",
    "coffee",
    "party",
    "picnic",
    "hike",
    "barbecue",
    "bbq",
    "movie",
    "cinema",
    "concert",
    "game night",
    "trip",
    "flight",
    "climbing",
    "bouldering",
    "gig",
    "wedding",
    "birthday",
    "launch",
    "housewarming",
    "festival",
    # Portuguese, Spanish, French, German.
    "jantar",
    "almoço",
    "almoco",
    "festa",
    "viagem",
    "cena",
    "comida",
    "fiesta",
    "viaje",
    "mudanza",
    "dîner",
    "déjeuner",
    "soirée",
    "abendessen",
    "mittagessen",
    "ausflug",
    # Verbs and short forms people propose with ("bora almoçar?", "¿cenamos?", "un ciné ?").
    "almoçar",
    "almocar",
    "jantamos",
    "cenar",
    "cenamos",
    "almorzar",
    "ciné",
    "cine",
    "cinéma",
    "apéro",
    "movies",
)
_ACTIVITY = re.compile(r"\b(" + "|".join(ACTIVITIES) + r")s?\b", _FLAGS)

_WEEKDAY = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|segunda|ter[cç]a|quarta|quinta|sexta|s[aá]bado|sabato|domingo"
    r"|lunes|martes|mi[eé]rcoles|jueves|viernes"
    r"|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche"
    r"|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag"
    r"|luned[iì]|marted[iì]|mercoled[iì]|gioved[iì]|venerd[iì]|domenica)"
)
# "Fri 12th", "Thu Jun 4", "sat. 3": an abbreviated day only with a date or a time after it.
_MONTHS = (
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|gennaio|maggio|giugno|luglio|agosto"
    r"|settembre|setembro|septiembre|ottobre|outubro|octubre|dicembre|dezembro|diciembre|janeiro"
    r"|enero|junho|junio|julho|julio|mayo|maio"
    # French and German months ("7 mars", "3. März", "9 avril").
    r"|janvier|f[eé]vrier|mars|m[aä]rz|avril|juin|juillet|ao[uû]t|januar|februar|juni|juli"
    r"|oktober|dezember)[a-z]*\.?"
)
_SHORT_DAY = (
    r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?\s+(?=(?:\d|at\b|[a-z]{3}\s+\d))"
    rf"(?:[a-z]{{3}}\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?\b(?![:.]\d|\s*(?:am|pm|h)\b))?"
    rf"(?:\s+{_MONTHS}(?!\w))?"
    # "dinner thu?", "drinks on sat!": a short day closing the sentence ("sat" and "sun" only
    # after "on", "this" or "next", where they cannot be a verb or the weather).
    r"|(?:mon|tue|tues|wed|thu|thur|thurs|fri|(?<=on\s)(?:sat|sun)|(?<=this\s)(?:sat|sun)"
    r"|(?<=next\s)(?:sat|sun))\.?(?=\s*(?:[?!.,]|$))"
)
# "Tuesday the 17th", "Saturday, Oct 3", "sábado 3 de outubro": the date said with the day.
_DAY_DATE = (
    rf"(?:,?\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)\b|,?\s+{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?\b"
    rf"|,?\s+\d{{1,2}}\s+(?:de\s+)?{_MONTHS}(?!\w)"
    # "giovedì 9", "jueves 5": a number no clock has may be the day of the month (the
    # reader keeps it only when that date falls on that weekday); "dimanche le 11", "domingo
    # dia 5", "Sonntag den 5.", "domenica il 5" say it with a small word between.
    r"|\s+(?:(?:le|dia|el|den|il|the)\s+)?(?:[12]\d|3[01]|0?[1-9])\b"
    r"(?![:.]\d|\s*(?:am|pm|h|uhr)\b|\s+(?:people|pax|of us)\b))?"
)
_MONTH_DAY = (
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b"
    # "13 November", "6th Dec", "17 de octubre" ("2 may be late" is no date); "25-27 Sept",
    # "3 au 5 octobre": days from one to another of the same month.
    r"|(?:\d{1,2}(?:st|nd|rd|th)?\s?(?:-|\u2013|to|au|al|bis|a)\s?)?"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:de\s+)?(?!may\s+[a-z])(?<![:.]\d\s){_MONTHS}(?!\w)"
    r"|the\s+\d{1,2}(?:st|nd|rd|th)\b"
)
# A range first ("8-10am", "between 10 and 12", "from 6 to 9pm"), then one clock time.
_CLOCK_WORD_AFTER = "|".join(CLOCK_AFTER)
_CLOCK_WORD_BEFORE = "|".join(CLOCK_BEFORE)
# "2h15 from the city", "a 3h drive", "1h30 de route": hours written with an "h" and followed
# by a way or a distance are how long, not when.
_NOT_DURATION = (
    r"(?!\s*(?:drive|driving|ride|away|from|flight|walk|trip|journey|commute|by\s+car|by\s+train"
    r"|on\s+the\s+road|each\s+way|de\s+(?:route|voiture|trajet|carro|coche|viaje|viagem|voo|vol)"
    r"|(?:auto)?fahrt|entfernt|di\s+(?:macchina|viaggio|strada)|in\s+(?:auto|macchina)))"
)
_CLOCK = (
    r"(?:(?:between|from|tra le|fra le|entre|zwischen)\s\d{1,2}(?::\d{2})?\s?(?:am|pm)?"
    r"\s(?:and|to|-|\u2013|e le|e|y|et|und)\s"
    r"\d{1,2}(?::\d{2})?(?:\s?(?:am|pm)\b)?(?!\s*(?:min|hour|day|week|month|year|people))"
    r"|\d{1,2}(?::\d{2})?\s?(?:am|pm)?\s?(?:-|\u2013|to)\s?\d{1,2}(?::\d{2})?\s?(?:am|pm)\b"
    rf"|\d{{1,2}}(?::\d{{2}})?\s?(?:am|pm|h\b{_NOT_DURATION}|(?:{_CLOCK_WORD_AFTER})\b)"
    rf"|\d{{1,2}}:\d{{2}}|\d{{1,2}}h\d{{2}}\b{_NOT_DURATION}"
    rf"|(?:{_CLOCK_WORD_BEFORE})\s?\d{{1,2}}(?::\d{{2}})?\s?(?:am|pm|h|{_CLOCK_WORD_AFTER})?\b"
    rf"|{HALF_PAST})"
    # "a las 9 de la noche", "at 8 in the evening": the part of the day said after the hour.
    rf"(?:\s+(?:{EVENING_AFTER})\b)?"
)
_TIME = re.compile(
    rf"\b(?:(?:this |next |on )?(?:{_WEEKDAY}{_DAY_DATE}|{_SHORT_DAY})(?:\s+(?:at\s+)?{_CLOCK})?"
    rf"|(?:{_MONTH_DAY})(?:\s+(?:at\s+)?{_CLOCK})?"
    # "6/3 at 8", "am 6.3. um 19 Uhr", "el 14 a las 9": a date written with numbers.
    rf"|(?:{NUMERIC_DATE}|{DAY_OF_MONTH})(?:\s+(?:at\s+)?{_CLOCK})?"
    rf"|(?:{WEEKEND}|{RELATIVE_DAY})(?: (?:morning|evening|night|afternoon))?(?!\w)|next week"
    rf"|{_CLOCK})"
    # "Dinner @ 7": the at sign starts no word, so it needs no word boundary.
    r"|(?<!\w)@\s?\d{1,2}(?::\d{2})?\s?(?:am|pm|h)?\b",
    _FLAGS,
)
_CLOCK_ONLY = re.compile(rf"\b{_CLOCK}|(?<!\w)@\s?\d{{1,2}}(?::\d{{2}})?\s?(?:am|pm|h)?\b", _FLAGS)
# "at Taberna", "in Porto": a capitalised name after at/in, not a weekday or a clock time.
_PLACE = re.compile(r"\b(?:at|in)\s+((?:[A-Z][\w'\u2019&-]+)(?:\s+[A-Z][\w'\u2019&-]+){0,2})")
_NOT_PLACES = re.compile(
    rf"^(?:{_WEEKDAY}|the|my|our|your|a|an|mine|yours|home|work)\b"
    r"|^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*$",
    _FLAGS,
)

_CANCEL = phrases_regex(CANCELLATION)
_CHANGE = phrases_regex(CHANGE)
_INSTEAD_OF = re.compile(r"instead\s+of\b|\ben (?:vez|lugar) de\b|\bem vez de\b", _FLAGS)
# A time named as the one given up ("my Saturday booking", "reserva del domingo", "not 2").
_OLD_TIME_BEFORE = re.compile(
    # "do" is the Portuguese "of the", not the English "let's do Saturday".
    r"\b(?:of|from|not|del|(?<!['\u2019]s )(?<!we )(?<!to )do|da|du|vom|von|my|our|mi|minha|meu"
    r"|ma|mon)\s+(?:the\s+)?$",
    _FLAGS,
)
_CONFIRM = phrases_regex(AGREEMENT)
# Fine with any of the times offered ("either works for me", "whichever", "up to you"): no
# choice made, so nothing is agreed yet.
UNDECIDED = re.compile(
    r"\b(?:either(?:\s+(?:one|day|date|time))?\s+(?:works|is\s+(?:fine|good|ok))"
    r"|(?:fine|happy|good|ok)\s+(?:with\s+)?either|whichever|both\s+(?:work|are\s+fine)"
    r"|any\s+(?:day|date|time|of\s+them)\s+(?:works|is\s+fine)|up\s+to\s+you"
    r"|dealer['\u2019]?s\s+choice|l['\u2019]une?\s+ou\s+l['\u2019]autre|peu\s+importe"
    r"|cualquiera|me\s+da\s+igual|qualquer\s+um|tanto\s+faz|egal|beides\s+geht"
    r"|va\s+bene\s+(?:tutto|entrambi))\b",
    re.IGNORECASE,
)
_TENTATIVE = phrases_regex(TENTATIVE)
# An agreement said with an emoji only: thumbs up, OK hand, raised hands, check mark, handshake.
_CONFIRM_EMOJI = re.compile("[\U0001f44d\U0001f44c\U0001f64c\u2705\U0001f91d]")
_PROPOSAL_CUE = re.compile(
    r"\?|\b(?:let['\u2019]s|who['\u2019]s up|shall we|how about|want to|fancy|i['\u2019]d like|"
    r"up for|vamos|bora|on se fait|lass uns|we(?:['\u2019]re| are) (?:doing|having|going)|"
    r"plan is|is (?:on|set for)|scheduled for)\b",
    _FLAGS,
)


@dataclass(frozen=True)
class PlanSignal:
    """What one message says about a plan: its own status claim and what it names. A booking
    (``is_booking``) is a plan already arranged: it starts one, confirmed."""

    status: PlanStatus | None
    activity: str
    place: str
    event_label: str
    is_proposal: bool
    is_booking: bool = False
    # A yes hedged or put off ("the 26th maybe, I'll confirm"): it agrees to nothing yet.
    is_tentative: bool = False


_BOOKING = phrases_regex(BOOKING)
_BOOKED_THING = re.compile(r"(?<!\w)(" + "|".join(BOOKED_THINGS) + r")(?!\w)", _FLAGS)
# "booked the cabin", "reservé la salle": the thing named right after the booking word.
_BOOKED_OBJECT = re.compile(
    r"\s+(?:us\s+)?(?:the|a|an|our|my|o|a|la|el|le|den|die|das|il|lo)\s+([^\W\d_]{3,})", _FLAGS
)


def _booked(text: str) -> str:
    """What a booking message says was booked ("table", "cabin"), "booking" when it names
    nothing, "" when it is no booking."""
    booking = _BOOKING.search(text)
    if booking is None:
        return ""
    thing = _BOOKED_THING.search(text)
    if thing is not None:
        return thing.group(1).lower()
    named = _BOOKED_OBJECT.match(text, booking.end())
    if named is not None and not _TIME.match(text, named.start(1)):
        return named.group(1).lower()
    return "booking"


# "can we push to 8?", "make it 7:30", "move it to 9": the bare hour a change names.
_BARE_CHANGE_CLOCK = re.compile(
    r"(?:\s+it)?(?:\s+back)?\s+(?:to\s+|for\s+|at\s+)?(\d{1,2}(?::\d{2})?)(?![\d:])"
    r"(?!\s*(?:%|min|mins|minutes|hours?|days?|weeks?|people|pm|am|h\b|st|nd|rd|th))",
    _FLAGS,
)
# A calendar-like note: the activity first, then its time ("Dinner @ 7, Luigi's").
_NOTE_LEAD = re.compile(r"^\W*$")
# "…@ 7, Luigi's" / "…at 8, Casa Azul": a name closing the note after the time.
_NOTE_PLACE = re.compile(
    r"\s*,\s*((?:[A-Z][\w&-]*['\u2019]s?|[A-Z][\w&-]+(?:\s+[A-Z][\w'\u2019&-]+){1,2}))"
    r"\s*[.!?]*\s*$"
)


# "Saturday, 11 at Pao Quente", "sunday, 10ish": a bare hour after the day and a comma.
_HOUR_AFTER_DAY = re.compile(
    r"\s*,\s*(1[0-2]|[1-9])(?:ish)?(?=\s+(?:at|@|in|em|en)\b|\s*[,.!?]|\s*$)", _FLAGS
)


def _bare_clock_after(text: str, change_match: re.Match[str]) -> str:
    match = _BARE_CHANGE_CLOCK.match(text, change_match.end())
    if match is None or int(match.group(1).split(":")[0]) > 23:
        return ""
    return f"at {match.group(1)}"


def _is_note(
    text: str, activity_match: re.Match[str] | None, time_match: re.Match[str] | None
) -> bool:
    """A note that starts with the activity and gives its time close after it."""
    return (
        activity_match is not None
        and time_match is not None
        and bool(_NOTE_LEAD.match(text[: activity_match.start()]))
        and 0 <= time_match.start() - activity_match.end() <= 12
    )


def _place_after_time(text: str, time_match: re.Match[str]) -> str:
    match = _NOTE_PLACE.match(text, time_match.end())
    return match.group(1) if match else ""


# A day said relative to the message (any language we read), with its part of the day.
_RELATIVE_DAY = re.compile(
    rf"(?:{RELATIVE_DAY}|{WEEKEND})(?: (?:morning|evening|night|afternoon))?", _FLAGS
)


def _dated_time(text: str) -> re.Match[str] | None:
    """The time ``text`` names: the first one, unless it is only a relative day ("today",
    "tmrw", "domani") and the message names a weekday or a date later: the more precise
    day is the plan's ("Tomorrow works? or rather Thu 12 Nov?")."""
    first = _TIME.search(text)
    if first is None or not _RELATIVE_DAY.fullmatch(first.group(0).strip()):
        return first
    for match in _TIME.finditer(text, first.end()):
        said = match.group(0).strip()
        if not _RELATIVE_DAY.fullmatch(said) and not _CLOCK_ONLY.fullmatch(said):
            return match
    return first


def time_phrases(text: str) -> list[str]:
    """Every day or time ``text`` names, as written ("SATURDAY OCT 3, 9am", "sabato")."""
    return [match.group(0).strip() for match in _TIME.finditer(text)]


# A named place said as the new one ("so the Owl Bar on Rua Nova instead"): capitalised words,
# with any short word a name holds between them ("of", "on", "da", "di"; not "and", which
# joins two people), right before "instead".
_PLACE_INSTEAD = re.compile(
    r"\b((?:[A-Z\u00c0-\u00dd][\w'\u2019&.-]*)(?:\s+(?:(?!(?:and|or|but|y|e|et|und|o|ou)\s)"
    r"[a-z\u00e0-\u00ff]{1,3}\s+)?[A-Z\u00c0-\u00dd][\w'\u2019&.-]*){0,5})\s*,?\s+"
    r"(?:instead|em vez disso|en su lugar|en cambio|[àa] la place|plut[ôo]t|stattdessen|invece)\b"
)


_NOT_PLACE_STARTS = frozenset({"i", "we", "let's", "lets", "let\u2019s"})


# Said as where to go, not who comes: "let's do X instead", "meet at X instead", "vamos a X".
_VENUE_CUE = re.compile(
    r"\b(?:at|to|do|try|meet|in|em|no|na|en|al|à|au|chez|im|zum|zur|al|alla|da)\s+(?:the\s+)?$",
    _FLAGS,
)


def place_instead(text: str, *, cued: bool = False) -> str:
    """The place said as the new one ("let's do Hall of Hops instead"), or "". ``cued``: only
    a place said after a word of going somewhere ("at", "do", "try"), so "Ana and Rui
    instead" (who comes) is no place."""
    instead = _PLACE_INSTEAD.search(text)
    if instead is None or (cued and not _VENUE_CUE.search(text, 0, instead.start(1))):
        return ""
    place = instead.group(1).strip(" ,.")
    return "" if place.split()[0].lower() in _NOT_PLACE_STARTS else place


_SENTENCE_END = re.compile(r"[.!?\n]")


# "... instead" closes the change that is the plan's own ("work moved my shift to the 3rd, can
# we push dinner to the 5th instead?"), not "instead of", which names the time given up.
_INSTEAD_ALONE = re.compile(r"\binstead\b(?!\s+of\b)", _FLAGS)


def _own_change(text: str, start: int, stop: int) -> re.Match[str] | None:
    """The first change word between ``start`` and ``stop``; when several are said and one
    change is closed by "instead", the last change word before it: the change asked for."""
    changes = list(_CHANGE.finditer(text, start, stop))
    if not changes:
        return None
    instead = _INSTEAD_ALONE.search(text, start, stop)
    if instead is not None and len(changes) > 1:
        before = [match for match in changes if match.end() <= instead.start()]
        if before:
            return before[-1]
    return changes[0]


def _change_for(text: str, activity_match: re.Match[str] | None) -> re.Match[str] | None:
    """The change word of the sentence that names the activity ("the offsite got shifted to
    Friday. Changed my flight to Sat 26th": the flight's), else the first one (the one closed
    by "instead" when another change is told before it, ``_own_change``)."""
    if activity_match is not None:
        ends = [m.start() for m in _SENTENCE_END.finditer(text)]
        start = max((end + 1 for end in ends if end < activity_match.start()), default=0)
        stop = min((end for end in ends if end >= activity_match.end()), default=len(text))
        own = _own_change(text, start, stop)
        if own is not None:
            return own
    return _own_change(text, 0, len(text))


def plan_signal(text: str) -> PlanSignal:
    activity_match = _ACTIVITY.search(text)
    time_match = _dated_time(text)
    place = ""
    # The place said with the activity ("dinner ... at Casa Nova"), not one from another
    # sentence of the same message.
    after = activity_match.start() if activity_match else 0
    for match in _PLACE.finditer(text, after):
        candidate = re.sub(
            rf"(?:\s+(?:{_WEEKDAY}|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun))+$",
            "",
            match.group(1).strip(),
            flags=_FLAGS,
        )
        if not _NOT_PLACES.match(candidate):
            place = candidate
            break
    change_match = _change_for(text, activity_match)
    bare_clock = _bare_clock_after(text, change_match) if change_match else ""
    cancel_match = _CANCEL.search(text)
    tentative = _TENTATIVE.search(text) is not None
    following_label = ""
    moved_to = change_match is not None and (
        _TIME.search(text, change_match.end()) is not None
        or bool(bare_clock)
        # "can't do Friday, Saturday at 8 instead?": the new time between the two.
        or (
            cancel_match is not None
            and _TIME.search(text, cancel_match.end(), change_match.start()) is not None
        )
    )
    if cancel_match and not moved_to:
        # "can't do Friday, let's do Saturday instead" moves the plan; without a new time it
        # is off.
        status: PlanStatus | None = PlanStatus.CANCELLED
    elif change_match and (time_match or bare_clock):
        status = PlanStatus.CHANGED
        # The new time is the one said with the change ("move it to Saturday at 8"), or the
        # one before "instead of" ("at 5 instead of 3", "Wed instead of Tuesday").
        preceding = [
            match
            for match in _TIME.finditer(text, 0, change_match.start())
            if _INSTEAD_OF.match(text, change_match.start())
        ]
        following = [
            match
            for match in _TIME.finditer(text, change_match.start())
            if not _OLD_TIME_BEFORE.search(text, 0, match.start())
        ]
        if bare_clock and not following:
            # "can we push to 8?": a bare hour is the new time only right after the change.
            following_label = bare_clock
            time_match = None
        # "can't do Friday, Saturday at 8 instead?": else the last time said before the change.
        before = [
            match
            for match in _TIME.finditer(text, 0, change_match.start())
            if not _OLD_TIME_BEFORE.search(text, 0, match.start())
        ]
        later = (following[0] if following else None) or (before[-1] if before else None)
        later = later or _TIME.search(text, 0)
        time_match = preceding[-1] if preceding else (time_match and later)
    elif change_match and place_instead(text, cued=True):
        # "closed, let's do Hall of Hops instead": a new place, the time as it was.
        status = PlanStatus.CHANGED
        place = place_instead(text, cued=True)
        time_match = None
    elif (
        (_CONFIRM.search(text) or _CONFIRM_EMOJI.search(text))
        # "bora almoçar sábado às 13h?": a question naming an activity and a time proposes.
        and not ("?" in text and activity_match and time_match)
        # "the 26th maybe, I'll confirm closer to the time": a hedged yes agrees to nothing.
        and not tentative
        # "either works for me": fine with every time offered, none chosen.
        and not UNDECIDED.search(text)
    ):
        status = PlanStatus.CONFIRMED
    else:
        status = None
    activity = activity_match.group(1).lower() if activity_match else ""
    booked = (
        _booked(text)
        if time_match is not None and status in (None, PlanStatus.CONFIRMED) and not tentative
        else ""
    )
    if booked:
        # "Booked the cabin for the weekend after next": arranged, so confirmed from the start.
        activity = activity or booked
        status = PlanStatus.CONFIRMED
    is_proposal = bool(
        activity
        and (time_match or place)
        and (status is None or booked)
        and (booked or _PROPOSAL_CUE.search(text) or _is_note(text, activity_match, time_match))
    )
    if not place and is_proposal and time_match:
        place = _place_after_time(text, time_match)
    label = time_match.group(0).strip() if time_match else ""
    span_end = DAY_RANGE_END.match(text, time_match.end()) if time_match else None
    if span_end and not _CLOCK_ONLY.fullmatch(label):
        # "thu 4 to sat 6": a plan over several days keeps its last day in its label.
        label += span_end.group(0)
    if status == PlanStatus.CHANGED and not time_match:
        label = following_label
    elif time_match and _CLOCK_ONLY.fullmatch(label):
        # "Sunday instead? meet 9am": the day said before the clock belongs to it.
        day = next(
            (
                m.group(0).strip()
                for m in _TIME.finditer(text)
                if not _CLOCK_ONLY.fullmatch(m.group(0).strip())
            ),
            "",
        )
        if day:
            label = f"{day} {label}"
    elif time_match and not _CLOCK_ONLY.search(label):
        # "Shall we go Thu 4th instead? leaving 8am": the clock said after the day belongs to it.
        clock = _CLOCK_ONLY.search(text, time_match.end())
        hour = _HOUR_AFTER_DAY.match(text, time_match.end())
        if hour:
            # "Saturday, 11 at the park": an hour said right after the day.
            label = f"{label} at {hour.group(1)}"
        elif clock:
            label = f"{label} {clock.group(0).strip()}"
    return PlanSignal(
        status=status,
        activity=activity,
        place=place,
        event_label=label,
        is_proposal=is_proposal,
        is_booking=bool(booked),
        is_tentative=tentative and status is None,
    )


def mentions_word(text: str, word: str) -> bool:
    return bool(word) and re.search(rf"\b{re.escape(word)}\b", text, _FLAGS) is not None


# --- Loops --------------------------------------------------------------------------------

# Second-person words: a question with one of them is asked of the person it is sent to.
_ADDRESSED_QUESTION = re.compile(
    r"\b(?:you|your|u|ya)\b"
    # es, pt, fr, it, de
    r"|\b(?:t[uú]|usted|ustedes|vos|voc[eê]s?|vc|vous|toi|ton|ta|tes|votre|voi|tuo|tua|tuoi"
    r"|du|dich|dir|dein\w*|euch)\b",
    _FLAGS,
)
_REQUEST = phrases_regex(REQUEST)
_PLEASE = phrases_regex(PLEASE)
_PROMISE_VERB = re.compile(
    # "I'll send …", "I will pay …", and a reply that drops the subject: "will post it tonight!",
    # "yes, will tell him today".
    r"(?:\b(?:I['\u2019]ll|I will|I['\u2019]m (?:going to|gonna)|I can)"
    r"|(?:^|[.!?;,]\s*|\b(?:yes|yep|sure|ok|okay)\W{0,3})will)"
    r"(?!\s+(?:you|u|he|she|they|we|it|that|this)\b)\s+(?:\w+\s+)?"
    r"(send|share|forward|email|mail|write|draft|have|get back|look into|check|call|book|pay"
    r"|return|bring|give|transfer|review|pass|text|tell|venmo|order|post|upload|drop|print|sign"
    r"|scan|find|dig|ask|ping|message|sort|fix|grab|buy|pick|put|add|invite|introduce|lend"
    r"|cover|reimburse|settle|fill|submit|finish|translate|let|remind|ring|phone|visit|leave"
    r"|look"
    # Packing or collecting a thing ("will pack them"), not one's own packing ("I'll pack
    # tonight").
    r"|(?:pack|collect)(?=\s+(?:it|them|the|your|those|these|that|this)\b))\b"
    r"(?:\s+(?:you|it|them|the|a|an|my|our|over|up|out))*\s*(\w+)?",
    _FLAGS,
)
_LINK = re.compile(r"https?://\S+", _FLAGS)
_FULFILMENT = re.compile(
    r"\b(?:here (?:it is|they are|you go)|as promised|attached|just sent|sent (?:it|them|you)|"
    r"(?:is|are) (?:now )?in the|done)\b",
    _FLAGS,
)
_DONE_WORDS = phrases_regex({**DONE, **{f"{key}-finished": v for key, v in FINISHED.items()}})
_DELIVERED_WORDS = phrases_regex(DONE)
_ARRIVED_WORDS = phrases_regex(ARRIVED)
_DEFERRAL = phrases_regex(DEFERRAL)
_PROMISE_OTHER = phrases_regex(PROMISE)
_TAKE_ON = phrases_regex(TAKE_ON)
_LATER_TIME = phrases_regex(LATER_TIME)
# At most this many words in a reply that only names a later time ("sure, tonight").
SHORT_REPLY_WORDS = 6
_PRONOUNS = {
    "you", "it", "them", "the", "a", "an", "my", "our", "over", "by", "to", "in", "back", "him",
    "her", "on", "along", "tonight", "tomorrow", "later", "today", "soon", "up", "out",
}  # fmt: skip


def is_ask(text: str) -> bool:
    """Whether ``text`` asks the person it is sent to for something: a question with a
    second-person word or a request form ("¿me pasas …?", "mi mandi …?", "kannst du …?"), a
    request form with a politeness word and no question mark ("pls send me the code"), or
    money they owe the sender ("you owe me 6 for the balls", "me debes 6€")."""
    if claims_debt(text):
        return True
    if "?" in text:
        return bool(_ADDRESSED_QUESTION.search(text) or _REQUEST.search(text))
    return bool(_REQUEST.search(text) and _PLEASE.search(text))


def is_request_form(text: str) -> bool:
    """``text`` asks for something in one of ``plan_words.REQUEST``'s forms ("could you send
    …", "mi mandi …", "pls …"), not only a question ("did you find the map?")."""
    return bool(_REQUEST.search(text))


def is_question_to_user(
    text: str, *, user_name: str, is_direct: bool, replies_to_user: bool
) -> bool:
    """A question or request someone addressed to the user (``is_ask``); in a group it must
    also name the user or reply to them. A group question that names the user needs no "you"
    ("Ana, what does Rui want for his birthday?")."""
    if not is_direct and bool(user_name) and mentions_word(text, user_name):
        return "?" in text or is_ask(text)
    if not is_ask(text):
        return False
    return is_direct or replies_to_user


def is_request_by_user(text: str) -> bool:
    """The user asking someone for something: a request form with a question mark or a
    politeness word ("could you send …?", "¿me pasas el enlace?", "please confirm")."""
    return bool(_REQUEST.search(text)) and ("?" in text or bool(_PLEASE.search(text)))


# A reply that names a later time for the thing ("by Monday, promise", "not yet").
_LATER = re.compile(
    r"\b(?:promise|promised|not yet|still (?:working|waiting|need)|working on it|on it"
    r"|asap|soon|will do)\b"
    # "let me check with Sam", "I'll ask Ana and see": the answer is still to come.
    r"|\blet\s+me\s+(?:check|ask|see|think|find\s+out)\b"
    r"|\b(?:i['\u2019]ll|i\s+will)\s+(?:check|ask|see|find\s+out)\b"
    # "will do it tomorrow", "I'm going to look on Friday": a later time for it.
    r"|\b(?:i['\u2019]ll|i will|will|gonna|going to)\b[^.!?\n]{0,30}?\b(?:tomorrow|tonight"
    r"|later|next|this (?:week|evening|afternoon)|(?:on|by) (?:mon|tue|wed|thu|fri|sat|sun)\w*)\b",
    _FLAGS,
)


def names_later_time(text: str) -> bool:
    """A short reply that only names a time still ahead ("sure, tonight", "mañana", "demain
    sans faute") and says nothing is done: the thing comes later."""
    return (
        len(text.split()) <= SHORT_REPLY_WORDS
        and bool(_LATER_TIME.search(text))
        and not _DONE_WORDS.search(text)
    )


def puts_off(text: str) -> bool:
    """An answer that is no answer yet: a deferral ("I'll let you know"), a promise to send
    or do the thing ("will send it Friday"), taking it on ("on it"), or a later time for it
    ("not yet", "sure, tonight"). A request it replies to stays open."""
    return (
        is_deferral(text)
        or promise_object(text) is not None
        or bool(_LATER.search(text))
        or bool(_TAKE_ON.search(text))
        or names_later_time(text)
    )


def is_deferral(text: str) -> bool:
    """The user putting off an answer ("let me check and get back to you"): a promise to come
    back with it (``plan_words.DEFERRAL``)."""
    return bool(_DEFERRAL.search(text))


def takes_on(text: str) -> bool:
    """A reply that takes on what was just asked without naming it ("will do!", "on it",
    "lo faccio domani", "sure, tonight"): a promise when it answers an ask."""
    return bool(_TAKE_ON.search(text)) or names_later_time(text)


# An amount of money: "$22", "6€", "12 euros", "R$ 40".
_MONEY_AMOUNT = re.compile(
    r"(?:[$€£]|R\$)\s?\d|\b\d+(?:[.,]\d{1,2})?\s?(?:[€£$]|dollars|bucks|euros?|eur|usd|reais"
    r"|pounds|quid)(?!\w)",
    _FLAGS,
)
# A whole sum as written: "$85", "€12.50", "40 bucks".
_MONEY_SUM = re.compile(
    r"(?:[$€£]|R\$)\s?\d[\d,]*(?:\.\d{1,2})?"
    r"|\b\d+(?:[.,]\d{1,2})?\s?(?:[€£$]|dollars|bucks|euros?|eur|usd|reais|pounds|quid)(?!\w)",
    _FLAGS,
)
_OWED_TO_ME = phrases_regex(OWED_TO_ME)
_I_OWE = phrases_regex(I_OWE)


def _owes_amount(phrase: re.Pattern[str], text: str) -> bool:
    """``phrase`` (who owes whom) with an amount: one with a currency anywhere, or a bare
    number a few words after it ("owe you 12 for the tickets")."""
    match = phrase.search(text)
    if match is None:
        return False
    return bool(
        _MONEY_AMOUNT.search(text) or re.match(r"\W+(?:[^\W\d]+\s+){0,3}?\d", text[match.end() :])
    )


def debt_amount(text: str) -> str:
    """The sum a debt claim names ("$85" in "still need your $85 when you can"); "" when
    ``text`` claims no debt or names no sum with a currency."""
    if not claims_debt(text):
        return ""
    match = _MONEY_SUM.search(text)
    if match is None:
        return ""
    amount = match.group(0).strip()
    if re.search(r"\bhalf\b", text, _FLAGS):
        # "$280 for the cabin, send me half": the share owed is half of the sum named.
        number = re.search(r"\d[\d,]*(?:\.\d{1,2})?", amount)
        value = float(number.group(0).replace(",", "")) / 2 if number else 0.0
        half = f"{value:.2f}".removesuffix(".00") if number else ""
        if number and half:
            return f"half of {amount} ({amount.replace(number.group(0), half)})"
    return amount


def claims_debt(text: str) -> bool:
    """Someone telling the person they write to that they owe them an amount ("you owe me
    6 for the balls", "me debes 6€ cuando puedas")."""
    return _owes_amount(_OWED_TO_ME, text)


def owns_debt(text: str) -> bool:
    """The writer saying they owe an amount ("I owe you 12 for the tickets", "te debo 20€"):
    a promise to pay it."""
    return _owes_amount(_I_OWE, text)


def promise_object(text: str) -> str | None:
    """The thing a promise is about ("deck" in "I'll send the deck tomorrow"), "" when the
    promise names no object, or None when ``text`` promises nothing deliverable."""
    match = _PROMISE_VERB.search(text)
    if match is None:
        return "" if is_deferral(text) or _PROMISE_OTHER.search(text) or owns_debt(text) else None
    noun = (match.group(2) or "").lower()
    return "" if noun in _PRONOUNS or _TIME.fullmatch(noun) else noun


def promise_clause(text: str) -> tuple[str, bool]:
    """The words of the promise to the end of its clause, and whether they start at an
    English verb: ("drop it off thursday after work", True) in "omg sorry!! I'll drop it off
    thursday after work", ("do it this weekend", True) in "yes! will do it this weekend",
    ("je vais appeler Mamie dimanche", False); ("", False) when ``text`` promises nothing in
    a form the lexicon knows."""
    match = _PROMISE_VERB.search(text)
    if match is not None:
        start, is_verb = match.start(1), True
    elif (taken := _TAKE_ON.search(text)) is not None:
        # "on it, will do it tonight": from the modal when there is one, else as written.
        modal = _MODAL_ANY.search(text)
        start, is_verb = (modal.start(), True) if modal is not None else (taken.start(), False)
    elif (other := _PROMISE_OTHER.search(text)) is not None:
        start, is_verb = other.start(), False
    else:
        return "", False
    clause = _CLAUSE_END.split(text[start:], maxsplit=1)[0].strip(" ,")
    if is_verb:
        clause = _MODAL_START.sub("", clause)
    return clause, is_verb


_MODAL_ANY = re.compile(r"\b(?:i['\u2019]ll|i\s+will|will|gonna)\s+\w", _FLAGS)
_MODAL_START = re.compile(
    r"^(?:i['\u2019]ll|i\s+will|will|i['\u2019]m\s+(?:going\s+to|gonna)|gonna)\s+", _FLAGS
)


_CLAUSE_END = re.compile(r"[.!?\n;(]|\s[-\u2013\u2014]\s|\s+(?:but|though|because|cause|cuz)\s")
# "could you look over my draft?", "can u send me the code": what is asked, after the ask.
_ASKED_DEED = re.compile(
    r"\b(?:could|can|would|will|pls|please|plz)\s+(?:you|u|ya)\s+(?:please\s+)?(?P<deed>\w.*)",
    _FLAGS,
)


def ask_clause(text: str) -> tuple[str, bool]:
    """What an ask asks for: ("look over my draft", True) when it says "could you …", else the
    sentence that asks (False)."""
    for sentence in re.findall(r"[^.!?\n]+[.!?]*", text):
        match = _ASKED_DEED.search(sentence)
        if match is not None:
            return _CLAUSE_END.split(match.group("deed"), maxsplit=1)[0].strip(" ,"), True
    for sentence in re.findall(r"[^.!?\n]+[.!?]*", text):
        if "?" in sentence or _REQUEST.search(sentence):
            return sentence.strip(" ,?"), False
    return "", False


def says_done_words(text: str) -> bool:
    """``text`` says in one of the lexicon's languages that something was done ("done ✅",
    "c'est envoyé", "fatto", "pix feito")."""
    return bool(_DONE_WORDS.search(text))


def says_delivered_words(text: str) -> bool:
    """``text`` says in one of the lexicon's languages that something was handed over ("c'est
    envoyé", "überwiesen"), not only that something is finished ("fatto")."""
    return bool(_DELIVERED_WORDS.search(text))


def says_arrived_words(text: str) -> bool:
    """``text`` says in one of the lexicon's languages that something arrived."""
    return bool(_ARRIVED_WORDS.search(text))


def has_link(text: str) -> bool:
    return _LINK.search(text) is not None


# Promises kept in person or by voice, never by a file or a link sent in the chat: "I'll bring
# the chairs", "I'll drop it off Thursday", "je vais appeler Mamie", "te lo devuelvo".
_IN_PERSON_VERBS = frozenset(
    {"bring", "drop", "return", "give", "lend", "call", "ring", "phone", "visit", "leave"}
)  # fmt: skip
_IN_PERSON_OTHER = re.compile(
    r"\b(?:trago|trazer|ligo|ligar|telefonar|visitar|traigo|traer|llamo|llamar|devuelvo|devolver"
    r"|devolvo|apporte|amener|apporter|appelle|appellerai|appeler|t[ée]l[ée]phoner|rendre|rends"
    r"|rendrai|porto|chiamo|restituisco|bringe?|rufe?)\b",
    _FLAGS,
)


def promise_in_person(text: str) -> bool:
    """The promise in ``text`` is a deed done in person or by voice (bring, drop off, return,
    call): a photo or a link the user sends later does not keep it."""
    match = _PROMISE_VERB.search(text)
    if match is not None:
        return match.group(1).lower() in _IN_PERSON_VERBS
    return _IN_PERSON_OTHER.search(text) is not None


# A request for a deed done in person ("could you collect me at the station?", "can I have my
# drill back?", "¿me recoges el paquete?"): a photo or a voice note later in the chat does not
# do it.
_IN_PERSON_ASK = re.compile(
    r"\b(?:bring|lend|drive|collect|fetch|pick\s+(?:\w+\s+){0,3}?up|drop\s+(?:\w+\s+)?off"
    r"|(?:give|bring|hand|have|need|want)\s+(?:\w+\s+){0,2}?back|come\s+(?:over|round|by)"
    r"|recog\w*|recoj\w*|devolv\w*|devuelv\w*|tra(?:e|es|er|igas|zer|z)|lleva\w*|busca\w*"
    r"|rapporte\w*|r[ée]cup[ée]r\w*|rend(?:s|re)|ritir\w*|riport\w*|restituis\w*"
    r"|abhol\w*|zur[üu]ck\w*)\b",
    _FLAGS,
)


def request_in_person(text: str) -> bool:
    """The user's request in ``text`` asks for a deed done in person (collect, bring, give
    back, pick up): a file, a link or a voice note sent later does not do it."""
    return _IN_PERSON_ASK.search(text) is not None


def fulfils_promise(
    text: str, *, is_media: bool, promised_object: str, in_person: bool = False
) -> bool:
    """The user's later message in the chat delivers: a file, a link, a done word ("here you
    go", "fatto", "c'est envoyé"), or the promised thing named without putting it off. A
    promise kept in person (``in_person``) is not kept by a file or a link."""
    if in_person and (is_media or has_link(text)) and not _DONE_WORDS.search(text):
        return False
    if is_media or has_link(text) or _FULFILMENT.search(text):
        return True
    if "?" not in text and _DONE_WORDS.search(text) and not puts_off(text):
        return True
    return bool(promised_object) and mentions_word(text, promised_object) and not puts_off(text)


# --- Facts about people -------------------------------------------------------------------

RELATIONS = (
    "brother",
    "sister",
    "cousin",
    "partner",
    "wife",
    "husband",
    "girlfriend",
    "boyfriend",
    "fiancé",
    "fiancée",
    "mum",
    "mom",
    "mother",
    "dad",
    "father",
    "son",
    "daughter",
    "uncle",
    "aunt",
    "friend",
    "colleague",
    "coworker",
    "co-worker",
    "flatmate",
    "roommate",
    "boss",
    "manager",
    # The people around a home and a life: "our landlord Mr. Park", "my dentist Dr. Adeyemi".
    "landlord",
    "landlady",
    "neighbour",
    "neighbor",
    "doctor",
    "dentist",
    "therapist",
    "coach",
    "trainer",
    "teacher",
    "tutor",
    "babysitter",
    "nanny",
    "cleaner",
    "accountant",
    "lawyer",
    "mentor",
)
# Relations of work: "my boss Sam" with two Sams means the one the user works with.
WORK_RELATIONS = frozenset({"boss", "colleague"})
# Titles said before a surname ("Mr. Park", "Dr Adeyemi").
_TITLE = r"(?:(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof)\.?\s+)"

_NAME = r"([A-ZÀ-Ý][\w'\u2019&.-]*(?:\s+(?:de\s+|da\s+|del\s+)?[A-ZÀ-Ý][\w'\u2019&.-]*){0,3})"
_ORIGIN = re.compile(
    r"\bI['\u2019]?m (?:originally )?from " + _NAME + r"|\bI am (?:originally )?from " + _NAME
)
_LIVES = re.compile(
    r"\bI(?:['\u2019]ve| have)? (?:lived|been living) in "
    + _NAME
    + r"|\bI live in "
    + _NAME
    + r"|\bI['\u2019]?m based in "
    + _NAME
    + r"|\bbought a (?:house|flat|place|home) in "
    + _NAME
)
_MOVED = re.compile(r"\bmoved (?:from " + _NAME + r" )?to " + _NAME + r"(?: from " + _NAME + r")?")
# "Made it to Portland!! The apartment's tiny": an arrival said with a new home is a move.
_ARRIVED = re.compile(r"\b(?:[Mm]ade it to|[Aa]rrived in|[Ss]ettled in(?:to)?) " + _NAME)
_NEW_HOME = re.compile(
    r"\b(?:(?:the|our|my) (?:apartment|flat)['\u2019]?s?|new (?:apartment|flat|house|place|home)"
    r"|movers|moving truck"
    r"|unpacking|unpacked|new lease)\b",
    re.IGNORECASE,
)
_THIRD_PERSON_BEFORE = re.compile(r"\b(?:he|she|they)\s+(?:\w+\s+){0,2}$", _FLAGS)
_LEAVING = re.compile(r"\bleaving " + _NAME)
_WORKS = re.compile(
    r"\baccepted (?:the|an|their) (?:job )?offer (?:from|at) "
    + _NAME
    + r"|\bI work (?:at|for) "
    + _NAME
    + r"|\bI run (?:a|an) (?:[\w-]+ ){0,3}(?:there |here )?(?:called|named) "
    + _NAME
)
# "I got the offer from Nordvik Games!! Lead designer, starting next month": an offer counts as
# the new employer only when the same message says the job starts.
_OFFER_STARTING = re.compile(
    r"\b(?:got|received|have) (?:the|an|a|their) (?:job )?offer (?:from|at) " + _NAME
)
_STARTING = re.compile(r"\bstart(?:ing|s)? (?:next|on|in|this|from)\b", re.IGNORECASE)
_MET = re.compile(
    r"\b(?:great|nice|lovely|good|so nice|so good) (?:meeting|to meet|to have met) you at "
    r"(?:the )?([^.,!?;\n\u2014\u2013]+?)"
    r"(?=\s+(?:yesterday|today|last \w+)\b|[.,!?;\n\u2014\u2013]|$)",
    _FLAGS,
)
_RELATION_WORDS = "|".join(RELATIONS)
# "meet my brother Bruno", "my sister Clara": the relation word in any case, the name
# capitalised (so "my friend said" names nobody) and right after it ("how is your mum, Rosa?"
# speaks to Rosa).
_INTRODUCTION = re.compile(r"\b(?i:meet my (" + _RELATION_WORDS + r")) ([A-ZÀ-Ý][\w'\u2019-]+)")
_RELATIVE_NAME = r"(" + _TITLE + r")?(?!I\b|I['\u2019])([A-ZÀ-Ý][\w'\u2019-]+)"
# "my sister Clara", "our landlord Mr. Park": the user's when the user says it, and when
# someone else says "our" to the user.
_MY_RELATION = re.compile(r"\b(?i:(my|our) (" + _RELATION_WORDS + r")) " + _RELATIVE_NAME)
_YOUR_RELATION = re.compile(r"\b(?i:your (" + _RELATION_WORDS + r")) " + _RELATIVE_NAME)
# Case-sensitive on purpose: the place names must be capitalised.
_THIRD_PERSON_MOVED = re.compile(
    r"\b(?:[Hh]e|[Ss]he|[Tt]hey)\s+(?:just |finally |recently )*moved to "
    + _NAME
    + r"(?: from "
    + _NAME
    + r")?"
)
_TRAILING_PLACE = re.compile(r"\s+in\s+[A-ZÀ-Ý][\w\s'-]*$")


@dataclass(frozen=True)
class FactClaim:
    """One fact a message states. ``subject`` is "sender" (the message's author), "counterpart"
    (the other person of a direct chat) or "named:<First name>" (someone the message
    introduces). ``previous`` is a value the fact replaces ("moved from Porto to Berlin").
    A relationship is to the message's author (``related_to_sender``: "meet my brother Bruno")
    or to the user (``related_to_user``: the user's "my sister Clara", or "your sister Clara"
    said to the user)."""

    subject: str
    kind: str
    value: str
    previous: str = ""
    related_to_sender: bool = False
    related_to_user: bool = False


def _place(phrase: str | None) -> str:
    """The city a captured phrase starts with, or "" when it is not a known place."""
    from memory.places import city_of, nationality_of_place

    if not phrase:
        return ""
    city = city_of(phrase)
    if city:
        return city
    return phrase.strip() if nationality_of_place(phrase) else ""


def relation_canonical(word: str) -> str:
    """The canonical relation ("mum" and "mom" are "mother", "roommate" is "flatmate")."""
    from retrieval.lexicon import DESCRIPTOR_FORMS, fold_text

    folded = fold_text(word)
    return DESCRIPTOR_FORMS.get(folded, folded)


def _organisation(phrase: str | None) -> str:
    return _TRAILING_PLACE.sub("", (phrase or "").strip()).strip().rstrip(".-&'\u2019")


def fact_claims(text: str, *, is_from_self: bool, is_direct: bool) -> list[FactClaim]:
    """The facts a message states about its author, the other person of a direct chat, or
    someone it introduces. General first-person and introduction patterns only."""
    claims: list[FactClaim] = []
    if not is_from_self:
        for match in _ORIGIN.finditer(text):
            place = _place(match.group(1) or match.group(2))
            if place:
                claims.append(FactClaim("sender", "origin", place))
        for match in _LIVES.finditer(text):
            place = _place(next((group for group in match.groups() if group), None))
            if place:
                previous = _place(left.group(1)) if (left := _LEAVING.search(text)) else ""
                claims.append(FactClaim("sender", "lives_in", place, previous=previous))
        for match in _MOVED.finditer(text):
            if _THIRD_PERSON_BEFORE.search(text[: match.start()]):
                continue
            place = _place(match.group(2))
            if place:
                previous = _place(match.group(1) or match.group(3))
                claims.append(FactClaim("sender", "lives_in", place, previous=previous))
        if _NEW_HOME.search(text):
            for match in _ARRIVED.finditer(text):
                place = _place(match.group(1))
                if place and not _THIRD_PERSON_BEFORE.search(text[: match.start()]):
                    claims.append(FactClaim("sender", "lives_in", place))
        for match in _WORKS.finditer(text):
            organisation = _organisation(next((group for group in match.groups() if group), None))
            if organisation:
                claims.append(FactClaim("sender", "works_at", organisation))
        if _STARTING.search(text):
            for match in _OFFER_STARTING.finditer(text):
                organisation = _organisation(match.group(1))
                if organisation:
                    claims.append(FactClaim("sender", "works_at", organisation))
        for match in _INTRODUCTION.finditer(text):
            named = f"named:{match.group(2)}"
            claims.append(
                FactClaim(
                    named,
                    "relationship",
                    relation_canonical(match.group(1)),
                    related_to_sender=True,
                )
            )
            moved = _THIRD_PERSON_MOVED.search(text, match.end())
            if moved and _place(moved.group(1)):
                claims.append(
                    FactClaim(
                        named, "lives_in", _place(moved.group(1)), previous=_place(moved.group(2))
                    )
                )
    claims.extend(_relation_claims(text, is_from_self=is_from_self))
    claims.extend(_engagement_claims(text, is_from_self=is_from_self))
    if is_direct:
        for match in _MET.finditer(text):
            where = match.group(1).strip()
            if where:
                subject = "counterpart" if is_from_self else "sender"
                claims.append(FactClaim(subject, "met_at", where))
    return claims


def _relation_claims(text: str, *, is_from_self: bool) -> list[FactClaim]:
    """Relationships stated with a possessive: the user's own "my sister Clara" and another
    person's "your sister Clara" relate Clara to the user; another person's "my brother Bruno"
    relates Bruno to that person (unless an introduction already said so)."""
    claims: list[FactClaim] = []
    introduced = {match.group(2) for match in _INTRODUCTION.finditer(text)}
    for match in _MY_RELATION.finditer(text):
        is_ours = match.group(1).lower() == "our"
        subject = _named_subject(title=match.group(3), name=match.group(4))
        relation = relation_canonical(match.group(2))
        if is_from_self or is_ours:
            claims.append(FactClaim(subject, "relationship", relation, related_to_user=True))
        elif match.group(4) not in introduced:
            claims.append(FactClaim(subject, "relationship", relation, related_to_sender=True))
    if not is_from_self:
        for match in _YOUR_RELATION.finditer(text):
            claims.append(
                FactClaim(
                    _named_subject(title=match.group(2), name=match.group(3)),
                    "relationship",
                    relation_canonical(match.group(1)),
                    related_to_user=True,
                )
            )
    return claims


# An engagement announced by one of the two: "Hana and I got engaged!", "I proposed to Hana",
# "she said yes 💍" with the name ("Hana said yes!! 💍").
_ENGAGED = re.compile(
    r"\b([A-ZÀ-Ý][\w'\u2019-]+) and I (?:just |finally |are |have )*(?:got |gotten )?engaged\b"
    r"|\bI (?:just |finally )*proposed to ([A-ZÀ-Ý][\w'\u2019-]+)"
    r"|\b([A-ZÀ-Ý][\w'\u2019-]+) said yes\b(?=.*(?:\U0001F48D|\bring\b|\bengaged\b|\bproposed\b))",
    re.DOTALL,
)


def _engagement_claims(text: str, *, is_from_self: bool) -> list[FactClaim]:
    """The person the author says they got engaged to: their fiancé(e), related to the
    author (the user, when the user says it)."""
    claims = []
    for match in _ENGAGED.finditer(text):
        name = next(group for group in match.groups() if group)
        if name in ("I", "We", "She", "He", "They"):
            continue
        claims.append(
            FactClaim(
                f"named:{name}",
                "relationship",
                "fiance",
                related_to_sender=not is_from_self,
                related_to_user=is_from_self,
            )
        )
    return claims


def _named_subject(*, title: str | None, name: str) -> str:
    """ "named:Clara", or "titled:Park" for a name said after a title ("Mr. Park": a
    surname)."""
    return f"titled:{name}" if title else f"named:{name}"


# "I'm ..." / "I am ...": every nationality statement starts so (a cheap test first).
_SELF_STATEMENT = re.compile(r"\bI['\u2019]?m |\bI am ", _FLAGS)


@functools.cache
def _nationality_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each nationality with one pattern for all its forms (compiled once)."""
    from retrieval.lexicon import NATIONALITIES

    patterns = []
    for canonical, forms in NATIONALITIES.items():
        alternation = "|".join(re.escape(form) for form in forms)
        patterns.append(
            (
                canonical,
                re.compile(
                    rf"\bI['\u2019]?m (?:{alternation})\b|\bI am (?:{alternation})\b", _FLAGS
                ),
            )
        )
    return tuple(patterns)


def nationality_claims(text: str) -> list[str]:
    """Nationalities an author states about themselves ("I'm Brazilian"). Sensitive: kept
    only when the user's memory policy allows it."""
    if not _SELF_STATEMENT.search(text):
        return []
    return [canonical for canonical, pattern in _nationality_patterns() if pattern.search(text)]


def is_suspicious(text: str) -> bool:
    """A message that tries to instruct an assistant, or reads as spam
    (``claire.ai.suspicious``)."""
    return suspicious_text(text)
