"""Writes of personal memory. Every function is scoped by user and safe to run twice."""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from http import HTTPStatus
from typing import Any

from django.db import connection, transaction
from django.db.models import F, OuterRef, Q, Subquery
from django.utils import timezone

from claire.accounts.models import User
from claire.errors import CodedError, NotFound
from conversations.models import (
    Chat,
    ChatKind,
    ChatParticipant,
    IdentityKind,
    Message,
    MessageKind,
    Person,
    PersonIdentity,
)
from memory.away import TRAVEL_VOCABULARY, travel_kind
from memory.callnames import people_called_by
from memory.closure import (
    CLOSE_WINDOW,
    QUESTION_CLOSE_WINDOW,
    loops_close_across_chats,
    says_arrived,
    says_delivered,
    topic_words,
)
from memory.extract import (
    ACTIVITIES,
    RELATIONS,
    WORK_RELATIONS,
    FactClaim,
    fact_claims,
    fulfils_promise,
    has_link,
    is_ask,
    is_deferral,
    is_question_to_user,
    is_request_by_user,
    is_suspicious,
    mentions_word,
    nationality_claims,
    plan_signal,
    promise_in_person,
    promise_object,
    puts_off,
    request_in_person,
    takes_on,
)
from memory.handoff import (
    CONTEXT_MESSAGES,
    CONTEXT_WINDOW,
    HANDOFF_MIN_SCORE,
    HANDOFF_VOCABULARY,
    HANDOFF_WINDOW,
    MEDIUM_PLATFORMS,
    RARE_OUTSIDE,
    content_words,
    handoff_medium,
    is_full_name,
    is_number,
    names_contradict,
    overlap_score,
)
from memory.handoff import FIRST_MESSAGES as FIRST_HANDOFF_MESSAGES
from memory.introductions import (
    FIRST_MESSAGES,
    INTRODUCTION_VOCABULARY,
    SelfIntroduction,
    name_words,
    names_match,
    self_introduction,
)
from memory.kinship import (
    KINSHIP_VOCABULARY,
    KinMessage,
    addressed_relation,
    kin_message_fields,
    kinship_claims,
    relation_of_contact_name,
    signed_relation,
)
from memory.metrics import counter_deltas, counters_add
from memory.models import (
    SINGLE_VALUED_FACT_KINDS,
    FactBasis,
    FactKind,
    FactOrigin,
    Loop,
    LoopKind,
    LoopStatus,
    MemoryPolicy,
    MessageClaim,
    MessageClaimSource,
    PersonChatDay,
    PersonFact,
    PersonFactRejection,
    PersonFactSource,
    PersonMerge,
    Plan,
    PlanStatus,
    PlanStep,
    RefinedFactClaim,
)
from memory.plan_words import activity_family
from memory.selectors import person_canonical_ids
from memory.selfdescribed import SELF_VOCABULARY, self_statements
from retrieval.lexicon import fold_text
from retrieval.people_context import WORK_PLATFORMS

logger = logging.getLogger(__name__)


def relationship_counters_apply(
    *, user: User, created_ids: Sequence[int], deleted_ids: Sequence[int]
) -> None:
    """Move the relationship counters for messages that just arrived or were just deleted.

    Runs inside the ingest transaction (the counters commit or roll back with the messages).
    Edits change no counter: a message's sender, chat and send time never change.
    """
    deltas = counter_deltas(user=user, message_ids=created_ids, sign=1)
    for key, delta in counter_deltas(user=user, message_ids=deleted_ids, sign=-1).items():
        deltas[key].received += delta.received
        deltas[key].sent += delta.sent
    counters_add(user_id=user.pk, deltas=deltas)


@transaction.atomic
def relationship_counters_rebuild(*, user: User) -> int:
    """Recount the user's counters from their live messages (after a merge, or to repair).
    Returns the number of counter rows."""
    PersonChatDay.objects.filter(user=user).delete()
    live_ids = list(
        Message.objects.filter(user=user, deleted_at__isnull=True).values_list("pk", flat=True)
    )
    deltas = counter_deltas(user=user, message_ids=live_ids, sign=1)
    counters_add(user_id=user.pk, deltas=deltas)
    rows = PersonChatDay.objects.filter(user=user).count()
    logger.info("memory.counters_rebuilt", extra={"user_id": user.pk, "rows": rows})
    return rows


# --- Plans --------------------------------------------------------------------------------

# Messages further apart than this are not steps of one plan unless they name its place.
PLAN_LINK_WINDOW = timedelta(days=10)
# A reply-less "yes" joins a plan only right after the plan was discussed in the same chat.
PLAN_SAME_CHAT_WINDOW = timedelta(hours=3)

_PLAN_VOCABULARY = (
    *ACTIVITIES,
    "cancel",
    "call off",
    "called off",
    "make it",
    "move",
    "moving",
    "reschedul",
    "postpon",
    "push back",
    "instead",
    "change of plan",
    "count me in",
    "m in",
    "re in",
    "works for me",
    "sounds good",
    "booked",
    "confirmed",
    "see you",
    "be there",
    "yes",
    "combinado",
    "fechado",
    "bora",
    "dale",
    "accord",
    "passt",
    "cancela",
    "desmarc",
    "annul",
    "abgesagt",
    "mudar",
    "adia",
    "cambia",
    "plac",
    "verschieb",
    "switch",
    # Bookings ("got us a table", "reservei mesa", "prenotato il campo").
    "book",
    "reserv",
    "réserv",
    "tickets",
    "got us",
    "grabbed",
    "bilhete",
    "entradas",
    "billet",
    "gebucht",
    "karten",
    "prenot",
    "bigliett",
)


@dataclass
class _PlanDraft:
    activity: str
    place: str
    event_label: str
    status: PlanStatus
    first_sent_at: datetime
    last_sent_at: datetime
    steps: list[tuple[int, PlanStatus, str, datetime]] = field(default_factory=list)
    last_step_at_by_chat: dict[int, datetime] = field(default_factory=dict)
    # Read back from a stored plan: its row, and how many of ``steps`` are stored already.
    plan_id: int | None = None
    stored_steps: int = 0
    # The stored plan's row as read back (``_plan_fields``), to write it only when it changed.
    stored_fields: dict[str, Any] = field(default_factory=dict)
    # The people (as merged) who wrote its steps: a change one of them says in another chat
    # or on another platform is the plan's.
    people: set[int] = field(default_factory=set)

    def add_step(
        self,
        *,
        message_id: int,
        chat_id: int,
        status: PlanStatus,
        event_label: str,
        sent_at: datetime,
        sender: int | None = None,
    ) -> None:
        self.steps.append((message_id, status, event_label, sent_at))
        if sender is not None:
            self.people.add(sender)
        self.status = status
        # Only a proposal or a change sets when the plan happens (or the first time said at
        # all, a booking's); a "yes, see you Sunday morning" or "cancel tonight" says
        # something else.
        if event_label and (
            status in (PlanStatus.PROPOSED, PlanStatus.CHANGED) or not self.event_label
        ):
            self.event_label = event_label
        self.last_sent_at = sent_at
        self.last_step_at_by_chat[chat_id] = sent_at


def _same_kind(activity: str, other: str) -> bool:
    """ "jantar" and "dinner" are one kind of event."""
    return bool(activity) and fold_text(activity) in activity_family(fold_text(other))


def _plan_for_message(
    *,
    drafts: list[_PlanDraft],
    plan_by_message: dict[int, _PlanDraft],
    text: str,
    activity: str,
    chat_id: int,
    reply_to_id: int | None,
    sent_at: datetime,
    sender: int | None = None,
    is_change: bool = False,
) -> _PlanDraft | None:
    """The open plan a message speaks about: one whose place it names, one whose message it
    replies to, one just discussed in the same chat (and not another activity), or, for a
    change or a call-off, one of the same kind of event that its sender took part in, said
    in any chat or on any platform (the latest such plan)."""
    open_plans = [
        draft
        for draft in drafts
        if draft.status != PlanStatus.CANCELLED and sent_at - draft.last_sent_at <= PLAN_LINK_WINDOW
    ]
    for draft in reversed(open_plans):
        if draft.place and mentions_word(text, draft.place):
            return draft
    replied = plan_by_message.get(reply_to_id) if reply_to_id else None
    if replied is not None and replied in open_plans:
        return replied
    for draft in reversed(open_plans):
        last_here = draft.last_step_at_by_chat.get(chat_id)
        if (
            last_here is not None
            and sent_at - last_here <= PLAN_SAME_CHAT_WINDOW
            and activity in ("", draft.activity)
        ):
            return draft
    if is_change and sender is not None:
        for draft in reversed(open_plans):
            if sender in draft.people and _same_kind(activity, draft.activity):
                return draft
    return None


class _PlanReplay:
    """Plans in the making: the user's plan-vocabulary messages read in send-time order, each
    joining the open plan it speaks about or starting one."""

    def __init__(
        self, drafts: list[_PlanDraft] | None = None, canonical: Mapping[int, int] | None = None
    ) -> None:
        self.drafts: list[_PlanDraft] = drafts or []
        # Merged people are read as the person they were merged into.
        self.canonical: Mapping[int, int] = canonical or {}
        self.plan_by_message: dict[int, _PlanDraft] = {
            message_id: draft for draft in self.drafts for message_id, *_ in draft.steps
        }

    def read(
        self,
        message_id: int,
        chat_id: int,
        reply_to_id: int | None,
        text: str,
        sent_at: datetime,
        sender_person_id: int | None = None,
    ) -> None:
        signal = plan_signal(text)
        sender = (
            self.canonical.get(sender_person_id, sender_person_id)
            if sender_person_id is not None
            else None
        )
        draft = _plan_for_message(
            drafts=self.drafts,
            plan_by_message=self.plan_by_message,
            text=text,
            activity=signal.activity,
            chat_id=chat_id,
            reply_to_id=reply_to_id,
            sent_at=sent_at,
            sender=sender,
            is_change=signal.status in (PlanStatus.CHANGED, PlanStatus.CANCELLED),
        )
        if draft is not None and signal.status is not None:
            draft.add_step(
                message_id=message_id,
                chat_id=chat_id,
                status=signal.status,
                event_label=signal.event_label,
                sent_at=sent_at,
                sender=sender,
            )
            if signal.status == PlanStatus.CHANGED and signal.place:
                # A change that names a place moves the plan there.
                draft.place = signal.place
            self.plan_by_message[message_id] = draft
        elif draft is None and signal.is_proposal:
            # A booking is arranged already: its plan starts confirmed.
            status = PlanStatus.CONFIRMED if signal.is_booking else PlanStatus.PROPOSED
            draft = _PlanDraft(
                activity=signal.activity,
                place=signal.place,
                event_label=signal.event_label,
                status=status,
                first_sent_at=sent_at,
                last_sent_at=sent_at,
            )
            draft.add_step(
                message_id=message_id,
                chat_id=chat_id,
                status=status,
                event_label=signal.event_label,
                sent_at=sent_at,
                sender=sender,
            )
            self.drafts.append(draft)
            self.plan_by_message[message_id] = draft


def _plan_messages(*, user: User, since: datetime | None = None) -> Iterable[tuple[Any, ...]]:
    """The user's live messages that use the plan vocabulary, oldest first (from ``since``)."""
    vocabulary = "|".join(re.escape(term) for term in _PLAN_VOCABULARY)
    rows = Message.objects.filter(user=user, deleted_at__isnull=True, text__iregex=vocabulary)
    if since is not None:
        rows = rows.filter(sent_at__gte=since)
    return (
        rows.order_by("sent_at", "pk")
        .values_list("pk", "chat_id", "reply_to_id", "text", "sent_at", "sender_person_id")
        .iterator(chunk_size=2000)
    )


def _plan_fields(draft: _PlanDraft) -> dict[str, Any]:
    return {
        "activity": draft.activity,
        "place": draft.place[:128],
        "event_label": draft.event_label[:128],
        "status": draft.status,
        "first_sent_at": draft.first_sent_at,
        "last_sent_at": draft.last_sent_at,
    }


def _plans_write(*, user: User, drafts: Sequence[_PlanDraft]) -> None:
    """Store the drafts: a draft read back from a stored plan updates that plan (when it
    changed) and adds the steps it gained; any other draft is a new plan. New plans and all
    new steps are written in one statement each."""
    new_drafts = [draft for draft in drafts if draft.plan_id is None]
    created = Plan.objects.bulk_create(
        Plan(user=user, **_plan_fields(draft)) for draft in new_drafts
    )
    plan_of = {id(draft): plan for draft, plan in zip(new_drafts, created, strict=True)}
    for draft in drafts:
        if draft.plan_id is None:
            continue
        fields = _plan_fields(draft)
        if draft.stored_steps < len(draft.steps) or fields != draft.stored_fields:
            Plan.objects.filter(user=user, pk=draft.plan_id).update(**fields)
        plan_of[id(draft)] = Plan(pk=draft.plan_id, user=user)
    PlanStep.objects.bulk_create(
        PlanStep(
            user=user,
            plan=plan_of[id(draft)],
            message_id=message_id,
            status=status,
            event_label=event_label[:128],
            sent_at=sent_at,
        )
        for draft in drafts
        for message_id, status, event_label, sent_at in draft.steps[draft.stored_steps :]
    )


@transaction.atomic
def plans_rebuild(*, user: User) -> int:
    """Derive the user's plans again from their live messages, oldest first, so later messages
    override earlier ones. Reads only messages that use the plan vocabulary. Idempotent;
    returns the number of plans."""
    replay = _PlanReplay(canonical=_canonical_people(user=user))
    for row in _plan_messages(user=user):
        replay.read(*row)
    Plan.objects.filter(user=user).delete()
    _plans_write(user=user, drafts=replay.drafts)
    logger.info("memory.plans_rebuilt", extra={"user_id": user.pk, "plans": len(replay.drafts)})
    return len(replay.drafts)


def _canonical_people(*, user: User) -> dict[int, int]:
    """merged person id -> the person it is read as (one query)."""
    return dict(
        PersonMerge.objects.filter(user=user, split_at__isnull=True).values_list(
            "merged_person_id", "kept_person_id"
        )
    )


def _plan_drafts_before(
    *, user: User, since: datetime, canonical: Mapping[int, int]
) -> list[_PlanDraft]:
    """The plans as they stood just before ``since``, read back from the stored steps: only
    those a message from ``since`` on could still join (discussed within ``PLAN_LINK_WINDOW``
    of it). Their steps from ``since`` on are deleted, and so are the plans that start there;
    the replay writes them again."""
    plans = {
        plan.pk: plan
        for plan in Plan.objects.filter(user=user, last_sent_at__gte=since - PLAN_LINK_WINDOW)
    }
    steps_by_plan: dict[int, list[tuple[int, int, str, str, datetime, int | None]]] = {
        pk: [] for pk in plans
    }
    for plan_id, message_id, chat_id, step_status, label, sent_at, sender in (
        PlanStep.objects.filter(user=user, plan_id__in=list(plans), sent_at__lt=since)
        .order_by("sent_at", "message_id")
        .values_list(
            "plan_id",
            "message_id",
            "message__chat_id",
            "status",
            "event_label",
            "sent_at",
            "message__sender_person_id",
        )
    ):
        steps_by_plan[plan_id].append((message_id, chat_id, step_status, label, sent_at, sender))
    drafts = []
    for plan_id, steps in steps_by_plan.items():
        if not steps:
            continue
        plan = plans[plan_id]
        draft = _PlanDraft(
            activity=plan.activity,
            place=plan.place,
            event_label="",
            status=PlanStatus.PROPOSED,
            first_sent_at=steps[0][4],
            last_sent_at=steps[0][4],
            plan_id=plan_id,
            stored_steps=len(steps),
        )
        for message_id, chat_id, step_status, label, sent_at, step_sender in steps:
            draft.add_step(
                message_id=message_id,
                chat_id=chat_id,
                status=PlanStatus(step_status),
                event_label=label,
                sent_at=sent_at,
                sender=(
                    canonical.get(step_sender, step_sender) if step_sender is not None else None
                ),
            )
        draft.stored_fields = {
            "activity": plan.activity,
            "place": plan.place,
            "event_label": plan.event_label,
            "status": plan.status,
            "first_sent_at": plan.first_sent_at,
            "last_sent_at": plan.last_sent_at,
        }
        drafts.append(draft)
    PlanStep.objects.filter(user=user, plan_id__in=list(plans), sent_at__gte=since).delete()
    Plan.objects.filter(user=user, pk__in=list(plans), steps__isnull=True).delete()
    # Plans were created in the order of their first message.
    drafts.sort(key=lambda draft: (draft.first_sent_at, draft.steps[0][0]))
    return drafts


@transaction.atomic
def plans_update(*, user: User, since: datetime) -> int:
    """What ``plans_rebuild`` would store, computed from the messages sent from ``since`` on:
    the plans they can join are read back as they stood before ``since`` and the messages are
    replayed from there. Returns the number of plan-vocabulary messages read."""
    canonical = _canonical_people(user=user)
    replay = _PlanReplay(
        _plan_drafts_before(user=user, since=since, canonical=canonical), canonical=canonical
    )
    read = 0
    for row in _plan_messages(user=user, since=since):
        replay.read(*row)
        read += 1
    _plans_write(user=user, drafts=replay.drafts)
    return read


# --- Loops --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _LoopFound:
    kind: LoopKind
    opened_by_id: int
    opened_at: datetime
    person_id: int | None
    resolved_by_id: int | None
    resolved_at: datetime | None


@dataclass(frozen=True)
class _ChatMessage:
    pk: int
    is_from_self: bool
    sender_person_id: int | None
    reply_to_id: int | None
    kind: str
    text: str
    sent_at: datetime


def _loops_in_chat(
    *,
    chat: Chat,
    messages: list[_ChatMessage],
    user_name: str,
    counterpart_id: int | None,
    members: Mapping[str, int] | None = None,
    opener_indexes: Collection[int] | None = None,
    user_writes_here: bool | None = None,
) -> list[_LoopFound]:
    """Every loop the chat's messages open, each with the later message that resolves it.

    ``members`` maps a group member's folded first name to their person (first names two
    members share are left out). In a group, a question is to the user when it names them,
    replies to them, or asks "you" right after they wrote (``FOLLOW_UP_WINDOW``) without
    replying to someone else; it is answered by the user's
    message that replies to it, names the asker, or comes within ``GROUP_REPLY_WINDOW``; a
    later message about something else days after is no answer. A promise in a group is to
    the person it replies to, else the member it names.

    ``opener_indexes`` limits which messages are read as openers (the others are context and
    candidates only); ``user_writes_here`` says whether the whole chat has a message of the
    user, for a caller that passes only part of it."""
    found: list[_LoopFound] = []
    is_direct = chat.kind == ChatKind.DIRECT
    members = members or {}
    names = {person_id: name for name, person_id in members.items()}
    # A chat the user never wrote in (a spammer, a newsletter) owes nobody a reply.
    if user_writes_here is None:
        user_writes_here = any(message.is_from_self for message in messages)
    by_pk = {message.pk: message for message in messages}
    replies_to: dict[int, list[_ChatMessage]] = {}
    for message in messages:
        if message.reply_to_id:
            replies_to.setdefault(message.reply_to_id, []).append(message)
    for index, message in enumerate(messages):
        if opener_indexes is not None and index not in opener_indexes:
            continue
        if not message.is_from_self:
            replied = by_pk.get(message.reply_to_id) if message.reply_to_id else None
            # "Are you coming too?" right after the user spoke is asked of them.
            previous = messages[index - 1] if index else None
            follows_user = (
                previous is not None
                and previous.is_from_self
                and message.sent_at - previous.sent_at <= FOLLOW_UP_WINDOW
            )
            if user_writes_here and is_question_to_user(
                message.text,
                user_name=user_name,
                is_direct=is_direct,
                replies_to_user=(replied is not None and replied.is_from_self)
                or (replied is None and follows_user),
            ):
                answer = next(
                    (
                        m
                        for m in _answer_candidates(messages, index, replies_to)
                        if m.is_from_self
                        # "let me check and get back to you" puts the answer off.
                        and not is_deferral(m.text)
                        and (
                            (is_direct and _answers_question(m, message))
                            or m.reply_to_id == message.pk
                            or m.sent_at - message.sent_at <= GROUP_REPLY_WINDOW
                            or _names(m.text, names.get(message.sender_person_id or 0, ""))
                        )
                    ),
                    None,
                )
                found.append(
                    _loop(LoopKind.QUESTION_TO_USER, message, message.sender_person_id, answer)
                )
            continue
        replied = by_pk.get(message.reply_to_id) if message.reply_to_id else None
        asked = _ask_answered(messages, index, replied)
        person_id = counterpart_id if is_direct else (replied.sender_person_id if replied else None)
        if person_id is None and not is_direct:
            person_id = next(
                (pid for name, pid in members.items() if _names(message.text, name)), None
            )
        if person_id is None and asked is not None:
            # "yes, I'll post them after work" in a group is owed to whoever just asked.
            person_id = asked.sender_person_id
        if is_request_by_user(message.text):
            answer = next(
                (
                    m
                    for m in _answer_candidates(messages, index, replies_to)
                    if not m.is_from_self
                    and (is_direct or person_id is None or m.sender_person_id == person_id)
                    and _answers_request(m, message)
                ),
                None,
            )
            found.append(_loop(LoopKind.REQUEST_BY_USER, message, person_id, answer))
        promised = promise_object(message.text)
        if promised is None and asked is not None and takes_on(message.text):
            # "will do!" after "could you share the slides?": the ask says what is owed.
            promised = ""
        if promised is not None:
            asked = (
                _deferred_question(message, messages[:index]) if is_deferral(message.text) else None
            )
            in_person = promise_in_person(message.text)
            kept = next(
                (
                    m
                    for m in _answer_candidates(messages, index, replies_to)
                    if (
                        m.is_from_self
                        and (
                            fulfils_promise(
                                m.text,
                                is_media=m.kind == MessageKind.MEDIA,
                                promised_object=promised,
                                in_person=in_person,
                            )
                            or (asked is not None and _answers_deferred(m, asked))
                        )
                    )
                    # "recebi o pix, valeu!": the person it was owed to says it arrived.
                    or (
                        not m.is_from_self
                        and (is_direct or m.sender_person_id == person_id)
                        and says_arrived(m.text)
                    )
                ),
                None,
            )
            found.append(_loop(LoopKind.PROMISE_BY_USER, message, person_id, kept))
    return found


# How long a loop can be answered in its chat by a message that does not reply to it: a
# message half a year later is about something else. Bounding it keeps the memory job from
# reading every old open loop again at each batch.
LOOP_ANSWER_HORIZON = timedelta(days=180)


def _answer_candidates(
    messages: Sequence[_ChatMessage], index: int, replies_to: Mapping[int, list[_ChatMessage]]
) -> Iterator[_ChatMessage]:
    """The messages after ``messages[index]`` that may answer it, in order: those within
    ``LOOP_ANSWER_HORIZON``, then the later ones that reply to it. Lazy: a caller looking
    for the first answer reads no further than it, and a message that opens nothing reads
    none of them."""
    opener = messages[index]
    until = opener.sent_at + LOOP_ANSWER_HORIZON
    for position in range(index + 1, len(messages)):
        if messages[position].sent_at > until:
            break
        yield messages[position]
    for reply in replies_to.get(opener.pk, ()):
        if reply.sent_at > until:
            yield reply


# How soon after an ask the user's reply takes it on.
TAKE_ON_WINDOW = timedelta(hours=12)


def _ask_answered(
    messages: Sequence[_ChatMessage], index: int, replied: _ChatMessage | None
) -> _ChatMessage | None:
    """The ask the user's ``messages[index]`` answers: the message it replies to, else the
    other side's last message within ``TAKE_ON_WINDOW`` before it, when that asks for
    something."""
    if replied is not None:
        return replied if not replied.is_from_self and is_ask(replied.text) else None
    message = messages[index]
    for position in range(index - 1, -1, -1):
        previous = messages[position]
        if message.sent_at - previous.sent_at > TAKE_ON_WINDOW:
            return None
        if not previous.is_from_self:
            return previous if is_ask(previous.text) else None
    return None


def _answers_request(message: _ChatMessage, request: _ChatMessage) -> bool:
    """Whether the other side's ``message`` answers the user's ``request``: not when it puts
    it off ("I'll let you know", "end of next week, promise"); a reply to it or one soon
    after it does; a later one only when it is about the same thing (a topic word of the
    request) or delivers ("attached", a file)."""
    if puts_off(message.text):
        return False
    if message.reply_to_id == request.pk:
        return True
    if message.sent_at - request.sent_at <= REQUEST_REPLY_WINDOW:
        return True
    # A file or a link days later does not collect anyone or give anything back.
    sends = (message.kind == MessageKind.MEDIA or has_link(message.text)) and not (
        request_in_person(request.text)
    )
    return (
        sends
        or says_delivered(message.text)
        or bool(topic_words(message.text) & topic_words(request.text))
    )


# How soon the user's next message in a direct chat answers a question asked there, whatever
# it says.
DIRECT_REPLY_WINDOW = timedelta(hours=12)
# A late reply that opens with an answer in its first words ("here, sorry for the wait", "oh
# sorry, just saw this! yes", "claro", "nope").
_ANSWER_OPENING = re.compile(
    r"^\W*(?:\w+\W+){0,2}?(?:yes|yeah|yep|yup|yess+|no|nope|nah|sure|sorry|here|finally"
    r"|of\s+course|definitely|absolutely"
    r"|ok|okay|oki|deal|si|claro|vale|sim|oui|non|ja|nein|certo|d'accord|bien\s+sur)(?!\w)",
    re.IGNORECASE,
)


def _answers_question(message: _ChatMessage, question: _ChatMessage) -> bool:
    """Whether the user's ``message`` in a direct chat answers the ``question`` asked there: a
    reply to it or one soon after it does; a later one when it is about the same thing (a
    topic word) or, not being a question of its own, opens with an answer ("sorry, only saw
    this now, yes!"), sends something (a file, a link, "sent") or promises it ("will send it
    tonight"). Days later, "printer's jammed again" is no answer to "can you look over my
    draft?"."""
    if message.reply_to_id == question.pk:
        return True
    if message.sent_at - question.sent_at <= DIRECT_REPLY_WINDOW:
        return True
    if bool(topic_words(message.text) & topic_words(question.text)):
        return True
    if "?" in message.text:
        # "talk later?", "did you see that?": a question of its own.
        return False
    return (
        bool(_ANSWER_OPENING.search(fold_text(message.text)))
        or message.kind == MessageKind.MEDIA
        or has_link(message.text)
        or says_delivered(message.text)
        or promise_object(message.text) is not None
    )


def _deferred_question(
    deferral: _ChatMessage, earlier: Sequence[_ChatMessage]
) -> _ChatMessage | None:
    """What "let me check and get back to you" puts off: the message it replies to, else
    the last message someone else wrote before it."""
    if deferral.reply_to_id is not None:
        replied = next((m for m in earlier if m.pk == deferral.reply_to_id), None)
        if replied is not None:
            return replied
    return next((m for m in reversed(earlier) if not m.is_from_self), None)


def _answers_deferred(message: _ChatMessage, asked: _ChatMessage) -> bool:
    """The user's later answer to what they put off: not another deferral, and about the
    same thing (a topic word of the question)."""
    if is_deferral(message.text):
        return False
    return bool(topic_words(message.text) & topic_words(asked.text))


# No message later than this after a loop opened closes it from another chat.
LOOP_CLOSE_WINDOW = max(CLOSE_WINDOW, QUESTION_CLOSE_WINDOW)
# How soon after the user's message a second-person question in a group is asked of them.
FOLLOW_UP_WINDOW = timedelta(minutes=30)
# How soon a user's message in a group counts as the answer to a question asked there.
GROUP_REPLY_WINDOW = timedelta(hours=12)
# How soon the other side's message counts as the answer to the user's request, whatever it
# is about.
REQUEST_REPLY_WINDOW = timedelta(hours=12)


def _names(text: str, first_name: str) -> bool:
    return (
        bool(first_name)
        and re.search(rf"(?<!\w){re.escape(first_name)}(?!\w)", fold_text(text)) is not None
    )


def _loop(
    kind: LoopKind, opener: _ChatMessage, person_id: int | None, resolver: _ChatMessage | None
) -> _LoopFound:
    return _LoopFound(
        kind=kind,
        opened_by_id=opener.pk,
        opened_at=opener.sent_at,
        person_id=person_id,
        resolved_by_id=resolver.pk if resolver else None,
        resolved_at=resolver.sent_at if resolver else None,
    )


@dataclass(frozen=True)
class _LoopContext:
    """What loop rules read besides the messages: the user's first name, each direct chat's
    counterpart and each group's members by first name."""

    user_name: str
    counterparts: dict[int, int]
    members_by_chat: dict[int, dict[str, int]]


def _loop_context(*, user: User, chats: Sequence[Chat]) -> _LoopContext:
    counterparts: dict[int, int] = {}
    for chat_id, person_id in ChatParticipant.objects.filter(
        chat__in=chats, chat__kind=ChatKind.DIRECT
    ).values_list("chat_id", "person_id"):
        counterparts.setdefault(chat_id, person_id)
    user_name = (user.first_name or "").strip()
    members_by_chat: dict[int, dict[str, int | None]] = {}
    for chat_id, person_id, name in ChatParticipant.objects.filter(
        chat__in=[chat for chat in chats if chat.kind != ChatKind.DIRECT]
    ).values_list("chat_id", "person_id", "person__display_name"):
        first = fold_text((name or "").split()[0]) if (name or "").split() else ""
        if not first or first == fold_text(user_name):
            continue
        chat_members = members_by_chat.setdefault(chat_id, {})
        # A first name two members share names neither.
        chat_members[first] = None if first in chat_members else person_id
    return _LoopContext(
        user_name=user_name,
        counterparts=counterparts,
        members_by_chat={
            chat_id: {name: pid for name, pid in members.items() if pid is not None}
            for chat_id, members in members_by_chat.items()
        },
    )


_CHAT_MESSAGE_FIELDS = (
    "pk",
    "is_from_self",
    "sender_person_id",
    "reply_to_id",
    "kind",
    "text",
    "sent_at",
)


_LOOP_FIELDS = ("chat_id", "person_id", "status", "resolved_by_id", "opened_at", "closed_at")


def _loops_store(
    *, user: User, chat: Chat, found: Sequence[_LoopFound], read_opener_ids: set[int] | None
) -> list[int]:
    """``_loops_store_many`` for one chat."""
    return _loops_store_many(user=user, stores=[(chat, found, read_opener_ids)])


def _loops_store_many(
    *,
    user: User,
    stores: Sequence[tuple[Chat, Sequence[_LoopFound], set[int] | None]],
    scope: Q | None = None,
) -> list[int]:
    """Store what ``_loops_in_chat`` found in each chat: loops of the openers it read (every
    message of the chat when the read openers are None) that it no longer finds go; a loop
    the user closed stays closed. Only new and changed loops are written, in a few statements
    however many chats and loops are read again. ``scope``: a filter that holds at least the
    loops of the openers read (the chats' loops by default). Returns the ids of the loops now
    open."""
    if not stores:
        return []
    read_by_chat = {chat.pk: read_opener_ids for chat, _, read_opener_ids in stores}
    if scope is None:
        scope = Q(chat_id__in=list(read_by_chat))
    existing: dict[tuple[int, str], Loop] = {}
    for loop in Loop.objects.filter(scope, user=user, chat_id__in=list(read_by_chat)):
        read = read_by_chat[loop.chat_id]
        if read is None or loop.opened_by_id in read:
            existing[(loop.opened_by_id, loop.kind)] = loop
    wanted = {(item.opened_by_id, item.kind) for _, found, _ in stores for item in found}
    Loop.objects.filter(
        pk__in=[loop.pk for key, loop in existing.items() if key not in wanted]
    ).delete()
    created: list[Loop] = []
    changed: list[Loop] = []
    open_loops: list[Loop] = []
    for chat, found, _ in stores:
        for item in found:
            stored = existing.get((item.opened_by_id, item.kind))
            if stored is not None and stored.status == LoopStatus.CLOSED_BY_USER:
                continue
            values = {
                "chat_id": chat.pk,
                "person_id": item.person_id,
                "status": LoopStatus.RESOLVED if item.resolved_by_id else LoopStatus.OPEN,
                "resolved_by_id": item.resolved_by_id,
                "opened_at": item.opened_at,
                "closed_at": item.resolved_at,
            }
            if stored is None:
                loop = Loop(user=user, opened_by_id=item.opened_by_id, kind=item.kind, **values)
                created.append(loop)
            else:
                loop = stored
                if any(getattr(loop, name) != value for name, value in values.items()):
                    for name, value in values.items():
                        setattr(loop, name, value)
                    changed.append(loop)
            if values["status"] == LoopStatus.OPEN:
                open_loops.append(loop)
    Loop.objects.bulk_create(created)
    Loop.objects.bulk_update(changed, list(_LOOP_FIELDS))
    return [loop.pk for loop in open_loops]


def _chat_loops_derive(
    *, user: User, chat: Chat, context: _LoopContext, messages: list[_ChatMessage], **scope: Any
) -> list[_LoopFound]:
    return _loops_in_chat(
        chat=chat,
        messages=messages,
        user_name=context.user_name,
        counterpart_id=context.counterparts.get(chat.pk),
        members=context.members_by_chat.get(chat.pk, {}),
        **scope,
    )


def _chat_messages(*, user: User, chat: Chat) -> list[_ChatMessage]:
    return [
        _ChatMessage(*row)
        for row in Message.objects.filter(user=user, chat=chat, deleted_at__isnull=True)
        .order_by("sent_at", "pk")
        .values_list(*_CHAT_MESSAGE_FIELDS)
    ]


@transaction.atomic
def loops_refresh(*, user: User, chat_ids: Iterable[int]) -> int:
    """Derive the loops of the user's chats ``chat_ids`` again from their live messages.

    A loop the user closed stays closed; a loop whose opening message is gone (deleted, or
    edited so it no longer opens one) is removed. Returns the number of loops now open in
    those chats."""
    chats = list(Chat.objects.filter(user=user, pk__in=set(chat_ids)).order_by("pk"))
    context = _loop_context(user=user, chats=chats)
    open_count = 0
    for chat in chats:
        messages = _chat_messages(user=user, chat=chat)
        found = _chat_loops_derive(user=user, chat=chat, context=context, messages=messages)
        open_count += len(_loops_store(user=user, chat=chat, found=found, read_opener_ids=None))
    if loops_close_across_chats(user=user):
        open_count = Loop.objects.filter(user=user, chat__in=chats, status=LoopStatus.OPEN).count()
    return open_count


# The near loops first (by chat and time, and the few a new message replies to), then, for
# those alone, the resolving message's chat by its primary key: filtered the other way round,
# the planner looked up the resolving message of every resolved loop the chats ever had.
_LOOPS_TO_READ_AGAIN_SQL = """
    WITH near AS MATERIALIZED (
        SELECT loop.* FROM memory_loop loop
        WHERE loop.user_id = %(user)s AND loop.chat_id = ANY(%(chats)s)
          AND loop.opened_at < %(since)s AND loop.status <> %(closed_by_user)s
          AND (loop.opened_at >= %(horizon)s OR loop.opened_by_id IN (
                SELECT m.reply_to_id FROM conversations_message m
                WHERE m.user_id = %(user)s AND m.chat_id = ANY(%(chats)s)
                  AND m.sent_at >= %(since)s AND m.reply_to_id IS NOT NULL))
    )
    SELECT near.* FROM near
    WHERE near.status = %(open)s OR near.closed_at >= %(since)s OR near.resolved_by_id IS NULL
       OR near.chat_id <> (
            SELECT r.chat_id FROM conversations_message r WHERE r.id = near.resolved_by_id)
"""


def _loops_to_read_again(*, user: User, chat_ids: Sequence[int], since: datetime) -> list[Loop]:
    """The chats' loops opened before ``since`` whose state a message from ``since`` on can
    change: still open, resolved from ``since`` on, or closed by a message of another chat (a
    message of their own chat may now resolve them first). A loop opened more than
    ``LOOP_ANSWER_HORIZON`` before ``since`` only when a message from ``since`` on replies to
    its opening message: nothing else can answer it any more."""
    if not chat_ids:
        return []
    return list(
        Loop.objects.raw(
            _LOOPS_TO_READ_AGAIN_SQL,
            {
                "user": user.pk,
                "chats": list(chat_ids),
                "since": since,
                "horizon": since - LOOP_ANSWER_HORIZON,
                "open": LoopStatus.OPEN,
                "closed_by_user": LoopStatus.CLOSED_BY_USER,
            },
        )
    )


_PREVIOUS_MESSAGES_SQL = """
    SELECT previous.id
    FROM conversations_message opener
    CROSS JOIN LATERAL (
        SELECT m.id FROM conversations_message m
        WHERE m.chat_id = opener.chat_id AND m.user_id = opener.user_id
          AND m.deleted_at IS NULL AND (m.sent_at, m.id) < (opener.sent_at, opener.id)
        ORDER BY m.sent_at DESC, m.id DESC LIMIT 1
    ) previous
    WHERE opener.id = ANY(%s) AND opener.user_id = %s
"""

# Each chat's first live message of the user through the (chat, time) index: an EXISTS
# with the time bound was planned as a scan of all the user's messages.
_USER_FIRST_WROTE_SQL = """
    SELECT chat.id, (
        SELECT m.sent_at FROM conversations_message m
        WHERE m.chat_id = chat.id AND m.user_id = %(user)s AND m.deleted_at IS NULL
          AND m.is_from_self
        ORDER BY m.chat_id, m.sent_at, m.id LIMIT 1
    )
    FROM unnest(%(chats)s::bigint[]) AS chat(id)
"""


def _chats_user_wrote_in(
    *, user: User, chat_ids: Sequence[int], since: datetime
) -> tuple[set[int], set[int]]:
    """Which of the chats hold a live message of the user sent before ``since``, and which
    hold one sent from ``since`` on but none before."""
    with connection.cursor() as cursor:
        cursor.execute(_USER_FIRST_WROTE_SQL, {"user": user.pk, "chats": list(chat_ids)})
        rows = cursor.fetchall()
    before = {pk for pk, first in rows if first is not None and first < since}
    return before, {pk for pk, first in rows if first is not None and first >= since}


def _chat_messages_of(rows: Iterable[tuple[Any, ...]]) -> dict[int, dict[int, _ChatMessage]]:
    """Rows of (chat id, *``_CHAT_MESSAGE_FIELDS``) by chat, then by message id."""
    by_chat: dict[int, dict[int, _ChatMessage]] = {}
    for chat_id, *fields in rows:
        message = _ChatMessage(*fields)
        by_chat.setdefault(chat_id, {})[message.pk] = message
    return by_chat


def _chats_messages_around(
    *, user: User, since: datetime, opener_ids: Mapping[int, Sequence[int]]
) -> dict[int, list[_ChatMessage]]:
    """For each chat of ``opener_ids``: its messages from ``since`` on, with what the loop
    rules read before them: the message right before each of them and before each of the
    chat's openers in ``opener_ids``, the openers themselves and the messages of the chat any
    of them reply to. In send-time order, so each reader's previous message is the one right
    before it. Four statements for all the chats."""
    chat_ids = list(opener_ids)
    live = Message.objects.filter(user=user, deleted_at__isnull=True)
    recent = _chat_messages_of(
        live.filter(chat_id__in=chat_ids, sent_at__gte=since)
        .order_by("sent_at", "pk")
        .values_list("chat_id", *_CHAT_MESSAGE_FIELDS)
    )
    first_ids = [next(iter(messages)) for messages in recent.values()]
    all_openers = [pk for pks in opener_ids.values() for pk in pks]
    with connection.cursor() as cursor:
        cursor.execute(_PREVIOUS_MESSAGES_SQL, [[*first_ids, *all_openers], user.pk])
        previous_ids = [row[0] for row in cursor.fetchall()]
    earlier = _chat_messages_of(
        live.filter(chat_id__in=chat_ids, pk__in={*all_openers, *previous_ids}).values_list(
            "chat_id", *_CHAT_MESSAGE_FIELDS
        )
    )
    wanted: dict[int, set[int]] = {}
    for chat_id in chat_ids:
        read = {**earlier.get(chat_id, {}), **recent.get(chat_id, {})}
        wanted[chat_id] = {m.reply_to_id for m in read.values() if m.reply_to_id} - set(read)
    targets = _chat_messages_of(
        live.filter(
            chat_id__in=chat_ids, pk__in={pk for pks in wanted.values() for pk in pks}
        ).values_list("chat_id", *_CHAT_MESSAGE_FIELDS)
    )
    around = {}
    for chat_id in chat_ids:
        merged = {
            **{pk: m for pk, m in targets.get(chat_id, {}).items() if pk in wanted[chat_id]},
            **earlier.get(chat_id, {}),
            **recent.get(chat_id, {}),
        }
        around[chat_id] = sorted(merged.values(), key=lambda m: (m.sent_at, m.pk))
    return around


@transaction.atomic
def loops_update(*, user: User, chat_ids: Iterable[int], since: datetime) -> int:
    """What ``loops_refresh`` of every chat would store, after messages from ``since`` on
    changed in ``chat_ids``. Each of those chats (and each chat holding a loop that a message
    of another chat closed from ``since`` on) is read from ``since`` on, with the loops opened
    before that a new message can still resolve; a chat where the user never wrote before
    ``since`` is read whole (whether the user ever wrote there decides which questions open
    loops at all). Then only the loops read again and those opened within the closing window
    before ``since`` are matched across chats. The chats are read and written together, in a
    fixed number of statements. Returns the number of messages read."""
    cross_closed = Loop.objects.filter(
        user=user, status=LoopStatus.RESOLVED, closed_at__gte=since
    ).exclude(resolved_by__chat_id=F("chat_id"))
    wanted = set(chat_ids) | set(cross_closed.values_list("chat_id", flat=True))
    chats = list(Chat.objects.filter(user=user, pk__in=wanted).order_by("pk"))
    context = _loop_context(user=user, chats=chats)
    wrote_before, wrote_since = _chats_user_wrote_in(
        user=user, chat_ids=[chat.pk for chat in chats], since=since
    )
    again = _loops_to_read_again(user=user, chat_ids=sorted(wrote_before), since=since)
    opener_ids: dict[int, list[int]] = {chat_id: [] for chat_id in sorted(wrote_before)}
    for loop in again:
        opener_ids[loop.chat_id].append(loop.opened_by_id)
    around = _chats_messages_around(
        user=user,
        since=since,
        opener_ids={chat_id: sorted(set(pks)) for chat_id, pks in opener_ids.items()},
    )
    read_loop_ids = [loop.pk for loop in again if loop.status != LoopStatus.OPEN]
    read_messages = 0
    stores: list[tuple[Chat, list[_LoopFound], set[int] | None]] = []
    whole: list[Chat] = []
    for chat in chats:
        if chat.pk not in wrote_before and chat.pk not in wrote_since:
            # The user never wrote here: no message of theirs opens a loop and no question
            # is owed an answer (``_loops_in_chat``), so the chat has no loops to read.
            stores.append((chat, [], None))
            whole.append(chat)
            continue
        if chat.pk not in wrote_before:
            messages = _chat_messages(user=user, chat=chat)
            found = _chat_loops_derive(user=user, chat=chat, context=context, messages=messages)
            stores.append((chat, found, None))
            whole.append(chat)
            read_messages += len(messages)
            continue
        messages = around[chat.pk]
        openers = set(opener_ids[chat.pk])
        read = {
            index
            for index, message in enumerate(messages)
            if message.sent_at >= since or message.pk in openers
        }
        found = _chat_loops_derive(
            user=user,
            chat=chat,
            context=context,
            messages=messages,
            opener_indexes=read,
            user_writes_here=True,
        )
        stores.append((chat, found, {messages[index].pk for index in read}))
        read_messages += len(messages)
    _loops_store_many(
        user=user,
        stores=stores,
        # The loops of the openers read: those of the chats read whole, those opened from
        # ``since`` on and those of the openers read again.
        scope=Q(chat_id__in=[chat.pk for chat in whole])
        | Q(opened_at__gte=since)
        | Q(opened_by_id__in=[pk for pks in opener_ids.values() for pk in pks]),
    )
    # A loop that was open stays as the cross-chat pass left it unless a new message is in its
    # window (read by its time below); the others are matched again, and every loop of a chat
    # read whole.
    read_loop_ids.extend(
        Loop.objects.filter(user=user, chat__in=whole).values_list("pk", flat=True)
    )
    loops_close_across_chats(
        user=user, opened_since=since - LOOP_CLOSE_WINDOW, loop_ids=read_loop_ids
    )
    return read_messages


def loop_close(*, user: User, loop_id: int, now: datetime) -> Loop:
    """The user closes a loop by hand; it stays closed whatever later messages say."""
    with transaction.atomic():
        loop = Loop.objects.select_for_update().filter(user=user, pk=loop_id).first()
        if loop is None:
            raise NotFound(message="Loop not found.")
        if loop.status != LoopStatus.CLOSED_BY_USER:
            loop.status = LoopStatus.CLOSED_BY_USER
            loop.closed_at = now
            loop.save(update_fields=["status", "closed_at"])
    logger.info("memory.loop_closed", extra={"user_id": user.pk, "loop_id": loop.pk})
    return loop


# --- After ingest -------------------------------------------------------------------------


def memory_forget_messages(*, user: User, message_ids: Sequence[int]) -> None:
    """Remove at once what deleted messages supported: plan steps, loops they opened, and facts
    no other message supports (plans left without steps go too). The deferred refresh
    recomputes statuses and supersession."""
    if not message_ids:
        return
    ids = list(message_ids)
    PlanStep.objects.filter(user=user, message_id__in=ids).delete()
    Plan.objects.filter(user=user, steps__isnull=True).delete()
    Loop.objects.filter(user=user, opened_by_id__in=ids).delete()
    PersonFactSource.objects.filter(fact__user=user, message_id__in=ids).delete()
    PersonFact.objects.filter(user=user, source_links__isnull=True).delete()


def memory_refresh(*, user: User, chat_ids: Iterable[int]) -> None:
    """Re-derive plans, facts and the loops of ``chat_ids`` (run after an ingest commits)."""
    introductions_merge(user=user)
    handoff_links_merge(user=user)
    loops_refresh(user=user, chat_ids=chat_ids)
    plans_rebuild(user=user)
    facts_rebuild(user=user)


# --- Contacts that say who they are ---------------------------------------------------------

INTRODUCTION_REASON = "said who they are: message {message_id}"


def introductions_merge(*, user: User) -> int:
    """Merge each contact that says who it is ("it's Dana btw, new phone!") into the one human
    the user already has under that name (``memory.introductions``). A pair the
    user split is never merged again; a merge already there is kept. Idempotent; returns the
    number of merges made."""
    names = dict(Person.objects.filter(user=user).values_list("pk", "display_name"))
    canonical = dict(
        PersonMerge.objects.filter(user=user, split_at__isnull=True).values_list(
            "merged_person_id", "kept_person_id"
        )
    )
    split = {
        frozenset(pair)
        for pair in PersonMerge.objects.filter(user=user, split_at__isnull=False).values_list(
            "kept_person_id", "merged_person_id"
        )
    }
    rows = (
        Message.objects.filter(
            user=user,
            is_from_self=False,
            sender_person__isnull=False,
            deleted_at__isnull=True,
            kind=MessageKind.TEXT,
            chat__is_excluded_from_ai=False,
            text__iregex=INTRODUCTION_VOCABULARY,
        )
        .order_by("sent_at", "pk")
        .values_list("pk", "sender_person_id", "text")
    )
    made = 0
    for message_id, sender_id, text in rows.iterator(chunk_size=2000):
        said = self_introduction(text)
        if said is None or not _introduces(
            said, message_id=message_id, sender_id=sender_id, names=names, user=user
        ):
            continue
        humans = {
            canonical.get(pk, pk)
            for pk, display in names.items()
            if pk != sender_id and names_match(said.name, display)
        }
        humans.discard(canonical.get(sender_id, sender_id))
        if len(humans) != 1:
            continue
        (kept,) = humans
        if canonical.get(sender_id) == kept or frozenset((kept, sender_id)) in split:
            continue
        if sender_id in canonical.values():
            # The sender already holds others; merging it away is the user's call.
            continue
        person_merge(
            user=user,
            kept_person_id=kept,
            merged_person_id=sender_id,
            reason=INTRODUCTION_REASON.format(message_id=message_id),
        )
        canonical[sender_id] = kept
        made += 1
    return made


def _introduces(
    said: SelfIntroduction, *, message_id: int, sender_id: int, names: Mapping[int, str], user: User
) -> bool:
    """Whether an introduction is about a new way to reach the sender: it says so, or the
    sender has no name of its own (its label is the number) and this is one of its first
    messages."""
    if said.says_new_contact:
        return True
    if name_words(names.get(sender_id, "")):
        return False
    first = Message.objects.filter(user=user, sender_person_id=sender_id).order_by("sent_at", "pk")
    return message_id in set(first.values_list("pk", flat=True)[:FIRST_MESSAGES])


# --- One person across platforms, told by a hand-off ----------------------------------------

HANDOFF_REASON = (
    "one person across platforms: message {handoff} moves to {medium};"
    " message {first} shares {words}"
)


@dataclass(frozen=True)
class _HandoffLink:
    handoff_id: int
    medium: str
    person_id: int
    other_id: int
    first_id: int
    shared: tuple[str, ...]
    score: float


def handoff_links_merge(*, user: User, since: datetime | None = None) -> int:
    """Link each contact that moved the conversation to another platform ("I'll email u the
    address") to the new contact that then wrote there about the same things
    (``memory.handoff``), recorded as a ``PersonMerge`` with its confidence and
    the messages read. Hand-offs from ``since - HANDOFF_WINDOW`` on are read (all without
    ``since``). A pair the user split is never linked again; a hand-off two new contacts fit
    equally, or a new contact two hand-offs of different people fit, links nobody.
    Idempotent; returns the number of links made."""
    handoffs = Message.objects.filter(
        user=user,
        deleted_at__isnull=True,
        kind=MessageKind.TEXT,
        chat__kind=ChatKind.DIRECT,
        chat__is_excluded_from_ai=False,
        text__iregex=HANDOFF_VOCABULARY,
    )
    if since is not None:
        handoffs = handoffs.filter(sent_at__gte=since - HANDOFF_WINDOW)
    rows = list(
        handoffs.order_by("-sent_at", "-pk").values_list(
            "pk", "chat_id", "chat__platform", "sent_at", "text"
        )[:HANDOFFS_READ]
    )
    rows.reverse()
    if not rows:
        return 0
    canonical = person_canonical_ids(user=user)
    split = {
        frozenset(pair)
        for pair in PersonMerge.objects.filter(user=user, split_at__isnull=False).values_list(
            "kept_person_id", "merged_person_id"
        )
    }
    names = dict(Person.objects.filter(user=user).values_list("pk", "display_name"))
    links: list[_HandoffLink] = []
    for message_id, chat_id, platform, sent_at, text in rows:
        medium = handoff_medium(text)
        if medium is None or is_suspicious(text):
            continue
        link = _handoff_link(
            user=user,
            message_id=message_id,
            chat_id=chat_id,
            platform=platform,
            sent_at=sent_at,
            medium=medium,
            canonical=canonical,
            names=names,
        )
        if link is not None:
            links.append(link)
    # A new contact claimed by hand-offs of two different people is nobody's.
    claimants: dict[int, set[int]] = {}
    for link in links:
        claimants.setdefault(link.other_id, set()).add(
            canonical.get(link.person_id, link.person_id)
        )
    made = 0
    for link in links:
        if len(claimants[link.other_id]) != 1:
            continue
        first_root = canonical.get(link.person_id, link.person_id)
        other_root = canonical.get(link.other_id, link.other_id)
        if first_root == other_root or frozenset((link.person_id, link.other_id)) in split:
            continue
        if frozenset((first_root, other_root)) in split:
            continue
        # The contact with a full name is the one the human is read under.
        if is_full_name(names.get(other_root, "")) and not is_full_name(names.get(first_root, "")):
            kept, merged = other_root, first_root
        else:
            kept, merged = first_root, other_root
        confidence = round(min(0.95, 0.6 + 0.1 * link.score), 2)
        person_merge(
            user=user,
            kept_person_id=kept,
            merged_person_id=merged,
            reason=HANDOFF_REASON.format(
                handoff=link.handoff_id,
                medium=link.medium,
                first=link.first_id,
                words=", ".join(link.shared[:6]),
            ),
            confidence=confidence,
            evidence_message_ids=(link.handoff_id, link.first_id),
        )
        for pk, root in list(canonical.items()):
            if root == merged:
                canonical[pk] = kept
        canonical[merged] = kept
        made += 1
    return made


# Hand-offs read per run: the newest ones, then oldest first.
HANDOFFS_READ = 2000


def _handoff_link(
    *,
    user: User,
    message_id: int,
    chat_id: int,
    platform: str,
    sent_at: datetime,
    medium: str,
    canonical: Mapping[int, int],
    names: Mapping[int, str],
) -> _HandoffLink | None:
    """The new contact a hand-off leads to, when exactly one fits best (see
    ``memory.handoff``)."""
    counterpart = list(
        ChatParticipant.objects.filter(chat_id=chat_id).values_list("person_id", flat=True)[:2]
    )
    if len(counterpart) != 1:
        return None
    (person_id,) = counterpart
    root = canonical.get(person_id, person_id)
    platforms = [p for p in MEDIUM_PLATFORMS[medium] if medium != "dm" or p != platform]
    new_chats = (
        Chat.objects.filter(user=user, kind=ChatKind.DIRECT, is_excluded_from_ai=False)
        .filter(platform__in=platforms)
        .exclude(pk=chat_id)
        # Each chat's first message through the (chat, time) index, not an aggregate over
        # every message of every direct chat.
        .annotate(
            first_at=Subquery(
                Message.objects.filter(chat_id=OuterRef("pk"), deleted_at__isnull=True)
                .order_by("sent_at", "pk")
                .values("sent_at")[:1]
            )
        )
        .filter(first_at__gt=sent_at, first_at__lte=sent_at + HANDOFF_WINDOW)
        .values_list("pk", "title")
    )
    candidates = []
    for new_chat_id, title in new_chats:
        others = list(
            ChatParticipant.objects.filter(chat_id=new_chat_id).values_list("person_id", flat=True)[
                :2
            ]
        )
        if len(others) != 1 or canonical.get(others[0], others[0]) == root:
            continue
        (other_id,) = others
        if names_contradict(names.get(person_id, ""), names.get(other_id, "")):
            continue
        if (
            is_suspicious(title or "")
            or Message.objects.filter(
                user=user, sender_person_id=other_id, sent_at__lte=sent_at
            ).exists()
        ):
            continue
        first = list(
            Message.objects.filter(chat_id=new_chat_id, deleted_at__isnull=True)
            .order_by("sent_at", "pk")
            .values_list("pk", "text", "sender_person_id")[:FIRST_HANDOFF_MESSAGES]
        )
        if not first or any(is_suspicious(text or "") for _, text, _ in first):
            continue
        candidates.append((new_chat_id, other_id, title or "", first))
    if not candidates:
        return None
    context = list(
        Message.objects.filter(
            chat_id=chat_id,
            deleted_at__isnull=True,
            sent_at__lte=sent_at,
            sent_at__gte=sent_at - CONTEXT_WINDOW,
        )
        .order_by("-sent_at", "-pk")
        .values_list("text", flat=True)[:CONTEXT_MESSAGES]
    )
    before: set[str] = set()
    for text in context:
        if not is_suspicious(text or ""):
            before |= content_words(text or "")
    scored = []
    for new_chat_id, other_id, title, first in candidates:
        after = content_words(title)
        for _, text, _ in first:
            after |= content_words(text or "")
        shared = before & after
        rare = {
            word
            for word in shared
            if not is_number(word)
            and Message.objects.filter(user=user, deleted_at__isnull=True, text__icontains=word)
            .exclude(chat_id__in=[chat_id, new_chat_id])[: RARE_OUTSIDE + 1]
            .count()
            <= RARE_OUTSIDE
        }
        score = overlap_score(shared, rare)
        if score >= HANDOFF_MIN_SCORE:
            first_id = next((pk for pk, _, sender in first if sender == other_id), first[0][0])
            scored.append((score, other_id, first_id, tuple(sorted(shared))))
    if not scored:
        return None
    scored.sort(reverse=True)
    if len(scored) > 1 and scored[1][0] == scored[0][0]:
        return None
    best_score, best_other, best_first, best_shared = scored[0]
    return _HandoffLink(
        handoff_id=message_id,
        medium=medium,
        person_id=person_id,
        other_id=best_other,
        first_id=best_first,
        shared=best_shared,
        score=best_score,
    )


def memory_update(
    *,
    user: User,
    chat_ids: Iterable[int],
    since: datetime | None,
    facts: bool = True,
    people_changed: bool = True,
) -> None:
    """Bring memory up to date after messages sent from ``since`` on changed in ``chat_ids``:
    loops and plans from those messages and their neighbourhood only (``loops_update``,
    ``plans_update``), facts re-derived when ``facts`` (``facts_touched`` or a change of
    ``facts_inputs_signature``): from the message claims ingest keeps (``facts_assemble``),
    or from every message read again when people or chats changed (``facts_rebuild``). When
    people or chat members changed (``people_changed``), the touched chats' loops are read
    whole: who a group message names depends on its members. The memory job's work; what it
    stores equals ``memory_rebuild``'s."""
    if since is None or people_changed:
        introductions_merge(user=user)
    # A hand-off and the new contact it leads to may arrive in either order (one platform's
    # batch, then another's): the hand-offs near the changed messages are read every time.
    if handoff_links_merge(user=user, since=since):
        people_changed = True
    if since is None:
        loops_refresh(user=user, chat_ids=chat_ids)
        plans_rebuild(user=user)
    elif people_changed:
        loops_refresh(user=user, chat_ids=chat_ids)
        plans_update(user=user, since=since)
    else:
        loops_update(user=user, chat_ids=chat_ids, since=since)
        plans_update(user=user, since=since)
    if facts and people_changed:
        facts_rebuild(user=user)
    elif facts:
        facts_assemble(user=user)


def facts_touched(*, user: User, changed_ids: Sequence[int], deleted_ids: Sequence[int]) -> bool:
    """Whether these messages (created or edited, and deleted; called before what the deleted
    ones supported is forgotten) can change the user's facts: one states a fact or shows
    kinship (the rules find a claim in it), one was a fact's source or was read by the
    ``extract`` model, or one is from (or, the user's, to) someone saved under a relation
    word, whose first message is a kinship fact's source."""
    if not changed_ids and not deleted_ids:
        return False
    touched = [*changed_ids, *deleted_ids]
    # A reply that arrived before the message it answers is linked to it now.
    readers = (
        Message.objects.filter(user=user, deleted_at__isnull=True, kind=MessageKind.TEXT)
        .filter(Q(pk__in=list(changed_ids)) | Q(reply_to_id__in=touched))
        .filter(Q(text__iregex=_FACT_VOCABULARY) | Q(text__iregex=KINSHIP_VOCABULARY))
        .values_list("text", "is_from_self", "chat__kind")
    )
    for text, is_from_self, chat_kind in readers:
        is_direct = chat_kind == ChatKind.DIRECT
        if (
            fact_claims(text, is_from_self=is_from_self, is_direct=is_direct)
            or nationality_claims(text)
            or addressed_relation(text) is not None
            or signed_relation(text) is not None
        ):
            return True
    if PersonFactSource.objects.filter(fact__user=user, message_id__in=touched).exists():
        return True
    if RefinedFactClaim.objects.filter(
        refinement__user=user, refinement__message_id__in=touched
    ).exists():
        return True
    senders = Message.objects.filter(user=user, pk__in=touched).values("sender_person_id")
    self_chats = Message.objects.filter(user=user, pk__in=touched, is_from_self=True).values(
        "chat_id"
    )
    people = set(
        ChatParticipant.objects.filter(
            chat__user=user, chat__kind=ChatKind.DIRECT, chat_id__in=self_chats
        ).values_list("person_id", flat=True)
    ) | set(Person.objects.filter(user=user, pk__in=senders).values_list("pk", flat=True))
    names = [
        *Person.objects.filter(user=user, pk__in=people).values_list("display_name", flat=True),
        *PersonIdentity.objects.filter(
            user=user, person_id__in=people, kind=IdentityKind.NAME
        ).values_list("value", flat=True),
    ]
    return any(relation_of_contact_name(name or "") is not None for name in names)


_FACT_INPUTS_SQL = """
    SELECT md5(concat_ws('|',
        (SELECT string_agg(id || ':' || display_name, ',' ORDER BY id)
         FROM conversations_person WHERE user_id = %(user)s),
        (SELECT string_agg(person_id || ':' || value, ',' ORDER BY id)
         FROM conversations_personidentity WHERE user_id = %(user)s AND kind = %(name_kind)s),
        (SELECT string_agg(id || ':' || kind || ':' || is_excluded_from_ai || ':' || title, ','
                           ORDER BY id)
         FROM conversations_chat WHERE user_id = %(user)s),
        (SELECT string_agg(cp.chat_id || ':' || cp.person_id, ',' ORDER BY cp.id)
         FROM conversations_chatparticipant cp JOIN conversations_chat c ON c.id = cp.chat_id
         WHERE c.user_id = %(user)s),
        (SELECT string_agg(id::text, ',' ORDER BY id)
         FROM memory_personfactrejection WHERE user_id = %(user)s),
        (SELECT persist_sensitive_facts || ':' || coalesce(sensitive_retention_days, 0)
         FROM memory_memorypolicy WHERE user_id = %(user)s)
    ))
"""


# Part of ``facts_inputs_signature``: a new version of the claim rules (or their first use)
# reads every message's claims again at the next job run.
MESSAGE_CLAIMS_VERSION = "claims-2"


def facts_inputs_signature(*, user: User, today: date) -> str:
    """A digest of what facts read besides the messages: the user's people and their saved
    names, chats (kind, title, AI switch) and members, rejections and memory policy (and the
    day, when sensitive facts expire). Facts need deriving again when it changes."""
    with connection.cursor() as cursor:
        cursor.execute(_FACT_INPUTS_SQL, {"user": user.pk, "name_kind": IdentityKind.NAME})
        (digest,) = cursor.fetchone()
    policy = MemoryPolicy.objects.filter(user=user).first()
    if policy and policy.persist_sensitive_facts and policy.sensitive_retention_days:
        digest = f"{digest}:{today.isoformat()}"
    return f"{digest}:{MESSAGE_CLAIMS_VERSION}"


@dataclass(frozen=True)
class MemoryRebuilt:
    counter_rows: int
    open_loops: int
    plans: int
    facts: int


def memory_rebuild(*, user: User) -> MemoryRebuilt:
    """Recompute everything from the user's live messages: the offline reconciler of the
    incremental path (``memory_rebuild`` command)."""
    counter_rows = relationship_counters_rebuild(user=user)
    introductions_merge(user=user)
    handoff_links_merge(user=user)
    chat_ids = list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    open_loops = loops_refresh(user=user, chat_ids=chat_ids)
    plans = plans_rebuild(user=user)
    facts = facts_rebuild(user=user)
    return MemoryRebuilt(counter_rows=counter_rows, open_loops=open_loops, plans=plans, facts=facts)


# --- Facts about people -------------------------------------------------------------------

# A cheap database-side filter: a message matching none of these states no fact
# (``memory.extract.fact_claims`` reads the rest).
_FACT_VOCABULARY = (
    r"from|live|based|moved|bought a|offer|work|run an? |meet|i'm |i am |made it to|arrived in"
    r"|settled in|engaged|proposed to|said yes"
    r"|(my|our|your) (" + "|".join(RELATIONS) + ") "
)


@dataclass
class _FactDraft:
    person_id: int
    kind: str
    value: str
    related_person_id: int | None
    valid_from: datetime
    is_sensitive: bool = False
    origin: str = FactOrigin.RULES
    message_ids: list[int] = field(default_factory=list)
    superseded_by: _FactDraft | None = None
    # How a source message proves the fact, when not by stating it (``FactBasis``).
    bases: dict[int, str] = field(default_factory=dict)


class _FactBook:
    """Facts in the making, in send-time order: a single-valued kind keeps one current value,
    and a different later value supersedes it."""

    def __init__(self) -> None:
        self.drafts: list[_FactDraft] = []
        self._current: dict[tuple[int, str, int | None], _FactDraft] = {}
        self._by_value: dict[tuple[int, str, str, int | None], _FactDraft] = {}

    def add(
        self,
        *,
        person_id: int,
        kind: str,
        value: str,
        message_id: int,
        sent_at: datetime,
        related_person_id: int | None = None,
        is_sensitive: bool = False,
        previous: str = "",
        origin: str = FactOrigin.RULES,
        basis: str = FactBasis.STATEMENT,
    ) -> None:
        slot = (person_id, kind, related_person_id)
        if previous and kind in SINGLE_VALUED_FACT_KINDS and slot not in self._current:
            self.add(
                person_id=person_id,
                kind=kind,
                value=previous,
                message_id=message_id,
                sent_at=sent_at,
                origin=origin,
            )
        if kind in SINGLE_VALUED_FACT_KINDS:
            current = self._current.get(slot)
            if current is not None and fold_text(current.value) == fold_text(value):
                current.message_ids.append(message_id)
                return
            draft = self._new(
                person_id, kind, value, related_person_id, sent_at, is_sensitive, origin
            )
            draft.message_ids.append(message_id)
            if current is not None:
                current.superseded_by = draft
            self._current[slot] = draft
            return
        key = (person_id, kind, fold_text(value), related_person_id)
        existing = self._by_value.get(key)
        if existing is None:
            existing = self._new(
                person_id, kind, value, related_person_id, sent_at, is_sensitive, origin
            )
            self._by_value[key] = existing
        if message_id not in existing.message_ids:
            existing.message_ids.append(message_id)
            if basis != FactBasis.STATEMENT:
                existing.bases[message_id] = basis
            existing.valid_from = min(existing.valid_from, sent_at)

    def _new(
        self,
        person_id: int,
        kind: str,
        value: str,
        related_person_id: int | None,
        sent_at: datetime,
        is_sensitive: bool,
        origin: str,
    ) -> _FactDraft:
        draft = _FactDraft(
            person_id=person_id,
            kind=kind,
            value=value[:255],
            related_person_id=related_person_id,
            valid_from=sent_at,
            is_sensitive=is_sensitive,
            origin=origin,
        )
        self.drafts.append(draft)
        return draft


_TITLES = frozenset({"mr", "mrs", "ms", "miss", "mx", "dr", "prof"})


def _untitled_words(name: str) -> list[str]:
    words = [word.strip(".") for word in name_words(name)]
    return words[1:] if len(words) > 1 and words[0] in _TITLES else words


def _first_name_key(name: str) -> str:
    words = fold_text(name).split()
    return words[0] if words else ""


class PeopleDirectory:
    """The user's people by name and chat membership, for finding who a message names."""

    def __init__(self, *, user: User) -> None:
        self.user = user
        self._called: dict[str, int | None] = {}
        self.names: dict[int, str] = dict(
            Person.objects.filter(user=user).values_list("pk", "display_name")
        )
        self._by_first: dict[str, list[int]] = {}
        for person_id, name in self.names.items():
            self._by_first.setdefault(_first_name_key(name), []).append(person_id)
        # Name words without a leading title ("Mr Park": ["park"]).
        self._words: dict[int, list[str]] = {
            pk: _untitled_words(name) for pk, name in self.names.items()
        }
        self.members: dict[int, set[int]] = {}
        self.at_work: set[int] = set()
        for chat_id, person_id, platform in ChatParticipant.objects.filter(
            chat__user=user
        ).values_list("chat_id", "person_id", "chat__platform"):
            self.members.setdefault(chat_id, set()).add(person_id)
            if platform in WORK_PLATFORMS:
                self.at_work.add(person_id)

    def by_first_name(self, name: str, *, chat_id: int) -> int | None:
        """Someone named by first name: a member of the chat, else the only person of the user
        with that first name; ``None`` when that is not one person."""
        candidates = self._by_first.get(_first_name_key(name), [])
        here = [pk for pk in candidates if pk in self.members.get(chat_id, set())]
        chosen = here or candidates
        return chosen[0] if len(chosen) == 1 else None

    def by_claim(self, claim: FactClaim, *, chat_id: int) -> int | None:
        """The person a fact's "named:Clara" / "titled:Park" subject names. A work relation
        ("my boss Sam") between people sharing the name means the one the user talks to on a
        work platform."""
        kind, _, name = claim.subject.partition(":")
        if kind == "titled":
            return self.by_surname(name, chat_id=chat_id)
        found = self.by_first_name(name, chat_id=chat_id)
        namesakes = self._by_first.get(_first_name_key(name), [])
        if found is None and claim.kind == FactKind.RELATIONSHIP and claim.value in WORK_RELATIONS:
            at_work = [pk for pk in namesakes if pk in self.at_work]
            found = at_work[0] if len(at_work) == 1 else None
        if found is None and not namesakes:
            found = self.called(name)
        return found

    def called(self, name: str) -> int | None:
        """The one contact the user calls ``name`` though no contact is saved under it
        ("Maya" for the sister saved as "Bubbles"; ``memory.callnames``)."""
        key = fold_text(name)
        if key not in self._called:
            ids = people_called_by(user=self.user, names=[key]).get(key, ())
            self._called[key] = min(ids) if ids else None
        return self._called[key]

    def by_surname(self, name: str, *, chat_id: int) -> int | None:
        """Someone named by a title and a surname ("Mr. Park"): a member of the chat whose
        name ends with it or is titled with it, else the only such person of the user."""
        key = fold_text(name).strip()
        candidates = [
            pk for pk, words in self._words.items() if words and key in (words[-1], words[0])
        ]
        here = [pk for pk in candidates if pk in self.members.get(chat_id, set())]
        chosen = here or candidates
        return chosen[0] if len(chosen) == 1 else None

    def by_name(self, name: str, *, chat_id: int, sender_id: int | None) -> int | None:
        """Someone named in full or by first name: the sender, else the one member of the chat
        with that full name, else ``by_first_name``."""
        folded = fold_text(name).strip()
        if not folded:
            return None
        if sender_id is not None:
            sender = fold_text(self.names.get(sender_id, ""))
            if folded in (sender, _first_name_key(sender)):
                return sender_id
        exact = [
            pk for pk in self.members.get(chat_id, set()) if fold_text(self.names[pk]) == folded
        ]
        if len(exact) == 1:
            return exact[0]
        return self.by_first_name(folded, chat_id=chat_id)


def _message_claims_read(*, user: User, message_ids: Sequence[int] | None) -> list[MessageClaim]:
    """The claims the rules read from the user's live text messages (``message_ids`` only,
    when given): those matching the fact vocabulary give ``fact_claims`` and
    ``nationality_claims``, those matching the kinship vocabulary their relation words, and
    the user's own messages of leaving, arriving and coming back their trips
    (``away.travel_kind``)."""
    live = Message.objects.filter(user=user, deleted_at__isnull=True, kind=MessageKind.TEXT)
    if message_ids is not None:
        live = live.filter(pk__in=list(message_ids))
    found: dict[int, list[dict[str, Any]]] = {}
    for message_id, text, is_from_self, chat_kind in live.filter(
        text__iregex=_FACT_VOCABULARY
    ).values_list("pk", "text", "is_from_self", "chat__kind"):
        is_direct = chat_kind == ChatKind.DIRECT
        claims = found.setdefault(message_id, [])
        claims.extend(
            {
                "source": MessageClaimSource.STATEMENT,
                "subject": claim.subject,
                "kind": claim.kind,
                "value": claim.value,
                "previous": claim.previous,
                "related_to_sender": claim.related_to_sender,
            }
            for claim in fact_claims(text, is_from_self=is_from_self, is_direct=is_direct)
        )
        claims.extend(
            {"source": MessageClaimSource.NATIONALITY, "value": nationality}
            for nationality in nationality_claims(text)
        )
    for message_id, text in live.filter(
        is_from_self=False, sender_person__isnull=False, text__iregex=SELF_VOCABULARY
    ).values_list("pk", "text"):
        found.setdefault(message_id, []).extend(
            {
                "source": MessageClaimSource.SELF,
                "kind": statement.kind,
                "value": statement.value,
                "subject": statement.place,
            }
            for statement in self_statements(text)
        )
    for message_id, text in live.filter(text__iregex=KINSHIP_VOCABULARY).values_list("pk", "text"):
        for source, relation in (
            (MessageClaimSource.ADDRESSED, addressed_relation(text)),
            (MessageClaimSource.SIGNED, signed_relation(text)),
        ):
            if relation is not None:
                found.setdefault(message_id, []).append({"source": source, "value": relation})
    for message_id, text in live.filter(
        is_from_self=True, text__iregex=TRAVEL_VOCABULARY
    ).values_list("pk", "text"):
        travel = travel_kind(text)
        if travel:
            found.setdefault(message_id, []).append(
                {"source": MessageClaimSource.TRAVEL, "value": travel}
            )
    return [
        MessageClaim(user=user, message_id=message_id, position=position, **fields)
        for message_id, claims in sorted(found.items())
        for position, fields in enumerate(claims)
    ]


def message_claims_refresh(*, user: User, message_ids: Sequence[int]) -> None:
    """Read the claims of these messages again (created, edited or deleted ones), inside the
    ingest transaction: what ``facts_assemble`` reads stays what the messages say."""
    if not message_ids:
        return
    MessageClaim.objects.filter(user=user, message_id__in=list(message_ids)).delete()
    MessageClaim.objects.bulk_create(_message_claims_read(user=user, message_ids=message_ids))


def message_claims_rebuild(*, user: User) -> None:
    """Read the claims of every message of the user again."""
    MessageClaim.objects.filter(user=user).delete()
    MessageClaim.objects.bulk_create(
        _message_claims_read(user=user, message_ids=None), batch_size=2000
    )


@transaction.atomic
def facts_rebuild(*, user: User) -> int:
    """Derive the user's person facts again from their live messages: every message's claims
    read again (``message_claims_rebuild``), then ``facts_assemble``. Returns the number of
    facts."""
    message_claims_rebuild(user=user)
    return facts_assemble(user=user)


@dataclass(frozen=True)
class _ClaimRow:
    source: str
    subject: str
    kind: str
    value: str
    previous: str
    related_to_sender: bool
    message: KinMessage


def _claim_rows(*, user: User) -> Iterator[_ClaimRow]:
    """The stored claims of the user's live text messages, in send-time order (each
    message's in the order the rules gave them), with what resolving them needs."""
    rows = (
        MessageClaim.objects.filter(
            user=user, message__deleted_at__isnull=True, message__kind=MessageKind.TEXT
        )
        # Trips and what people say of themselves are read by answers, not by facts.
        .exclude(source__in=[MessageClaimSource.TRAVEL, MessageClaimSource.SELF])
        .order_by("message__sent_at", "message_id", "position")
        .values_list(
            "source",
            "subject",
            "kind",
            "value",
            "previous",
            "related_to_sender",
            "message__chat__is_excluded_from_ai",
            *kin_message_fields("message__"),
        )
    )
    for source, subject, kind, value, previous, related, is_excluded, *fields in rows.iterator(
        chunk_size=2000
    ):
        is_kin = source in (MessageClaimSource.ADDRESSED, MessageClaimSource.SIGNED)
        if is_kin and is_excluded:
            continue
        message = KinMessage.of(
            fields,
            addressed=value if source == MessageClaimSource.ADDRESSED else None,
            signed=value if source == MessageClaimSource.SIGNED else None,
        )
        yield _ClaimRow(source, subject, kind, value, previous, related, message)


def _kin_messages_of(rows: Sequence[_ClaimRow]) -> list[KinMessage]:
    """The messages with relation words, one each (its addressed and signed words joined),
    oldest first."""
    by_message: dict[int, KinMessage] = {}
    for row in rows:
        message = row.message
        seen = by_message.get(message.message_id)
        if seen is not None:
            message = dataclasses.replace(
                seen,
                addressed=seen.addressed or message.addressed,
                signed=seen.signed or message.signed,
            )
        by_message[message.message_id] = message
    return list(by_message.values())


@transaction.atomic
def facts_assemble(*, user: User) -> int:
    """Derive the user's person facts from the stored message claims in send-time order (so
    supersession follows when things were said, never when they were imported), resolving
    who each is about with the current people and chats. Sensitive attributes are kept only
    when the user's ``MemoryPolicy`` allows it. Only the facts of people whose facts changed
    are written. Returns the number of facts."""
    policy = MemoryPolicy.objects.filter(user=user).first()
    keep_sensitive = bool(policy and policy.persist_sensitive_facts)
    # Sensitive facts older than the policy's retention are not kept.
    sensitive_since = (
        timezone.now() - timedelta(days=policy.sensitive_retention_days)
        if policy and policy.sensitive_retention_days
        else None
    )
    rejected = set(
        PersonFactRejection.objects.filter(user=user).values_list(
            "person_id", "kind", "folded_value"
        )
    )
    counterparts: dict[int, int] = {}
    for chat_id, person_id in ChatParticipant.objects.filter(
        chat__user=user, chat__kind=ChatKind.DIRECT
    ).values_list("chat_id", "person_id"):
        counterparts.setdefault(chat_id, person_id)
    people = PeopleDirectory(user=user)

    book = _FactBook()
    kin_rows: list[_ClaimRow] = []
    for row in _claim_rows(user=user):
        message = row.message
        if row.source in (MessageClaimSource.ADDRESSED, MessageClaimSource.SIGNED):
            kin_rows.append(row)
            continue
        sender_id = message.sender_id
        if row.source == MessageClaimSource.NATIONALITY:
            is_retained = sensitive_since is None or message.sent_at >= sensitive_since
            if not (
                keep_sensitive
                and is_retained
                and not message.is_from_self
                and sender_id is not None
            ):
                continue
            if (sender_id, FactKind.NATIONALITY.value, fold_text(row.value)) in rejected:
                continue
            book.add(
                person_id=sender_id,
                kind=FactKind.NATIONALITY,
                value=row.value,
                message_id=message.message_id,
                sent_at=message.sent_at,
                is_sensitive=True,
            )
            continue
        claim = FactClaim(
            row.subject, row.kind, row.value, row.previous, related_to_sender=row.related_to_sender
        )
        subject: int | None
        if claim.subject == "sender":
            subject = sender_id
        elif claim.subject == "counterpart":
            subject = counterparts.get(message.chat_id)
        else:
            subject = people.by_claim(claim, chat_id=message.chat_id)
        if subject is None:
            continue
        # A relationship to the user has no related person (the user is not a Person).
        related = sender_id if claim.related_to_sender else None
        if claim.related_to_sender and related is None:
            continue
        if (subject, claim.kind, fold_text(claim.value)) in rejected:
            continue
        book.add(
            person_id=subject,
            kind=claim.kind,
            value=claim.value,
            message_id=message.message_id,
            sent_at=message.sent_at,
            related_person_id=related,
            previous=claim.previous,
        )

    # Relationships to the user shown by contact names, forms of address and signatures.
    for kin in kinship_claims(user=user, messages=_kin_messages_of(kin_rows)):
        if (kin.person_id, FactKind.RELATIONSHIP.value, fold_text(kin.relation)) in rejected:
            continue
        book.add(
            person_id=kin.person_id,
            kind=FactKind.RELATIONSHIP,
            value=kin.relation,
            message_id=kin.message_id,
            sent_at=kin.sent_at,
            basis=kin.basis,
        )

    _model_claims_add(book=book, user=user, rejected=rejected)
    written = _facts_write(user=user, drafts=book.drafts)
    logger.info(
        "memory.facts_derived",
        extra={"user_id": user.pk, "facts": len(book.drafts), "writes": written},
    )
    return len(book.drafts)


_FactShape = tuple[
    str, str, int | None, datetime, bool, str, int | None, frozenset[tuple[int, str]]
]


def _drafts_shape(drafts: Sequence[_FactDraft]) -> list[_FactShape]:
    """One person's drafts as comparable rows (supersession as the index of the successor)."""
    index = {id(draft): position for position, draft in enumerate(drafts)}
    return [
        (
            draft.kind,
            draft.value,
            draft.related_person_id,
            draft.valid_from,
            draft.is_sensitive,
            draft.origin,
            index[id(draft.superseded_by)] if draft.superseded_by is not None else None,
            frozenset((pk, draft.bases.get(pk, FactBasis.STATEMENT)) for pk in draft.message_ids),
        )
        for draft in drafts
    ]


def _stored_shapes(*, user: User) -> tuple[dict[int, list[_FactShape]], dict[int, list[int]]]:
    """The stored facts of each person as ``_drafts_shape`` gives them (facts in id order, the
    order they were written in), and their ids in that order."""
    sources: dict[int, set[tuple[int, str]]] = {}
    for fact_id, message_id, basis in PersonFactSource.objects.filter(fact__user=user).values_list(
        "fact_id", "message_id", "basis"
    ):
        sources.setdefault(fact_id, set()).add((message_id, basis))
    facts: dict[int, list[tuple[Any, ...]]] = {}
    for row in (
        PersonFact.objects.filter(user=user)
        .order_by("pk")
        .values_list(
            "pk",
            "person_id",
            "kind",
            "value",
            "related_person_id",
            "valid_from",
            "is_sensitive",
            "origin",
            "superseded_by_id",
        )
    ):
        facts.setdefault(row[1], []).append(row)
    shapes: dict[int, list[_FactShape]] = {}
    for person_id, rows in facts.items():
        index = {row[0]: position for position, row in enumerate(rows)}
        shapes[person_id] = [
            (
                kind,
                value,
                related,
                valid_from,
                is_sensitive,
                origin,
                index.get(successor, -1) if successor is not None else None,
                frozenset(sources.get(pk, ())),
            )
            for pk, _, kind, value, related, valid_from, is_sensitive, origin, successor in rows
        ]
    return shapes, {person_id: [row[0] for row in rows] for person_id, rows in facts.items()}


def _facts_write(*, user: User, drafts: Sequence[_FactDraft]) -> int:
    """Store the drafts of each person whose facts differ from the stored ones: the sources
    that moved when only they did, else that person's facts replaced whole. Returns how many
    people were replaced and sources added."""
    by_person: dict[int, list[_FactDraft]] = {}
    for draft in drafts:
        by_person.setdefault(draft.person_id, []).append(draft)
    stored, fact_ids = _stored_shapes(user=user)
    changed: set[int] = set()
    added: list[PersonFactSource] = []
    removed = Q(pk__in=[])
    for person_id in {*by_person, *stored}:
        wanted = _drafts_shape(by_person.get(person_id, []))
        held = stored.get(person_id, [])
        if wanted == held:
            continue
        if len(wanted) != len(held) or any(
            new[:-1] != old[:-1] for new, old in zip(wanted, held, strict=True)
        ):
            changed.add(person_id)
            continue
        # The same facts: only the messages that support them moved.
        for fact_id, new, old in zip(fact_ids[person_id], wanted, held, strict=True):
            for message_id, basis in old[-1] - new[-1]:
                removed |= Q(fact_id=fact_id, message_id=message_id, basis=basis)
            added.extend(
                PersonFactSource(fact_id=fact_id, message_id=message_id, basis=basis)
                for message_id, basis in new[-1] - old[-1]
            )
    PersonFactSource.objects.filter(removed).delete()
    PersonFactSource.objects.bulk_create(added)
    if not changed:
        return len(added)
    PersonFact.objects.filter(user=user, person_id__in=changed).delete()
    written = [draft for draft in drafts if draft.person_id in changed]
    created = PersonFact.objects.bulk_create(
        PersonFact(
            user=user,
            person_id=draft.person_id,
            kind=draft.kind,
            value=draft.value,
            related_person_id=draft.related_person_id,
            valid_from=draft.valid_from,
            is_sensitive=draft.is_sensitive,
            origin=draft.origin,
        )
        for draft in written
    )
    row_of = {id(draft): row for draft, row in zip(written, created, strict=True)}
    superseded = []
    for draft in written:
        if draft.superseded_by is not None:
            row = row_of[id(draft)]
            row.superseded_by = row_of[id(draft.superseded_by)]
            superseded.append(row)
    PersonFact.objects.bulk_update(superseded, ["superseded_by"])
    PersonFactSource.objects.bulk_create(
        PersonFactSource(
            fact=row_of[id(draft)],
            message_id=message_id,
            basis=draft.bases.get(message_id, FactBasis.STATEMENT),
        )
        for draft in written
        for message_id in draft.message_ids
    )
    return len(changed) + len(added)


def _model_claims_add(*, book: _FactBook, user: User, rejected: set[tuple[int, str, str]]) -> None:
    """Fold in what the ``extract`` model read (``memory.refine``), never over the
    rules: a single-valued kind the rules know for a person is theirs alone, and a value the
    rules found is not repeated. Model facts supersede each other by send time like any."""
    rule_slots = {(draft.person_id, draft.kind) for draft in book.drafts}
    rule_values = {
        (draft.person_id, draft.kind, fold_text(draft.value), draft.related_person_id)
        for draft in book.drafts
    }
    claims = (
        RefinedFactClaim.objects.filter(
            refinement__user=user,
            refinement__message__deleted_at__isnull=True,
            refinement__message__chat__is_excluded_from_ai=False,
        )
        .order_by("refinement__message__sent_at", "refinement__message_id", "pk")
        .values_list(
            "person_id",
            "kind",
            "value",
            "previous",
            "related_person_id",
            "refinement__message_id",
            "refinement__message__sent_at",
        )
    )
    for person_id, kind, value, previous, related_id, message_id, sent_at in claims:
        if kind in SINGLE_VALUED_FACT_KINDS and (person_id, kind) in rule_slots:
            continue
        if (person_id, kind, fold_text(value), related_id) in rule_values:
            continue
        if (person_id, kind, fold_text(value)) in rejected:
            continue
        book.add(
            person_id=person_id,
            kind=kind,
            value=value,
            message_id=message_id,
            sent_at=sent_at,
            related_person_id=related_id,
            previous=previous,
            origin=FactOrigin.MODEL,
        )


# --- Merges and splits ------------------------------------------------------------------------


def person_merge(
    *,
    user: User,
    kept_person_id: int,
    merged_person_id: int,
    reason: str = "",
    confidence: float | None = None,
    evidence_message_ids: Sequence[int] = (),
) -> PersonMerge:
    """Record that ``merged_person_id`` is the same human as ``kept_person_id`` (a merge
    memory derives carries its ``confidence`` and the messages it read).

    Both must be the user's people (otherwise ``NotFound``, as for a missing id: a merge never
    crosses users). Merging into someone already merged goes to the person they were merged
    into; people already merged into ``merged_person_id`` follow it. Relationship counters are
    not touched: reads group by the merge."""
    if kept_person_id == merged_person_id:
        raise CodedError(code="invalid_merge", message="A person cannot be merged into themselves.")
    with transaction.atomic():
        people = {
            person.pk: person
            for person in Person.objects.select_for_update()
            .filter(user=user, pk__in=[kept_person_id, merged_person_id])
            .order_by("pk")
        }
        if len(people) != 2:
            raise NotFound(message="Person not found.")
        active = PersonMerge.objects.filter(user=user, split_at__isnull=True)
        holder = active.filter(merged_person_id=kept_person_id).first()
        kept_id = holder.kept_person_id if holder else kept_person_id
        if kept_id == merged_person_id:
            raise CodedError(code="invalid_merge", message="These people are already merged.")
        existing = active.filter(merged_person_id=merged_person_id).first()
        if existing is not None:
            if existing.kept_person_id == kept_id:
                return existing
            raise CodedError(
                code="already_merged",
                message="This person is merged into someone else; split that merge first.",
                status_code=HTTPStatus.CONFLICT,
            )
        active.filter(kept_person_id=merged_person_id).update(kept_person_id=kept_id)
        merge = PersonMerge.objects.create(
            user=user,
            kept_person_id=kept_id,
            merged_person_id=merged_person_id,
            reason=reason[:255],
            confidence=confidence,
            evidence_message_ids=list(evidence_message_ids),
        )
    logger.info(
        "memory.person_merged",
        extra={"user_id": user.pk, "merge_id": merge.pk, "kept_person_id": kept_id},
    )
    return merge


def person_split(*, user: User, merge_id: int, now: datetime) -> PersonMerge:
    """Undo a merge: the two people are read separately again. Idempotent."""
    with transaction.atomic():
        merge = PersonMerge.objects.select_for_update().filter(user=user, pk=merge_id).first()
        if merge is None:
            raise NotFound(message="Merge not found.")
        if merge.split_at is None:
            merge.split_at = now
            merge.save(update_fields=["split_at"])
    logger.info("memory.person_split", extra={"user_id": user.pk, "merge_id": merge.pk})
    return merge


def person_fact_reject(*, user: User, fact_id: int) -> None:
    """The user corrects or deletes a fact: it is removed now and not derived again from the
    same wording (a later message saying something else still counts). ``NotFound`` for a
    fact that is not the user's."""
    with transaction.atomic():
        fact = PersonFact.objects.select_for_update().filter(user=user, pk=fact_id).first()
        if fact is None:
            raise NotFound(message="Fact not found.")
        PersonFactRejection.objects.get_or_create(
            user=user, person_id=fact.person_id, kind=fact.kind, folded_value=fold_text(fact.value)
        )
        # What this fact superseded becomes current again.
        PersonFact.objects.filter(user=user, superseded_by=fact).update(superseded_by=None)
        fact.delete()
    logger.info("memory.fact_rejected", extra={"user_id": user.pk, "fact_id": fact_id})


def chat_memory_forget(*, chat: Chat) -> None:
    """Before a chat is deleted: remove what only its messages supported (facts, plan steps,
    loops), in the deleting transaction."""
    message_ids = list(Message.objects.filter(chat=chat).values_list("pk", flat=True))
    memory_forget_messages(user=chat.user, message_ids=message_ids)
