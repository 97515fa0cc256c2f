"""Plan signals in message text: an activity with a time or a place, a change, a cancellation,
an agreement."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.models import PlanStatus
from memory.plan_words import (
    AGREEMENT,
    BOOKED_THINGS,
    BOOKING,
    CANCELLATION,
    CHANGE,
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
    # Sports and classes kept as a habit ("swim thu?", "padel sat 10?").
    "swimming",
    "swim",
    "running",
    "jogging",
    "tennis",
    "padel",
    "pádel",
    "football",
    "soccer",
    "yoga",
    "pilates",
    "gym",
    "squash",
    "badminton",
    "basketball",
    "netball",
    "volleyball",
    "golf",
    "bowling",
    "karaoke",
    "cycling",
    "bike ride",
    "surfing",
    "skiing",
    "kayaking",
    "camping",
    "rehearsal",
    # Portuguese, Spanish, French, German.
    "natação",
    "natación",
    "futebol",
    "fútbol",
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


# The activity said as not happening ("no swimming the week of the 16th", "skip yoga thu",
# "sin pádel esta semana", "pas de yoga jeudi", "kein Yoga"): a week without the habit, not a
# plan on that week.
_NEGATED_BEFORE = re.compile(
    r"(?:\b(?:no|not|without|skip|skipping|sin|sem|nada\s+de|pas\s+de|kein|keine|keinen"
    r"|niente|won['\u2019]?t\s+be|not\s+going)\s+(?:more\s+|any\s+)?)$",
    _FLAGS,
)


def _negated(text: str, activity_match: re.Match[str]) -> bool:
    return _NEGATED_BEFORE.search(text, 0, activity_match.start()) is not None


def _offers_another(
    text: str, cancel_match: re.Match[str], activity_match: re.Match[str] | None
) -> bool:
    """A call-off followed by another activity ("X is cancelled, gym sat at 11 instead?"):
    the activity is named after the call-off and no day or time is what was called off
    ("can't do Friday, yoga Saturday instead?" moves the plan)."""
    if activity_match is None or activity_match.start() < cancel_match.end():
        return False
    return _TIME.search(text, cancel_match.start(), activity_match.start()) is None


def before_another_offer(text: str) -> str:
    """The text up to its call-off when it offers another activity after it ("X is
    cancelled, bowling sat at 3 instead?" → "X is cancelled"), else the whole text."""
    cancel_match = _CANCEL.search(text)
    activity_match = _ACTIVITY.search(text)
    if cancel_match is None or not _INSTEAD_ALONE.search(text, cancel_match.end()):
        return text
    if _offers_another(text, cancel_match, activity_match):
        return text[: cancel_match.end()]
    return text


def plan_signal(text: str) -> PlanSignal:
    activity_match = _ACTIVITY.search(text)
    if activity_match is not None and _negated(text, activity_match):
        return PlanSignal(status=None, activity="", place="", event_label="", is_proposal=False)
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
    if cancel_match and moved_to and _offers_another(text, cancel_match, activity_match):
        # "the beach is cancelled, bowling sat at 3 instead?": the plan is off; the activity
        # offered after it is another plan.
        return PlanSignal(
            status=PlanStatus.CANCELLED, activity="", place="", event_label="", is_proposal=False
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
