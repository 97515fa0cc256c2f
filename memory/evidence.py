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

import dataclasses
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from itertools import zip_longest
from zoneinfo import ZoneInfo

from django.db import models

from claire.accounts.models import User
from claire.ai.local.answer_kinds import is_outcome_question
from claire.ai.local.polarity import settled
from claire.ai.suspicious import suspicious_text
from conversations.identities import phone_same_number
from conversations.models import (
    Chat,
    ChatKind,
    ChatParticipant,
    IdentityKind,
    Message,
    MessageKind,
    Person,
    PersonIdentity,
    Platform,
)
from memory.about import (
    about_findings,
    alias_person_ids,
    people_called,
    who_statements,
)
from memory.away import asks_since_return, asks_while_away, latest_trip
from memory.calendar import PLANNING_HORIZON
from memory.chatnames import chats_named
from memory.closure import (
    answered_messages,
    owed_amount,
    same_words,
    says_done,
    says_paid,
    topic_words,
)
from memory.deeds import DeedAnswer, acknowledgement, deed_answer, deed_topic_terms
from memory.extract import (
    RELATIONS,
    claims_debt,
    has_link,
    is_request_form,
    is_suspicious,
    puts_off,
)
from memory.findings import (
    Finding,
    LoopState,
    cancel_statement,
    change_statement,
    deed_finding,
    loop_answer_finding,
    loop_sentence,
    moment_text,
    open_loops_finding,
    plan_current_when,
    plan_finding,
    plan_whens,
    ranking_findings,
)
from memory.followup import (
    CALENDAR_WORDS,
    action_follow_up,
    action_recipient,
    group_follow_up,
)
from memory.kinship import KIN_RELATIONS, is_family_title, kin_relation, relation_words
from memory.lent import lent_answer
from memory.models import (
    FactKind,
    Loop,
    LoopKind,
    LoopStatus,
    PersonFact,
    PlanStatus,
)
from memory.outcomes import outcome_findings
from memory.owed import owed_detail
from memory.sameperson import same_person_findings
from memory.selectors import (
    OpenLoop,
    PlanTimeline,
    RelationshipMetrics,
    exchanged_counts_for_user,
    fuller_names,
    identity_lookup,
    loops_for_user,
    open_loops_for_user,
    people_ranking,
    person_facts_for_user,
    person_ids_expand,
    plans_for_user,
)
from memory.selfdescribed import people_self_named
from memory.timeline import plan_read_on, topic_plan, window_plans
from memory.who import asked_contact_kinds, asked_who, contact_findings, who_findings
from retrieval.answerability import topic_terms
from retrieval.compile import messages_platforms
from retrieval.dates import HOLIDAY_NAMES, message_relative_date, resolve_time_expression
from retrieval.lexicon import STOP_WORDS, fold_text
from retrieval.people_context import WORK_PLATFORMS
from retrieval.question_forms import canonical_question
from retrieval.types import (
    CompiledQuery,
    Intent,
    PersonRef,
    RankingKind,
    Route,
    ScopeMode,
    TimeTarget,
)

logger = logging.getLogger(__name__)

PLANS_CITED = 3
LOOPS_CITED = 20
# Open questions from the person a "no" is about, cited to show they still wait.
WAITING_CITED = 2
# Loops a yes/no question about one of them reads, newest first.
LOOPS_READ = 200
# How soon after the user's request the other side's reply that puts it off comes, and how
# many of their messages after it are read for it.
PUT_OFF_WINDOW = timedelta(hours=12)
PUT_OFF_READ = 5
# "get", "receive": the question's verbs of receiving, not its topic.
_RECEIVE_WORDS = frozenset({"get", "got", "gotten", "receive", "received", "hear", "heard"})
IDENTITY_MATCHES_CITED = 5
# A catch-up cites at most this many messages (an answer pack holds 12 sources).
RECENT_ITEMS = 12
# Messages of the window read for a catch-up, newest first.
RECENT_SCAN = 600
RECENT_DEFAULT_DAYS = 3
# A ranking that names no window counts the messages of this many days.
RANKING_DEFAULT_DAYS = 90
RANKING_CHAT_DAYS = 365


class MemorySource(models.TextChoices):
    OPEN_LOOPS = "open_loops", "Open loops"
    PEOPLE_RANKING = "people_ranking", "Relationship ranking"
    PLANS = "plans", "Plan timelines"
    IDENTITY = "identity", "Person facts"
    RECENT_DIGEST = "recent_digest", "Recent digest"
    PERSON_DIGEST = "person_digest", "What they said"
    OUTCOMES = "outcomes", "How it turned out"


@dataclass(frozen=True)
class MemoryHits:
    """Messages memory says answer the question, best first, and where they came from.
    ``route`` is the route a retrieval answered from these messages alone reports."""

    source: MemorySource
    route: Route
    message_ids: tuple[int, ...]
    # A short note per message for the answer ("question to you", "cancelled", a name).
    notes: Mapping[int, str] = field(default_factory=dict)
    # What memory states outright (a plan's status and day, a loop's yes/no, a ranking with
    # counts), each with the messages that prove it: the answer's first sentences.
    findings: tuple[Finding, ...] = ()


# "Have I replied / what haven't I answered": someone asked the user.
_REPLY_VERB = (
    r"(?:replied|reply|answered|answer|responded|respond|got\s+back|gotten\s+back|get\s+back)"
)
_USER_OWES_REPLY = re.compile(
    r"\b(?:have|haven't|havent|did|didn't)\s+i\s+(?:not\s+)?(?:yet\s+)?" + _REPLY_VERB + "|"
    r"\bi\s+(?:still\s+)?(?:have\s+not|haven't|havent|did\s+not|didn't|never|still\s+need\s+to)"
    r"\s+(?:yet\s+)?" + _REPLY_VERB + "|"
    r"\bwaiting\s+(?:on|for)\s+me\b|\b(?:should|need\s+to|must)\s+(?:reply|answer|respond)"
    r"|\b(?:reply|answer|response)\s+from\s+me\b"
)
# "Did Rui ever reply / who hasn't got back to me": the user asked someone.
_OTHERS_OWE_REPLY = re.compile(
    r"\b(?:replied|reply|answered|answer|responded|respond|got\s+back|gotten\s+back|"
    r"get\s+back|come\s+back|came\s+back)\b"
)
_PROMISED = re.compile(
    r"\bpromis|\bi\s+(?:said|agreed|offered)\s+(?:i['\u2019]d|i\s+would|i\s+will|i['\u2019]ll|to)\b"
)
# "What do I owe Noor?": what others wait for from the user, answers and promised things.
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


def _with_details(states: Sequence[LoopState]) -> tuple[list[LoopState], dict[int, int]]:
    """Each loop with what it is about and by when (``owed.owed_detail``), and per opening
    message the ask it answers (for a promise: what the user took on), read in two
    statements."""
    openers = Message.objects.filter(
        pk__in=[state.opened_by_message_id for state in states]
    ).in_bulk()
    promises = [
        openers[state.opened_by_message_id]
        for state in states
        if state.kind == LoopKind.PROMISE_BY_USER and state.opened_by_message_id in openers
    ]
    answered = answered_messages(promises)
    detailed = []
    for state in states:
        opener = openers.get(state.opened_by_message_id)
        if opener is None or suspicious_text(opener.text or ""):
            detailed.append(state)
            continue
        asked = answered.get(opener.pk)
        detail = owed_detail(
            kind=state.kind,
            opener_text=opener.text or "",
            answered_text=(asked.text or "") if asked is not None else "",
            person_name=state.person_name,
        )
        detailed.append(replace(state, detail=detail))
    return detailed, {pk: message.pk for pk, message in answered.items()}


# "what did I promise (to do for) Ana?", "what did I say I'd bring to the picnic?"
_WHAT_PROMISED = re.compile(
    r"\bwhat\s+(?:did|have|had)\s+i\s+(?:promise|promised|agree|agreed|offer|offered|commit"
    r"|committed|say|said|tell\s+\S+|told\s+\S+)\b(?:\s+(?:i['\u2019]d|i\s+would|i\s+will"
    r"|i['\u2019]ll|i\s+was\s+going\s+to|i\s+could|to))?\s*(?P<verb>[\w'-]+)?(?P<tail>.*)$"
)
# Promises listed for "what did I promise …?".
PROMISES_LISTED = 3


def _promised_things(*, user: User, compiled: CompiledQuery) -> tuple[list[_Hit], list[Finding]]:
    """ "What did I say I'd bring to the picnic?": the user's promises (kept or not) whose
    words, chat name or the ask they answer share the question's topic words, the deed's verb
    counting too; with a person named, theirs first. Each stated with what was promised and
    whether it is done."""
    match = _WHAT_PROMISED.search(fold_text(compiled.read_as))
    if match is None:
        return [], []
    verb = (match.group("verb") or "").lower()
    tail = match.group("tail") or ""
    names = {fold_text(person.name) for person in compiled.people if person.name}
    if verb in names:
        # "what did I promise Bo for the trip?": the name is whom, not the deed.
        verb = ""
    topic = topic_words(tail, ignore=("do", "for", "to", *names))
    person_ids = _person_ids(compiled)
    rows = loops_for_user(
        user=user, person_ids=person_ids, kinds=(LoopKind.PROMISE_BY_USER,), limit=LOOPS_READ
    )
    of_person = bool(person_ids and rows)
    if person_ids and not rows:
        # A name the question shares with a contact who holds no promise ("game night" and a
        # bot of that name): the words alone decide.
        rows = loops_for_user(user=user, kinds=(LoopKind.PROMISE_BY_USER,), limit=LOOPS_READ)
    if not rows:
        return [], []
    answered = answered_messages([row.opened_by for row, _name in rows])
    titles = dict(
        Chat.objects.filter(pk__in={row.chat_id for row, _name in rows})
        .exclude(kind=ChatKind.DIRECT)
        .values_list("pk", "title")
    )
    scored = []
    for row, name in rows:
        asked = answered.get(row.opened_by_id)
        words = topic_words(
            " ".join(
                [
                    row.opened_by.text or "",
                    asked.text if asked is not None else "",
                    titles.get(row.chat_id, ""),
                ]
            )
        )
        score = len(topic & words)
        if verb and re.search(rf"\b{re.escape(verb)}", fold_text(row.opened_by.text or "")):
            score += 1
        scored.append((score, row, name))
    best = max(score for score, _row, _name in scored)
    if (topic or verb) and best < 1:
        if not of_person:
            return [], []
        # A named person's promises answer a question whose words none of them shares ("did I
        # promise Bo anything for the trip?" when the promise is "yep will pack them"): the
        # person is what the question asks about; the latest come first.
        scored = [(0, row, name) for row, name in rows]
    chosen = [(row, name) for score, row, name in scored if score == best][:PROMISES_LISTED]
    states = [LoopState.of_row(row, name) for row, name in chosen]
    states, asks = _with_details(states)
    zone = user.zoneinfo
    items = []
    hits: list[_Hit] = []
    for state, (row, _name) in zip(states, chosen, strict=True):
        title = titles.get(row.chat_id, "")
        where = f" in {title}" if title and not suspicious_text(title) else ""
        what = state.detail or f"you promised {state.person_name or 'someone'}"
        if state.status == LoopStatus.OPEN:
            status = "not done yet"
        else:
            done = state.resolved_at or state.closed_at or state.opened_at
            status = f"done on {moment_text(done, zone)}"
        items.append(f"{what} (on {moment_text(state.opened_at, zone)}{where}) — {status}")
        hits.append((state.opened_by_message_id, "what you promised"))
        if state.opened_by_message_id in asks:
            hits.append((asks[state.opened_by_message_id], "what your promise answers"))
    text = "What you promised: " + "; ".join(items) + "."
    return hits, [Finding(text=text, message_ids=tuple(mid for mid, _note in hits))]


# "what did Ana ask me to bring?", "what did mum want me to buy?", "what did Rui tell me to
# book?": what the person asked of the user.
_WHAT_ASKED = re.compile(
    r"\bwhat\s+(?:did|has|had|does|do)\s+(?P<who>.+?)\s+(?:ask|asked|want|wanted|tell|told"
    r"|need|needed|remind|reminded)\s+me\s+(?:to\s+)?(?P<verb>[\w'-]+)?(?P<tail>.*)$"
)
# Asks listed for "what did Ana ask me to …?" when none shares the question's words.
ASKS_LISTED = 3


def _asked_things(
    *, user: User, compiled: CompiledQuery, now: datetime
) -> tuple[list[_Hit], list[Finding]]:
    """ "What did mum ask me to buy?": the named person's asks of the user (the question that
    opened a loop, or the ask a promise of the user's answers; kept or not), before ``now``,
    those whose words share the question's topic words or verb first; when none does (an ask
    in another language), their latest asks. Each stated with its words and when."""
    folded = fold_text(compiled.read_as)
    match = _WHAT_ASKED.search(folded)
    if match is None:
        return [], []
    person_ids = person_ids_expand(user=user, person_ids=list(_person_ids(compiled)))
    if not person_ids:
        return [], []
    rows = loops_for_user(
        user=user,
        person_ids=list(person_ids),
        kinds=(LoopKind.QUESTION_TO_USER, LoopKind.PROMISE_BY_USER),
        limit=LOOPS_READ,
    )
    answered = answered_messages(
        [row.opened_by for row, _name in rows if row.kind == LoopKind.PROMISE_BY_USER]
    )
    asks: dict[int, Message] = {}
    for row, _name in rows:
        ask = (
            row.opened_by
            if row.kind == LoopKind.QUESTION_TO_USER
            else answered.get(row.opened_by_id)
        )
        if (
            ask is not None
            and ask.sender_person_id in person_ids
            and ask.sent_at < now
            and ask.deleted_at is None
        ):
            asks.setdefault(ask.pk, ask)
    if not asks:
        return [], []
    names = {word for person in compiled.people for word in fold_text(person.name or "").split()}
    verb = (match.group("verb") or "").lower()
    topic = topic_words(match.group("tail") or "", ignore=("do", "for", "to", *names))
    scored = []
    for ask in asks.values():
        text = fold_text(ask.text or "")
        score = len(topic & topic_words(ask.text or ""))
        if verb and verb not in names and re.search(rf"\b{re.escape(verb[:5])}", text):
            score += 1
        scored.append((score, ask))
    best = max(score for score, _ask in scored)
    chosen = sorted(
        (ask for score, ask in scored if score == best), key=lambda ask: ask.sent_at, reverse=True
    )[:ASKS_LISTED]
    chosen.sort(key=lambda ask: ask.sent_at)
    zone = user.zoneinfo
    titles = dict(
        Chat.objects.filter(pk__in={ask.chat_id for ask in chosen})
        .exclude(kind=ChatKind.DIRECT)
        .values_list("pk", "title")
    )
    items = []
    for ask in chosen:
        title = titles.get(ask.chat_id, "")
        where = f" in {title}" if title and not suspicious_text(title) else ""
        items.append(f"“{ask.text}” (on {moment_text(ask.sent_at, zone)}{where})")
    who = _ask_sender_name(chosen[0])
    text = f"What {who} asked you: " + "; ".join(items) + "."
    ids = tuple(ask.pk for ask in chosen)
    return [(mid, "what they asked") for mid in ids], [Finding(text=text, message_ids=ids)]


def _ask_sender_name(message: Message) -> str:
    person = message.sender_person
    return (person.display_name if person is not None else "") or message.sender_name or "they"


# "did I tell Dr Lee about the move?", "have I let Ana know that …?", "did I ask Tom whether
# …": the deed is a message to that person about the thing.
_TOLD = re.compile(
    r"^\W*(?:so\s+|and\s+)?(?:did|have|had)\s+i\s+(?:(?:ever|already|actually|yet|finally)\s+)*"
    r"(?:tell|told|let|inform|informed|warn|warned|remind|reminded|text|texted|message|messaged"
    r"|email|emailed|ask|asked|update|updated)\s+(?P<who>.+?)\s+(?:know\s+)?(?:about|that|of|re"
    r"|regarding|whether|if|know)\b(?P<what>.*)$"
)
# How far back a message telling the person is looked for.
TOLD_WINDOW = timedelta(days=60)


def _told(*, user: User, compiled: CompiledQuery, now: datetime) -> DeedAnswer | None:
    """The user's message in a direct chat with the person the question tells ("did I tell
    Dr Lee about the swap?") that names the thing told; ``None`` when there is none."""
    match = _TOLD.search(fold_text(compiled.read_as))
    if match is None:
        return None
    who = match.group("who")
    recipients = [
        person
        for person in compiled.people
        if person.name and fold_text(person.name) in who and person.person_ids
    ]
    if len(recipients) != 1:
        return None
    names = {word for person in compiled.people for word in fold_text(person.name or "").split()}
    terms = [
        term
        for term in deed_topic_terms(re.findall(r"[\w'-]+", match.group("what")))
        if len(term) >= 3 and term not in STOP_WORDS and term not in names
    ]
    if not terms:
        return None
    person_ids = person_ids_expand(user=user, person_ids=list(recipients[0].person_ids))
    direct = list(
        ChatParticipant.objects.filter(
            chat__user=user, chat__kind=ChatKind.DIRECT, person_id__in=list(person_ids)
        ).values_list("chat_id", flat=True)
    )
    rows = (
        Message.objects.filter(
            user=user,
            chat_id__in=direct,
            is_from_self=True,
            deleted_at__isnull=True,
            chat__is_excluded_from_ai=False,
            sent_at__lt=now,
            sent_at__gte=now - TOLD_WINDOW,
        )
        .select_related("chat")
        .order_by("-sent_at", "-pk")
    )
    for row in rows[:TOPIC_ROWS_READ]:
        text = fold_text(row.text or "")
        if any(_stem_match(term, text) for term in terms):
            return DeedAnswer(
                is_done=True,
                message_id=row.pk,
                sent_at=row.sent_at,
                text=row.text or "",
                chat_title=row.chat.title,
                platform=row.chat.platform,
                raised_by_message_id=None,
                acknowledged_by_message_id=acknowledgement(row),
            )
    return None


# Messages of the user's direct chats with the person read for ``_told``, newest first.
TOPIC_ROWS_READ = 200


def _loop_hits(
    *, user: User, compiled: CompiledQuery, now: datetime
) -> tuple[list[_Hit], list[Finding]]:
    zone = user.zoneinfo
    folded = fold_text(compiled.read_as)
    if _WHAT_PROMISED.search(folded):
        promised = _promised_things(user=user, compiled=compiled)
        if promised[0]:
            return promised
    asked = _asked_things(user=user, compiled=compiled, now=now)
    if asked[0]:
        return asked
    told = _told(user=user, compiled=compiled, now=now) if _TOLD.search(folded) else None
    if told is not None:
        return _deed_hits(told), [deed_finding(told, zone)]
    lent = lent_answer(
        user=user,
        question=compiled.read_as,
        terms=topic_terms(compiled),
        person_ids=_person_ids(compiled),
        now=now,
    )
    if lent is not None:
        return lent[0], [lent[1]]
    if _YES_NO.search(folded) and (
        _SELF_ACTOR.search(folded) or _person_ids(compiled) or _SETTLED.search(folded)
    ):
        deed = (
            deed_answer(
                user=user,
                terms=deed_topic_terms(topic_terms(compiled)),
                person_ids=person_ids_expand(user=user, person_ids=list(_person_ids(compiled))),
                now=now,
            )
            if _SELF_ACTOR.search(folded)
            and not _REPLY_WORDS.search(folded)
            and not _RECEIVED.search(folded)
            else None
        )
        if deed is not None and deed.is_done:
            return _deed_hits(deed), [deed_finding(deed, zone)]
        answered = _loop_answer(user=user, compiled=compiled)
        if answered is not None:
            loop, hits = answered
            (loop,), asks = _with_details([loop])
            ask_id = asks.get(loop.opened_by_message_id)
            asks_if_owed = _OWED.search(folded) is not None
            loop = _with_amount(user=user, loop=loop)
            finding = loop_answer_finding(loop, zone, asks_if_owed=asks_if_owed)
            if ask_id is not None and ask_id not in {hit[0] for hit in hits}:
                hits = [*hits, (ask_id, f"{loop.person_name or 'they'}: what your promise answers")]
                finding = replace(finding, message_ids=(*finding.message_ids, ask_id))
            if loop.kind == LoopKind.REQUEST_BY_USER:
                hits, finding = _request_answer(
                    user=user, compiled=compiled, loop=loop, hits=hits, finding=finding, now=now
                )
            if loop.status == LoopStatus.OPEN:
                hits, finding = _still_waiting(
                    user=user, compiled=compiled, hits=hits, finding=finding
                )
            return hits, [finding]
        if deed is not None:
            hits, finding = _deed_hits(deed), deed_finding(deed, zone)
            if not deed.is_done:
                hits, finding = _still_waiting(
                    user=user, compiled=compiled, hits=hits, finding=finding
                )
            return hits, [finding]
        if (
            _SELF_ACTOR.search(folded)
            and _person_ids(compiled)
            and not _REPLY_WORDS.search(folded)
            and not _RECEIVED.search(folded)
        ):
            # "Did I call Gran like Dad asked?" with no message of the user's showing it.
            return _no_deed_found(user=user, compiled=compiled, now=now)
        if _RECEIVED.search(folded) or (
            _SETTLED.search(folded) and not _SELF_ACTOR.search(folded) and not _person_ids(compiled)
        ):
            # About one thing no loop holds: the messages that name it answer, not a list of
            # everything open.
            return [], []
    kinds = loop_kinds_for(compiled.read_as)
    person_ids = _person_ids(compiled)
    if not person_ids and _AMONG_COLLEAGUES.search(folded):
        # "What do I still owe people at work?": the loops with the user's colleagues.
        person_ids = tuple(sorted(_colleague_ids(user=user))) or person_ids
    loops = open_loops_for_user(
        user=user,
        kinds=kinds,
        person_ids=person_ids,
        chat_ids=_strict_chat_ids(compiled),
        limit=LOOPS_CITED,
    )
    amounts = _owed_amounts(user=user, loops=loops)
    states = [
        LoopState(
            kind=loop.kind,
            status=LoopStatus.OPEN,
            person_name=loop.person_name or "",
            opened_by_message_id=loop.opened_by_message_id,
            opened_at=loop.opened_at,
            resolved_by_message_id=None,
            closed_at=None,
            amount=amounts.get(loop.loop_id, ("", None))[0],
            amount_message_id=amounts.get(loop.loop_id, ("", None))[1],
        )
        for loop in loops
    ]
    states, asks = _with_details(states)
    if kinds and LoopKind.QUESTION_TO_USER not in kinds:
        loops = [*loops, *_follow_ups(user=user, promises=loops)]
    hits = [(loop.opened_by_message_id, _loop_note(loop.kind, loop.person_name)) for loop in loops]
    hits += [
        (
            asks[loop.opened_by_message_id],
            f"{loop.person_name or 'they'}: what your promise answers",
        )
        for loop in loops
        if loop.opened_by_message_id in asks
    ]
    hits += [
        (message_id, f"{amount} owed")
        for amount, message_id in amounts.values()
        if message_id not in {hit[0] for hit in hits}
    ]
    if not states and _person_ids(compiled):
        return _nothing_open_with(user=user, compiled=compiled)
    return hits, [open_loops_finding(states, zone)] if states else []


# "did I (ever / end up) call my gran yet like dad asked": the deed, without the question's
# opening and its afterthoughts.
_DEED_OPENING = re.compile(
    r"^\W*(?:(?:so|and|ok|okay|wait)\s+)*(?:did|have|had)\s+i\s+"
    r"(?:(?:ever|actually|finally|already|really|end\s+up|ended\s+up)\s+)*",
    re.IGNORECASE,
)
_DEED_TAIL = re.compile(
    r"\s*(?:\?|,|\byet\b|\balready\b|\blike\b|\bas\b|\bbecause\b|\bsince\b).*$",
    re.IGNORECASE | re.DOTALL,
)
_OWN_TO_YOURS = {"my": "your", "me": "you", "mine": "yours", "i": "you", "myself": "yourself"}
# The named person's latest messages cited under a "no": their ask, when they made one.
ASK_MESSAGES_CITED = 2


def deed_phrase(question: str) -> str:
    """ "did I call my gran yet like dad asked" -> "call your gran"."""
    deed = _DEED_TAIL.sub("", _DEED_OPENING.sub("", question.strip()))
    words = [_OWN_TO_YOURS.get(word.lower(), word) for word in deed.split()]
    return " ".join(words)


def _no_deed_found(
    *, user: User, compiled: CompiledQuery, now: datetime
) -> tuple[list[_Hit], list[Finding]]:
    """ "No, I found no message where you call your gran": nothing the user wrote shows the
    deed done; the named person's latest messages (their ask, when there is one) are cited."""
    deed = deed_phrase(compiled.read_as)
    person_ids = person_ids_expand(user=user, person_ids=list(_person_ids(compiled)))
    if not deed or not person_ids:
        return [], []
    latest = list(
        Message.objects.filter(
            user=user,
            sender_person_id__in=list(person_ids),
            is_from_self=False,
            deleted_at__isnull=True,
            chat__is_excluded_from_ai=False,
            sent_at__lt=now,
        )
        .select_related("sender_person")
        .order_by("-sent_at", "-pk")[:ASK_MESSAGES_CITED]
    )
    if not latest:
        return [], []
    sender = latest[0].sender_person
    name = sender.display_name if sender is not None else ""
    ids = tuple(row.pk for row in latest)
    text = f"No, I found no message where you {deed}"
    text += f"; the latest from {name} is cited." if name else "."
    return [(mid, "their latest") for mid in ids], [Finding(text=text, message_ids=ids)]


def _nothing_open_with(*, user: User, compiled: CompiledQuery) -> tuple[list[_Hit], list[Finding]]:
    """ "Anything still open with Kai?" with nothing open: says so, citing how the latest
    loop with them was closed ("Nothing is waiting with Kai: you replied to Kai on …")."""
    rows = loops_for_user(
        user=user, person_ids=_person_ids(compiled), chat_ids=_strict_chat_ids(compiled), limit=1
    )
    if not rows:
        return [], []
    row, name = rows[0]
    if row.status == LoopStatus.OPEN:
        return [], []
    loop = LoopState.of_row(row, name)
    ids = tuple(mid for mid in (row.resolved_by_id, row.opened_by_id) if mid)
    said = loop_sentence(loop, user.zoneinfo)
    text = f"Nothing is waiting with {name}: the last open thing is done, {said}."
    return [(mid, "done") for mid in ids], [Finding(text=text, message_ids=ids)]


def _with_amount(*, user: User, loop: LoopState) -> LoopState:
    """``loop`` with the amount it is about, when it is about money ("me debes 6€", "I'll pay
    you back the $22")."""
    opener = Message.objects.filter(user=user, pk=loop.opened_by_message_id).first()
    owed = owed_amount(opener) if opener is not None else None
    if owed is None:
        return loop
    closer = (
        Message.objects.filter(user=user, pk=loop.resolved_by_message_id).first()
        if loop.resolved_by_message_id is not None
        else None
    )
    return dataclasses.replace(
        loop,
        amount=owed[0],
        amount_message_id=owed[1],
        is_paid=closer is not None and says_paid(closer.text or ""),
    )


def _owed_amounts(*, user: User, loops: Sequence[OpenLoop]) -> dict[int, tuple[str, int]]:
    """Per open promise to pay, the amount and the message that states it."""
    promises = {
        loop.opened_by_message_id: loop.loop_id
        for loop in loops
        if loop.kind in (LoopKind.PROMISE_BY_USER, LoopKind.QUESTION_TO_USER)
    }
    found = {}
    for opener in Message.objects.filter(user=user, pk__in=list(promises)):
        owed = owed_amount(opener)
        if owed is not None:
            found[promises[opener.pk]] = owed
    return found


# A question that expects yes or no ("did I …?", "has Rui …?").
_YES_NO = re.compile(
    r"^\W*(?:so\s+|and\s+)?(?:did|have|has|had|is|was|am|do|does|are|were|will|can)\b"
)
# What the user did (a reply) versus what they owe (a promised thing).
_REPLY_WORDS = re.compile(r"\b(?:repl|respond|answer|got\s+back|get\s+back|gotten\s+back)")
_SELF_ACTOR = re.compile(r"^\W*(?:so\s+|and\s+)?(?:did|have|had)\s+i\b")
# "Has Kai got his drill back?", "did Ana receive the parcel?": something reaching the person.
_THEY_GET = re.compile(
    r"^\W*(?:so\s+|and\s+)?(?:did|has|have)\s+(?!i\b|we\b|you\b)(?:[\w'@.-]+\s+){1,3}?"
    r"(?:ever\s+|already\s+|finally\s+|actually\s+)*(?:got|gotten|get|received|receive)\b"
)
# "Did I ever get the counts?", "have I heard back about the lease?": what someone else was
# to send the user, the other side of the user's request.
_RECEIVED = re.compile(
    r"^\W*(?:so\s+|and\s+)?(?:did|have|had)\s+i\s+(?:[\w']+\s+){0,2}?"
    r"(?:get|got|gotten|receive|received|hear|heard)\b(?!\s+back\s+to\b)"
)
# "Was the refund ever sorted out?": whether one thing got settled, whoever settled it.
_SETTLED = re.compile(
    r"\b(?:sorted|resolved|settled|fixed|approved|granted|refunded|dealt\s+with"
    r"|taken\s+care\s+of)\b"
)
_TOPIC_STEM = 4
# A question about paying someone back, and a loop about money (an amount, or paying in one of
# the lexicon's languages).
_ABOUT_PAYING = re.compile(r"\b(?:pay|paid|owe|owed|reimburs\w*|pay\s+\w+\s+back)\b")
_MONEY = re.compile(
    r"(?:[$€£]|r\$)\s?\d|\b\d+(?:[.,]\d{1,2})?\s?(?:dollars|bucks|euros?|eur|usd|reais)\b"
    r"|\b(?:pay|paid|owe|venmo\w*|zelle\w*|pix|paguei|pague|pago|pagar|pagamos|debo|debes"
    r"|devo|deves|rembours\w*|paye|pagato|pagata|bezahl\w*|uberweis\w*)\b"
)


def _stem_match(term: str, text: str) -> bool:
    """``term`` (folded) starts a word of ``text`` (folded) on its first four letters or more:
    "photos" finds "photo", "paid" does not find "pay" (verbs are the question's, not the
    loop's)."""
    stem = term[: max(_TOPIC_STEM, len(term) - 2)]
    return re.search(rf"\b{re.escape(stem)}", text) is not None


def _loop_answer(*, user: User, compiled: CompiledQuery) -> tuple[LoopState, list[_Hit]] | None:
    """The one loop a yes/no question is about, with its opening (and closing) message: a
    loop with the people it names whose messages share its topic words, of the kind its
    verb asks for (a reply: a question to the user or the user's request; anything else:
    the user's promise first). ``None`` when no loop fits."""
    folded = fold_text(compiled.read_as)
    person_ids = _person_ids(compiled)
    # The deed's own verbs ("pay", "send", "back") say what was done, not what about: "did I
    # pay Lena back?" is answered by "I'll transfer you tomorrow" … "done".
    terms = [
        term
        for term in deed_topic_terms(topic_terms(compiled))
        if len(term) >= 3
        and not _REPLY_WORDS.search(term)
        and not _SETTLED.search(term)
        and term not in _RECEIVE_WORDS
    ]
    if not person_ids and not terms:
        return None
    is_self = _SELF_ACTOR.search(folded) is not None
    kinds: tuple[LoopKind, ...]
    if _OWED.search(folded):
        # "Do I owe Bo money?": what Bo asked the user for (a debt), then what the user
        # promised.
        kinds = (LoopKind.QUESTION_TO_USER, LoopKind.PROMISE_BY_USER)
    elif _REPLY_WORDS.search(folded):
        kinds = (LoopKind.QUESTION_TO_USER,) if is_self else (LoopKind.REQUEST_BY_USER,)
    elif _RECEIVED.search(folded):
        kinds = (LoopKind.REQUEST_BY_USER,)
    elif is_self or (person_ids and _THEY_GET.search(folded)):
        # "Did I send …?" asks about the user's promise, else about what someone asked the
        # user for ("mi mandi la ricevuta?" answered with a file); so does "has Kai got his
        # drill back?", the same deed seen from the person's side.
        kinds = (LoopKind.PROMISE_BY_USER, LoopKind.QUESTION_TO_USER)
    elif person_ids:
        # "Has Rui sent …?" asks about the user's request to Rui.
        kinds = (LoopKind.REQUEST_BY_USER,)
    else:
        # "Was the refund sorted out?": what the user asked for, else what they promised.
        kinds = (LoopKind.REQUEST_BY_USER, LoopKind.PROMISE_BY_USER)
    rows = loops_for_user(
        user=user,
        person_ids=person_ids,
        chat_ids=_strict_chat_ids(compiled),
        kinds=kinds,
        limit=LOOPS_READ,
    )
    if not rows:
        return None

    # "will do!" names nothing: the ask it answers says what the loop is about.
    answered = answered_messages([row.opened_by for row, _name in rows])
    about_money = person_ids and _ABOUT_PAYING.search(folded) is not None

    def overlap(loop_row: Loop) -> int:
        texts = [loop_row.opened_by.text or ""]
        for message in (loop_row.resolved_by, answered.get(loop_row.opened_by_id)):
            if message is not None:
                texts.append(message.text or "")
        folded_text = fold_text(" ".join(texts))
        # "my lift" is the loop's "drive me": the everyday words for the same thing count.
        shared = sum(
            1
            for term in terms
            if any(_stem_match(form, folded_text) for form in (term, *same_words(term)))
        )
        about_text = fold_text(
            " ".join(
                [loop_row.opened_by.text or ""]
                + [
                    message.text or ""
                    for message in (answered.get(loop_row.opened_by_id),)
                    if message is not None
                ]
            )
        )
        # The message that closed it is not what it was about ("sent you the $40" may close
        # a promise to bring the tent).
        if not shared and about_money and _MONEY.search(about_text):
            # "Did I pay Tomas back for the parking?" and a debt said in other words
            # ("paguei o estacionamento, 12 euros"): paying back is about the money owed.
            return 1
        return shared

    asks_for_deed = LoopKind.QUESTION_TO_USER in kinds and len(kinds) > 1
    if asks_for_deed:
        # What someone asked the user for ("mi mandi la ricevuta?"), not any question.
        rows = [
            (row, name)
            for row, name in rows
            if row.kind != LoopKind.QUESTION_TO_USER
            or is_request_form(row.opened_by.text or "")
            or claims_debt(row.opened_by.text or "")
        ]
    scored = [(overlap(row), kinds.index(LoopKind(row.kind)), row, name) for row, name in rows]
    if terms:
        # With nobody named, the topic alone picks the loop: two of its words when it has two.
        needed = 1 if person_ids else min(2, len(terms))
        scored = [item for item in scored if item[0] >= needed]
        if not scored:
            return None
    best = min(scored, key=lambda item: (-item[0], item[1], -item[2].opened_at.timestamp()))
    row, name = best[2], best[3]
    loop = LoopState.of_row(row, name)
    if (
        asks_for_deed
        and row.kind == LoopKind.QUESTION_TO_USER
        and row.status == LoopStatus.RESOLVED
        and not _delivers(row.resolved_by)
    ):
        # A reply is not the thing asked for: "sure!" leaves "did I send …?" at no.
        loop = dataclasses.replace(
            loop,
            status=LoopStatus.OPEN,
            resolved_by_message_id=None,
            closed_at=None,
            resolved_at=None,
        )
    closer = row.resolved_by
    if (
        row.kind == LoopKind.QUESTION_TO_USER
        and claims_debt(row.opened_by.text or "")
        and (payment := _payment_after(user=user, row=row)) is not None
    ):
        # A sum someone asked for is settled by the user's message saying it was sent or
        # paid, with a sum ("sent you the $60 btw"), whatever closed the thread before.
        closer = payment
        loop = dataclasses.replace(
            loop,
            status=LoopStatus.RESOLVED,
            resolved_by_message_id=payment.pk,
            resolved_at=payment.sent_at,
        )
    note = _loop_note(row.kind, name) if loop.status == LoopStatus.OPEN else "done"
    hits: list[_Hit] = []
    if loop.resolved_by_message_id:
        hits.append((loop.resolved_by_message_id, "closed it"))
        if closer is not None and closer.is_from_self:
            # The other side's word right after ("got it, thanks!") shows it arrived.
            ack = acknowledgement(closer)
            if ack is not None and ack != row.opened_by_id:
                hits.append((ack, "their reply"))
    hits.append((row.opened_by_id, note))
    return loop, hits


_PAID_WORDS = re.compile(
    r"\b(?:sent|send|paid|transferred|venmo'?d|zelled|bizum\w*|pix|paguei|pagado|pay[ée]"
    r"|bezahlt|uberwiesen|rembours[ée])\b"
)
_SUM = re.compile(r"(?:[$€£]|r\$)\s?\d|\b\d+(?:[.,]\d{1,2})?\s?(?:[$€£]|dollars|bucks|euros?)")


def _payment_after(*, user: User, row: Loop) -> Message | None:
    """The user's first message, after someone asked them for a sum, in a chat that person is
    in, saying a sum was sent or paid ("sent you the $60 for the cabin btw")."""
    if row.person_id is None:
        return None
    people = person_ids_expand(user=user, person_ids=[row.person_id])
    chats = ChatParticipant.objects.filter(person_id__in=people).values("chat_id")
    for message in Message.objects.filter(
        user=user,
        chat_id__in=chats,
        is_from_self=True,
        deleted_at__isnull=True,
        sent_at__gt=row.opened_at,
    ).order_by("sent_at")[:LOOP_PAYMENT_READ]:
        text = fold_text(message.text or "")
        if _PAID_WORDS.search(text) and _SUM.search(text) and "?" not in text:
            return message
    return None


# How many of the user's messages after a sum was asked for are read for the payment.
LOOP_PAYMENT_READ = 300


def _delivers(message: Message | None) -> bool:
    """A file, a link or a message saying it is done."""
    if message is None:
        return False
    text = message.text or ""
    return message.kind == MessageKind.MEDIA or has_link(text) or says_done(text)


def _request_answer(
    *,
    user: User,
    compiled: CompiledQuery,
    loop: LoopState,
    hits: list[_Hit],
    finding: Finding,
    now: datetime,
) -> tuple[list[_Hit], Finding]:
    """The yes/no answer about the user's request, from the message that settles it.

    Closed: who answered and when, "yes" unless the question asks whether the thing was
    done ("has Rui sent it?", "was it sorted?") and the answer says it was not. Open: "no",
    citing the other side's reply that put it off ("I'll let you know"), when there is one,
    else the request itself."""
    zone = user.zoneinfo
    if loop.resolved_by_message_id is not None:
        closer = (
            Message.objects.filter(pk=loop.resolved_by_message_id)
            .select_related("sender_person")
            .first()
        )
        if closer is None:
            return hits, finding
        name = (
            closer.sender_person.display_name
            if closer.sender_person is not None
            else loop.person_name or "they"
        )
        asks_reply = _REPLY_WORDS.search(fold_text(compiled.read_as)) is not None
        refused = not asks_reply and settled(compiled.read_as, closer.text or "") == "no"
        answer = "No" if refused else "Yes"
        said = "answered that it is not done" if refused else "answered"
        text = f"{answer}: {name} {said} on {moment_text(closer.sent_at, zone)}."
        return hits, Finding(text=text, message_ids=finding.message_ids)
    put_off = _put_off_reply(loop=loop, now=now)
    if put_off is None:
        return hits, finding
    name = loop.person_name or "they"
    text = (
        f"No, not yet: you asked {name} on {moment_text(loop.opened_at, zone)}; on "
        f"{moment_text(put_off.sent_at, zone)} {name} said it would come later, and nothing "
        "has settled it since."
    )
    hits = [(put_off.pk, "put it off"), *hits]
    return hits, Finding(text=text, message_ids=(put_off.pk, loop.opened_by_message_id))


def _put_off_reply(*, loop: LoopState, now: datetime) -> Message | None:
    """The other side's reply to the user's request that puts it off ("I'll let you know",
    "by Monday, promise"): one replying to it, or their first message soon after."""
    opener = Message.objects.filter(pk=loop.opened_by_message_id).first()
    if opener is None:
        return None
    replies = Message.objects.filter(
        chat_id=opener.chat_id,
        deleted_at__isnull=True,
        is_from_self=False,
        sent_at__gt=opener.sent_at,
        sent_at__lt=now,
    ).order_by("sent_at", "pk")[:PUT_OFF_READ]
    for reply in replies:
        soon = reply.sent_at - opener.sent_at <= PUT_OFF_WINDOW
        if (reply.reply_to_id == opener.pk or soon) and puts_off(reply.text or ""):
            return reply
    return None


def _still_waiting(
    *, user: User, compiled: CompiledQuery, hits: list[_Hit], finding: Finding
) -> tuple[list[_Hit], Finding]:
    """A "no" about someone named: their questions to the user that are still unanswered
    ("any news on the CV?") show they are still waiting; cited after the deed's messages."""
    person_ids = _person_ids(compiled)
    if not person_ids:
        return hits, finding
    waiting = open_loops_for_user(
        user=user,
        kinds=(LoopKind.QUESTION_TO_USER,),
        person_ids=person_ids_expand(user=user, person_ids=list(person_ids)),
        chat_ids=_strict_chat_ids(compiled),
        limit=WAITING_CITED,
    )
    cited = {message_id for message_id, _note in hits}
    waiting = [loop for loop in waiting if loop.opened_by_message_id not in cited]
    if not waiting:
        return hits, finding
    zone = user.zoneinfo
    asked = "; ".join(
        f"{loop.person_name or 'they'} asked you on {moment_text(loop.opened_at, zone)} and"
        " is still waiting for your reply"
        for loop in waiting
    )
    text = finding.text.split(". ", 1)
    head = text[0] if text[0].endswith(".") else text[0] + "."
    rest = f" {text[1]}" if len(text) > 1 else ""
    return (
        [
            *hits,
            *(
                (loop.opened_by_message_id, _loop_note(loop.kind, loop.person_name))
                for loop in waiting
            ),
        ],
        Finding(
            text=f"{head} {asked[0].upper()}{asked[1:]}.{rest}",
            message_ids=(*finding.message_ids, *(loop.opened_by_message_id for loop in waiting)),
        ),
    )


def _deed_hits(deed: DeedAnswer) -> list[_Hit]:
    note = "done" if deed.is_done else "not done yet"
    hits: list[_Hit] = [(deed.message_id, note)]
    if deed.acknowledged_by_message_id is not None:
        hits.append((deed.acknowledged_by_message_id, "their reply"))
    if deed.raised_by_message_id is not None:
        hits.append((deed.raised_by_message_id, "where it started"))
    return hits


def _person_loop_hits(
    *, user: User, compiled: CompiledQuery, person_ids: Sequence[int] | None = None
) -> list[_Hit]:
    """Every open loop with the people the question names (or ``person_ids``), newest first."""
    loops = open_loops_for_user(
        user=user,
        person_ids=_person_ids(compiled) if person_ids is None else person_ids,
        chat_ids=_strict_chat_ids(compiled),
        limit=LOOPS_CITED,
    )
    hits = [(loop.opened_by_message_id, _loop_note(loop.kind, loop.person_name)) for loop in loops]
    return hits + _promise_prompts(user=user, loops=loops)


# How long before a promise the message it answers may be ("I covered your pass" → "I'll pay
# you back Saturday!").
PROMISE_PROMPT_WINDOW = timedelta(hours=6)


def _promise_prompts(*, user: User, loops: Sequence[OpenLoop]) -> list[_Hit]:
    """For each open promise of the user, the other side's last message before it in that
    chat: what the promise answers, and what a message following it up is about."""
    hits: list[_Hit] = []
    for loop in loops:
        if loop.kind != LoopKind.PROMISE_BY_USER:
            continue
        prompt = (
            Message.objects.filter(
                user=user,
                chat_id=loop.chat_id,
                is_from_self=False,
                deleted_at__isnull=True,
                sent_at__lt=loop.opened_at,
                sent_at__gte=loop.opened_at - PROMISE_PROMPT_WINDOW,
            )
            .order_by("-sent_at", "-pk")
            .values_list("pk", flat=True)
            .first()
        )
        if prompt is not None:
            hits.append((prompt, f"{loop.person_name or 'they'}: what your promise answers"))
    return hits


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


_PLATFORM_NAMES = dict(Platform.choices)


def _ranking_hits(
    *, user: User, compiled: CompiledQuery, now: datetime
) -> tuple[list[_Hit], list[Finding]]:
    ranking = compiled.ranking
    if ranking is None:
        return [], []
    zone = user.zoneinfo
    today = now.astimezone(zone).date()
    time_range = compiled.time_range
    chat_ids = _ranking_chat_ids(user=user, compiled=compiled)
    among = None if chat_ids else _ranking_among(user=user, question=compiled.read_as)
    counts: dict[int, int] | None = None
    if (
        time_range is not None
        or ranking.platforms
        or chat_ids
        or among is not None
        or ranking.kind == RankingKind.MOST_MESSAGES
    ):
        # In a chat, who is most active there over its year; elsewhere the recent months.
        default_days = RANKING_CHAT_DAYS if chat_ids else RANKING_DEFAULT_DAYS
        first_day = (
            time_range.start_utc.astimezone(zone).date()
            if time_range is not None
            else today - timedelta(days=default_days - 1)
        )
        last_day = (
            min((time_range.end_utc - timedelta(microseconds=1)).astimezone(zone).date(), today)
            if time_range is not None
            else today
        )
        counts = exchanged_counts_for_user(
            user=user,
            first_day=first_day,
            last_day=last_day,
            platforms=ranking.platforms,
            chat_ids=chat_ids,
        )
        window = time_range.label if time_range is not None else f"in the last {default_days} days"
        if among is not None:
            counts = {pid: count for pid, count in counts.items() if pid in among[1]}
            window += f" among {among[0]}"
    else:
        window = "in the last 90 days"
    if ranking.platforms:
        window += " on " + " and ".join(_PLATFORM_NAMES.get(p, p) for p in ranking.platforms)
    if chat_ids:
        window += " in " + " and ".join(_chat_titles(user=user, chat_ids=chat_ids))
    counted_since: datetime | None = None
    counted_until: datetime | None = None
    if counts is not None:
        counted_since = (
            time_range.start_utc if time_range is not None else now - timedelta(days=default_days)
        )
        counted_until = time_range.end_utc if time_range is not None else None
    ranked = people_ranking(
        user=user,
        now=now,
        kind=ranking.kind,
        limit=ranking.limit,
        counts=counts,
        counted_since=counted_since,
        counted_until=counted_until,
        platforms=ranking.platforms,
        chat_ids=chat_ids,
    )
    last_contact: dict[int, datetime] | None = None
    if counts is None:
        if ranking.kind == RankingKind.NEGLECTED:
            counts = {item.person_id: item.messages_365d for item in ranked}
            window = "in the last year, and nothing for a month or more"
            last_contact = _last_exchanges(user=user, ranked=ranked)
        else:
            counts = {item.person_id: item.messages_90d for item in ranked}
    heading = {
        RankingKind.NEGLECTED: "People you have drifted from",
        RankingKind.MOST_MESSAGES: "The people you exchanged the most messages with",
    }.get(ranking.kind, "The people you are closest to")
    if chat_ids and ranking.kind != RankingKind.NEGLECTED:
        heading = "The people who wrote the most"
    notes = {
        mid: f"#{place} {_shown(item.display_name, 'sender')}"
        for place, item in enumerate(ranked, start=1)
        for mid in item.representative_message_ids
    }
    ordered = _round_robin([item.representative_message_ids for item in ranked])
    findings = ranking_findings(
        ranked,
        counts=counts,
        window_text=window,
        heading=heading,
        last_contact=last_contact,
        zone=zone,
        fuller=fuller_names(user=user, ranked=ranked),
    )
    return [(mid, notes[mid]) for mid in ordered], findings


# "Who in my family do I talk to most?", "which colleague messages me most?": a ranking
# among the user's relatives, or among the people they talk to on a work platform.
_AMONG_FAMILY = re.compile(
    r"\b(?:family|relatives|relations|familia|famille|familie)\b(?!\s+(?:group|chat)s?\b)"
)
_AMONG_COLLEAGUES = re.compile(
    r"\b(?:colleagues?|co-?workers?|teammates?|work\s+(?:people|friends|contacts)"
    r"|(?:people|anyone|someone)\s+(?:at|from)\s+work|colegas?|coll[eè]gues?|kollegen"
    # "anything at work I said I'd do?": what is open with the people the user works with.
    r"|^\W*(?:is\s+there\s+)?(?:anything|something|stuff|what)\s+(?:(?:still|left)\s+)?at\s+work)\b"
)


def _ranking_among(*, user: User, question: str) -> tuple[str, set[int]] | None:
    """The people a ranking is asked among, with how the answer names them, or ``None``."""
    folded = fold_text(question)
    if _AMONG_FAMILY.search(folded):
        ids = set(
            PersonFact.objects.filter(
                user=user,
                kind=FactKind.RELATIONSHIP,
                related_person__isnull=True,
                superseded_by__isnull=True,
                value__in=sorted(KIN_RELATIONS),
            ).values_list("person_id", flat=True)
        )
        return "your family", set(person_ids_expand(user=user, person_ids=sorted(ids)))
    if _AMONG_COLLEAGUES.search(folded):
        return "your colleagues", _colleague_ids(user=user)
    return None


def _colleague_ids(*, user: User) -> set[int]:
    """The people the user talks to on a work platform or knows as colleagues, with their
    merged contacts."""
    ids = set(
        ChatParticipant.objects.filter(
            chat__user=user, chat__platform__in=WORK_PLATFORMS
        ).values_list("person_id", flat=True)
    ) | set(
        PersonFact.objects.filter(
            user=user,
            kind=FactKind.RELATIONSHIP,
            related_person__isnull=True,
            superseded_by__isnull=True,
            value__in=["colleague", "boss", "manager", "teammate"],
        ).values_list("person_id", flat=True)
    )
    return set(person_ids_expand(user=user, person_ids=sorted(ids)))


def _ranking_chat_ids(*, user: User, compiled: CompiledQuery) -> tuple[int, ...]:
    """The chats a ranking counts in: the strict scope it was asked in, else the chats the
    question names or describes ("who talks most in the hiking group"), groups only (a
    contact's name is not their chat); none means all."""
    strict = _strict_chat_ids(compiled)
    if strict:
        return tuple(strict)
    return tuple(chats_named(user=user, question=compiled.read_as, groups_only=True))


def _chat_titles(*, user: User, chat_ids: Sequence[int]) -> list[str]:
    titles = dict(Chat.objects.filter(user=user, pk__in=list(chat_ids)).values_list("pk", "title"))
    return [titles.get(pk) or "that chat" for pk in chat_ids]


def _last_exchanges(*, user: User, ranked: Sequence[RelationshipMetrics]) -> dict[int, datetime]:
    """When the last message cited for each drifted contact (their newest exchange) was sent."""
    first_ids = {
        item.person_id: item.representative_message_ids[0]
        for item in ranked
        if item.representative_message_ids
    }
    sent = dict(
        Message.objects.filter(user=user, pk__in=list(first_ids.values())).values_list(
            "pk", "sent_at"
        )
    )
    return {pid: sent[mid] for pid, mid in first_ids.items() if mid in sent}


# Words that ask for plans in general: not a topic a plan's messages must use.
_PLAN_WORDS = frozenset({"plan", "plans", "planned", "happening", "on", "going"})
PLANS_READ_FOR_WINDOW = 200


def _plans_in_window(
    *, user: User, compiled: CompiledQuery, terms: tuple[str, ...]
) -> list[PlanTimeline]:
    """Plans for a day inside the question's window ("this weekend", "tonight"), read from
    what their messages say (not when they were sent), soonest first."""
    time_range = compiled.time_range
    if time_range is None:
        return []
    zone = user.zoneinfo
    first_day = time_range.start_utc.astimezone(zone).date()
    last_day = (time_range.end_utc - timedelta(microseconds=1)).astimezone(zone).date()
    candidates = plans_for_user(
        user=user,
        terms=terms,
        person_ids=_person_ids(compiled),
        statuses=compiled.plan_status,
        sent_after=time_range.start_utc - PLANNING_HORIZON,
        sent_before=time_range.end_utc,
        chat_ids=_strict_chat_ids(compiled),
        limit=PLANS_READ_FOR_WINDOW,
    )
    dated = []
    for plan in candidates:
        when = plan_current_when(plan, zone)
        if when is not None and when.day is not None and when.overlaps(first_day, last_day):
            dated.append((when.day, when.clock, plan))
    dated.sort(key=lambda item: (item[0], item[1], item[2].first_sent_at))
    return [plan for _day, _clock, plan in dated]


def _plan_hits(
    *, user: User, compiled: CompiledQuery, now: datetime
) -> tuple[list[_Hit], list[Finding]]:
    time_range = compiled.time_range
    terms = tuple(term for term in compiled.keywords if fold_text(term) not in _PLAN_WORDS)
    topic = _plan_topic_terms(compiled)
    plans = _plans_in_window(user=user, compiled=compiled, terms=terms)[:PLANS_CITED]
    if not topic and not _person_ids(compiled) and time_range is not None:
        # "What have I got on this weekend?": every plan whose day falls in the window, read
        # from the messages that name a day in it, with the stored ones not already there.
        read = _window_plans(user=user, compiled=compiled, now=now)
        plans = [
            *read,
            *(
                plan
                for plan in plans
                if not any(set(plan.message_ids) & set(other.message_ids) for other in read)
            ),
        ][:PLANS_CITED]
        if not plans:
            # Nothing in the window: say so, with the nearest plan, rather than quote old
            # messages that merely say "this weekend".
            return _nothing_in_window(user=user, compiled=compiled, now=now)
    elif not plans or topic:
        stored = plans or plans_for_user(
            user=user,
            terms=compiled.keywords,
            person_ids=_person_ids(compiled),
            statuses=compiled.plan_status,
            sent_before=time_range.end_utc if time_range is not None else None,
            chat_ids=_strict_chat_ids(compiled),
            limit=PLANS_CITED,
        )
        if not stored and compiled.plan_status:
            # "Why was it moved?" of a plan confirmed again after the move: its history
            # holds the status asked about, its current status another.
            stored = [
                plan
                for plan in plans_for_user(
                    user=user,
                    terms=compiled.keywords,
                    person_ids=_person_ids(compiled),
                    sent_before=time_range.end_utc if time_range is not None else None,
                    chat_ids=_strict_chat_ids(compiled),
                    limit=PLANS_CITED,
                )
                if any(step.status in compiled.plan_status for step in plan.steps)
            ]
        in_window = plans
        plans = list(stored)
        read_plan = _topic_plan(user=user, compiled=compiled, now=now, plans=plans, terms=topic)
        if read_plan is not None:
            plans = [read_plan]
        elif plans and plans[0].plan_id:
            # The stored plan as it stands now: what its chats and people said of its day
            # since it was last discussed.
            plans[0] = plan_read_on(user=user, plan=plans[0], now=now) or plans[0]
        asked = _asked_form(compiled)
        if not (_plan_asks_yes_no(asked) or _PLAN_YES_NO.search(asked)):
            # "Am I still seeing Sam tomorrow?" is answered by the plan that moved away from
            # the day ("No"); "what time is it friday?" is not answered by another day's plan.
            plans = [
                plan for plan in plans if _ever_in_window(user=user, compiled=compiled, plan=plan)
            ]
            plans = plans or in_window
    if (
        plans
        and _ASKS_CLOCK.search(fold_text(compiled.read_as))
        and not _says_clock(user, plans[0])
    ):
        # "What time is Sam's flight?" of a plan whose messages name only its day: memory
        # does not know the time, and the plan's day is not that answer.
        return [], []
    ordered: list[_Hit] = []
    for plan in plans:
        steps = sorted(plan.steps, key=lambda step: (step.sent_at, step.message_id))
        ordered.extend((step.message_id, str(step.status)) for step in steps)
    findings = _plan_findings(user=user, plans=plans, now=now)
    folded = _asked_form(compiled)
    if findings and (_plan_asks_yes_no(folded) or _PLAN_YES_NO.search(folded)):
        answer = (
            _plan_yes_no(user=user, compiled=compiled, plan=plans[0])
            if _plan_asks_yes_no(folded)
            # "When is it, and am I going?": whether it is still on, whatever its day.
            else ("No" if plans[0].status == PlanStatus.CANCELLED else "Yes")
        )
        findings[0] = Finding(
            text=f"{answer}: " + findings[0].text,
            message_ids=findings[0].message_ids,
        )
    if plans and _asks_detail(compiled):
        detail = _plan_detail(user=user, compiled=compiled, plan=plans[0], now=now)
        if detail is None:
            # Asked who drives or what to bring, and no message in scope says: the plan's own
            # time is not that answer.
            return [], []
        findings.append(detail)
        ordered.extend((mid, "detail") for mid in detail.message_ids)
    # The messages that prove what the findings state lead (the step that set the status,
    # the one that set the time, the proposal, the detail), so they reach the answer's
    # sources before the rest of a long plan's steps.
    proving = list(dict.fromkeys(mid for finding in findings for mid in finding.message_ids))
    notes = dict(ordered)
    ordered = [
        *((mid, notes[mid]) for mid in proving if mid in notes),
        *(hit for hit in ordered if hit[0] not in proving),
    ]
    return ordered, findings


NEAREST_PLANS = 2


def _ever_in_window(*, user: User, compiled: CompiledQuery, plan: PlanTimeline) -> bool:
    """Whether ``plan`` was ever set for a day inside the question's event window ("what time
    is X friday", "the weekend of the 17th"): a plan found by its topic or people that was
    never for a day in it is another occurrence or another plan, and its steps would answer a
    question nobody asked (search answers instead). True without such a window or when no
    step of the plan names a day."""
    time_range = compiled.time_range
    if time_range is None or time_range.applies_to != TimeTarget.EVENT:
        return True
    if _names_holiday(compiled.read_as):
        # A holiday names the occasion, not the day: "the xmas flight", "the easter trip" and
        # "the christmas party" are planned for days around it.
        return True
    days = _window_days(user, compiled)
    whens = [when for when in plan_whens(plan, user.zoneinfo) if when.day is not None]
    if days is None or not whens:
        return True
    first_day, last_day = days
    return any(when.overlaps(first_day, last_day) for when in whens if when.day is not None)


def _names_holiday(question: str) -> bool:
    folded = fold_text(question)
    return any(re.search(rf"\b{re.escape(name)}\b", folded) for name in HOLIDAY_NAMES)


def _span_text(first_day: date, last_day: date) -> str:
    """ "Sat 7-Sun 8 March" (with an en dash), "Tue 3 March"."""
    if first_day == last_day:
        return f"{first_day:%a} {first_day.day} {first_day:%B}"
    start = f"{first_day:%a} {first_day.day}"
    if first_day.month != last_day.month:
        start += f" {first_day:%B}"
    return f"{start}\u2013{last_day:%a} {last_day.day} {last_day:%B}"


def _nothing_in_window(
    *, user: User, compiled: CompiledQuery, now: datetime
) -> tuple[list[_Hit], list[Finding]]:
    """ "I found no plans for this weekend (Sat 7-Sun 8 March); the nearest: …": the window
    asked about, then the plans nearest it (the soonest after it, else the latest before),
    each stated and cited as a plan is."""
    days = _window_days(user, compiled)
    if days is None or compiled.time_range is None:
        return [], []
    first_day, last_day = days
    zone = user.zoneinfo
    candidates = plans_for_user(
        user=user,
        terms=(),
        person_ids=_person_ids(compiled),
        sent_after=now - PLANNING_HORIZON,
        sent_before=now,
        chat_ids=_strict_chat_ids(compiled),
        limit=PLANS_READ_FOR_WINDOW,
    )
    ahead: list[tuple[date, PlanTimeline]] = []
    before: list[tuple[date, PlanTimeline]] = []
    for plan in candidates:
        when = plan_current_when(plan, zone)
        if plan.status == PlanStatus.CANCELLED or when is None or when.day is None:
            continue
        if when.day > last_day:
            ahead.append((when.day, plan))
        elif when.day < first_day and when.day >= now.astimezone(zone).date():
            before.append((when.day, plan))
    ahead.sort(key=lambda item: (item[0], item[1].first_sent_at))
    before.sort(key=lambda item: (item[0], item[1].first_sent_at), reverse=True)
    nearest = [plan for _day, plan in (before + ahead)[:NEAREST_PLANS]]
    if not nearest:
        return [], []
    # "on friday" is asked as "Friday": the window's words without their preposition.
    phrase = re.sub(r"^(?:on|for|at)\s+", "", compiled.time_range.label.split(" (")[0].strip())
    if re.fullmatch(r"(?:mon|tues|wednes|thurs|fri|satur|sun)day", phrase):
        phrase = phrase.capitalize()
    stated = _plan_findings(user=user, plans=nearest, now=now)
    first = stated[0]
    opening = f"I found no plans for {phrase} ({_span_text(first_day, last_day)}); the nearest: "
    lead = Finding(
        text=opening + first.text[:1].lower() + first.text[1:], message_ids=first.message_ids
    )
    hits: list[_Hit] = []
    for plan in nearest:
        hits.extend((step.message_id, str(step.status)) for step in plan.steps)
    proving = list(dict.fromkeys(mid for finding in stated for mid in finding.message_ids))
    notes = dict(hits)
    ordered = [
        *((mid, notes[mid]) for mid in proving if mid in notes),
        *(hit for hit in hits if hit[0] not in proving),
    ]
    return ordered, [lead, *stated[1:]]


def _asks_detail(compiled: CompiledQuery) -> bool:
    folded = fold_text(compiled.read_as)
    return bool(_BRING_ASKED.search(folded) or _RIDE_ASKED.search(folded))


# "Quiz night thursday still on?": a yes/no question with its verb left out.
_STILL_ON = re.compile(
    r"\bstill\s+(?:on|happening|going\s+ahead)\b"
    # "the launch still the 6th?", "Ana's move is still saturday": still a day or a date.
    r"|\bstill\s+(?:for\s+|at\s+)?(?:this\s+|next\s+|the\s+)?(?:today|tonight|tomorrow"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|\d{1,2}(?:st|nd|rd|th))\b"
    # A statement with a tag: "it's still on Friday, right?", "she lands at six, yeah?"
    r"|[\s,](?:right|yeah|yes|correct|no|isn't\s+it|aren't\s+they|isn't\s+she|isn't\s+he)"
    r"\s*\?+\s*$"
)


def _asked_form(compiled: CompiledQuery) -> str:
    """The question folded in the surface form its intent was read from: "r we still doing
    it" reads "are we still doing it", so it is answered yes or no as the typed-out form is."""
    return fold_text(canonical_question(compiled.read_as))


def _plan_asks_yes_no(folded: str) -> bool:
    """Whether a plan question expects yes or no: "is it still on?", "still on the 17th?"."""
    return bool(_YES_NO.search(folded) or _STILL_ON.search(folded) or _STATED.search(folded))


# A statement asked with a question mark, no wh-word: "the dinner is sat?", "the party's at 8?".
_STATED = re.compile(
    r"^(?!.*\b(?:what|when|where|who|whom|which|how|why)\b)"
    r"\W*(?:the\s+|our\s+|my\s+)?[\w'-]+(?:\s+[\w'-]+){0,5}?(?:'s|\s+is|\s+are)\s+[^?]+\?+\s*$"
)


# "..., and am I getting them?": a yes/no clause after the "when".
_PLAN_YES_NO = re.compile(r"(?:,|\band)\s+(?:am|are|is|do|does|did|will|can)\s+(?:i|we)\b")
# Asked about arriving: the messages say "land", "flight", "arrive".
_ARRIVAL_ASKED = re.compile(
    r"\b(?:getting\s+in|get\s+in|gets\s+in|arriv\w*|land|landing|lands|fly(?:ing)?\s+in)\b"
)
_ARRIVAL_WORDS = ("land", "arrive", "flight", "flying")
# What the plan asks of the user, and who drives or picks up.
_BRING_ASKED = re.compile(r"\bbring\b")
_BRING_SQL = r"\m(bring|traz|trae|traer|apporte|mitbring)"
_RIDE_ASKED = re.compile(r"\b(?:driv\w*|pick\w*\s+(?:\w+\s+)?up|picked|lift|ride)\b")
_RIDE_SQL = (
    r"\m(driving|drives|(i['\u2019]?ll|i can|can you|could you|who['\u2019]?s) drive"
    r"|pick(ing)? (you|u|me|us|them|him|her) up|pick (you|u|me|us|them|him|her)\M|lift\M|ride"
    r"|te pego|te busco|te recojo|passo a[íi])"
)
DETAIL_READ = 80


# Words that ask how a plan stands ("is it locked in?", "was it finalised?"): no topic of it.
_STATUS_ASKED = re.compile(
    r"locked|confirm(?:ed)?|finali[sz]ed|settled|decided|agreed|cancell?ed|rescheduled"
    r"|postponed|moved|changed"
)


def _plan_topic_terms(compiled: CompiledQuery) -> list[str]:
    """The words a plan's messages would use: the question's topic words, a role nobody
    resolved ("the plumber"), a holiday it names ("Thanksgiving") and, for an arrival, the
    words arrivals are said with."""
    terms = [
        term
        for term in deed_topic_terms(topic_terms(compiled))
        if term not in _PLAN_WORDS and len(term) >= 3 and not _STATUS_ASKED.fullmatch(term)
    ]
    for person in compiled.people:
        if not person.person_ids:
            terms.extend(fold_text(word) for word in person.descriptors)
    folded = fold_text(compiled.read_as)
    terms.extend(
        name for name in sorted(HOLIDAY_NAMES) if re.search(rf"\b{re.escape(name)}\b", folded)
    )
    if _ARRIVAL_ASKED.search(folded):
        terms.extend(_ARRIVAL_WORDS)
    return list(dict.fromkeys(terms))


def _window_days(user: User, compiled: CompiledQuery) -> tuple[date, date] | None:
    time_range = compiled.time_range
    if time_range is None:
        return None
    zone = user.zoneinfo
    return (
        time_range.start_utc.astimezone(zone).date(),
        (time_range.end_utc - timedelta(microseconds=1)).astimezone(zone).date(),
    )


def _window_plans(*, user: User, compiled: CompiledQuery, now: datetime) -> list[PlanTimeline]:
    days = _window_days(user, compiled)
    if days is None:
        return []
    return window_plans(
        user=user,
        first_day=days[0],
        last_day=days[1],
        now=now,
        chat_ids=_strict_chat_ids(compiled),
    )


def _plan_detail(
    *, user: User, compiled: CompiledQuery, plan: PlanTimeline, now: datetime
) -> Finding | None:
    """What the plan asks the user to bring ("Marisa asked you to bring: ice and chips") or
    who drives ("Rosa said: I'm driving tomorrow, pick you up at 7:15"), from the plan's
    chats (and its people's direct chats) while it was discussed, citing that message."""
    folded = fold_text(compiled.read_as)
    if _BRING_ASKED.search(folded):
        pattern = _BRING_SQL
    elif _RIDE_ASKED.search(folded):
        pattern = _RIDE_SQL
    else:
        return None
    chat_ids = {step.chat_id for step in plan.steps}
    strict = _strict_chat_ids(compiled)
    if strict is not None:
        chat_ids &= set(strict)
    named = person_ids_expand(user=user, person_ids=list(_person_ids(compiled)))
    found = Message.objects.filter(user=user)
    if named and pattern == _RIDE_SQL:
        # "What time is Rosa picking me up?": what Rosa said, not what someone else did.
        found = found.filter(sender_person_id__in=named)
    rows = list(
        found.filter(
            chat_id__in=chat_ids,
            deleted_at__isnull=True,
            sent_at__gte=plan.first_sent_at,
            sent_at__lt=now,
            text__iregex=pattern,
        )
        .order_by("-sent_at", "-pk")
        .values_list("pk", "chat_id", "sent_at", "text", "is_from_self", "sender_person_id")[
            :DETAIL_READ
        ]
    )
    if not rows:
        return None
    pk, chat_id, sent_at, text, is_from_self, sender = rows[0]
    if is_from_self and "?" in text:
        # The user asked what to bring: the answer is the next message someone else sent.
        answer = (
            Message.objects.filter(
                user=user,
                chat_id=chat_id,
                deleted_at__isnull=True,
                is_from_self=False,
                sent_at__gt=sent_at,
                sent_at__lt=min(now, sent_at + timedelta(hours=2)),
            )
            .order_by("sent_at", "pk")
            .values_list("pk", "chat_id", "sent_at", "text", "is_from_self", "sender_person_id")
            .first()
        )
        if answer is None:
            return None
        pk, chat_id, sent_at, text, is_from_self, sender = answer
    if is_suspicious(text):
        return None
    display = (
        Person.objects.filter(user=user, pk=sender).values_list("display_name", flat=True).first()
        if sender is not None
        else None
    )
    name = "You" if is_from_self else (display or "Someone").split()[0]
    said = " ".join(text.split())
    if pattern == _BRING_SQL and not is_from_self:
        sentence = f"{name} asked you to bring: {said}"
    else:
        sentence = f"{name} said ({moment_text(sent_at, user.zoneinfo)}): {said}"
    return Finding(text=sentence, message_ids=(pk,))


# Whether a plan was agreed on, not merely whether it exists.
_ASKS_AGREED = re.compile(
    r"\b(?:settle[ds]?|confirm(?:ed|s)?|decide[ds]?|agree[ds]?|lock(?:ed)?\s+in|fix(?:ed)?"
    r"|final(?:ized|ised)?|set\s+in\s+stone|pin(?:ned)?\s+down)\b"
)


# Asked for the hour of a plan, not its day ("what time is the flight?", "at what time …").
_ASKS_CLOCK = re.compile(r"\bwhat\s+time\b(?!\s+(?:is|'s)\s+it\b)")


def _says_clock(user: User, plan: PlanTimeline) -> bool:
    """Whether the plan's messages name an hour for it, or it was called off (then its hour
    is no longer the answer)."""
    if plan.status == PlanStatus.CANCELLED:
        return True
    return any(when.clock for when in plan_whens(plan, user.zoneinfo))


def _plan_yes_no(*, user: User, compiled: CompiledQuery, plan: PlanTimeline) -> str:
    """ "Is it still on Saturday?": no when the plan was moved or cancelled, or is now for a
    day outside the question's window; yes otherwise."""
    if plan.status == PlanStatus.CANCELLED:
        return "No"
    if plan.status == PlanStatus.PROPOSED and _ASKS_AGREED.search(fold_text(compiled.read_as)):
        # "Did we settle the date?" of a plan only proposed: not yet.
        return "No"
    time_range = compiled.time_range
    when = plan_current_when(plan, user.zoneinfo)
    if time_range is None or when is None or when.day is None:
        return "No" if plan.status == PlanStatus.CHANGED else "Yes"
    # Asked of a day: yes when the plan is (now) for it ("now that it is on Sunday"), no when
    # it moved away from it; with a clock, of the hours asked ("Friday night").
    zone = user.zoneinfo
    clock = _CLOCK_START.match(when.clock)
    if clock is not None:
        moment = datetime.combine(
            when.day, time(int(clock.group(1)), int(clock.group(2))), tzinfo=zone
        )
        return "Yes" if time_range.start_utc <= moment < time_range.end_utc else "No"
    first_day = time_range.start_utc.astimezone(zone).date()
    last_day = (time_range.end_utc - timedelta(microseconds=1)).astimezone(zone).date()
    return "Yes" if when.overlaps(first_day, last_day) else "No"


_CLOCK_START = re.compile(r"(\d{1,2}):(\d{2})(?![\u2013-])")


def _topic_plan(
    *,
    user: User,
    compiled: CompiledQuery,
    now: datetime,
    plans: Sequence[PlanTimeline],
    terms: Sequence[str],
) -> PlanTimeline | None:
    """The plan read from the messages about the question's topic (``timeline``), unless a
    stored plan's messages use as many of the rare words it was read from (a tie goes to
    the reading when it holds all of that stored plan's messages: the same plan, read up to
    now)."""
    found = topic_plan(
        user=user,
        terms=terms,
        now=now,
        chat_ids=_strict_chat_ids(compiled),
        person_ids=person_ids_expand(user=user, person_ids=list(_person_ids(compiled))),
        window=_window_days(user, compiled),
    )
    if found is None:
        return None
    topic, used = found
    # Compared on the rare words the topic plan was read from: a stored plan that shares
    # only a common word ("dinner") is another plan.
    if not plans:
        return topic
    stored_used = _terms_used(user=user, plans=plans, terms=used)
    if len(used) > stored_used:
        return topic
    # A tie: the reading that holds all of a stored plan's messages and more is the same plan
    # with what was said since (in other chats too).
    holds_stored = any(set(plan.message_ids) <= set(topic.message_ids) for plan in plans)
    if len(used) != stored_used:
        return None
    if holds_stored:
        return topic
    if (
        _window_days(user, compiled) is not None
        and _ever_in_window(user=user, compiled=compiled, plan=topic)
        and not any(_ever_in_window(user=user, compiled=compiled, plan=plan) for plan in plans)
    ):
        # "Am I swimming this week?": the reading set in the window the question names wins
        # over stored plans never set in it (the habit's earlier weeks).
        return topic
    # A tie with a stored plan for the same day (a booking confirmed in its own chat while the
    # trip was moved in another): one plan, told in both places.
    same = next((plan for plan in plans if _same_day(user, topic, plan)), None)
    return _joined(topic, same) if same is not None else None


def _same_day(user: User, one: PlanTimeline, other: PlanTimeline) -> bool:
    """Whether two plans are now for the same day (or one's days hold the other's)."""
    first, second = (plan_current_when(plan, user.zoneinfo) for plan in (one, other))
    if first is None or second is None or first.day is None or second.day is None:
        return False
    return first.day <= second.day <= (first.last_day or first.day) or second.day <= first.day <= (
        second.last_day or second.day
    )


def _joined(read: PlanTimeline, stored: PlanTimeline) -> PlanTimeline:
    """The plan read when asked with the stored plan's steps among its own, in time order; a
    plan agreed again after it moved still moved."""
    steps = sorted(
        {step.message_id: step for step in (*read.steps, *stored.steps)}.values(),
        key=lambda step: (step.sent_at, step.message_id),
    )
    status = steps[-1].status
    if status == PlanStatus.CONFIRMED and any(s.status == PlanStatus.CHANGED for s in steps):
        status = PlanStatus.CHANGED
    return replace(
        read,
        place=read.place or stored.place,
        status=status,
        first_sent_at=steps[0].sent_at,
        last_sent_at=steps[-1].sent_at,
        steps=tuple(steps),
    )


def _terms_used(*, user: User, plans: Sequence[PlanTimeline], terms: Sequence[str]) -> int:
    """The most topic words one stored plan's messages use."""
    if not plans or not terms:
        return 0
    texts: dict[int, str] = dict(
        Message.objects.filter(
            user=user, pk__in=[mid for plan in plans for mid in plan.message_ids]
        ).values_list("pk", "text")
    )
    best = 0
    for plan in plans:
        folded = fold_text(
            " ".join([plan.activity, plan.place, *(texts.get(m, "") for m in plan.message_ids)])
        )
        best = max(best, sum(1 for term in terms if _stem_match(term, folded)))
    return best


def _plan_findings(*, user: User, plans: Sequence[PlanTimeline], now: datetime) -> list[Finding]:
    if not plans:
        return []
    person_ids = {pid for plan in plans for pid in plan.person_ids}
    chat_ids = {step.chat_id for plan in plans for step in plan.steps}
    names = {
        pk: (name or "").split()[0] if name else ""
        for pk, name in Person.objects.filter(user=user, pk__in=person_ids).values_list(
            "pk", "display_name"
        )
    }
    titles = dict(Chat.objects.filter(user=user, pk__in=chat_ids).values_list("pk", "title"))
    return [
        plan_finding(
            plan,
            zone=user.zoneinfo,
            names=names,
            chat_titles=titles,
            today=now.astimezone(user.zoneinfo).date(),
        )
        for plan in plans
    ]


def _own_relation(person: PersonRef) -> str | None:
    """The relation of a reference the compiler resolved through the user's kinship facts
    ("my brother", "mom"), or ``None``."""
    words = (person.name or "").casefold().split()
    if words[:1] in (["my"], ["our"]):
        words = words[1:]
    if not person.person_ids or len(words) != 1:
        return None
    relation = kin_relation(words[0])
    # A contact saved as "Mom" keeps the word as a descriptor of itself.
    return relation if person.descriptors in ((), (relation,)) else None


def _named_by_role(person: PersonRef) -> PersonRef:
    """A contact saved with a role ("Rui plumber") and asked about by it ("the plumber's
    number") is a named person: the role is their name, not a description to match."""
    words = set(fold_text(person.name or "").removesuffix("'s").split())
    if person.person_ids and person.descriptors and set(person.descriptors) <= words:
        return replace(person, descriptors=())
    return person


def _identity_hits(*, user: User, compiled: CompiledQuery) -> tuple[list[_Hit], list[Finding]]:
    # "my brother" is asked about as the user's relative: who they are, then what memory
    # knows about them.
    compiled = replace(
        compiled,
        people=tuple(
            PersonRef(name=None, descriptors=(relation,))
            if (relation := _own_relation(person))
            else _named_by_role(person)
            for person in compiled.people
        ),
    )
    descriptors = tuple(
        dict.fromkeys(word for person in compiled.people for word in person.descriptors)
    )
    city = compiled.location.city if compiled.location is not None else None
    same_findings, same_ids = same_person_findings(user=user, question=compiled.read_as)
    if same_ids:
        # "Is 'Dad mobile' the same person as Jon?": a message of the person under each name.
        return [(mid, "same person") for mid in same_ids], same_findings
    if not descriptors and not city:
        # A named person: what the messages about them say of the attribute asked ("where is
        # Rui from?"), then what memory knows about them (their facts' messages).
        about: list[_Hit] = []
        findings: list[Finding] = []
        refs = [person for person in compiled.people if person.name and person.person_ids]
        name, person_ids = "", []
        humans = (
            _distinct_humans(user=user, person_ids=refs[0].person_ids) if len(refs) == 1 else []
        )
        if len(humans) > 1:
            # Two people share the name asked about: answer for each, told apart. When the
            # messages say nothing of either on the point asked, memory's facts about all of
            # them are read below, as for one person.
            namesake_hits, namesakes = _each_namesake(
                user=user, name=refs[0].name or "", humans=humans, question=compiled.read_as
            )
            if namesakes:
                return namesake_hits, namesakes
        if len(refs) == 1:
            person_ids = list(person_ids_expand(user=user, person_ids=list(refs[0].person_ids)))
            person_ids += alias_person_ids(user=user, person_ids=person_ids)
            name = (refs[0].name or "").removesuffix("'s")
        elif not refs:
            # A name no contact has may be a contact's real name under a nickname.
            name, person_ids = people_called(user=user, question=compiled.read_as)
            if not person_ids:
                name, person_ids = _self_named(user=user, question=compiled.read_as)
            if not person_ids:
                # ... or someone the user's contacts talk about ("my sister Bea just started
                # at Greyline"): what those messages say of them.
                findings, ids = _said_of_someone(user=user, question=compiled.read_as)
                if findings:
                    return [(mid, "about them") for mid in ids], findings
        if person_ids:
            findings, ids = _about_person(
                user=user, person_ids=person_ids, name=name, question=compiled.read_as
            )
            about = [(mid, f"about {name}") for mid in ids]
        return [*about, *_named_person_fact_hits(user=user, compiled=compiled)], findings
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
    findings = []
    asks_who = fold_text(compiled.read_as).lstrip(" ¿?¡!'\"").startswith("who")
    if len(result.matches) == 1 and (
        asked_contact_kinds(compiled.read_as) or asks_who or is_relation
    ):
        # "What's our landlord's number?", "who's the landlord?": the one person the words
        # describe, asked about like a named person.
        (match,) = result.matches
        match_ids = person_ids_expand(user=user, person_ids=[match.person_id])
        # "Jonah (brother)" is said "Jonah": the relation is the question's own word.
        shown_name = re.sub(r"\s*\([^)]*\)", "", match.display_name).strip() or match.display_name
        findings, ids = (
            _about_person(
                user=user,
                person_ids=match_ids,
                name=shown_name,
                question=compiled.read_as,
            )
            if not asks_who
            else who_findings(user=user, person_ids=match_ids, name=shown_name)
        )
        if not findings and is_relation:
            # "What about my sister?": who she is, when the attribute asked is not told.
            findings, ids = who_findings(user=user, person_ids=match_ids, name=shown_name)
        about = [(mid, f"about {match.display_name}") for mid in ids]
        # A relative is cited as the message saying who they are first, then what was asked.
        asked_directly = asks_who or asked_contact_kinds(compiled.read_as)
        hits = [*about, *hits] if asked_directly else [*hits, *about]
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
    return hits, findings


def _distinct_humans(*, user: User, person_ids: Sequence[int]) -> list[list[int]]:
    """``person_ids`` grouped into humans: merged people, and people with one phone number
    written two ways, are one."""
    groups: list[list[int]] = []
    phones = dict(
        PersonIdentity.objects.filter(
            user=user, person_id__in=list(person_ids), kind=IdentityKind.PHONE
        ).values_list("person_id", "value")
    )
    for pid in person_ids:
        expanded = set(person_ids_expand(user=user, person_ids=[pid]))
        for group in groups:
            if expanded & set(group) or any(
                phones.get(pid)
                and phones.get(other)
                and phone_same_number(phones[pid], phones[other])
                for other in group
            ):
                group.append(pid)
                break
        else:
            groups.append([pid])
    return groups


NAMESAKES_ANSWERED = 3


def _each_namesake(
    *, user: User, name: str, humans: Sequence[Sequence[int]], question: str
) -> tuple[list[_Hit], list[Finding]]:
    """Several humans share the name asked about ("who is Sam?" with two Sams): what the
    question asks about each, under their full contact name, and which one is meant is left
    to the user."""
    parts: list[str] = []
    hits: list[_Hit] = []
    shown = 0
    for group in humans[:NAMESAKES_ANSWERED]:
        person_ids = list(person_ids_expand(user=user, person_ids=list(group)))
        full = (
            Person.objects.filter(user=user, pk__in=person_ids)
            .order_by("pk")
            .values_list("display_name", flat=True)
            .first()
        ) or name
        # Only what the question asks: a namesake the messages say nothing of on that point
        # is not described instead (that would answer a question nobody asked).
        findings, ids = _about_person(
            user=user, person_ids=person_ids, name=full, question=question
        )
        if findings:
            parts.append(findings[0].text)
            hits.extend((mid, f"about {full}") for mid in ids)
            shown += 1
    if not parts:
        return [], []
    called = name.removesuffix("'s")
    lead = f"You have {len(humans)} contacts called {called}; which one do you mean?"
    finding = Finding(text=" ".join([lead, *parts]), message_ids=tuple(mid for mid, _ in hits))
    return hits, [finding]


_NAME_SAID = re.compile(r"(?<![\w'])([A-ZÀ-Ý][a-zà-ÿ]{2,})(?:['\u2019]s)?\b")


MENTIONS_READ = 200


def _said_of_someone(*, user: User, question: str) -> tuple[list[Finding], list[int]]:
    """Who a person no contact is saved as is, from the messages that name them: whose
    relative or partner they are, where they work or live (``about.who_statements``), one
    statement per kind, each cited."""
    for match in _NAME_SAID.finditer(question):
        name = match.group(1)
        if match.start() == 0 or fold_text(name) in STOP_WORDS:
            continue
        rows = (
            Message.objects.filter(
                user=user,
                deleted_at__isnull=True,
                chat__is_excluded_from_ai=False,
                text__iregex=rf"(^|[^[:alnum:]]){re.escape(name)}([^[:alnum:]]|$)",
            )
            .order_by("-sent_at", "-pk")
            .values_list("pk", "text", "is_from_self", "sender_person__display_name")[
                :MENTIONS_READ
            ]
        )
        statements: dict[str, Finding] = {}
        for pk, text, is_from_self, sender in rows:
            if is_suspicious(text or ""):
                continue
            for kind, statement in who_statements(
                text=text or "", name=name, sender=sender or "", is_from_self=is_from_self
            ):
                statements.setdefault(kind, Finding(text=f"{statement}.", message_ids=(pk,)))
        if statements:
            findings = list(statements.values())[:3]
            merged = Finding(
                text=" ".join(finding.text for finding in findings),
                message_ids=tuple(pk for finding in findings for pk in finding.message_ids),
            )
            return [merged], list(merged.message_ids)
    return [], []


def _self_named(*, user: User, question: str) -> tuple[str, list[int]]:
    """A name no contact is saved under that one contact gave as their own ("it's Greta, new
    number" from "Bubbles 🐙"): that contact, with every identity of the human."""
    for match in _NAME_SAID.finditer(question):
        if match.start() == 0 and fold_text(match.group(1)) in STOP_WORDS:
            continue
        person_ids = people_self_named(user=user, name=match.group(1))
        if person_ids:
            return match.group(1), list(person_ids_expand(user=user, person_ids=person_ids))
    return "", []


def _about_person(
    *, user: User, person_ids: Sequence[int], name: str, question: str
) -> tuple[list[Finding], list[int]]:
    """What an identity question asks about one named person: their number or email
    ("what's Dana's number?"), who they are to the user ("who is Leo?", "how do I know
    Leo?"), else the attribute the messages about them tell ("where is Rui from?")."""
    kinds = asked_contact_kinds(question)
    if kinds:
        return contact_findings(user=user, person_ids=person_ids, name=name, kinds=kinds)
    if asked_who(question):
        return who_findings(user=user, person_ids=person_ids, name=name)
    return about_findings(user=user, person_ids=person_ids, name=name, question=question)


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


# Words of life news and decisions (a job, a move, an engagement, a birth, a launch), in the
# languages the history is written in: such a message leads a catch-up before small talk.
_LIFE_NEWS = re.compile(
    r"\b(?:job|jobs|hired|offer|promot\w*|laid\s+off|layoffs?|resign\w*|quit|start\s+date"
    r"|new\s+role|moving|movers|move\s+to|moved\s+to|relocat\w*|new\s+(?:apartment|place|house)"
    r"|engaged|fianc\w*|married|wedding|pregnan\w*|baby|born|divorc\w*|broke\s+up|hospital"
    r"|surgery|diagnos\w*|passed\s+away|funeral|graduat\w*|accepted|admitted|retir\w*"
    r"|launch\w*|bought|sold|visa|emprego|mudan[cç]a|casamento|noiv\w*|gr[aá]vida|beb[eêé]"
    r"|trabajo|mudanza|boda|embarazada|comprometid\w*|emploi|d[ée]m[ée]nag\w*|mariage"
    r"|enceinte|umzug|hochzeit|schwanger|verlobt)\b",
    re.IGNORECASE,
)
# How many words of salience a piece of life news is worth over small talk.
LIFE_NEWS_BONUS = 10


def news_weight(text: str) -> int:
    """``salience``, raised for life news and decisions: what a catch-up leads with."""
    return salience(text) + (LIFE_NEWS_BONUS if _LIFE_NEWS.search(fold_text(text)) else 0)


def _most_telling_first(
    item: tuple[int, datetime, int, *tuple[object, ...]],
) -> tuple[float, float, int]:
    """Sort key of (salience, sent_at, message id, ...): most telling, then newest, first."""
    return (-item[0], -item[1].timestamp(), -item[2])


# A catch-up with no window of its own widens while fewer messages of others came in it.
RECENT_MIN_MESSAGES = 1
RECENT_WIDER_DAYS = (7, 14, 30)
# A catch-up over one chat, person or platform that names no time reads at least this many
# days: a chat's news is rarer than all chats' news.
SCOPED_CATCH_UP_DAYS = 7
# A name shorter than this is not looked for in other people's messages.
MENTION_MIN_CHARS = 3


@dataclass(frozen=True)
class CatchUpWindow:
    """``[start, end)`` of a catch-up; ``asked_start`` is where the question's own window (or
    the default one) began before a quiet window was widened; ``is_chosen`` when the
    question said it (time words, "since we got back")."""

    start: datetime
    end: datetime
    is_chosen: bool
    asked_start: datetime


def _catch_up_window(
    *, user: User, compiled: CompiledQuery, now: datetime, is_scoped: bool
) -> CatchUpWindow:
    """The window of a catch-up: its own time words, the user's return ("since we got back"),
    else the default window (at least ``SCOPED_CATCH_UP_DAYS`` for a catch-up over one chat,
    person or platform), which may widen later when quiet."""
    trip_window = _trip_window(user=user, question=compiled.read_as, now=now)
    if trip_window is not None:
        return trip_window
    time_range = compiled.time_range
    explicit = resolve_time_expression(compiled.read_as, now=now, tz=user.zoneinfo)[0]
    start = (
        time_range.start_utc
        if time_range is not None
        else now - timedelta(days=RECENT_DEFAULT_DAYS)
    )
    end = min(time_range.end_utc, now) if time_range is not None else now
    if explicit is None and is_scoped:
        start = min(start, end - timedelta(days=SCOPED_CATCH_UP_DAYS))
    return CatchUpWindow(start=start, end=end, is_chosen=explicit is not None, asked_start=start)


def _trip_window(*, user: User, question: str, now: datetime) -> CatchUpWindow | None:
    """A window told by the user's latest trip (``away.latest_trip``): from their return
    ("since we got back", "since the trip"), or from leaving to coming back ("while I was
    away"); ``None`` when the question says neither or no trip is known."""
    since_return = asks_since_return(question)
    while_away = asks_while_away(question)
    if not (since_return or while_away):
        return None
    trip = latest_trip(user=user, now=now)
    if trip is None:
        return None
    if while_away and trip.left is not None:
        end = trip.back or now
        return CatchUpWindow(start=trip.left, end=end, is_chosen=True, asked_start=trip.left)
    if trip.back is not None:
        return CatchUpWindow(start=trip.back, end=now, is_chosen=True, asked_start=trip.back)
    return None


# A narrowed catch-up reads back at most this far for the user's last word.
NARROW_CATCH_UP_DAYS = 30


def _since_user_last_wrote(
    *, user: User, rows: models.QuerySet[Message], start: datetime, end: datetime
) -> datetime:
    """The start of a catch-up over some chats: the user's last message in the chats that
    spoke (not before ``NARROW_CATCH_UP_DAYS``, never later than ``start``)."""
    floor = end - timedelta(days=NARROW_CATCH_UP_DAYS)
    chats = list(
        rows.filter(sent_at__gte=floor, sent_at__lt=end)
        .values_list("chat_id", flat=True)
        .distinct()
    )
    if not chats:
        return start
    last = (
        Message.objects.filter(
            user=user,
            chat_id__in=chats,
            is_from_self=True,
            deleted_at__isnull=True,
            sent_at__gte=floor,
            sent_at__lt=end,
        )
        .order_by("-sent_at")
        .values_list("sent_at", flat=True)
        .first()
    )
    return min(start, last or floor)


def _from_or_about(
    *,
    user: User,
    compiled: CompiledQuery,
    person_ids: Sequence[int],
    names: Sequence[str] = (),
) -> models.Q:
    """Messages a catch-up on people reads: theirs in any chat, and others' that name them
    the way the question does ("catch me up on Ana": "Ana got the job!" in a group). A
    relative asked about by a relation word ("anything new from mum?") is named by any word
    for that relation ("mẹ khám xong rồi"), but only in a chat they are in: elsewhere "mum"
    is anyone's mother, or the reader ("Hi Mum, it's me, new number")."""
    condition = models.Q(sender_person_id__in=list(person_ids))
    said = []
    for person in compiled.people:
        if not person.person_ids:
            continue
        relation_named = relation_words(person.name or "")
        if not relation_named:
            said.append((person.name or "").strip())
            continue
        their_chats = ChatParticipant.objects.filter(
            chat__user=user, person_id__in=list(person_ids)
        ).values_list("chat_id", flat=True)
        pattern = "|".join(re.escape(word) for word in relation_named)
        condition |= models.Q(chat_id__in=their_chats, text__iregex=rf"\m({pattern})\M")
    for name in [*said, *names]:
        if len(name) >= MENTION_MIN_CHARS and name.replace(" ", "").isalpha():
            condition |= models.Q(text__iregex=rf"\m{re.escape(name)}\M")
    return condition


# A catch-up over a kind of chat: the family's or work's ("texts from the family", "work
# emails", "anything from work").
_FAMILY_CHATS = re.compile(
    r"\b(?:from|of|with|in)\s+(?:the\s+|my\s+|our\s+)?(?:family|fam|relatives|familia"
    r"|famille|familie)\b|\bfamily\s+(?:chats?|groups?|texts|messages|stuff)\b"
)
_WORK_CHATS = re.compile(
    r"\bwork\s+(?:e-?mails?|mails|chats?|messages|texts|stuff|things|channels?|groups?|slack)\b"
    r"|\b(?:from|at)\s+work\b|\b(?:from|of)\s+(?:my\s+)?(?:colleagues|co-?workers|team)\b"
)


def _kind_of_chat_ids(*, user: User, question: str) -> set[int]:
    """The chats of the kind a catch-up names: those the user's relatives are in ("from the
    family") or their colleagues (``_colleague_ids``: "work emails"); empty when the question
    names no kind or the memory knows nobody of it."""
    folded = fold_text(question)
    titled: set[int] = set()
    if _FAMILY_CHATS.search(folded):
        among = _ranking_among(user=user, question="family")
        # A group titled as the family's ("Fam 🏠", "Família Souza") is theirs too.
        titled = {
            pk
            for pk, title in Chat.objects.filter(user=user, kind=ChatKind.GROUP).values_list(
                "pk", "title"
            )
            if is_family_title(title or "")
        }
    elif _WORK_CHATS.search(folded):
        among = ("your colleagues", _colleague_ids(user=user))
    else:
        return set()
    people = sorted(among[1]) if among is not None else []
    return titled | set(
        ChatParticipant.objects.filter(chat__user=user, person_id__in=people)
        .values_list("chat_id", flat=True)
        .distinct()
    )


def _named_otherwise(*, user: User, question: str) -> tuple[str, list[int]]:
    """A name of the question (not its first word, which is capitalised anyway) that no
    contact is saved under but leads to one (``about.people_called``, ``_self_named``)."""
    rest = question.split(maxsplit=1)[1] if len(question.split()) > 1 else ""
    name, person_ids = people_called(user=user, question=rest)
    if not person_ids:
        name, person_ids = _self_named(user=user, question=rest)
    return name, list(person_ids_expand(user=user, person_ids=person_ids)) if person_ids else []


def _recent_hits(
    *, user: User, compiled: CompiledQuery, now: datetime
) -> tuple[list[_Hit], list[Finding]]:
    """A catch-up: what needs the user first (questions to them and their own promises still
    open, opened in the window; plans and times someone moved), then the most telling message
    of each chat that spoke in it, chats with the most telling message first, then each
    chat's second, ... Only other people's text messages lead an item (the user knows what
    they said; media placeholders say nothing). The window is the question's (its time words,
    "since we got back"), else the last few days (a week for one chat, person or platform),
    widened while fewer than ``RECENT_MIN_MESSAGES`` came, and the answer says so. A chat or
    a person the question names narrows it. Suspicious messages (spam, instructions to an
    assistant, anything in a chat or from a sender whose name holds such instructions) never
    lead an item: they are counted in a finding instead."""
    zone = user.zoneinfo
    chat_ids: list[int] | None = (
        list(_strict_chat_ids(compiled) or ()) if _strict_chat_ids(compiled) else None
    )
    if chat_ids is None:
        named_chats = chats_named(user=user, question=compiled.read_as)
        chat_ids = named_chats or None
    person_ids = person_ids_expand(user=user, person_ids=list(_person_ids(compiled)))
    platforms = messages_platforms(fold_text(compiled.read_as))
    mentioned: list[str] = []
    if not person_ids and not compiled.people and chat_ids is None and not platforms:
        # "Anything from Oisin I need to deal with?" where Oisin is saved as "Sprout": the
        # contact a name leads to through their titled group or their own introduction.
        name, found_ids = _named_otherwise(user=user, question=compiled.read_as)
        if found_ids:
            person_ids, mentioned = tuple(found_ids), [name]
    is_scoped = chat_ids is not None or bool(person_ids) or bool(platforms)
    window = _catch_up_window(user=user, compiled=compiled, now=now, is_scoped=is_scoped)
    start, end, chosen = window.start, window.end, window.is_chosen
    rows = Message.objects.filter(
        user=user, deleted_at__isnull=True, chat__is_excluded_from_ai=False, is_from_self=False
    ).exclude(kind=MessageKind.MEDIA)
    if chat_ids is not None:
        rows = rows.filter(chat_id__in=chat_ids)
    if person_ids:
        rows = rows.filter(
            _from_or_about(user=user, compiled=compiled, person_ids=person_ids, names=mentioned)
        )
    if platforms:
        rows = rows.filter(chat__platform__in=list(platforms))
    if not person_ids and chat_ids is None:
        # "any texts from the family since the weekend", "work emails since monday?": the
        # chats the user's relatives or colleagues are in, when any of them spoke in the window
        # (the people of a kind the memory cannot tell narrow nothing).
        kind_chats = _kind_of_chat_ids(user=user, question=compiled.read_as)
        if (
            kind_chats
            and rows.filter(chat_id__in=kind_chats, sent_at__gte=start, sent_at__lt=end).exists()
        ):
            chat_ids = sorted(kind_chats)
            rows = rows.filter(chat_id__in=chat_ids)
            is_scoped = True
    if not chosen and is_scoped and (chat_ids is not None or platforms):
        # Caught up on one chat or platform: since the user last wrote there. A person's news
        # is spread over every chat they are in, so a word of the user's in one of them
        # does not mean the user has read the rest.
        start = _since_user_last_wrote(user=user, rows=rows, start=start, end=end)
    asked_start = start

    def read(window_start: datetime) -> list[tuple[int, int, datetime, str, int | None, str, str]]:
        return list(
            rows.filter(sent_at__gte=window_start, sent_at__lt=end)
            .order_by("-sent_at", "-pk")
            .values_list(
                "pk",
                "chat_id",
                "sent_at",
                "text",
                "sender_person_id",
                "sender_name",
                "chat__title",
            )[:RECENT_SCAN]
        )

    found_rows = read(start)
    if not chosen:
        for days in RECENT_WIDER_DAYS:
            if len(found_rows) >= RECENT_MIN_MESSAGES:
                break
            start = min(start, end - timedelta(days=days))
            found_rows = read(start)
    loop_chat_ids = chat_ids
    if loop_chat_ids is None and platforms:
        # "Work emails since Monday?": what waits on the user there, not a promise on Discord.
        loop_chat_ids = list(
            Chat.objects.filter(user=user, platform__in=list(platforms)).values_list(
                "pk", flat=True
            )
        )
    loops = open_loops_for_user(
        user=user,
        kinds=(LoopKind.QUESTION_TO_USER, LoopKind.PROMISE_BY_USER),
        chat_ids=loop_chat_ids,
        person_ids=person_ids,
        opened_after=start,
        limit=RECENT_ITEMS,
    )
    if person_ids and chat_ids is None:
        # "Anything from Ana I need to deal with?": the user's own open promises in the chats
        # Ana is in count too ("I'll send the photos tomorrow" in her birthday group).
        their_chats = list(
            ChatParticipant.objects.filter(chat__user=user, person_id__in=list(person_ids))
            .values_list("chat_id", flat=True)
            .distinct()
        )
        known = {loop.opened_by_message_id for loop in loops}
        loops += [
            loop
            for loop in open_loops_for_user(
                user=user,
                kinds=(LoopKind.PROMISE_BY_USER,),
                chat_ids=their_chats,
                opened_after=start,
                limit=RECENT_ITEMS,
            )
            if loop.opened_by_message_id not in known
        ]
        loops.sort(key=lambda loop: loop.opened_at, reverse=True)
    loops = [loop for loop in loops if loop.opened_at < end]
    found: list[_Hit] = [
        (loop.opened_by_message_id, _loop_note(loop.kind, loop.person_name)) for loop in loops
    ]
    user_chats = set(
        Message.objects.filter(
            user=user, is_from_self=True, chat_id__in={row[1] for row in found_rows}
        )
        .values_list("chat_id", flat=True)
        .distinct()
    )
    suspicious: list[tuple[int, int, int | None]] = []
    by_chat: dict[int, list[tuple[int, datetime, int]]] = {}
    changes: list[tuple[datetime, int, str]] = []
    by_sender: dict[int, list[tuple[int, datetime, int, str, str]]] = {}
    for pk, chat_id, sent_at, text, sender, sender_name, title in found_rows:
        if (
            is_suspicious(text or "")
            or is_suspicious(sender_name or "")
            or is_suspicious(title or "")
            or (chat_id not in user_chats and _has_link(text or ""))
        ):
            suspicious.append((pk, chat_id, sender))
            continue
        weight = news_weight(text or "")
        by_chat.setdefault(chat_id, []).append((weight, sent_at, pk))
        if sender is not None:
            by_sender.setdefault(sender, []).append(
                (weight, sent_at, pk, sender_name or "", text or "")
            )
        change = change_statement(
            text or "", sender=_shown(sender_name or "", "sender"), sent_at=sent_at, zone=zone
        ) or cancel_statement(text or "", sender=_shown(sender_name or "", "sender"))
        if change:
            changes.append((sent_at, pk, change))
    changes.sort()
    changes = changes[-CHANGES_STATED:]
    news = _close_people_news(user=user, now=now, by_sender=by_sender, person_ids=person_ids)
    taken = {mid for mid, _ in found}
    for _sent_at, pk, _change in changes:
        if pk not in taken:
            taken.add(pk)
            found.append((pk, "moved a plan"))
    for pk, _name, _text in news:
        if pk not in taken:
            taken.add(pk)
            found.append((pk, ""))
    ranked_chats = sorted(
        (sorted(items, key=_most_telling_first) for items in by_chat.values()),
        key=lambda items: _most_telling_first(items[0]),
    )
    for mid in _round_robin([[item[2] for item in items] for items in ranked_chats]):
        if len(taken) >= RECENT_ITEMS:
            break
        if mid not in taken:
            taken.add(mid)
            found.append((mid, ""))
    if suspicious and not by_chat and not loops:
        # Only suspicious messages came: they are shown, flagged (never followed).
        found += [(pk, "suspicious") for pk, _, _ in suspicious[:SUSPICIOUS_SHOWN]]
    findings = _catch_up_findings(
        user=user,
        start=start,
        until=end if end < now - timedelta(hours=1) else None,
        asked_start=asked_start,
        loops=loops,
        changes=changes,
        news=news,
        by_chat=by_chat,
        suspicious=suspicious,
        zone=zone,
        where=" and ".join(_PLATFORM_NAMES.get(p, p) for p in platforms),
    )
    found = found[:RECENT_ITEMS]
    telling = [pk for pk, _name, _text in news] + [
        item[2] for items in ranked_chats for item in items[:1] if item[0] >= BACKGROUND_MIN_WORDS
    ]
    backgrounds = _backgrounds(user=user, message_ids=telling, before=start)
    with_backgrounds: list[_Hit] = []
    for hit in found:
        with_backgrounds.append(hit)
        if hit[0] in backgrounds:
            with_backgrounds.append((backgrounds[hit[0]], BACKGROUND_NOTE))
    shown = with_backgrounds[:RECENT_ITEMS]
    if person_ids:
        # Beside the items, so they push none out.
        shown = _with_what_they_answer(user=user, found=shown, person_ids=person_ids)
    return shown, findings


# A person's short reply in a catch-up on them ("ok no problem") is shown with what it answers.
ANSWERED_NOTE = "what they answer"
ANSWERED_MAX_WORDS = 6
ANSWERED_MIN_WORDS = 3


def _with_what_they_answer(
    *, user: User, found: Sequence[_Hit], person_ids: Sequence[int]
) -> list[_Hit]:
    """A catch-up on one person: each short message of theirs ("ok, no problem", "Ừ không
    sao con") followed by the user's message it answers (``closure.answered_messages``), so
    the reply says what it agrees to."""
    rows = Message.objects.filter(
        user=user, pk__in=[mid for mid, _note in found], sender_person_id__in=list(person_ids)
    ).select_related("chat")
    # In a group the message before is often someone else's thread: only a reply says.
    short = [
        row
        for row in rows
        if len((row.text or "").split()) <= ANSWERED_MAX_WORDS
        and (row.chat.kind == ChatKind.DIRECT or row.reply_to_id is not None)
    ]
    answered = {
        pk: message.pk
        for pk, message in answered_messages(short).items()
        if message.is_from_self
        and len((message.text or "").split()) >= ANSWERED_MIN_WORDS
        and not is_suspicious(message.text or "")
    }
    taken = {mid for mid, _note in found}
    result: list[_Hit] = []
    for hit in found:
        result.append(hit)
        context = answered.get(hit[0])
        if context is not None and context not in taken:
            taken.add(context)
            result.append((context, ANSWERED_NOTE))
    return result


# The news a catch-up leads with may continue a thread from before the window ("movers come
# Friday" after "we're moving to Lyon in May"): the earlier message says what it is about.
BACKGROUND_ITEMS = 3
BACKGROUND_MIN_WORDS = 8
BACKGROUND_DAYS = 60
BACKGROUND_SHARED_TERMS = 2
# Above this overlap the earlier message is the same routine line again, not background.
BACKGROUND_MAX_OVERLAP = 0.6
BACKGROUND_NOTE = "earlier in this thread"
_BACKGROUND_WORD = re.compile(r"[^\W\d_]{4,}")


def _background_terms(text: str) -> set[str]:
    return {
        word
        for word in _BACKGROUND_WORD.findall(fold_text(text))
        if word not in STOP_WORDS and word not in CALENDAR_WORDS
    }


def _backgrounds(*, user: User, message_ids: Sequence[int], before: datetime) -> dict[int, int]:
    """For the catch-up's most telling news, the same sender's earlier message in that chat
    (within ``BACKGROUND_DAYS`` before the window) that shares at least two of its words and
    is not a repeat of it: what the news continues, by the news message's id. It is cited
    right after the news, so the answer's item count does not push it out."""
    hits: dict[int, int] = {}
    news_rows = Message.objects.filter(user=user, pk__in=list(message_ids)).exclude(
        sender_person__isnull=True
    )
    rows = {row.pk: row for row in news_rows}
    for pk in dict.fromkeys(message_ids):
        row = rows.get(pk)
        if row is None or len(hits) >= BACKGROUND_ITEMS:
            continue
        terms = _background_terms(row.text or "")
        earlier = Message.objects.filter(
            user=user,
            chat_id=row.chat_id,
            sender_person_id=row.sender_person_id,
            deleted_at__isnull=True,
            sent_at__lt=before,
            sent_at__gte=before - timedelta(days=BACKGROUND_DAYS),
        ).order_by("-sent_at", "-pk")[:RECENT_SCAN]
        best: tuple[int, int] | None = None
        for candidate in earlier:
            if is_suspicious(candidate.text or ""):
                continue
            shared = terms & _background_terms(candidate.text or "")
            union = terms | _background_terms(candidate.text or "")
            if len(shared) < BACKGROUND_SHARED_TERMS or (
                union and len(shared) / len(union) > BACKGROUND_MAX_OVERLAP
            ):
                continue
            if best is None or len(shared) > best[0]:
                best = (len(shared), candidate.pk)
        if best is not None and best[1] not in hits.values():
            hits[pk] = best[1]
    return hits


# A catch-up in which only suspicious messages came shows at most this many of them, flagged.
SUSPICIOUS_SHOWN = 3
# A catch-up states at most this many moved plans (the latest ones).
CHANGES_STATED = 3
# "News from people close to you": the most telling message of each of the user's closest
# people (by relationship strength) who wrote in the window, at most this many of them.
CLOSE_PEOPLE = 5
# ... and at least this share of the strongest relationship's strength: with few contacts,
# not everyone is close.
CLOSE_STRENGTH_SHARE = 0.25
CLOSE_NEWS_STATED = 3
CLOSE_NEWS_CHARS = 140


def _close_people_news(
    *,
    user: User,
    now: datetime,
    by_sender: Mapping[int, Sequence[tuple[int, datetime, int, str, str]]],
    person_ids: Sequence[int],
) -> list[tuple[int, str, str]]:
    """(message id, sender, text) of the most telling message each of the user's closest
    people (``CLOSE_PEOPLE``, ``CLOSE_STRENGTH_SHARE``) wrote in the window, closest first.
    A catch-up about one person already is their news: none then."""
    if person_ids or not by_sender:
        return []
    closest = people_ranking(
        user=user, now=now, kind=RankingKind.RELATIONSHIP_STRENGTH, limit=CLOSE_PEOPLE
    )
    news: list[tuple[int, str, str]] = []
    strongest = closest[0].strength if closest else 0.0
    for item in closest:
        if item.strength < strongest * CLOSE_STRENGTH_SHARE:
            break
        identities = person_ids_expand(user=user, person_ids=[item.person_id])
        said = [entry for pid in identities for entry in by_sender.get(pid, ())]
        telling = [entry for entry in said if entry[0] >= CLOSE_NEWS_MIN_WORDS]
        if not telling:
            continue
        _salience, _sent_at, pk, name, text = min(telling, key=_most_telling_first)
        news.append((pk, item.display_name or name, text))
        if len(news) >= CLOSE_NEWS_STATED:
            break
    return news


# A message of fewer distinct words ("🎉", "ok", "running late, sorry") is no news, unless
# it is life news ("I got the job!!", ``news_weight``).
CLOSE_NEWS_MIN_WORDS = 6


_LINK = re.compile(r"https?://|www\.|\b[\w-]+\.(?:com|net|org|io|ly|xyz|top|info)/", re.I)


def _has_link(text: str) -> bool:
    return _LINK.search(text) is not None


def _catch_up_findings(
    *,
    user: User,
    start: datetime,
    until: datetime | None,
    asked_start: datetime,
    loops: Sequence[OpenLoop],
    changes: Sequence[tuple[datetime, int, str]],
    news: Sequence[tuple[int, str, str]],
    by_chat: Mapping[int, Sequence[tuple[int, datetime, int]]],
    suspicious: Sequence[tuple[int, int, int | None]],
    zone: ZoneInfo,
    where: str = "",
) -> list[Finding]:
    """What needs the user first (questions to them, their open promises, moved plans, news
    from the people closest to them), then how much each chat said, then what was set aside
    as suspicious (named, never quoted). A window widened because it was quiet says so
    first."""
    findings: list[Finding] = []
    since = moment_text(start, zone)
    # A window that ended before the question (while the user was away) is said with its end.
    span = f"Between {since} and {moment_text(until, zone)}" if until else f"Since {since}"
    if where:
        # The platforms read are part of the window stated: "Since Mon 28 September, 00:00,
        # on Email: …".
        span += f", on {where}"
    if start < asked_start:
        findings.append(
            Finding(
                text=f"Nothing new from others since {moment_text(asked_start, zone)}, so "
                f"this reads back to {since}."
            )
        )
    questions = [loop for loop in loops if loop.kind == LoopKind.QUESTION_TO_USER]
    promises = [loop for loop in loops if loop.kind == LoopKind.PROMISE_BY_USER]
    waiting = [
        *(
            f"{loop.person_name or 'someone'} asked you ({moment_text(loop.opened_at, zone)})"
            for loop in questions
        ),
        *(
            f"you promised {loop.person_name or 'someone'} something "
            f"({moment_text(loop.opened_at, zone)})"
            for loop in promises
        ),
    ]
    if waiting:
        what = _waiting_details([*questions, *promises])
        findings.append(
            Finding(
                text=f"Waiting on you {span[0].lower() + span[1:]}: {_join_words(waiting)}."
                + (f" {what}." if what else ""),
                message_ids=tuple(loop.opened_by_message_id for loop in [*questions, *promises]),
            )
        )
    for _sent_at, pk, change in changes:
        findings.append(Finding(text=f"Changed: {change}", message_ids=(pk,)))
    for pk, name, text in news:
        said = " ".join(text.split())
        if len(said) > CLOSE_NEWS_CHARS:
            said = said[: CLOSE_NEWS_CHARS - 1].rstrip() + "…"
        findings.append(Finding(text=f"From {_shown(name, 'sender')}: {said}", message_ids=(pk,)))
    if by_chat:
        titles = dict(
            Chat.objects.filter(user=user, pk__in=list(by_chat)).values_list("pk", "title")
        )
        busiest = sorted(by_chat.items(), key=lambda item: (-len(item[1]), item[0]))
        parts = [
            f"{_shown(titles.get(chat_id) or '', 'chat')} ({len(items)})"
            for chat_id, items in busiest[:6]
        ]
        total = sum(len(items) for items in by_chat.values())
        findings.append(
            Finding(
                text=f"{span}: {total} {'message' if total == 1 else 'messages'} from "
                f"others in {len(by_chat)} {'chat' if len(by_chat) == 1 else 'chats'} — "
                + ", ".join(parts)
                + ".",
                message_ids=tuple(
                    min(items, key=_most_telling_first)[2] for _chat, items in busiest[:6]
                ),
            )
        )
    else:
        findings.append(Finding(text=f"Nothing new from others {span[0].lower() + span[1:]}."))
    if suspicious:
        senders = dict(
            Person.objects.filter(
                user=user, pk__in=[sender for _, _, sender in suspicious if sender]
            ).values_list("pk", "display_name")
        )
        who = _join_words(
            list(
                dict.fromkeys(
                    _shown(senders.get(sender or 0, ""), "sender") for _, _, sender in suspicious
                )
            )
        )

        count = len(suspicious)
        noun = "message looks" if count == 1 else "messages look"
        only = not by_chat and not loops
        findings.append(
            Finding(
                text=(
                    f"Only suspicious messages came: {count} {noun} like spam or instructions "
                    f"aimed at an assistant (from {who}); nothing in them was followed."
                    if only
                    else f"Left out as suspicious: {count} {noun} like spam or instructions "
                    f"aimed at an assistant (from {who}); nothing in them was followed."
                ),
                # With nothing else to show, the flagged messages are shown as flagged: the
                # user sees what came, and that it was not followed.
                message_ids=tuple(pk for pk, _, _ in suspicious[:SUSPICIOUS_SHOWN]) if only else (),
            )
        )
    return findings


def _shown(name: str, kind: str) -> str:
    """A name or title as an answer may repeat it: never one that holds instructions."""
    if not name:
        return f"an unknown {kind}"
    return f"a {kind} with a suspicious name" if is_suspicious(name) else name


# A catch-up says what each open ask or promise is about in at most this many characters.
WAITING_DETAIL_CHARS = 140


def _waiting_details(loops: Sequence[OpenLoop]) -> str:
    """What the asks to the user and their open promises are about ("Noor asked: can you
    send the floor plan by Friday; you said you would book the van"), in the loops' order;
    a suspicious opener says nothing."""
    openers = Message.objects.filter(pk__in=[loop.opened_by_message_id for loop in loops]).in_bulk()
    details: list[str] = []
    for loop in loops:
        opener = openers.get(loop.opened_by_message_id)
        if opener is None or suspicious_text(opener.text or ""):
            continue
        detail = owed_detail(
            kind=loop.kind,
            opener_text=opener.text or "",
            answered_text="",
            person_name=loop.person_name or "",
        )
        if not detail:
            continue
        if len(detail) > WAITING_DETAIL_CHARS:
            detail = detail[:WAITING_DETAIL_CHARS].rsplit(" ", 1)[0] + "…"
        if details and detail.startswith("You "):
            detail = "you " + detail[4:]
        details.append(detail)
    return "; ".join(details)


def _join_words(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# Words that ask what someone said without naming a topic ("what does Prize Desk want?",
# "what is Noor asking for?"); "say", "ask", "tell" and "write" are stop words already.
_ABOUT_WHAT_THEY_SAID = frozenset(
    {"want", "wants", "wanted", "need", "needs", "needed", "mean", "means", "meant", "latest"}
)


# "how did mum's eye check go?": the word on a relative's event after it, read back this far.
RELATIVE_EVENT_DAYS = 120
RELATIVE_EVENT_SCAN = 400
RELATIVE_OUTCOMES = 2
RELATIVE_EVENTS_TRIED = 5


def _relative_event_outcome(
    *, user: User, compiled: CompiledQuery, now: datetime
) -> tuple[list[_Hit], list[Finding]]:
    """ "How did mum's eye check go?" about a relative the question calls by a relation word
    (``kinship.relation_words``): the family tells of them in any of its languages, so the
    words of the event are looked for where they name them — their own messages, the user's
    anywhere ("can you take mẹ to her eye appt?" to a brother), the others' in a chat they
    are in. The latest such message with the event's words sets the event, at the date its
    own words give (else when it was sent); the first messages naming them after it, before
    ``now``, tell how it went. Nothing when no such message comes after the event."""
    if not is_outcome_question(compiled.read_as):
        return [], []
    refs = [person for person in compiled.people if person.person_ids]
    if len(refs) != 1 or not (words := relation_words(refs[0].name or "")):
        return [], []
    names = set(fold_text(refs[0].name or "").split())
    terms = [
        term
        for term in (fold_text(term.strip('"')) for term in topic_terms(compiled))
        if len(term) >= 3 and term not in STOP_WORDS and term not in names
    ]
    if not terms:
        return [], []
    person_ids = person_ids_expand(user=user, person_ids=list(refs[0].person_ids))
    their_chats = ChatParticipant.objects.filter(
        chat__user=user, person_id__in=list(person_ids)
    ).values_list("chat_id", flat=True)
    said = rf"\m({'|'.join(re.escape(word) for word in words)})\M"
    naming = (
        models.Q(sender_person_id__in=list(person_ids))
        | models.Q(is_from_self=True, text__iregex=said)
        | models.Q(chat_id__in=their_chats, text__iregex=said)
    )
    rows = Message.objects.filter(
        naming,
        user=user,
        deleted_at__isnull=True,
        chat__is_excluded_from_ai=False,
        sent_at__lt=now,
        sent_at__gte=now - timedelta(days=RELATIVE_EVENT_DAYS),
    )
    # The messages with the event's words, the most words first, then those that set a date
    # ahead of them (the plan), the newest first; the first with word after it is the event.
    events: list[tuple[int, bool, datetime, Message, datetime]] = []
    for row in rows.order_by("-sent_at", "-pk")[:RELATIVE_EVENT_SCAN]:
        score = sum(1 for term in terms if _stem_match(term, fold_text(row.text or "")))
        if not score:
            continue
        when = message_relative_date(row.text or "", row.sent_at, user.zoneinfo, direction="future")
        is_plan = when is not None and when.start_utc > row.sent_at
        start = when.start_utc if when is not None and is_plan else row.sent_at
        events.append((score, is_plan, row.sent_at, row, start))
    events.sort(key=lambda item: (item[0], item[1], item[2]), reverse=True)
    for _score, _is_plan, _sent_at, event, start in events[:RELATIVE_EVENTS_TRIED]:
        after = [
            row
            for row in rows.filter(sent_at__gte=start)
            .exclude(pk=event.pk)
            .exclude(is_from_self=True)
            .order_by("sent_at", "pk")[:RELATIVE_OUTCOMES]
            if not is_suspicious(row.text or "")
        ]
        if after:
            break
    else:
        return [], []
    zone = user.zoneinfo
    first = after[0]
    text = (
        f"{first.sender_name or 'They'} wrote on {moment_text(first.sent_at, zone)}: "
        f"“{first.text}” — after “{event.text}” ({moment_text(event.sent_at, zone)})."
    )
    hits = [(row.pk, "how it went") for row in after] + [(event.pk, "the event")]
    return hits, [Finding(text=text, message_ids=(first.pk, event.pk))]


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


def outcome_message_ids(
    *, user: User, compiled: CompiledQuery, now: datetime, hit_ids: Sequence[int]
) -> MemoryHits | None:
    """For a question about how an event turned out (``memory.outcomes``): the message that
    reports the result, then the announcement, with the findings that state them; ``None``
    when the question asks no outcome or nothing visible names the event. ``hit_ids`` are
    the searched messages, best first (where the event is named when no plan is)."""
    found = outcome_findings(user=user, compiled=compiled, hit_ids=hit_ids, now=now)
    if found is None:
        return None
    ids, findings = found
    visible = _visible(user=user, compiled=compiled, message_ids=ids)
    if not visible:
        return None
    kept = set(visible)
    return MemoryHits(
        source=MemorySource.OUTCOMES,
        route=Route.HYBRID,
        message_ids=visible,
        notes={visible[0]: "how it turned out"} if findings[0].message_ids[0] in kept else {},
        findings=tuple(f for f in findings if set(f.message_ids) <= kept),
    )


def memory_message_ids(*, user: User, compiled: CompiledQuery, now: datetime) -> MemoryHits | None:
    """The messages personal memory says answer ``compiled`` (asked at ``now``), best first,
    or ``None`` when the intent has no memory source or memory holds nothing in scope."""
    findings: list[Finding] = []
    if compiled.intent == Intent.UNRESOLVED:
        source, route = MemorySource.OPEN_LOOPS, Route.UNRESOLVED
        found, findings = _loop_hits(user=user, compiled=compiled, now=now)
    elif compiled.intent == Intent.PEOPLE_RANKING:
        source, route = MemorySource.PEOPLE_RANKING, Route.PEOPLE_RANKING
        found, findings = _ranking_hits(user=user, compiled=compiled, now=now)
    elif compiled.intent == Intent.PLAN_RECALL:
        source, route = MemorySource.PLANS, Route.HYBRID
        found, findings = _plan_hits(user=user, compiled=compiled, now=now)
    elif compiled.intent == Intent.IDENTITY_LOOKUP:
        source, route = MemorySource.IDENTITY, Route.HYBRID
        found, findings = _identity_hits(user=user, compiled=compiled)
    elif (
        compiled.intent == Intent.ACTION_REQUEST
        and (recipient := action_recipient(user=user, compiled=compiled))[0]
    ):
        # Writing to someone: what is still open with them grounds the draft.
        source, route = MemorySource.OPEN_LOOPS, Route.HYBRID
        found = (
            _person_loop_hits(user=user, compiled=compiled, person_ids=recipient[0])
            + action_follow_up(user=user, compiled=compiled, now=now, recipient=recipient).hits()
        )
    elif compiled.intent == Intent.ACTION_REQUEST and (
        groups := chats_named(user=user, question=compiled.read_as, groups_only=True)
    ):
        # Writing to a whole group: its thread about the request grounds the draft.
        source, route = MemorySource.OPEN_LOOPS, Route.HYBRID
        found = group_follow_up(user=user, compiled=compiled, group_ids=groups, now=now).hits()
    elif compiled.intent == Intent.CATCH_UP:
        source, route = MemorySource.RECENT_DIGEST, Route.RECENT_WINDOW
        found, findings = _recent_hits(user=user, compiled=compiled, now=now)
    elif (
        compiled.intent == Intent.CONVERSATION_QA
        and (outcome := _relative_event_outcome(user=user, compiled=compiled, now=now))[0]
    ):
        source, route = MemorySource.PERSON_DIGEST, Route.HYBRID
        found, findings = outcome
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
        findings=tuple(findings),
    )
