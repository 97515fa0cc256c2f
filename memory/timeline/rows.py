"""Plan reading bounds, the message rows a plan is read from, the terms that find them and
the times they name."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import QuerySet

from claire.accounts.models import User
from conversations.models import ChatKind, Message
from memory.extract import ACTIVITIES, PlanSignal, place_instead, plan_signal, time_phrases
from memory.findings import PlanWhen, when_of
from memory.models import PlanStatus
from memory.plan_words import BOOKED_THINGS, CANCELLATION, CHANGE, DECLINE, phrases_regex
from memory.selectors import PlanStepView
from retrieval.lexicon import fold_text

TOPIC_HORIZON = timedelta(days=120)
# Seeds older than this count only when they name a day still ahead.
SEED_RECENT = timedelta(days=45)
OCCURRENCES_READ = 6
# Topic words at most this many times as common as the rarest (or this common) name the plan.
RARE_RATIO = 3
RARE_FLOOR = 8
THREAD_WINDOW = timedelta(hours=3)
THREAD_BEFORE = timedelta(hours=1)
# Messages of the plan's chats and of direct chats with its people that name its day join it
# (up to that day), read up to this long after its last seed message.
LINK_HORIZON = timedelta(days=60)
LINK_READ = 1500
# A move linked from outside the plan's conversation is at most this far from its day.
LINK_SHIFT = timedelta(days=14)
FOREIGN_MOVES = 40
MOVED_FROM_READ = 200
# A topic word used by more messages than this in the horizon names no single plan.
MAX_TOPIC_MESSAGES = 60
MESSAGES_READ = 400
# How far back a window question ("this weekend") reads messages that name a day in it.
WINDOW_LOOKBACK = timedelta(days=21)
WINDOW_SEEDS = 40
# A window of a few days also reads the messages of this long before that write one of its
# days as a date (an event announced weeks ahead).
DATED_LOOKBACK = timedelta(days=75)
DATED_WINDOW_DAYS = 8
DATED_READ = 300
# A day of the month said with its month or as a number ("Sat 31 Oct", "31/10", "the 31st").
_DATED = re.compile(r"\d")

# Kinds of event: they say what sort of plan it is, not which one.
CATEGORY_WORDS = frozenset(
    {
        *ACTIVITIES,
        *BOOKED_THINGS,
        "plan", "plans", "event", "meeting", "call", "date", "appointment", "visit", "meetup",
        "session", "class", "show", "match", "game", "reservation", "booking", "holiday",
        "vacation", "celebration", "ceremony", "reunion", "drink", "thing", "workshop",
        "course", "seminar", "training", "conference",
    }
)  # fmt: skip

_TIME_WORD = re.compile(
    # "on tuesdays": a weekday said as the plan's usual day is no topic either.
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|today|tonight|tomorrow|weekend|morning"
    r"|evening|afternoon|night|week|month|time|when|still|where"
)
_SUFFIXES = r"(?:e|es|ed|er|ers|ing|s|d)?"
# How a question says the user takes part ("am I still seeing Sam?", "when am I getting sushi
# with Mia?"): no topic of the plan.
_MEETING_VERBS = frozenset(
    {
        "seeing", "meeting", "having", "getting", "going", "doing", "hanging", "grabbing",
        "catching", "joining", "see", "meet", "hang", "grab", "catch", "join",
    }
)  # fmt: skip


def _root(term: str) -> str:
    """ "plumber" -> "plumb", "moving" -> "mov", "picked" -> "pick": the part its forms share."""
    for suffix in ("ing", "ers", "er", "ed", "es", "e", "s"):
        if term.endswith(suffix) and len(term) - len(suffix) >= 3:
            return term[: -len(suffix)]
    return term


def _term_regex(term: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(_root(term))}{_SUFFIXES}(?!\w)")


# A folded letter and its accented forms: "padel" finds "pádel", "cafe" finds "café".
_ACCENTED = {
    "a": "[aáàâãä]",
    "e": "[eéèêë]",
    "i": "[iíìîï]",
    "o": "[oóòôõö]",
    "u": "[uúùûü]",
    "c": "[cç]",
    "n": "[nñ]",
}


def _term_sql(term: str) -> str:
    root = "".join(_ACCENTED.get(letter, re.escape(letter)) for letter in fold_text(_root(term)))
    return rf"\m{root}{_SUFFIXES}\M"


# Someone changing what was set: the new time comes with one of these.
_CHANGE_CUE = re.compile(
    r"\b(?:instead|now|anymore|delay(?:ed)?|moved?|moving|push(?:ed|ing)?|postpon\w*"
    r"|reschedul\w*|change|changed|cambio|agora|ahora|maintenant|jetzt|actually|new time"
    r"|not\s+\d)\b"
)
_CALLED_OFF = phrases_regex(CANCELLATION)
# One person dropping out of a group plan, not the plan being called off.
_DECLINE = phrases_regex(DECLINE)
_CHANGE_WORDS = phrases_regex(CHANGE)
# A short agreement in the conversation right after a proposal ("me!! 👍", "eu também", "in!").
_SHORT_AGREE = re.compile(
    r"^\W*(?:me|eu|yo|moi|ich|in|same|yes+|yep|yeah|sure|ok(?:ay)?|sim|s[ií]|oui|ja|bora|down"
    r"|deal|np|no problem|fine)\b"
    r"|\U0001f44d|\U0001f64c|\U0001f44c|\u2705"
)


def _says_change(folded: str) -> bool:
    """Whether a (folded) message says the plan changes: a change word in any language."""
    return bool(_CHANGE_CUE.search(folded) or _CHANGE_WORDS.search(folded))


_WEEKDAY_WORDS = (
    ("monday", "mon", "segunda", "lunes", "lundi", "montag", "lunedi"),
    ("tuesday", "tue", "tues", "terca", "martes", "mardi", "dienstag", "martedi"),
    ("wednesday", "wed", "quarta", "miercoles", "mercredi", "mittwoch", "mercoledi"),
    ("thursday", "thu", "thur", "thurs", "quinta", "jueves", "jeudi", "donnerstag", "giovedi"),
    ("friday", "fri", "sexta", "viernes", "vendredi", "freitag", "venerdi"),
    ("saturday", "sat", "sabado", "samedi", "samstag", "sabato"),
    ("sunday", "sun", "domingo", "dimanche", "sonntag", "domenica"),
)
_WEEKDAY_SQL = r"\m(" + "|".join(w for words in _WEEKDAY_WORDS for w in words) + r")"
_RELATIVE_SQL = r"\m(today|tonight|tomorrow|hoje|amanh|hoy|ma.ana|demain|heute|morgen)"


@dataclass(frozen=True)
class _Row:
    pk: int
    chat_id: int
    platform: str
    sent_at: datetime
    text: str
    is_from_self: bool
    sender: int | None
    chat_title: str
    is_direct: bool

    def step(self, status: PlanStatus, label: str) -> PlanStepView:
        return PlanStepView(
            message_id=self.pk,
            chat_id=self.chat_id,
            platform=self.platform,
            status=status,
            event_label=label,
            sent_at=self.sent_at,
            sender_person_id=self.sender,
            is_from_self=self.is_from_self,
        )


_FIELDS = (
    "pk", "chat_id", "chat__platform", "sent_at", "text", "is_from_self", "sender_person_id",
    "chat__title", "chat__kind",
)  # fmt: skip


def _rows(queryset: QuerySet[Message], limit: int = MESSAGES_READ) -> list[_Row]:
    return [
        _Row(
            pk=pk,
            chat_id=chat_id,
            platform=platform,
            sent_at=sent_at,
            text=text or "",
            is_from_self=is_from_self,
            sender=sender,
            chat_title=title or "",
            is_direct=kind == ChatKind.DIRECT,
        )
        for pk, chat_id, platform, sent_at, text, is_from_self, sender, title, kind in (
            queryset.order_by("sent_at", "pk").values_list(*_FIELDS)[:limit]
        )
    ]


def _base(
    *, user: User, since: datetime, now: datetime, chat_ids: Sequence[int] | None
) -> QuerySet[Message]:
    base = Message.objects.filter(
        user=user,
        deleted_at__isnull=True,
        chat__is_excluded_from_ai=False,
        sent_at__gte=since,
        sent_at__lt=now,
    )
    if chat_ids is not None:
        base = base.filter(chat_id__in=list(chat_ids))
    return base


def _when(row: _Row, label: str, activity: str, user: User) -> PlanWhen | None:
    if not label:
        return None
    when = when_of(row.step(PlanStatus.PROPOSED, label), activity=activity, zone=user.zoneinfo)
    return when if when.text else None


def _names_day(row: _Row, day: date, *, user: User) -> bool:
    """Whether ``row`` names ``day``: its weekday in any language we read, or a time that
    falls on it read against the row's own send time ("tomorrow" said the day before)."""
    text = row.text
    for phrase in time_phrases(row.text):
        when = _when(row, phrase, "", user)
        if when is not None and when.day == day:
            return True
        if when is not None and when.day is not None:
            # "the fair is SUNDAY NOV 8": that Saturday is the 3rd, not the plan's.
            text = text.replace(phrase, " ")
    folded = fold_text(text)
    words = _WEEKDAY_WORDS[day.weekday()]
    # A weekday names the next one after the message ("Friday" said on the 6th is the 11th,
    # not the 25th), or the one after that when said with "next".
    ahead = (day - row.sent_at.astimezone(user.zoneinfo).date()).days
    reach = 13 if re.search(r"\bnext\b", folded) else 7
    if 0 <= ahead <= reach and any(re.search(rf"(?<!\w){word}(?!\w)", folded) for word in words):
        return True
    label = plan_signal(row.text).event_label
    when = _when(row, label, "", user)
    if when is not None and when.day == day:
        return True
    # "11th is a go", "the 3rd still works?": the plan's day of the month said as an ordinal
    # alone, in the month before it ("3rd floor", "my 2nd try" are no day).
    if 0 <= ahead <= ORDINAL_REACH:
        for match in _BARE_ORDINAL.finditer(folded):
            if int(match.group(1)) == day.day:
                return True
    return False


# How far ahead a bare ordinal ("the 11th") may name a plan's day.
ORDINAL_REACH = 31
_BARE_ORDINAL = re.compile(
    r"(?<![\w/.:,-])(\d{1,2})(?:st|nd|rd|th)\b"
    r"(?!\s+(?:floor|time|times|try|attempt|place|grade|year|birthday|anniversary|century"
    r"|edition|round|row|gen|generation|person|one|ones|street|st|ave|avenue))"
)


# A street address ("418 N Larkspur Ave", "12 Rua Augusta"): where the plan now is.
_ADDRESS = re.compile(
    r"\b\d{1,5}\s+(?:[NSEW]\.?\s+)?(?:[A-Z][\w.'-]*\s+){1,3}"
    r"(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Ln|Lane|Dr|Drive|Way|Pl|Place|Sq|Square)\b\.?"
    r"|\b(?:Rua|Avenida|Calle|Rue|Via)\s+(?:[A-Z\u00c0-\u00dd][\w'-]*\s*){1,3}(?:,?\s*\d{1,5})?"
)


# A day said alone in passing ("what a grey day today"): no time of a plan.
_BARE_DAY = re.compile(
    r"today|tonight|tomorrow|hoje|amanh[aã]|hoy|ma[nñ]ana|demain|heute|morgen|oggi|domani",
    re.IGNORECASE,
)


# A date written with its month ("27/9", "14.11", "Sun 27 Sep", "Oct 3rd"), not a weekday alone.
_DATE_WRITTEN = re.compile(
    r"\d{1,2}\s*[/.]\s*\d{1,2}|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?[A-Za-z]{3}"
    r"|[A-Za-z]{3}[a-z]*\.?\s+\d{1,2}(?!\s*[:h.]\d)"
)
# Said of a date something is due by, not of when the plan happens.
_DUE_BY = re.compile(r"\b(?:by|before|until|till|due|deadline|rsvp|latest)\b")


# A media placeholder ("(Voice note 0:41)", "[Photo]"): its numbers are a length, not a time.
_PLACEHOLDER = re.compile(r"[\(\[][^\)\]]*[\)\]]")


def _sets_time(row: _Row, signal: PlanSignal, folded: str) -> bool:
    """Whether the time ``row`` says is a plan's: said with a clock or a date, an activity, a
    question, a proposal, a change or an agreement; "today" said in passing is not."""
    if _PLACEHOLDER.fullmatch(row.text.strip()):
        return False
    if not _BARE_DAY.fullmatch(signal.event_label.strip()):
        return True
    return bool(
        signal.activity
        or signal.is_proposal
        or signal.status is not None
        or "?" in row.text
        or _says_change(folded)
    )


def _place_said(text: str) -> str:
    match = _ADDRESS.search(text)
    if match:
        return match.group(0).strip(" ,.")
    place = place_instead(text)
    first = fold_text(place.split()[0]) if place else ""
    return "" if first in _NOT_NAMES else place


def _names_other_day(said: PlanWhen | None, current: PlanWhen | None) -> bool:
    """Whether a message names a day the plan is not (then or over its days) for."""
    if said is None or current is None or said.day is None or current.day is None:
        return False
    return not current.day <= said.day <= (current.last_day or current.day)


_NOT_NAMES = frozenset(
    {
        *(w for words in _WEEKDAY_WORDS for w in words),
        "january", "february", "march", "april", "june", "july", "august", "september",
        "october", "november", "december", "thanks", "thank", "please", "hello", "sorry",
        "love", "also", "sure", "okay", "yeah", "just", "maybe", "cheers", "best",
    }
)  # fmt: skip
