"""Plans: the user's plan-vocabulary messages replayed in send-time order, each joining the open
plan it speaks about or starting one; stored whole (``plans_rebuild``) or replayed from a
point in time (``plans_update``)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction

from claire.accounts.models import User
from conversations.models import Message
from memory.extract import ACTIVITIES, mentions_word, plan_signal
from memory.models import PersonMerge, Plan, PlanStatus, PlanStep
from memory.plan_words import activity_family
from retrieval.lexicon import fold_text

logger = logging.getLogger(__name__)


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
