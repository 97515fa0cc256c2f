"""Plans: the user's plans with their steps, read as timelines."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from claire.accounts.models import User
from memory.models import (
    Plan,
    PlanStatus,
    PlanStep,
)
from memory.plan_words import activity_family
from memory.selectors.merges import person_ids_expand


@dataclass(frozen=True)
class PlanStepView:
    message_id: int
    chat_id: int
    platform: str
    status: PlanStatus
    event_label: str
    sent_at: datetime
    sender_person_id: int | None
    is_from_self: bool


@dataclass(frozen=True)
class PlanTimeline:
    """A plan with its current status and every step that led there, oldest first; each step
    is a message to cite."""

    plan_id: int
    activity: str
    place: str
    event_label: str
    status: PlanStatus
    first_sent_at: datetime
    last_sent_at: datetime
    steps: tuple[PlanStepView, ...]
    # The place it was at before its latest change of place ("" when it never moved), and the
    # step that moved it.
    previous_place: str = ""
    place_step_id: int | None = None

    @property
    def message_ids(self) -> tuple[int, ...]:
        return tuple(step.message_id for step in self.steps)

    @property
    def person_ids(self) -> tuple[int, ...]:
        return tuple(
            dict.fromkeys(s.sender_person_id for s in self.steps if s.sender_person_id is not None)
        )


def plans_for_user(
    *,
    user: User,
    terms: Sequence[str] = (),
    person_ids: Sequence[int] = (),
    statuses: Sequence[str] = (),
    sent_after: datetime | None = None,
    sent_before: datetime | None = None,
    chat_ids: Sequence[int] | None = None,
    limit: int = 5,
) -> list[PlanTimeline]:
    """The user's plans, most recently discussed first, each with its status timeline.

    Filters (all optional, combined with AND): ``terms`` — any term is the plan's activity or
    place, or appears in one of its step messages (case-insensitive; pass the compiled
    keywords); ``person_ids`` — someone among them (or merged with them) wrote a step;
    ``statuses`` — the current status is one of them; ``sent_after`` / ``sent_before`` — the
    plan was discussed in that window; ``chat_ids`` — a step is in one of those chats. Steps in
    chats excluded from AI are never returned. Two or three queries.
    """
    plans = Plan.objects.filter(user=user)
    lowered = [term.strip().lower() for term in terms if term.strip()]
    if lowered:
        term_filter = Q()
        for term in lowered:
            # A kind of event matches its name in any language ("table" finds a "mesa").
            term_filter |= (
                Q(activity__in=activity_family(term))
                | Q(place__iexact=term)
                | Q(steps__message__text__icontains=term)
            )
        plans = plans.filter(term_filter)
    if person_ids:
        plans = plans.filter(
            steps__message__sender_person_id__in=person_ids_expand(user=user, person_ids=person_ids)
        )
    if statuses:
        plans = plans.filter(status__in=list(statuses))
    if sent_after is not None:
        plans = plans.filter(last_sent_at__gte=sent_after)
    if sent_before is not None:
        plans = plans.filter(first_sent_at__lt=sent_before)
    if chat_ids is not None:
        plans = plans.filter(steps__message__chat_id__in=list(chat_ids))
    plans = plans.filter(steps__message__chat__is_excluded_from_ai=False)
    rows = list(plans.distinct().order_by("-last_sent_at", "-pk")[: max(limit, 0)])
    steps_by_plan: dict[int, list[PlanStepView]] = {row.pk: [] for row in rows}
    for step in (
        PlanStep.objects.filter(
            user=user, plan_id__in=list(steps_by_plan), message__chat__is_excluded_from_ai=False
        )
        .select_related("message__chat")
        .order_by("sent_at", "pk")
    ):
        steps_by_plan[step.plan_id].append(
            PlanStepView(
                message_id=step.message_id,
                chat_id=step.message.chat_id,
                platform=step.message.chat.platform,
                status=PlanStatus(step.status),
                event_label=step.event_label,
                sent_at=step.sent_at,
                sender_person_id=step.message.sender_person_id,
                is_from_self=step.message.is_from_self,
            )
        )
    return [
        PlanTimeline(
            plan_id=row.pk,
            activity=row.activity,
            place=row.place,
            event_label=row.event_label,
            status=PlanStatus(row.status),
            first_sent_at=row.first_sent_at,
            last_sent_at=row.last_sent_at,
            steps=tuple(steps_by_plan[row.pk]),
        )
        for row in rows
    ]
