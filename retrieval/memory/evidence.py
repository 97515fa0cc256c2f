"""Which messages personal memory says answer a compiled question.

The answer engine cites messages, not memory rows: every derived record (an open loop, a plan
step, a relationship's representative messages, an identity match's evidence) points back to
the messages it rests on. ``memory_message_ids`` picks the memory source for the question's
intent, reads it through the selectors and returns those messages in the order a reader should
see them; ``retrieval.pipeline.retrieve`` puts them ahead of the search hits.

| intent          | source     | messages, in order                               | route          |
|-----------------|------------|--------------------------------------------------|----------------|
| unresolved      | open loops | each loop's opening message, newest loop first   | unresolved     |
| people_ranking  | ranking    | representative messages, round-robin over people | people_ranking |
| plan_recall     | plans      | every step of each plan, oldest first            | hybrid         |
| identity_lookup | facts      | each match's evidence                            | hybrid         |
| action_request  | open loops | every open loop with the people it names         | hybrid         |
| catch_up        | recent     | open loops and the most telling message of each  | recent_window  |
|                 | digest     | chat in the window (others' messages), by chat   |                |
| conversation_qa | what they  | the named people's own messages, most telling    | hybrid         |
| (names people,  | said       | first, newest first among equals                 |                |
| no topic)       |            |                                                  |                |

Each message comes with a short note for the answer (``MemoryHits.notes``): what the loop is,
the plan step's status, the ranked or matched person's name.

Scope is applied the way search applies it: a ``strict_chat`` scope reads that chat only, a
``preferred`` scope reads every chat, and a message that is deleted or in a chat excluded from
AI is never returned (checked again on the messages themselves, whatever the selector did).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import zip_longest

from django.db import models

from claire.accounts.models import User
from conversations.models import Message
from retrieval.answerability import topic_terms
from retrieval.lexicon import fold_text
from retrieval.memory.extract import RELATIONS
from retrieval.memory.models import FactKind, LoopKind
from retrieval.memory.selectors import (
    OpenLoop,
    identity_lookup,
    open_loops_for_user,
    people_ranking,
    person_facts_for_user,
    person_ids_expand,
    plans_for_user,
)
from retrieval.types import CompiledQuery, Intent, Route, ScopeMode

logger = logging.getLogger(__name__)

PLANS_CITED = 3
LOOPS_CITED = 20
IDENTITY_MATCHES_CITED = 5
# A catch-up cites at most this many messages (an answer pack holds 12 sources).
RECENT_ITEMS = 12
# Messages of the window read for a catch-up, newest first.
RECENT_SCAN = 600
RECENT_DEFAULT_DAYS = 3


class MemorySource(models.TextChoices):
    OPEN_LOOPS = "open_loops", "Open loops"
    PEOPLE_RANKING = "people_ranking", "Relationship ranking"
    PLANS = "plans", "Plan timelines"
    IDENTITY = "identity", "Person facts"
    RECENT_DIGEST = "recent_digest", "Recent digest"
    PERSON_DIGEST = "person_digest", "What they said"


@dataclass(frozen=True)
class MemoryHits:
    """Messages memory says answer the question, best first, and where they came from.
    ``route`` is the route a retrieval answered from these messages alone reports."""

    source: MemorySource
    route: Route
    message_ids: tuple[int, ...]
    # A short note per message for the answer ("question to you", "cancelled", a name).
    notes: Mapping[int, str] = field(default_factory=dict)


# "Have I replied / what haven't I answered": someone asked the user.
_REPLY_VERB = (
    r"(?:replied|reply|answered|answer|responded|respond|got\s+back|gotten\s+back|get\s+back)"
)
_USER_OWES_REPLY = re.compile(
    r"\b(?:have|haven't|havent|did|didn't)\s+i\s+(?:not\s+)?(?:yet\s+)?" + _REPLY_VERB + "|"
    r"\bi\s+(?:still\s+)?(?:have\s+not|haven't|havent|did\s+not|didn't|never|still\s+need\s+to)"
    r"\s+(?:yet\s+)?" + _REPLY_VERB + "|"
    r"\bwaiting\s+(?:on|for)\s+me\b|\b(?:should|need\s+to|must)\s+(?:reply|answer|respond)"
)
# "Did Rui ever reply / who hasn't got back to me": the user asked someone.
_OTHERS_OWE_REPLY = re.compile(
    r"\b(?:replied|reply|answered|answer|responded|respond|got\s+back|gotten\s+back|"
    r"get\s+back|come\s+back|came\s+back)\b"
)
_PROMISED = re.compile(r"\bpromis")
# "What do I owe Priya?": what others wait for from the user, answers and promised things.
_OWED = re.compile(r"\bi\s+(?:still\s+)?owe\b")


def loop_kinds_for(question: str) -> tuple[str, ...]:
    """The loop kinds a question about unresolved things asks for; all kinds when it does not
    say (``()`` reads every kind)."""
    folded = fold_text(question)
    if _PROMISED.search(folded):
        return (LoopKind.PROMISE_BY_USER,)
    if _OWED.search(folded):
        return (LoopKind.QUESTION_TO_USER, LoopKind.PROMISE_BY_USER)
    if _USER_OWES_REPLY.search(folded):
        if re.search(r"\bwaiting\s+(?:on|for)\s+me\b", folded):
            return (LoopKind.QUESTION_TO_USER, LoopKind.PROMISE_BY_USER)
        return (LoopKind.QUESTION_TO_USER,)
    if _OTHERS_OWE_REPLY.search(folded):
        return (LoopKind.REQUEST_BY_USER,)
    return ()


def _person_ids(compiled: CompiledQuery) -> tuple[int, ...]:
    return tuple(dict.fromkeys(pid for person in compiled.people for pid in person.person_ids))


def _strict_chat_ids(compiled: CompiledQuery) -> tuple[int, ...] | None:
    if compiled.scope.mode == ScopeMode.STRICT_CHAT:
        return compiled.scope.chat_ids
    return None


def _round_robin(groups: Sequence[Sequence[int]]) -> list[int]:
    """First message of every group, then every second one, ...: each ranked person reaches the
    pack before anyone's third message does."""
    return [mid for row in zip_longest(*groups) for mid in row if mid is not None]


_Hit = tuple[int, str]

_LOOP_NOTES = {
    LoopKind.QUESTION_TO_USER: "asked you, no reply yet",
    LoopKind.REQUEST_BY_USER: "you asked, no answer yet",
    LoopKind.PROMISE_BY_USER: "you promised, not done yet",
}


def _loop_note(kind: str, person_name: str | None) -> str:
    note = _LOOP_NOTES.get(LoopKind(kind), "open")
    return f"{person_name}: {note}" if person_name else note


def _loop_hits(*, user: User, compiled: CompiledQuery) -> list[_Hit]:
    kinds = loop_kinds_for(compiled.question)
    loops = open_loops_for_user(
        user=user,
        kinds=kinds,
        person_ids=_person_ids(compiled),
        chat_ids=_strict_chat_ids(compiled),
        limit=LOOPS_CITED,
    )
    if kinds and LoopKind.QUESTION_TO_USER not in kinds:
        loops = [*loops, *_follow_ups(user=user, promises=loops)]
    return [(loop.opened_by_message_id, _loop_note(loop.kind, loop.person_name)) for loop in loops]


def _person_loop_hits(*, user: User, compiled: CompiledQuery) -> list[_Hit]:
    """Every open loop with the people the question names, newest first."""
    loops = open_loops_for_user(
        user=user,
        person_ids=_person_ids(compiled),
        chat_ids=_strict_chat_ids(compiled),
        limit=LOOPS_CITED,
    )
    return [(loop.opened_by_message_id, _loop_note(loop.kind, loop.person_name)) for loop in loops]


def _follow_ups(*, user: User, promises: Sequence[OpenLoop]) -> list[OpenLoop]:
    """Open questions to the user that came after one of the user's open promises in the same
    chat ("any news on the deck?"): part of that promise's story, so an answer about promises
    cites them too."""
    promises = [loop for loop in promises if loop.kind == LoopKind.PROMISE_BY_USER]
    if not promises:
        return []
    questions = open_loops_for_user(
        user=user,
        kinds=(LoopKind.QUESTION_TO_USER,),
        chat_ids=sorted({loop.chat_id for loop in promises}),
        limit=LOOPS_CITED,
    )
    return [
        question
        for question in questions
        if any(
            promise.chat_id == question.chat_id and promise.opened_at < question.opened_at
            for promise in promises
        )
    ]


def _ranking_hits(*, user: User, compiled: CompiledQuery, now: datetime) -> list[_Hit]:
    if compiled.ranking is None:
        return []
    ranked = people_ranking(
        user=user, now=now, kind=compiled.ranking.kind, limit=compiled.ranking.limit
    )
    notes = {
        mid: f"#{place} {item.display_name}"
        for place, item in enumerate(ranked, start=1)
        for mid in item.representative_message_ids
    }
    ordered = _round_robin([item.representative_message_ids for item in ranked])
    return [(mid, notes[mid]) for mid in ordered]


def _plan_hits(*, user: User, compiled: CompiledQuery) -> list[_Hit]:
    time_range = compiled.time_range
    plans = plans_for_user(
        user=user,
        terms=compiled.keywords,
        person_ids=_person_ids(compiled),
        statuses=compiled.plan_status,
        sent_before=time_range.end_utc if time_range is not None else None,
        chat_ids=_strict_chat_ids(compiled),
        limit=PLANS_CITED,
    )
    ordered: list[_Hit] = []
    for plan in plans:
        steps = sorted(plan.steps, key=lambda step: (step.sent_at, step.message_id))
        ordered.extend((step.message_id, str(step.status)) for step in steps)
    return ordered


def _identity_hits(*, user: User, compiled: CompiledQuery) -> list[_Hit]:
    descriptors = tuple(
        dict.fromkeys(word for person in compiled.people for word in person.descriptors)
    )
    city = compiled.location.city if compiled.location is not None else None
    if not descriptors and not city:
        # A named person: what memory knows about them (their facts' messages).
        return _named_person_fact_hits(user=user, compiled=compiled)
    # "Ana's brother": a relation word next to a named person means a relative of that person;
    # with nobody named, "my sister" means the user's.
    named = _person_ids(compiled)
    is_relation = any(d.lower() in RELATIONS for d in descriptors)
    related = named if named and is_relation else None
    time_range = compiled.time_range
    result = identity_lookup(
        user=user,
        descriptors=descriptors,
        city=city,
        start=time_range.start_utc if time_range is not None else None,
        end=time_range.end_utc if time_range is not None else None,
        related_to_person_ids=related,
        related_to_user=is_relation and not named,
        limit=IDENTITY_MATCHES_CITED,
    )
    hits: list[_Hit] = [
        (mid, match.display_name) for match in result.matches for mid in match.evidence_message_ids
    ]
    if is_relation:
        # A relative found by the relation is then asked about like a named person ("where
        # does my sister live" reads what memory knows about her).
        hits.extend(
            _person_fact_hits(
                user=user,
                person_ids=[match.person_id for match in result.matches],
                names={match.person_id: match.display_name for match in result.matches},
            )
        )
    return hits


_FACT_NOTES = {
    FactKind.LIVES_IN: "lives in",
    FactKind.ORIGIN: "is from",
    FactKind.WORKS_AT: "works at",
    FactKind.MET_AT: "you met at",
    FactKind.RELATIONSHIP: "relation:",
    FactKind.NATIONALITY: "nationality",
}


def _named_person_fact_hits(*, user: User, compiled: CompiledQuery) -> list[_Hit]:
    """The source messages of the facts memory holds about the people the question names."""
    names = {pid: person.name or "" for person in compiled.people for pid in person.person_ids}
    return _person_fact_hits(user=user, person_ids=list(_person_ids(compiled)), names=names)


def _person_fact_hits(
    *, user: User, person_ids: Sequence[int], names: Mapping[int, str]
) -> list[_Hit]:
    """The source messages of the facts memory holds about ``person_ids``, current facts first
    (then the ones they superseded, for "before" and "from" questions)."""
    if not person_ids:
        return []
    facts = person_facts_for_user(
        user=user, person_ids=person_ids_expand(user=user, person_ids=list(person_ids))
    )
    facts.sort(key=lambda fact: (not fact.is_current, -fact.valid_from.timestamp()))
    hits: list[_Hit] = []
    for fact in facts:
        label = f"{_FACT_NOTES.get(fact.kind, str(fact.kind))} {fact.value}"
        name = names.get(fact.person_id, "")
        note = f"{name} {label}".strip() if fact.is_current else f"{name} before: {label}".strip()
        hits.extend((mid, note) for mid in fact.source_message_ids)
    return hits


_WORD = re.compile(r"[^\W\d_]{3,}")


def salience(text: str) -> int:
    """How much a message says: its distinct words of three letters or more ("🍻", "ok" and
    "Yes please" say little; a plan, a piece of news or a question says more)."""
    return len(set(_WORD.findall(fold_text(text))))


def _most_telling_first(item: tuple[int, datetime, int, *tuple[object, ...]]) -> tuple:
    """Sort key of (salience, sent_at, message id, ...): most telling, then newest, first."""
    return (-item[0], -item[1].timestamp(), -item[2])


def _recent_hits(*, user: User, compiled: CompiledQuery, now: datetime) -> list[_Hit]:
    """A catch-up: what is waiting on the user in the window (open loops opened in it), then
    the most telling message of each chat that spoke in it, chats with the most telling
    message first, then each chat's second, ... Only other people's messages lead an item (the
    user knows what they said; their messages still show as context)."""
    time_range = compiled.time_range
    start = time_range.start_utc if time_range is not None else None
    end = time_range.end_utc if time_range is not None else None
    start = start or now - timedelta(days=RECENT_DEFAULT_DAYS)
    end = min(end, now) if end is not None else now
    chat_ids = _strict_chat_ids(compiled)
    loops = open_loops_for_user(
        user=user,
        kinds=(LoopKind.QUESTION_TO_USER,),
        chat_ids=chat_ids,
        opened_after=start,
        limit=RECENT_ITEMS,
    )
    found: list[_Hit] = [
        (loop.opened_by_message_id, _loop_note(loop.kind, loop.person_name))
        for loop in loops
        if loop.opened_at < end
    ]
    rows = Message.objects.filter(
        user=user,
        deleted_at__isnull=True,
        chat__is_excluded_from_ai=False,
        is_from_self=False,
        sent_at__gte=start,
        sent_at__lt=end,
    )
    if chat_ids is not None:
        rows = rows.filter(chat_id__in=list(chat_ids))
    by_chat: dict[int, list[tuple[int, datetime, int]]] = {}
    for pk, chat_id, sent_at, text in rows.order_by("-sent_at", "-pk").values_list(
        "pk", "chat_id", "sent_at", "text"
    )[:RECENT_SCAN]:
        by_chat.setdefault(chat_id, []).append((salience(text or ""), sent_at, pk))
    ranked_chats = sorted(
        (sorted(items, key=_most_telling_first) for items in by_chat.values()),
        key=lambda items: _most_telling_first(items[0]),
    )
    taken = {mid for mid, _ in found}
    for mid in _round_robin([[item[2] for item in items] for items in ranked_chats]):
        if len(taken) >= RECENT_ITEMS:
            break
        if mid not in taken:
            taken.add(mid)
            found.append((mid, ""))
    return found[:RECENT_ITEMS]


# Words that ask what someone said without naming a topic ("what does Prize Desk want?",
# "what is Priya asking for?"); "say", "ask", "tell" and "write" are stop words already.
_ABOUT_WHAT_THEY_SAID = frozenset(
    {"want", "wants", "wanted", "need", "needs", "needed", "mean", "means", "meant", "latest"}
)


def _asks_what_they_said(compiled: CompiledQuery) -> bool:
    """A question that names people and no topic: it asks what those people said."""
    if compiled.intent != Intent.CONVERSATION_QA or not _person_ids(compiled):
        return False
    return all(
        fold_text(term.strip('"')) in _ABOUT_WHAT_THEY_SAID for term in topic_terms(compiled)
    )


def _person_said_hits(*, user: User, compiled: CompiledQuery) -> list[_Hit]:
    """The named people's own messages (in the scope and the question's window), the most
    telling first and the newest among equals: "what does Prize Desk want?" reads what Prize
    Desk wrote, whatever words it used."""
    person_ids = person_ids_expand(user=user, person_ids=list(_person_ids(compiled)))
    names = {pid: person.name or "" for person in compiled.people for pid in person.person_ids}
    rows = Message.objects.filter(
        user=user,
        deleted_at__isnull=True,
        chat__is_excluded_from_ai=False,
        is_from_self=False,
        sender_person_id__in=person_ids,
    )
    time_range = compiled.time_range
    if time_range is not None:
        rows = rows.filter(sent_at__gte=time_range.start_utc, sent_at__lt=time_range.end_utc)
    chat_ids = _strict_chat_ids(compiled)
    if chat_ids is not None:
        rows = rows.filter(chat_id__in=list(chat_ids))
    items = [
        (salience(text or ""), sent_at, pk, sender)
        for pk, sent_at, text, sender in rows.order_by("-sent_at", "-pk").values_list(
            "pk", "sent_at", "text", "sender_person_id"
        )[:RECENT_SCAN]
    ]
    items.sort(key=_most_telling_first)
    return [(pk, names.get(sender, "")) for _, _, pk, sender in items[:RECENT_ITEMS]]


def _visible(*, user: User, compiled: CompiledQuery, message_ids: list[int]) -> tuple[int, ...]:
    """``message_ids`` in order, without duplicates, keeping only live messages of the user in
    chats the scope may read and not excluded from AI."""
    ordered = list(dict.fromkeys(message_ids))
    if not ordered:
        return ()
    visible = Message.objects.filter(
        user=user, pk__in=ordered, deleted_at__isnull=True, chat__is_excluded_from_ai=False
    )
    chat_ids = _strict_chat_ids(compiled)
    if chat_ids is not None:
        visible = visible.filter(chat_id__in=list(chat_ids))
    kept = set(visible.values_list("pk", flat=True))
    return tuple(mid for mid in ordered if mid in kept)


def memory_message_ids(*, user: User, compiled: CompiledQuery, now: datetime) -> MemoryHits | None:
    """The messages personal memory says answer ``compiled`` (asked at ``now``), best first,
    or ``None`` when the intent has no memory source or memory holds nothing in scope."""
    if compiled.intent == Intent.UNRESOLVED:
        source, route = MemorySource.OPEN_LOOPS, Route.UNRESOLVED
        found = _loop_hits(user=user, compiled=compiled)
    elif compiled.intent == Intent.PEOPLE_RANKING:
        source, route = MemorySource.PEOPLE_RANKING, Route.PEOPLE_RANKING
        found = _ranking_hits(user=user, compiled=compiled, now=now)
    elif compiled.intent == Intent.PLAN_RECALL:
        source, route = MemorySource.PLANS, Route.HYBRID
        found = _plan_hits(user=user, compiled=compiled)
    elif compiled.intent == Intent.IDENTITY_LOOKUP:
        source, route = MemorySource.IDENTITY, Route.HYBRID
        found = _identity_hits(user=user, compiled=compiled)
    elif compiled.intent == Intent.ACTION_REQUEST and _person_ids(compiled):
        # Writing to or about someone: what is still open with them grounds the draft.
        source, route = MemorySource.OPEN_LOOPS, Route.HYBRID
        found = _person_loop_hits(user=user, compiled=compiled)
    elif compiled.intent == Intent.CATCH_UP:
        source, route = MemorySource.RECENT_DIGEST, Route.RECENT_WINDOW
        found = _recent_hits(user=user, compiled=compiled, now=now)
    elif _asks_what_they_said(compiled):
        source, route = MemorySource.PERSON_DIGEST, Route.HYBRID
        found = _person_said_hits(user=user, compiled=compiled)
    else:
        return None
    notes: dict[int, str] = {}
    for mid, note in found:
        known = notes.setdefault(mid, note)
        if note and note not in known.split("; "):
            notes[mid] = f"{known}; {note}" if known else note
    message_ids = _visible(user=user, compiled=compiled, message_ids=[mid for mid, _ in found])
    logger.info(
        "retrieval.memory_hits",
        extra={"user_id": user.pk, "source": str(source), "messages": len(message_ids)},
    )
    if not message_ids:
        return None
    return MemoryHits(
        source=source,
        route=route,
        message_ids=message_ids,
        notes={mid: notes[mid] for mid in message_ids if notes[mid]},
    )
