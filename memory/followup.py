"""What an action request follows up, read from the user's own history.

"Let Ines know the plumber moved", "text Rui back about the flat", "send Ana the Porto tips":
a useful draft carries facts the request only points at. They live in four places:

- the **thread** with the recipient: the latest exchange in the user's direct chat with them
  (their own latest messages in groups when there is no direct chat);
- **news** since the user last wrote to them: a later message elsewhere (from someone the user
  talks to) that names what the thread is about (a rare name it uses: the plumber's company,
  a venue) or names the recipient together with the request's topic;
- what the user was **told when they asked** about the request's topic ("any tips for
  Porto?" → the friend's answer): what "send X the tips" means to send;
- the user's **open promises** in a group the recipient is in that share the thread's words
  ("I'll send the photos tomorrow" in the party group, then "did you send the photos?" in the
  direct chat).

Every message comes from a chat the scope may read and that is not excluded from AI; spam and
messages that instruct an assistant are never picked. The drafter relays only what passes its
own safety check (``proposals.drafting``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from django.db.models import Q, QuerySet

from claire.accounts.models import User
from conversations.models import Chat, ChatKind, Message
from memory.asked import open_group_question
from memory.extract import is_suspicious
from memory.models import Loop, LoopKind, LoopStatus
from memory.recipient import Mention, not_automated, recipient_of
from retrieval.answerability import topic_terms
from retrieval.lexicon import STOP_WORDS, fold_text, word_set
from retrieval.shorthand import texting_words
from retrieval.types import CompiledQuery, ScopeMode

# How far back the thread, news and promises are read.
FOLLOW_UP_WINDOW = timedelta(days=30)
# How far back what the user was told when they asked is read (tips are asked long before).
ASKED_WINDOW = timedelta(days=120)
# How long after the user's ask a reply counts as its answer.
ANSWER_DELAY = timedelta(hours=24)
THREAD_MESSAGES = 2
TOLD_TERMS = 2
NEWS_MESSAGES = 2
# A name is an anchor when few messages use it: "Alvarez" is, a first name used daily is not.
RARE_NAME_MESSAGES = 12
SCAN_LIMIT = 400

_CAPITALISED = re.compile(r"\b([A-Z][a-z\u00e0-\u00ff]{2,})\b")
_SENTENCE_START = re.compile(r"(?:^|[.!?:\n])\W*$")
_WORD = re.compile(r"[^\W\d_]{2,}")
# A message of the thread says something when it has this many words ("👍 thanks" does not).
THREAD_WORDS = 5
_GREETING_BEFORE = re.compile(
    r"\b(?:hi|hey|hello|dear|thanks|thank\s+you|ola|oi|hola)\s*,?\s*$", re.I
)
CALENDAR_WORDS = word_set(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs"
    " fri sat sun january february march april may june july august september october november"
    " december jan feb mar apr jun jul aug sep sept oct nov dec today tomorrow tonight yesterday"
)
# The user asking for something: a question, or "give me / send me / any tips".
_ASKS = re.compile(
    r"\?|\b(?:give|send|tell|show|share|recommend)\s+me\b"
    r"|\bany\s+(?:recs|recommendations|tips|ideas|suggestions|advice)\b",
    re.IGNORECASE,
)


# Words that ask for a reply ("reply to the climbing group", "answer the group's question").
_REPLY = re.compile(r"\b(?:repl(?:y|ies|ying)|respond|answer)\b", re.IGNORECASE)


class FollowUpRole(StrEnum):
    """Why a message grounds the draft; the value is memory's note on the cited source."""

    THREAD = "your latest exchange with them"
    NEWS = "news since you last wrote to them"
    TOLD = "what you were told when you asked"
    PROMISE = "your promise they are waiting on"


@dataclass(frozen=True)
class FollowUp:
    """Message ids by role, oldest first within each role."""

    thread: tuple[int, ...] = ()
    news: tuple[int, ...] = ()
    told: tuple[int, ...] = ()
    promises: tuple[int, ...] = ()

    def hits(self) -> list[tuple[int, str]]:
        """(message id, note) pairs, what the request most depends on first."""
        return [
            *((mid, str(FollowUpRole.NEWS)) for mid in self.news),
            *((mid, str(FollowUpRole.PROMISE)) for mid in self.promises),
            *((mid, str(FollowUpRole.TOLD)) for mid in self.told),
            *((mid, str(FollowUpRole.THREAD)) for mid in self.thread),
        ]


def _readable(*, user: User, compiled: CompiledQuery, now: datetime) -> QuerySet[Message]:
    messages = Message.objects.filter(
        user=user, deleted_at__isnull=True, chat__is_excluded_from_ai=False, sent_at__lte=now
    )
    if compiled.scope.mode == ScopeMode.STRICT_CHAT:
        messages = messages.filter(chat_id__in=list(compiled.scope.chat_ids))
    return messages


def _terms(text: str) -> set[str]:
    # A texting form is its word ("recs" and "recommendations" are one topic word).
    spelled = texting_words()
    return {
        spelled.get(word, word)
        for word in (fold_text(match) for match in _WORD.findall(text or ""))
        if word not in STOP_WORDS and word not in CALENDAR_WORDS
    }


def _has_term(text: str, terms: Iterable[str]) -> set[str]:
    return _terms(text) & set(terms)


def _names_in(text: str) -> set[str]:
    """Capitalised words inside a sentence (not a sentence's first word, not right after a
    greeting, not a day or month): the names a message uses."""
    names: set[str] = set()
    for match in _CAPITALISED.finditer(text or ""):
        before = text[: match.start()]
        if _SENTENCE_START.search(before) or _GREETING_BEFORE.search(before):
            continue
        word = fold_text(match.group(1))
        if word not in STOP_WORDS and word not in CALENDAR_WORDS:
            names.add(word)
    return names


def _rare(*, user: User, words: Iterable[str]) -> set[str]:
    rare: set[str] = set()
    for word in words:
        count = Message.objects.filter(user=user, text__icontains=word)[
            : RARE_NAME_MESSAGES + 1
        ].count()
        if count <= RARE_NAME_MESSAGES:
            rare.add(word)
    return rare


def action_recipient(*, user: User, compiled: CompiledQuery) -> tuple[tuple[int, ...], set[str]]:
    """The recipient (``memory.recipient.recipient_of``, as the proposal reads it):
    their ids and the words that name them. A question whose names all lie in what to say
    keeps its first named person that is not an automated sender."""
    mentions = [
        Mention(name=person.name or "", person_ids=tuple(person.person_ids))
        for person in compiled.people
    ]
    ids, short_form = recipient_of(user=user, question=compiled.question, mentions=mentions)
    named = short_form
    if ids:
        named = named or next(
            (person.name or "" for person in compiled.people if set(ids) & set(person.person_ids)),
            "",
        )
    else:
        for person in compiled.people:
            kept = not_automated(user=user, person_ids=person.person_ids)
            if kept:
                ids, named = kept, person.name or ""
                break
    if not ids:
        return (), set()
    names = {fold_text(part) for part in named.split() if len(part) > 2}
    return tuple(ids), names


def _trusted(message: Message) -> bool:
    return not is_suspicious(message.text or "")


def action_follow_up(
    *,
    user: User,
    compiled: CompiledQuery,
    now: datetime,
    recipient: tuple[tuple[int, ...], set[str]] | None = None,
) -> FollowUp:
    """The messages an action request to the person it names follows up (see the module);
    ``recipient`` is ``action_recipient``'s, when the caller has it."""
    person_ids, recipient_names = recipient or action_recipient(user=user, compiled=compiled)
    if not person_ids:
        return FollowUp()
    readable = _readable(user=user, compiled=compiled, now=now)
    chats = Chat.objects.filter(user=user, memberships__person_id__in=list(person_ids))
    direct_ids = set(chats.filter(kind=ChatKind.DIRECT).values_list("pk", flat=True))
    group_ids = set(chats.filter(kind=ChatKind.GROUP).values_list("pk", flat=True))
    since = now - FOLLOW_UP_WINDOW
    # Someone the user only meets in groups: their own messages there are the thread.
    thread_source = (
        Q(chat_id__in=direct_ids)
        if direct_ids
        else Q(chat_id__in=group_ids, sender_person_id__in=list(person_ids))
    )
    recent_direct = list(
        readable.filter(thread_source, sent_at__gte=since).order_by("-sent_at", "-pk")[:SCAN_LIMIT]
    )
    question_terms = {word for term in topic_terms(compiled) for word in _terms(term)}
    # A name that is not the recipient's is what the message is about ("game night" read as
    # a bot's name, "tell Ana that Pia is coming").
    question_terms |= {
        word
        for person in compiled.people
        if not set(person.person_ids) & set(person_ids)
        for word in _terms(person.name or "")
    }
    question_terms -= recipient_names
    thread = _thread(
        recent_direct,
        question_terms,
        planned=_planned(recent_direct, question=compiled.question, since=now - PLAN_DAYS),
    )
    last_told = next((m.sent_at for m in recent_direct if m.is_from_self), since)
    anchors = _rare(
        user=user,
        words={name for message in thread for name in _names_in(message.text)} - recipient_names,
    )
    news = _news(
        user=user,
        readable=readable.exclude(chat_id__in=direct_ids).exclude(
            pk__in=[message.pk for message in thread]
        ),
        after=max(last_told, since),
        anchors=anchors,
        recipient_names=recipient_names,
        question_terms=question_terms,
    )
    thread_terms = {term for message in thread for term in _terms(message.text)} | question_terms
    return FollowUp(
        thread=tuple(message.pk for message in reversed(thread)),
        news=news,
        told=_told(
            readable=readable.exclude(chat_id__in=direct_ids),
            since=now - ASKED_WINDOW,
            question_terms=question_terms,
        ),
        promises=_group_promises(
            user=user,
            readable=readable,
            group_ids=group_ids,
            since=since,
            now=now,
            terms=thread_terms - recipient_names,
        ),
    )


def group_follow_up(
    *, user: User, compiled: CompiledQuery, group_ids: Sequence[int], now: datetime
) -> FollowUp:
    """What an action request to a whole group ("remind the climbing group about Sunday")
    follows up: the group's latest message about the request's topic and the user's latest
    there (the thread), and the user's open promises in it that share the request's words."""
    if not group_ids:
        return FollowUp()
    readable = _readable(user=user, compiled=compiled, now=now).filter(chat_id__in=list(group_ids))
    since = now - FOLLOW_UP_WINDOW
    recent = list(readable.filter(sent_at__gte=since).order_by("-sent_at", "-pk")[:SCAN_LIMIT])
    question_terms = {word for term in topic_terms(compiled) for word in _terms(term)}
    thread = _thread(
        recent,
        question_terms,
        planned=_planned(recent, question=compiled.question, since=now - PLAN_DAYS),
    )
    thread_ids = tuple(message.pk for message in reversed(thread))
    asked = (
        open_group_question(
            user=user, chat_ids=group_ids, question=compiled.question, names=[], now=now
        )
        if _REPLY.search(compiled.question)
        else None
    )
    if asked is not None and asked.message_id not in thread_ids:
        # A reply to the group answers the open question asked there: it is cited first.
        thread_ids = (asked.message_id, *thread_ids)
    return FollowUp(
        thread=thread_ids,
        promises=_group_promises(
            user=user,
            readable=readable,
            group_ids=set(group_ids),
            since=since,
            now=now,
            terms=question_terms,
        ),
    )


def _thread(
    recent_direct: Sequence[Message], question_terms: set[str], planned: Message | None = None
) -> list[Message]:
    """Newest first: the latest message about the request's topic (else their latest message
    that says something), and the user's latest message that says something; with them, the
    plan the request is about (``_planned``)."""
    trusted = [message for message in recent_direct if _trusted(message)]
    wordy = [m for m in trusted if len((m.text or "").split()) >= THREAD_WORDS]
    on_topic = next((m for m in trusted if _has_term(m.text, question_terms)), None)
    if on_topic is None:
        on_topic = next((m for m in wordy if not m.is_from_self), None)
    own = next((m for m in wordy if m.is_from_self), None)
    chosen = {m.pk: m for m in (on_topic, own) if m is not None}
    newest = sorted(chosen.values(), key=lambda m: (m.sent_at, m.pk), reverse=True)
    newest = newest[:THREAD_MESSAGES]
    if planned is not None and planned.pk not in {m.pk for m in newest}:
        newest = sorted([*newest, planned], key=lambda m: (m.sent_at, m.pk), reverse=True)
    return newest


# A weekday the request names ("I can't make thursday") is the plan it is about when a
# message of the last days names it too ("thu 7:30?" / "thu 7:30 ok"): further back, that day
# was another week's.
PLAN_DAYS = timedelta(days=7)
_WEEKDAY_NUMBERS = {
    **dict.fromkeys(("monday", "mon"), 0),
    **dict.fromkeys(("tuesday", "tues", "tue"), 1),
    **dict.fromkeys(("wednesday", "wed"), 2),
    **dict.fromkeys(("thursday", "thurs", "thur", "thu"), 3),
    **dict.fromkeys(("friday", "fri"), 4),
    **dict.fromkeys(("saturday", "sat"), 5),
    **dict.fromkeys(("sunday", "sun"), 6),
}
# "sat" and "sun" are also words ("I sat down", "the sun"): a day only before a time or date,
# or after "on", "this", "next", "till".
_AMBIGUOUS_DAYS = frozenset({"sat", "sun"})
_DAY_WORD = re.compile(r"[a-z]+")
_DAY_BEFORE = re.compile(r"\b(?:on|this|next|till|until|by)\s+$")
_DAY_AFTER = re.compile(r"^\.?\s*(?:\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\b)")


def _days_named(text: str) -> set[int]:
    folded = fold_text(text or "")
    days: set[int] = set()
    for match in _DAY_WORD.finditer(folded):
        word = match.group()
        if word not in _WEEKDAY_NUMBERS:
            continue
        if word in _AMBIGUOUS_DAYS and not (
            _DAY_AFTER.match(folded[match.end() :]) or _DAY_BEFORE.search(folded[: match.start()])
        ):
            continue
        days.add(_WEEKDAY_NUMBERS[word])
    return days


def _planned(recent: Sequence[Message], *, question: str, since: datetime) -> Message | None:
    """The newest trusted message since ``since`` that names a weekday the request names: the
    arrangement it follows up ("let Ana know I can't make thursday" → "thu 7:30 ok")."""
    days = _days_named(question)
    if not days:
        return None
    return next(
        (
            message
            for message in recent
            if message.sent_at >= since and _trusted(message) and days & _days_named(message.text)
        ),
        None,
    )


def _news(
    *,
    user: User,
    readable: QuerySet[Message],
    after: datetime,
    anchors: set[str],
    recipient_names: set[str],
    question_terms: set[str],
) -> tuple[int, ...]:
    """Later messages from others, in chats the user writes in, naming a rare name of the
    thread, or the recipient together with the request's topic; most matches, then newest."""
    if not anchors and not question_terms:
        return ()
    written_in = Message.objects.filter(user=user, is_from_self=True).values("chat_id")
    candidates = readable.filter(is_from_self=False, sent_at__gt=after, chat_id__in=written_in)
    scored: list[tuple[int, datetime, int]] = []
    for message in candidates.order_by("-sent_at", "-pk")[:SCAN_LIMIT]:
        if not _trusted(message):
            continue
        words = _terms(message.text)
        anchor_hits = len(words & anchors)
        names_recipient = bool(words & recipient_names)
        topic_hits = len(words & question_terms)
        if anchor_hits or (names_recipient and topic_hits):
            scored.append((anchor_hits + topic_hits, message.sent_at, message.pk))
    scored.sort(key=lambda item: (-item[0], -item[1].timestamp()))
    chosen = sorted(scored[:NEWS_MESSAGES], key=lambda item: item[1])
    return tuple(pk for _, _, pk in chosen)


def _told(
    *, readable: QuerySet[Message], since: datetime, question_terms: set[str]
) -> tuple[int, ...]:
    """The longest reply, within a day, to the user's latest ask that uses two of the request's
    topic words (one word is too weak a link to relay someone's answer)."""
    needed = TOLD_TERMS
    if len(question_terms) < needed:
        return ()
    asks = readable.filter(is_from_self=True, sent_at__gte=since).order_by("-sent_at", "-pk")
    for ask in asks[:SCAN_LIMIT]:
        text = ask.text or ""
        if len(_has_term(text, question_terms)) < needed or not _ASKS.search(text):
            continue
        replies = [
            reply
            for reply in readable.filter(
                chat_id=ask.chat_id,
                is_from_self=False,
                sent_at__gt=ask.sent_at,
                sent_at__lte=ask.sent_at + ANSWER_DELAY,
            ).order_by("sent_at", "pk")[:10]
            if _trusted(reply)
        ]
        if replies:
            longest = max(replies, key=lambda reply: len(reply.text or ""))
            return (longest.pk,)
    return ()


def _group_promises(
    *,
    user: User,
    readable: QuerySet[Message],
    group_ids: set[int],
    since: datetime,
    now: datetime,
    terms: set[str],
) -> tuple[int, ...]:
    """The user's promises, open at ``now``, in groups the recipient is in, sharing a word
    with the thread or the request."""
    if not group_ids or not terms:
        return ()
    ids = (
        Loop.objects.filter(
            user=user,
            kind=LoopKind.PROMISE_BY_USER,
            chat_id__in=sorted(group_ids),
            opened_at__gte=since,
            opened_at__lte=now,
        )
        .filter(Q(status=LoopStatus.OPEN) | Q(closed_at__gt=now))
        .values("opened_by_id")
    )
    found = readable.filter(pk__in=ids).order_by("sent_at", "pk")
    return tuple(message.pk for message in found if _has_term(message.text, terms))


def follow_up_role(note: str) -> FollowUpRole | None:
    """The role a memory note names, when it is one of ``FollowUpRole``."""
    for role in FollowUpRole:
        if str(role) in note.split("; "):
            return role
    return None
