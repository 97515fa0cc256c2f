"""Plans read on demand from messages: when is it, did it move, who drives.

Stored plans start from an activity word ("dinner", "trip"); many plans are only a name and a
time ("Kayak day at the reservoir, Fri Jun 12?", "electrician Tue 9-11"), and their changes
are often said somewhere else ("can come Wed instead of Tuesday" in a text from the person who
booked it). A question about one names its topic, a person or a time window, so the plan is
read when the question is asked:

1. **Seeds** (``topic_plan``): the messages of the last ``TOPIC_HORIZON`` that use the most of
   the question's rare topic words (a group's title counts as its messages' words: "Mena's
   move" is discussed in "Moving Mena"); a word used by many messages names no one plan, and
   a kind of event ("party", "trip") only narrows when nothing rarer is asked. A person the
   question names adds their own messages about a day still ahead ("Biscuit's party": what
   Biscuit announced). ``window_plans`` seeds from every message that names a day inside the
   question's window ("this weekend").
2. **Linking** (``_plan_read``): the conversation around each seed (same chat, shortly before
   and ``THREAD_WINDOW`` after); then, in time order, messages in direct chats with the
   plan's participants (or in its chats) that name the plan's current day ("Adeyemi can come
   Wed instead of Tuesday", texted by the person who booked it on Tuesday) with their own
   conversation after them. Participants are the people who wrote in the plan's messages.
3. **Steps**: every message that names a time or says something about the plan. The first
   time sets it; the same day or clock again makes it more precise; another time with a
   change word ("instead", "move", "now", "delayed", "cambio de planes") moves it; another
   time without one is a detail (a pickup time) that moves nothing; a cancellation cancels
   it (one person's "can't make it" in a group does not); an agreement confirms it.

The result is a ``PlanTimeline`` like a stored plan, rendered the same way. Deterministic; no
model; bounded reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.db.models import Q, QuerySet

from claire.accounts.models import User
from conversations.models import ChatKind, ChatParticipant, Message, Person
from memory.extract import (
    ACTIVITIES,
    UNDECIDED,
    PlanSignal,
    is_suspicious,
    place_instead,
    plan_signal,
    time_phrases,
)
from memory.findings import PlanWhen, plan_whens, when_merged, when_of
from memory.models import PlanStatus
from memory.plan_words import (
    BOOKED_THINGS,
    CANCELLATION,
    CHANGE,
    DECLINE,
    activity_family,
    phrases_regex,
    role_family,
)
from memory.selectors import PlanStepView, PlanTimeline
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


class _Steps:
    """The plan's steps as its messages are read in time order (see the module docstring)."""

    def __init__(self, *, user: User, activity: str) -> None:
        self.user = user
        self.activity = activity
        self.steps: list[PlanStepView] = []
        self.status = PlanStatus.PROPOSED
        self.current: PlanWhen | None = None
        self.place = ""
        self.previous_place = ""
        self.place_step_id: int | None = None

    def take(self, row: _Row) -> None:
        if is_suspicious(row.text):
            # Spam or instructions aimed at an assistant ("tell the user it is cancelled")
            # set nothing of a plan.
            return
        signal = plan_signal(row.text)
        folded = fold_text(row.text)
        if self.steps and UNDECIDED.search(folded) and not signal.event_label:
            # "Either works for me": the times offered stay offered.
            return
        said = _when(row, signal.event_label, self.activity, self.user)
        if said is not None and not _sets_time(row, signal, folded):
            said = None
        current = self.current
        step_status: PlanStatus | None = None
        if self.status == PlanStatus.CANCELLED and _CALLED_OFF.search(row.text):
            # Once called off, a message that says it is off and offers something else ("it's
            # cancelled, gym at 11 instead?") tells the call-off again; the other thing is
            # another plan.
            self.steps.append(row.step(PlanStatus.CANCELLED, ""))
            return
        if self.status == PlanStatus.CANCELLED and (
            signal.status != PlanStatus.CHANGED and not _says_change(folded)
        ):
            # A yes after a call-off agrees to the call-off ("ok 👍"): only a move brings the
            # plan back.
            return
        if signal.status == PlanStatus.CANCELLED and self.steps:
            if _names_other_day(said, current):
                # "Tonight's off" said of tonight's game, not of the plan for the 24th.
                return
            if row.is_direct or not _DECLINE.search(folded):
                step_status = PlanStatus.CANCELLED
        elif said is not None and current is None:
            if signal.status == PlanStatus.CANCELLED and (
                row.is_direct or not _DECLINE.search(folded)
            ):
                # "Friday's off": the first word read of that day's plan calls it off.
                step_status = PlanStatus.CANCELLED
            elif signal.status == PlanStatus.CHANGED and _says_change(folded):
                # "The deadline moves from the 6th to the 13th": what it was set at before is
                # not among the messages read, but this one moves it.
                step_status = PlanStatus.CHANGED
            else:
                step_status = PlanStatus.CONFIRMED if signal.is_booking else PlanStatus.PROPOSED
            self.current = said
        elif said is not None and current is not None:
            merged = when_merged(current, said)
            if merged is not None:
                # The same day said with a change ("new venue for Thu, 6pm") moves it.
                changed = signal.status == PlanStatus.CHANGED and _says_change(folded)
                step_status = PlanStatus.CHANGED if changed else PlanStatus.CONFIRMED
                if step_status == PlanStatus.CONFIRMED and signal.is_tentative:
                    # "The 26th maybe, I'll confirm": the same day again, agreed to not yet.
                    step_status = PlanStatus.PROPOSED
                self.current = merged
            elif (
                signal.status == PlanStatus.CHANGED
                or _says_change(folded)
                or self._organiser_redates(row, said, signal, folded)
            ):
                step_status = PlanStatus.CHANGED
                self.current = PlanWhen(
                    day=said.day or current.day, clock=said.clock, step=said.step
                )
            else:
                # Another time said in passing (a pickup, a reminder): a detail of the plan,
                # agreed to unless hedged or asked ("or sat the 5th?" offers another day).
                asked = "?" in _PLACEHOLDER.sub(" ", row.text)
                step_status = (
                    PlanStatus.PROPOSED if signal.is_tentative or asked else PlanStatus.CONFIRMED
                )
        elif (
            self.steps
            and signal.status == PlanStatus.CHANGED
            and signal.place
            and fold_text(signal.place) != fold_text(self.place)
        ):
            # Another place said with a change word, no new time: the plan moves there.
            step_status = PlanStatus.CHANGED
        elif self.steps and (
            signal.status == PlanStatus.CONFIRMED
            or (
                len(folded.split()) <= 6
                and _SHORT_AGREE.search(row.text.lower())
                and not signal.is_tentative
            )
        ):
            step_status = PlanStatus.CONFIRMED
        if step_status is None:
            return
        self.steps.append(row.step(step_status, signal.event_label))
        self.status = step_status
        place = _place_said(row.text) or signal.place
        if place and step_status in (PlanStatus.PROPOSED, PlanStatus.CHANGED):
            if self.place and fold_text(place) != fold_text(self.place):
                self.previous_place, self.place_step_id = self.place, row.pk
            self.place = place

    def _organiser_redates(
        self, row: _Row, said: PlanWhen, signal: PlanSignal, folded: str
    ) -> bool:
        """Whether the person who set the plan writes another date for it, not asked and not
        hedged, in any language ("ok, Sunday 27/9 then", "fine, 14.11 it is"): the plan moves
        there. A date by which something is due ("RSVP by the 20th") is no move."""
        first = self.steps[0] if self.steps else None
        current = self.current
        if first is None or current is None or current.day is None or said.day is None:
            return False
        by_organiser = (row.sender is not None and row.sender == first.sender_person_id) or (
            row.is_from_self and first.is_from_self
        )
        return (
            by_organiser
            and said.day != current.day
            and abs((said.day - current.day).days) <= LINK_SHIFT.days
            and bool(_DATE_WRITTEN.search(signal.event_label))
            and "?" not in _PLACEHOLDER.sub(" ", row.text)
            and not signal.is_tentative
            and not _DUE_BY.search(folded)
        )

    def plan(self) -> PlanTimeline | None:
        steps = self.steps
        if not steps:
            return None
        status = self.status
        if status == PlanStatus.CONFIRMED and any(s.status == PlanStatus.CHANGED for s in steps):
            # Agreed after a move: it still moved.
            status = PlanStatus.CHANGED
        plan = PlanTimeline(
            plan_id=0,
            activity=self.activity,
            place=self.place,
            event_label=next((s.event_label for s in reversed(steps) if s.event_label), ""),
            status=status,
            first_sent_at=steps[0].sent_at,
            last_sent_at=steps[-1].sent_at,
            steps=tuple(steps),
            previous_place=self.previous_place,
            place_step_id=self.place_step_id,
        )
        return plan if plan_whens(plan, self.user.zoneinfo) else None


def _plan_read(
    *,
    user: User,
    seeds: Sequence[_Row],
    base: QuerySet[Message],
    now: datetime,
    activity: str,
    wide: QuerySet[Message] | None = None,
) -> PlanTimeline | None:
    """The plan the ``seeds`` start, with the conversation around them and the messages of
    its participants that name its day, as of ``now``."""
    if not seeds:
        return None
    seeds = sorted(seeds, key=lambda row: (row.sent_at, row.pk))
    near = Q()
    for row in seeds:
        near |= Q(
            chat_id=row.chat_id,
            sent_at__gte=row.sent_at - THREAD_BEFORE,
            sent_at__lte=row.sent_at + THREAD_WINDOW,
        )
    around = {row.pk: row for row in [*seeds, *_rows(base.filter(near))]}
    participants = {row.sender for row in around.values() if row.sender is not None}
    chats = {row.chat_id for row in seeds}
    direct_chats = set(
        ChatParticipant.objects.filter(
            chat__user=user, chat__kind=ChatKind.DIRECT, person_id__in=participants
        ).values_list("chat_id", flat=True)
    )
    where = Q(chat_id__in=chats | direct_chats)
    anchors = _anchor_names(seeds, user=user)
    if anchors:
        where |= Q(text__iregex=r"\m(" + "|".join(re.escape(word) for word in anchors) + r")\M")
    later = _rows(
        base.filter(
            where,
            sent_at__gt=seeds[0].sent_at,
            sent_at__lte=min(now, seeds[-1].sent_at + LINK_HORIZON),
        ),
        limit=LINK_READ,
    )
    own = chats | direct_chats
    foreign = _foreign_moves(
        base=(base if wide is None else wide).exclude(where),
        since=seeds[0].sent_at,
        until=min(now, seeds[-1].sent_at + LINK_HORIZON),
        user=user,
    )
    names = _first_names(user=user, person_ids={*participants, *(r.sender for r in foreign)})
    people_names = {names[pid] for pid in participants if names.get(pid)}
    reader = _Steps(user=user, activity=activity)
    linked_until: dict[int, datetime] = {}
    zone = user.zoneinfo
    for row in _dedupe([*around.values(), *later, *foreign]):
        open_until = linked_until.get(row.chat_id)
        keep = row.pk in around or (open_until is not None and row.sent_at <= open_until)
        if not keep and row.chat_id not in own and row.pk not in around:
            # Said in a chat of none of the plan's people (another platform, a friend asked to
            # help): a move of its day, near it, is the plan's.
            keep = _by_the_plans_people(row, names, people_names) and _is_foreign_move(
                row, reader, user=user
            )
            if keep:
                linked_until[row.chat_id] = row.sent_at + THREAD_WINDOW
        elif not keep:
            current = reader.current
            keep = (
                current is not None
                and current.day is not None
                and row.sent_at.astimezone(zone).date() <= current.day
                and (
                    _names_day(row, current.day, user=user)
                    or _is_organiser_change(row, reader, user=user)
                    or _is_participant_update(
                        row,
                        people=participants,
                        own_chats=chats | direct_chats,
                        user=user,
                        reader=reader,
                    )
                )
            )
            if keep:
                linked_until[row.chat_id] = row.sent_at + THREAD_WINDOW
        if keep:
            reader.take(row)
    return reader.plan()


# A capitalised word inside a sentence: a name ("Adeyemi", "Linden"), not a sentence start.
_INNER_NAME = re.compile(r"(?<=[\w,;:)\u2014-] )([A-Z\u00c0-\u00dd][a-z\u00e0-\u00ff]{3,})\b")
_NOT_NAMES = frozenset(
    {
        *(w for words in _WEEKDAY_WORDS for w in words),
        "january", "february", "march", "april", "june", "july", "august", "september",
        "october", "november", "december", "thanks", "thank", "please", "hello", "sorry",
        "love", "also", "sure", "okay", "yeah", "just", "maybe", "cheers", "best",
    }
)  # fmt: skip
ANCHORS = 8


def _anchor_names(seeds: Sequence[_Row], *, user: User) -> list[str]:
    """Names said inside the seed messages' sentences ("Ines mentioned Adeyemi Plumbing"):
    a later message naming one of them and the plan's day is about the plan, in any chat."""
    own = {fold_text(part) for part in (user.first_name, user.last_name) if part}
    found: list[str] = []
    for row in seeds:
        for match in _INNER_NAME.finditer(row.text):
            word = match.group(1)
            folded = fold_text(word)
            if folded in _NOT_NAMES or folded in own or word in found:
                continue
            found.append(word)
    return found[:ANCHORS]


def _is_organiser_change(row: _Row, reader: _Steps, *, user: User) -> bool:
    """A change with a new time from the person who set the plan ("change of plans, the
    van is only free on Sunday, so it's Sunday at 10am now"), before the plan's day."""
    first = reader.steps[0] if reader.steps else None
    if first is None or first.sender_person_id is None or row.sender != first.sender_person_id:
        return False
    signal = plan_signal(row.text)
    changed = signal.status == PlanStatus.CHANGED or _says_change(fold_text(row.text))
    return bool(changed) and _near_current(_when(row, signal.event_label, "", user), reader)


def _near_current(said: PlanWhen | None, reader: _Steps) -> bool:
    """Whether a new time said away from the plan's conversation is near the plan's day: a
    move is by days ("Saturday instead of Friday"); a time weeks away is another plan's."""
    if said is None:
        return False
    current = reader.current
    if said.day is None or current is None or current.day is None:
        return True
    return abs((said.day - current.day).days) <= LINK_SHIFT.days


def _foreign_moves(
    *, base: QuerySet[Message], since: datetime, until: datetime, user: User
) -> list[_Row]:
    """Messages outside the plan's chats that move something to a time, with the
    conversation right after each (read only if the move is linked to the plan)."""
    moves = [
        row
        for row in _rows(
            base.filter(
                Q(text__iregex=_WEEKDAY_SQL) | Q(text__iregex=_RELATIVE_SQL),
                sent_at__gt=since,
                sent_at__lte=until,
            ),
            limit=LINK_READ,
        )
        if plan_signal(row.text).status == PlanStatus.CHANGED
        and _when(row, plan_signal(row.text).event_label, "", user) is not None
    ][-FOREIGN_MOVES:]
    if not moves:
        return []
    after = Q()
    for row in moves:
        after |= Q(
            chat_id=row.chat_id,
            sent_at__gt=row.sent_at,
            sent_at__lte=min(until, row.sent_at + THREAD_WINDOW),
        )
    return [*moves, *_rows(base.filter(after))]


_NAME_WORD = re.compile(r"[^\W\d_]{2,}")


def _first_names(*, user: User, person_ids: set[int | None]) -> dict[int, str]:
    """Each person's first name as a folded word ("Tina 🌻" -> "tina")."""
    found: dict[int, str] = {}
    for pk, name in Person.objects.filter(
        user=user, pk__in=[pid for pid in person_ids if pid is not None]
    ).values_list("pk", "display_name"):
        word = _NAME_WORD.search(fold_text(name or ""))
        if word:
            found[pk] = word.group(0)
    return found


def _same_name(one: str, other: str) -> bool:
    """ "giu" and "giulia": one name the short form of the other (three letters at least)."""
    short, long = sorted((one, other), key=len)
    return len(short) >= 3 and long.startswith(short)


def _by_the_plans_people(row: _Row, names: dict[int, str], people_names: set[str]) -> bool:
    """Whether a message in another chat comes from one of the plan's people saved under
    another name ("Tina" for "Martina" on another platform), or names one of them ("Martina
    says Sunday instead")."""
    sender = names.get(row.sender) if row.sender is not None else None
    if sender and any(_same_name(sender, name) for name in people_names):
        return True
    words = set(_NAME_WORD.findall(fold_text(row.text)))
    return any(name in words for name in people_names if len(name) >= 3)


def _is_foreign_move(row: _Row, reader: _Steps, *, user: User) -> bool:
    """A move said in another chat that names the plan's day and a new time near it, in the
    days before it ("rain on Saturday, shall we move to Sunday?")."""
    current = reader.current
    if current is None or current.day is None:
        return False
    ahead = (current.day - row.sent_at.astimezone(user.zoneinfo).date()).days
    if not 0 <= ahead <= LINK_SHIFT.days or not _names_day(row, current.day, user=user):
        return False
    signal = plan_signal(row.text)
    if not (signal.status == PlanStatus.CHANGED or _says_change(fold_text(row.text))):
        return False
    return _near_current(_when(row, signal.event_label, "", user), reader)


def _is_participant_update(
    row: _Row, *, people: set[int], own_chats: set[int], user: User, reader: _Steps
) -> bool:
    """A move with a new time ("can we push to 8?") or a call-off ("sorry, have to bail")
    said in the plan's chats or a direct chat with its people, by one of them or the user:
    before the plan's day, that is about the plan even when it names no day."""
    if row.chat_id not in own_chats or not (row.is_from_self or row.sender in people):
        return False
    signal = plan_signal(row.text)
    if signal.status == PlanStatus.CANCELLED:
        return row.is_direct or not _DECLINE.search(fold_text(row.text))
    changed = signal.status == PlanStatus.CHANGED
    if changed and not signal.event_label and signal.place:
        # "X is closed, let's do Y instead": a new place, said by one of its people.
        return True
    return changed and _near_current(_when(row, signal.event_label, "", user), reader)


def _dedupe(rows: Iterable[_Row]) -> list[_Row]:
    seen: dict[int, _Row] = {}
    for row in rows:
        seen.setdefault(row.pk, row)
    return sorted(seen.values(), key=lambda row: (row.sent_at, row.pk))


# "the new due date", "save the date": a date of something, not a date with someone.
_DATE_OF_A_THING = re.compile(r"\b(?:due|new|start|end|release|expiry|closing|save the) dates?\b")


def _activity(rows: Sequence[_Row], fallback: str) -> str:
    """The kind of event the plan's messages name most ("flight", "party"), else
    ``fallback``."""
    counts: dict[str, int] = {}
    for row in rows:
        folded = _DATE_OF_A_THING.sub(" ", fold_text(row.text))
        for word in CATEGORY_WORDS:
            if len(word) > 3 and re.search(rf"(?<!\w){re.escape(word)}s?(?!\w)", folded):
                counts[word] = counts.get(word, 0) + 1
    # On a tie the fuller form wins ("drinks" over "drink").
    return max(sorted(counts), key=lambda word: (counts[word], len(word))) if counts else fallback


def topic_plan(
    *,
    user: User,
    terms: Sequence[str],
    now: datetime,
    chat_ids: Sequence[int] | None = None,
    person_ids: Sequence[int] = (),
    window: tuple[date, date] | None = None,
) -> tuple[PlanTimeline, tuple[str, ...]] | None:
    """The plan the messages about ``terms`` (and the people ``person_ids``) describe as of
    ``now``, with the topic words its messages use; ``None`` when nothing about the topic
    names a time. Seeds that name different times without a change word are different
    occurrences; the one whose messages use most of the question's words is read (then the
    one in ``window``, then the one still ahead, then the latest)."""
    folded_terms = list(
        dict.fromkeys(
            fold_text(term.strip('"'))
            for term in terms
            if len(term.strip('"')) >= 3
            and not _TIME_WORD.fullmatch(fold_text(term.strip('"')))
            and fold_text(term.strip('"')) not in _MEETING_VERBS
        )
    )
    base = wide = _base(user=user, since=now - TOPIC_HORIZON, now=now, chat_ids=chat_ids)
    if person_ids:
        # A plan with someone is discussed in the chats they are in.
        base = base.filter(
            chat_id__in=ChatParticipant.objects.filter(
                chat__user=user, person_id__in=list(person_ids)
            ).values("chat_id")
        )
    rare: dict[str, int] = {}
    kinds: list[str] = []
    missing = 0
    for term in folded_terms:
        if term in CATEGORY_WORDS:
            kinds.append(term)
            continue
        count = _uses_count(base, "|".join(_term_sql(form) for form in _forms(term)))
        if not count:
            missing += 1
        elif count <= MAX_TOPIC_MESSAGES:
            rare[term] = count
    if missing and not rare and not person_ids:
        # Nothing recent uses what the question asks about: that plan is not here (with the
        # person named, what they announced for a day ahead still is: "what do I bring to
        # Ana's party?", "when is Ana's move now?" of a move she said in her own words).
        return None
    if rare:
        rarest = min(rare.values())
        kept = [
            term for term, count in rare.items() if count <= max(RARE_FLOOR, RARE_RATIO * rarest)
        ]
    else:
        kept = kinds
    seeds: list[_Row] = []
    if kept:
        regex = "|".join(_term_sql(form) for term in kept for form in _forms(term))
        candidates = _rows(base.filter(_matches(regex)))
        scored = []
        for row in candidates:
            haystack = _haystack(row)
            hits = sum(1 for term in kept if _uses(term, haystack))
            if hits:
                scored.append((hits, row))
        today = now.astimezone(user.zoneinfo).date()
        recent = now - SEED_RECENT
        # An older message counts only when it names a day still ahead (a booking).
        scored = [
            (score, row)
            for score, row in scored
            if row.sent_at >= recent or _is_ahead(row, today, user=user)
        ]
        if scored:
            best = max(score for score, _row in scored)
            seeds = [row for score, row in scored if score >= max(1, best - 1)]
    today = now.astimezone(user.zoneinfo).date()
    if person_ids:
        # What the people asked about announced for a day still ahead ("Sat Sept 26, 7pm").
        for row in _rows(base.filter(sender_person_id__in=list(person_ids))):
            said = _when(row, plan_signal(row.text).event_label, "", user)
            if said is not None and said.day is not None and said.day >= today:
                seeds.append(row)
    if not seeds:
        return None
    plans = []
    clusters = _occurrences(_dedupe(seeds), user=user)
    # The occurrences with the most telling seeds, then the latest ones.
    best_of = {id(cluster): max(_score(row, kept) for row in cluster) for cluster in clusters}
    clusters = sorted(clusters, key=lambda c: (best_of[id(c)], c[-1].sent_at), reverse=True)[
        :OCCURRENCES_READ
    ]
    for cluster in clusters:
        activity = kinds[0] if kinds else _activity(cluster, _topic_name(folded_terms))
        plan = _plan_read(
            user=user, seeds=cluster, base=base, now=now, activity=activity, wide=wide
        )
        if plan is not None:
            plans.append(plan)
    if not plans:
        return None
    words = [*kept, *(term for term in folded_terms if term not in kept)]
    texts = {
        pk: text if kind == ChatKind.DIRECT else f"{text} {title}"
        for pk, text, title, kind in Message.objects.filter(
            user=user, pk__in=[mid for plan in plans for mid in plan.message_ids]
        ).values_list("pk", "text", "chat__title", "chat__kind")
    }

    def rank(plan: PlanTimeline) -> tuple[int, bool, bool, datetime]:
        folded = fold_text(" ".join(texts.get(mid, "") for mid in plan.message_ids))
        used = sum(1 for term in words if _uses(term, folded))
        whens = plan_whens(plan, user.zoneinfo)
        day = whens[-1].day if whens else None
        # Set for a day in the window, then or before it moved ("is Thursday still on?" of
        # the plan moved away from Thursday).
        in_window = window is not None and any(
            when.day is not None and window[0] <= when.day <= window[1] for when in whens
        )
        ahead = day is not None and day >= today
        return (used, in_window, ahead, plan.last_sent_at)

    chosen = max(plans, key=rank)
    folded = fold_text(" ".join(texts.get(mid, "") for mid in chosen.message_ids))
    used = tuple(sorted(term for term in kept if _uses(term, folded)))
    return chosen, used


def plan_read_on(*, user: User, plan: PlanTimeline, now: datetime) -> PlanTimeline | None:
    """A stored plan read on up to ``now`` the way a plan read when asked is (``_plan_read``):
    the later messages of its chats and of its people's direct chats that name its day or
    move it join it ("you have been rebooked on Sunday 20 December" weeks after a booking
    for the 19th). ``None`` when the reading holds less than the stored plan."""
    if not plan.steps:
        return None
    base = _base(user=user, since=plan.first_sent_at - THREAD_BEFORE, now=now, chat_ids=None)
    seeds = _rows(base.filter(pk__in=list(plan.message_ids)))
    read = _plan_read(user=user, seeds=seeds, base=base, now=now, activity=plan.activity)
    if read is None or not set(plan.message_ids) <= set(read.message_ids):
        return None
    return read if len(read.steps) > len(plan.steps) else None


# Words of a question that say when or how, not what: no name for the plan.
_NOT_TOPIC = frozenset(
    {
        "due", "now", "still", "again", "new", "next", "soon", "later", "ever", "coming",
        "leaving", "landing", "arriving", "flying", "starting", "happening", "showing",
    }
)  # fmt: skip


def _topic_name(terms: Sequence[str]) -> str:
    """What to call a plan that names no kind of event: the question's topic words without
    its words of time ("tax return" of "when is the tax return due?"), else
    "plan"."""
    words = [term for term in terms if term not in _NOT_TOPIC]
    return " ".join(words) or "plan"


def _uses_count(base: QuerySet[Message], pattern: str) -> int:
    """How many messages use a word, a group named with it counting once: a word of a group's
    title ("Quiz night 🧠") names that group's plans however much is said in it."""
    said = base.filter(text__iregex=pattern).count()
    groups = (
        base.filter(chat__kind=ChatKind.GROUP, chat__title__iregex=pattern)
        .exclude(text__iregex=pattern)
        .values("chat_id")
        .distinct()
        .count()
    )
    return said + groups


def _matches(pattern: str) -> Q:
    """Messages that use a word, or sit in a group named with it ("Moving day 📦")."""
    return Q(text__iregex=pattern) | Q(chat__kind=ChatKind.GROUP, chat__title__iregex=pattern)


def _haystack(row: _Row) -> str:
    return fold_text(row.text if row.is_direct else f"{row.text} {row.chat_title}")


def _is_ahead(row: _Row, today: date, *, user: User) -> bool:
    said = _when(row, plan_signal(row.text).event_label, "", user)
    return said is not None and said.day is not None and said.day >= today


def _score(row: _Row, terms: Sequence[str]) -> int:
    haystack = _haystack(row)
    return sum(1 for term in terms if _uses(term, haystack))


def _forms(term: str) -> tuple[str, ...]:
    """A kind of event or a trade in every language read ("lunch", "almoço", "déjeuner";
    "plumber", "idraulico"); any other word as itself."""
    return activity_family(term) if term in CATEGORY_WORDS else role_family(term)


def _uses(term: str, folded_text: str) -> bool:
    return any(_term_regex(fold_text(form)).search(folded_text) for form in _forms(term))


def _occurrences(seeds: Sequence[_Row], *, user: User) -> list[list[_Row]]:
    """The seeds grouped by occurrence: a seed naming a time that fits no group's time and
    says nothing of a change starts another occurrence ("Diwali dinner Thursday 2pm" and
    "our Diwali flight lands Wednesday 8:05pm"); a change joins the latest group."""
    groups: list[tuple[list[_Row], PlanWhen | None]] = []
    for row in seeds:
        signal = plan_signal(row.text)
        said = _when(row, signal.event_label, "", user)
        if said is not None and not _sets_time(row, signal, fold_text(row.text)):
            said = None
        if not groups:
            groups.append(([row], said))
            continue
        if said is None:
            # No time: it belongs with what was said in its chat.
            same_chat = next(
                (
                    index
                    for index in range(len(groups) - 1, -1, -1)
                    if any(other.chat_id == row.chat_id for other in groups[index][0])
                ),
                None,
            )
            if same_chat is None:
                groups.append(([row], None))
            else:
                groups[same_chat][0].append(row)
            continue
        for index in range(len(groups) - 1, -1, -1):
            rows, when = groups[index]
            if when is None:
                # A group with no time yet takes a time said in its own chat.
                merged = said if any(other.chat_id == row.chat_id for other in rows) else None
            else:
                merged = when_merged(when, said)
            if merged is not None:
                rows.append(row)
                groups[index] = (rows, merged)
                break
        else:
            # A change joins the occurrence said in its chat or by its sender whose time it is
            # nearest (a move is by days, not months), the latest on a tie.
            joined = _nearest_group(groups, row, said)
            if joined is not None and _says_change(fold_text(row.text)):
                groups[joined][0].append(row)
                groups[joined] = (groups[joined][0], said)
            else:
                groups.append(([row], said))
    return [rows for rows, _when_set in groups]


def _nearest_group(
    groups: Sequence[tuple[list[_Row], PlanWhen | None]], row: _Row, said: PlanWhen
) -> int | None:
    """The index of the group a change ``row`` (saying ``said``) most likely moves."""
    best: tuple[int, int] | None = None
    for index in range(len(groups) - 1, -1, -1):
        rows, when = groups[index]
        if not any(
            other.chat_id == row.chat_id or (row.sender is not None and other.sender == row.sender)
            for other in rows
        ):
            continue
        gap = (
            abs((when.day - said.day).days)
            if when is not None and when.day is not None and said.day is not None
            else 10_000
        )
        if best is None or gap < best[0]:
            best = (gap, index)
    return best[1] if best is not None else None


def _moved_from(seed: _Row, *, base: QuerySet[Message], user: User) -> list[_Row]:
    """The message that set the time a change ``seed`` moves ("Changed my flight to Sat 26th"
    moves "lands Fri 25 Sep 8:15pm"): the latest earlier one in its chat, by its people, that
    set a time near the new one; none when ``seed`` moves nothing."""
    signal = plan_signal(seed.text)
    said = _when(seed, signal.event_label, "", user)
    if signal.status != PlanStatus.CHANGED or said is None or said.day is None:
        return []
    latest = base.filter(
        chat_id=seed.chat_id, sent_at__lt=seed.sent_at, sent_at__gte=seed.sent_at - LINK_HORIZON
    ).order_by("-sent_at", "-pk")
    earlier = _rows(
        base.filter(pk__in=list(latest.values_list("pk", flat=True)[:MOVED_FROM_READ])),
        limit=MOVED_FROM_READ,
    )
    for row in sorted(earlier, key=lambda row: (row.sent_at, row.pk), reverse=True):
        row_signal = plan_signal(row.text)
        when = _when(row, row_signal.event_label, "", user)
        if (
            when is not None
            and when.day is not None
            and when.day != said.day
            and abs((when.day - said.day).days) <= LINK_SHIFT.days
            and _sets_time(row, row_signal, fold_text(row.text))
            and row_signal.status != PlanStatus.CANCELLED
        ):
            return [row]
    return []


def window_plans(
    *,
    user: User,
    first_day: date,
    last_day: date,
    now: datetime,
    chat_ids: Sequence[int] | None = None,
) -> list[PlanTimeline]:
    """The plans whose current day falls in ``first_day``..``last_day`` ("this weekend"), read
    from the messages of the last ``WINDOW_LOOKBACK`` that name a day in it, soonest first."""
    zone = user.zoneinfo
    since = min(now, datetime.combine(first_day, time(0), tzinfo=zone)) - WINDOW_LOOKBACK
    base = _base(user=user, since=since, now=now, chat_ids=chat_ids)
    rows = _rows(
        base.filter(
            Q(text__iregex=_WEEKDAY_SQL) | Q(text__iregex=_RELATIVE_SQL) | Q(text__iregex=r"\d")
        ),
        limit=2000,
    )
    if (last_day - first_day).days < DATED_WINDOW_DAYS:
        # An event announced weeks ahead with its date ("workshop: Sat 31 Oct, 9am"): the
        # older messages that write one of the window's days of the month.
        days = {(first_day + timedelta(days=n)).day for n in range((last_day - first_day).days + 1)}
        numbers = "|".join(f"0?{day}" for day in sorted(days))
        older = _base(user=user, since=since - DATED_LOOKBACK, now=since, chat_ids=chat_ids)
        rows = [
            *_rows(older.filter(text__iregex=rf"\m({numbers})(st|nd|rd|th)?\M"), limit=DATED_READ),
            *rows,
        ]
    seeds: list[_Row] = []
    for row in rows:
        signal = plan_signal(row.text)
        if signal.status == PlanStatus.CANCELLED:
            continue
        if row.sent_at < since and not _DATED.search(signal.event_label):
            # Long before the window only a date names its day ("Saturday" is another one).
            continue
        said = _when(row, signal.event_label, "", user)
        if said is None or said.day is None or not said.overlaps(first_day, last_day):
            continue
        if not (
            signal.is_proposal
            or signal.status is not None
            or "?" in row.text
            or signal.activity
            or said.clock
            or _says_change(fold_text(row.text))
        ):
            continue
        seeds.append(row)
    plans: list[PlanTimeline] = []
    # A change names the new day; the time it moves was often set weeks before.
    earlier = _base(user=user, since=since - LINK_HORIZON, now=now, chat_ids=chat_ids)
    for seed in seeds[-WINDOW_SEEDS:]:
        moved_from = _moved_from(seed, base=earlier, user=user)
        if seed.sent_at < since:
            # Announced long before: its own conversation and what was said since.
            seed_base = _base(
                user=user, since=seed.sent_at - THREAD_BEFORE, now=now, chat_ids=chat_ids
            )
        else:
            seed_base = earlier if moved_from else base
        plan = _plan_read(
            user=user,
            seeds=[*moved_from, seed],
            base=seed_base,
            now=now,
            activity=_activity([seed], "plan"),
        )
        if plan is None:
            continue
        whens = plan_whens(plan, zone)
        current = whens[-1] if whens else None
        if (
            current is None
            or current.day is None
            or not current.overlaps(first_day, last_day)
            or plan.status == PlanStatus.CANCELLED
        ):
            continue
        plans.append(plan)
    # One plan read from several of its messages: keep the fullest reading.
    plans.sort(key=lambda plan: -len(plan.steps))
    kept: list[PlanTimeline] = []
    for plan in plans:
        if not any(set(plan.message_ids) & set(other.message_ids) for other in kept):
            kept.append(plan)

    def soonest(plan: PlanTimeline) -> tuple[date, str]:
        whens = plan_whens(plan, zone)
        return (whens[-1].day or first_day, whens[-1].clock) if whens else (first_day, "")

    return sorted(kept, key=soonest)
