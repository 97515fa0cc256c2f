"""Reads of personal memory, always scoped by the user.

These are what the answer engine calls for the ``people_ranking``, ``plan_recall`` and
``unresolved`` routes; none of them scans the user's messages.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.postgres.aggregates import ArrayAgg
from django.db import connection
from django.db.models import Case, Count, F, IntegerField, Max, Q, Sum, Value, When

from claire.accounts.models import User
from conversations.models import (
    ChatKind,
    IdentityKind,
    Message,
    Person,
    PersonIdentity,
)
from memory.extract import RELATIONS
from memory.models import (
    FactKind,
    Loop,
    LoopKind,
    LoopStatus,
    PersonChatDay,
    PersonFact,
    PersonFactSource,
    PersonMerge,
    Plan,
    PlanStatus,
    PlanStep,
)
from memory.places import cities_in, nationality_of_place
from memory.plan_words import activity_family
from retrieval.lexicon import NATIONALITIES, fold_text
from retrieval.types import RankingKind

# A person counts as neglected when nothing was exchanged in this many days...
NEGLECTED_AFTER_DAYS = 30
# ...and at least this many messages were exchanged in the last year.
NEGLECTED_MIN_MESSAGES_365D = 5
REPRESENTATIVE_MESSAGES = 3


@dataclass(frozen=True)
class RelationshipMetrics:
    """What the user and one person exchanged, counted at ingest (``PersonChatDay``).

    ``received_*``: messages from the person; ``sent_*``: the user's messages in direct chats
    with them. ``reciprocity_365d`` is min/max of the two (1.0 perfectly two-way, 0.0 one-way).
    ``strength`` is documented in ``relationship_strength`` and docs/MEMORY.md.
    """

    person_id: int
    display_name: str
    received_30d: int
    sent_30d: int
    received_90d: int
    sent_90d: int
    received_365d: int
    sent_365d: int
    active_days_90d: int
    active_days_365d: int
    last_contact_day: date | None
    days_since_last_contact: int | None
    platforms: tuple[str, ...]
    reciprocity_365d: float
    strength: float
    reply_latency_median_seconds: float | None = None
    representative_message_ids: tuple[int, ...] = ()

    @property
    def messages_30d(self) -> int:
        return self.received_30d + self.sent_30d

    @property
    def messages_90d(self) -> int:
        return self.received_90d + self.sent_90d

    @property
    def messages_365d(self) -> int:
        return self.received_365d + self.sent_365d


def reciprocity(*, sent: int, received: int) -> float:
    if sent <= 0 or received <= 0:
        return 0.0
    return min(sent, received) / max(sent, received)


def relationship_strength(
    *, messages_30d: int, messages_90d: int, messages_365d: int, reciprocity_365d: float
) -> float:
    """Volume on three horizons (logarithmic, so 900 messages is not 30 times 30), weighted
    toward the recent, times a two-way factor between 0.5 (one-way) and 1.0 (balanced):

        strength = (0.5 ln(1+m30) + 0.3 ln(1+m90) + 0.2 ln(1+m365)) x (0.5 + 0.5 reciprocity)
    """
    volume = (
        0.5 * math.log1p(messages_30d)
        + 0.3 * math.log1p(messages_90d)
        + 0.2 * math.log1p(messages_365d)
    )
    return round(volume * (0.5 + 0.5 * reciprocity_365d), 4)


def _local_today(user: User, now: datetime) -> date:
    return now.astimezone(ZoneInfo(user.timezone)).date()


def relationship_metrics_for_user(
    *,
    user: User,
    now: datetime,
    person_ids: list[int] | None = None,
    canonical: Mapping[int, int] | None = None,
) -> list[RelationshipMetrics]:
    """Metrics of every person the user exchanged messages with in the last 365 local days
    (or of ``person_ids`` only), strongest first. One aggregate query over the counters; chats
    excluded from AI do not count. ``canonical``: the user's merges
    (``person_canonical_ids``), when the caller has read them."""
    if canonical is None:
        canonical = person_canonical_ids(user=user)
    today = _local_today(user, now)
    since_365 = today - timedelta(days=364)
    since_90 = today - timedelta(days=89)
    since_30 = today - timedelta(days=29)
    rows = PersonChatDay.objects.filter(
        user=user, day__gte=since_365, day__lte=today, chat__is_excluded_from_ai=False
    )
    if person_ids is not None:
        rows = rows.filter(
            person_id__in=person_group_expand(canonical=canonical, person_ids=person_ids)
        )
    recent_90 = Q(day__gte=since_90)
    recent_30 = Q(day__gte=since_30)
    exchanged = Q(received_count__gt=0) | Q(sent_count__gt=0)
    # People merged by the user count as the one they were merged into.
    person_key = (
        Case(
            *[When(person_id=merged, then=Value(kept)) for merged, kept in canonical.items()],
            default=F("person_id"),
            output_field=IntegerField(),
        )
        if canonical
        else F("person_id")
    )
    aggregates = (
        rows.annotate(canonical_person_id=person_key)
        .values("canonical_person_id")
        .annotate(
            received_365d=Sum("received_count"),
            sent_365d=Sum("sent_count"),
            received_90d=Sum("received_count", filter=recent_90, default=0),
            sent_90d=Sum("sent_count", filter=recent_90, default=0),
            received_30d=Sum("received_count", filter=recent_30, default=0),
            sent_30d=Sum("sent_count", filter=recent_30, default=0),
            active_days_365d=Count("day", filter=exchanged, distinct=True),
            active_days_90d=Count("day", filter=exchanged & recent_90, distinct=True),
            last_contact_day=Max("day", filter=exchanged),
            platforms=ArrayAgg("chat__platform", distinct=True, filter=exchanged),
        )
        .order_by("canonical_person_id")
    )
    rows_list = list(aggregates)
    names = dict(
        Person.objects.filter(
            user=user, pk__in=[row["canonical_person_id"] for row in rows_list]
        ).values_list("pk", "display_name")
    )
    metrics = []
    for row in rows_list:
        received_365d, sent_365d = int(row["received_365d"] or 0), int(row["sent_365d"] or 0)
        if received_365d + sent_365d <= 0:
            continue
        two_way = reciprocity(sent=sent_365d, received=received_365d)
        last_day: date | None = row["last_contact_day"]
        metrics.append(
            RelationshipMetrics(
                person_id=row["canonical_person_id"],
                display_name=names.get(row["canonical_person_id"], ""),
                received_30d=int(row["received_30d"]),
                sent_30d=int(row["sent_30d"]),
                received_90d=int(row["received_90d"]),
                sent_90d=int(row["sent_90d"]),
                received_365d=received_365d,
                sent_365d=sent_365d,
                active_days_90d=int(row["active_days_90d"]),
                active_days_365d=int(row["active_days_365d"]),
                last_contact_day=last_day,
                days_since_last_contact=(today - last_day).days if last_day else None,
                platforms=tuple(sorted(row["platforms"] or ())),
                reciprocity_365d=round(two_way, 4),
                strength=relationship_strength(
                    messages_30d=int(row["received_30d"]) + int(row["sent_30d"]),
                    messages_90d=int(row["received_90d"]) + int(row["sent_90d"]),
                    messages_365d=received_365d + sent_365d,
                    reciprocity_365d=two_way,
                ),
            )
        )
    metrics.sort(key=lambda item: (-item.strength, item.person_id))
    return metrics


def exchanged_counts_for_user(
    *,
    user: User,
    first_day: date,
    last_day: date,
    platforms: Sequence[str] = (),
    chat_ids: Sequence[int] = (),
) -> dict[int, int]:
    """Messages exchanged with each person (both directions, merged people as one) between two
    local days of the user, both included, optionally on some platforms or in some chats only
    (in a group that is what each person wrote there: the user's own messages in a group count
    for no one); people with none are left out. One aggregate query over the counters; chats
    excluded from AI do not count."""
    rows = PersonChatDay.objects.filter(
        user=user, day__gte=first_day, day__lte=last_day, chat__is_excluded_from_ai=False
    )
    if platforms:
        rows = rows.filter(chat__platform__in=list(platforms))
    if chat_ids:
        rows = rows.filter(chat_id__in=list(chat_ids))
    canonical = person_canonical_ids(user=user)
    counts: dict[int, int] = {}
    for person_id, received, sent in (
        rows.values("person_id")
        .annotate(received=Sum("received_count"), sent=Sum("sent_count"))
        .values_list("person_id", "received", "sent")
    ):
        total = int(received or 0) + int(sent or 0)
        if total > 0:
            key = canonical.get(person_id, person_id)
            counts[key] = counts.get(key, 0) + total
    return counts


def _has_drifted(item: RelationshipMetrics) -> bool:
    """Nothing exchanged for ``NEGLECTED_AFTER_DAYS`` after a real exchange in the year: a
    conversation both sides took part in (one email thread is enough), or at least
    ``NEGLECTED_MIN_MESSAGES_365D`` messages. A sender the user never answered is no contact
    they drifted from."""
    if item.days_since_last_contact is None or item.days_since_last_contact < NEGLECTED_AFTER_DAYS:
        return False
    is_two_way = item.sent_365d > 0 and item.received_365d > 0
    return is_two_way or item.messages_365d >= NEGLECTED_MIN_MESSAGES_365D


def people_ranking(
    *,
    user: User,
    now: datetime,
    kind: RankingKind = RankingKind.RELATIONSHIP_STRENGTH,
    limit: int = 5,
    person_ids: list[int] | None = None,
    counts: Mapping[int, int] | None = None,
    counted_since: datetime | None = None,
    counted_until: datetime | None = None,
    platforms: Sequence[str] = (),
    chat_ids: Sequence[int] = (),
) -> list[RelationshipMetrics]:
    """People ranked from the stored counters (no model): ``relationship_strength`` ranks by
    ``strength``; ``neglected`` ranks the people the user drifted from (``_has_drifted``), the
    longest silence first. With ``counts`` (messages per person in a window or on a platform,
    ``exchanged_counts_for_user``) only those people rank, most messages first. Each result
    carries its reply latency and the ids of up to three
    representative messages to cite, read from what was counted (``counted_since`` to
    ``counted_until`` or ``now``, on ``platforms``, in ``chat_ids``). Four statements however
    many people are shown: merges, the counters' aggregate, names, and ``_RANKED_DETAILS_SQL``
    for the shown people's latency and messages."""
    canonical = person_canonical_ids(user=user)
    metrics = relationship_metrics_for_user(
        user=user, now=now, person_ids=person_ids, canonical=canonical
    )
    if counts is not None:
        # A window or a platform named: rank by the messages exchanged there.
        by_person = {item.person_id: item for item in metrics}
        metrics = [
            by_person[person_id]
            for person_id in sorted(counts, key=lambda pid: (-counts[pid], pid))
            if person_id in by_person
        ]
    if kind == RankingKind.NEGLECTED:
        metrics = sorted(
            (item for item in metrics if _has_drifted(item)),
            key=lambda item: (-(item.days_since_last_contact or 0), -item.strength, item.person_id),
        )
    shown = metrics[: max(limit, 0)]
    details = _ranked_details(
        user=user,
        groups={
            item.person_id: person_group_expand(canonical=canonical, person_ids=[item.person_id])
            for item in shown
        },
        since=now - timedelta(days=90),
        before=min(counted_until, now) if counted_until is not None else now,
        after=counted_since,
        platforms=platforms,
        chat_ids=chat_ids,
    )
    return [
        dataclasses.replace(
            item,
            reply_latency_median_seconds=details[item.person_id].reply_latency_median_seconds,
            representative_message_ids=details[item.person_id].representative_message_ids,
        )
        for item in shown
    ]


# For each ranked person (``key``, with everyone merged with them in ``members``): their
# direct chats, the median time the user took to answer them there since ``since``, and the
# newest messages exchanged with them that the ranking counted. One statement for everyone
# shown; each person's messages are read through the sender and (chat, time) indexes.
_RANKED_DETAILS_SQL = """
WITH members AS (
    SELECT key, person_id
    FROM unnest(%(member_keys)s::bigint[], %(member_ids)s::bigint[]) AS x(key, person_id)
)
SELECT shown.key, g.chat_ids,
  (SELECT percentile_cont(0.5) WITHIN GROUP (
       ORDER BY EXTRACT(EPOCH FROM o.sent_at - o.previous_sent_at))
   FROM (
     SELECT m.is_from_self, m.sent_at,
            LAG(m.is_from_self) OVER w AS previous_from_self,
            LAG(m.sender_person_id) OVER w AS previous_sender,
            LAG(m.sent_at) OVER w AS previous_sent_at
     FROM conversations_message m
     WHERE m.chat_id = ANY(g.chat_ids) AND m.user_id = %(user)s
       AND m.deleted_at IS NULL AND m.sent_at >= %(since)s
     WINDOW w AS (PARTITION BY m.chat_id ORDER BY m.sent_at, m.id)
   ) o
   WHERE o.is_from_self AND o.previous_from_self IS FALSE
     AND o.previous_sender = ANY(g.person_ids)),
  ARRAY(
    SELECT r.id FROM (
      (SELECT m.sent_at, m.id FROM conversations_message m
       JOIN conversations_chat c ON c.id = m.chat_id
       WHERE m.sender_person_id = ANY(g.person_ids) AND {visible}
       ORDER BY m.sent_at DESC, m.id DESC LIMIT %(count)s)
      UNION
      (SELECT m.sent_at, m.id FROM conversations_message m
       JOIN conversations_chat c ON c.id = m.chat_id
       WHERE m.is_from_self AND m.chat_id = ANY(g.chat_ids) AND {visible}
       ORDER BY m.sent_at DESC, m.id DESC LIMIT %(count)s)
    ) r
    ORDER BY r.sent_at DESC, r.id DESC LIMIT %(count)s)
FROM unnest(%(keys)s::bigint[]) WITH ORDINALITY AS shown(key, position)
CROSS JOIN LATERAL (
  SELECT ARRAY(SELECT mb.person_id FROM members mb WHERE mb.key = shown.key) AS person_ids,
         ARRAY(SELECT cp.chat_id
               FROM members mb
               JOIN conversations_chatparticipant cp ON cp.person_id = mb.person_id
               JOIN conversations_chat dc ON dc.id = cp.chat_id
               WHERE mb.key = shown.key AND dc.user_id = %(user)s AND dc.kind = %(direct)s
               ORDER BY mb.person_id, cp.id) AS chat_ids
) g
ORDER BY shown.position
"""


@dataclass(frozen=True)
class _RankedDetails:
    reply_latency_median_seconds: float | None
    representative_message_ids: tuple[int, ...]


def _ranked_details(
    *,
    user: User,
    groups: Mapping[int, Sequence[int]],
    since: datetime,
    before: datetime,
    after: datetime | None,
    platforms: Sequence[str],
    chat_ids: Sequence[int] = (),
) -> dict[int, _RankedDetails]:
    """``_reply_latency_median_seconds`` and ``_representative_message_ids`` of every ranked
    person at once (``groups``: each person with everyone merged with them)."""
    if not groups:
        return {}
    visible = [
        "m.user_id = %(user)s",
        "m.deleted_at IS NULL",
        "NOT c.is_excluded_from_ai",
        "m.text <> ''",
        "m.sent_at < %(before)s",
    ]
    if after is not None:
        visible.append("m.sent_at >= %(after)s")
    if platforms:
        visible.append("c.platform = ANY(%(platforms)s)")
    if chat_ids:
        visible.append("m.chat_id = ANY(%(chat_ids)s)")
    params: dict[str, Any] = {
        "member_keys": [key for key, group in groups.items() for _ in group],
        "member_ids": [pk for group in groups.values() for pk in group],
        "keys": list(groups),
        "user": user.pk,
        "since": since,
        "before": before,
        "after": after,
        "platforms": list(platforms),
        "chat_ids": list(chat_ids),
        "direct": ChatKind.DIRECT.value,
        "count": REPRESENTATIVE_MESSAGES,
    }
    with connection.cursor() as cursor:
        cursor.execute(_RANKED_DETAILS_SQL.format(visible=" AND ".join(visible)), params)
        rows = cursor.fetchall()
    return {
        key: _RankedDetails(
            reply_latency_median_seconds=(
                round(float(median), 1) if median is not None and chat_ids else None
            ),
            representative_message_ids=tuple(ids),
        )
        for key, chat_ids, median, ids in rows
    }


# --- Plans --------------------------------------------------------------------------------


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


# --- Loops --------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenLoop:
    """An open thread: what kind, where, with whom, and the message to cite."""

    loop_id: int
    kind: LoopKind
    chat_id: int
    platform: str
    person_id: int | None
    person_name: str | None
    opened_by_message_id: int
    opened_at: datetime


def open_loops_for_user(
    *,
    user: User,
    kinds: Sequence[str] = (),
    person_ids: Sequence[int] = (),
    chat_ids: Sequence[int] | None = None,
    opened_after: datetime | None = None,
    limit: int = 20,
) -> list[OpenLoop]:
    """The user's open loops, newest first, never from a chat excluded from AI. ``kinds``
    narrows to some of ``LoopKind`` ("what haven't I replied to?" is ``question_to_user``;
    "what did I promise?" ``promise_by_user``; "who hasn't got back to me?"
    ``request_by_user``). One query."""
    loops = Loop.objects.filter(user=user, status=LoopStatus.OPEN, chat__is_excluded_from_ai=False)
    if kinds:
        loops = loops.filter(kind__in=list(kinds))
    if person_ids:
        loops = loops.filter(person_id__in=list(person_ids))
    if chat_ids is not None:
        loops = loops.filter(chat_id__in=list(chat_ids))
    if opened_after is not None:
        loops = loops.filter(opened_at__gte=opened_after)
    rows = loops.select_related("chat", "person").order_by("-opened_at", "-pk")[: max(limit, 0)]
    return [
        OpenLoop(
            loop_id=row.pk,
            kind=LoopKind(row.kind),
            chat_id=row.chat_id,
            platform=row.chat.platform,
            person_id=row.person_id,
            person_name=row.person.display_name if row.person else None,
            opened_by_message_id=row.opened_by_id,
            opened_at=row.opened_at,
        )
        for row in rows
    ]


def loops_for_user(
    *,
    user: User,
    person_ids: Sequence[int] = (),
    chat_ids: Sequence[int] | None = None,
    kinds: Sequence[str] = (),
    limit: int = 50,
) -> list[tuple[Loop, str]]:
    """Every loop with ``person_ids`` (open, resolved or closed), newest first, with the
    person's name, never from a chat excluded from AI: what a yes/no question about one loop
    ("did I ever send Ana the photos?") is answered from. One query."""
    loops = Loop.objects.filter(user=user, chat__is_excluded_from_ai=False)
    if person_ids:
        loops = loops.filter(person_id__in=person_ids_expand(user=user, person_ids=person_ids))
    if chat_ids is not None:
        loops = loops.filter(chat_id__in=list(chat_ids))
    if kinds:
        loops = loops.filter(kind__in=list(kinds))
    rows = loops.select_related("person", "opened_by", "resolved_by").order_by("-opened_at", "-pk")
    return [(row, row.person.display_name if row.person else "") for row in rows[: max(limit, 0)]]


# --- Facts and identity lookup ---------------------------------------------------------------


@dataclass(frozen=True)
class PersonFactView:
    fact_id: int
    person_id: int
    kind: FactKind
    value: str
    related_person_id: int | None
    valid_from: datetime
    superseded_by_id: int | None
    source_message_ids: tuple[int, ...]

    @property
    def is_current(self) -> bool:
        return self.superseded_by_id is None


def person_facts_for_user(
    *,
    user: User,
    person_ids: Sequence[int] | None = None,
    kinds: Sequence[str] = (),
    include_superseded: bool = True,
    related_person_ids: Sequence[int] | None = None,
) -> list[PersonFactView]:
    """Facts about the user's people, oldest first, each with the ids of the messages that
    support it. Sources in chats excluded from AI are left out, and a fact left with no visible
    source is not returned. Two queries."""
    facts = PersonFact.objects.filter(user=user)
    if person_ids is not None:
        facts = facts.filter(person_id__in=list(person_ids))
    if kinds:
        facts = facts.filter(kind__in=list(kinds))
    if not include_superseded:
        facts = facts.filter(superseded_by__isnull=True)
    if related_person_ids is not None:
        facts = facts.filter(related_person_id__in=list(related_person_ids))
    rows = list(facts.order_by("valid_from", "pk"))
    sources: dict[int, list[int]] = {row.pk: [] for row in rows}
    for fact_id, message_id in (
        PersonFactSource.objects.filter(
            fact_id__in=list(sources), message__chat__is_excluded_from_ai=False
        )
        .order_by("message__sent_at", "message_id")
        .values_list("fact_id", "message_id")
    ):
        sources[fact_id].append(message_id)
    return [
        PersonFactView(
            fact_id=row.pk,
            person_id=row.person_id,
            kind=FactKind(row.kind),
            value=row.value,
            related_person_id=row.related_person_id,
            valid_from=row.valid_from,
            superseded_by_id=row.superseded_by_id,
            source_message_ids=tuple(sources[row.pk]),
        )
        for row in rows
        if sources[row.pk]
    ]


@dataclass(frozen=True)
class DerivedAttribute:
    """An attribute inferred at answer time and never stored (e.g. a nationality read from
    "I'm from Moscow"), with the messages it is read from."""

    name: str
    value: str
    reason: str
    source_message_ids: tuple[int, ...]


@dataclass(frozen=True)
class IdentityMatch:
    person_id: int
    display_name: str
    facts: tuple[PersonFactView, ...]
    derived: tuple[DerivedAttribute, ...]
    evidence_message_ids: tuple[int, ...]
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class IdentityLookupResult:
    """People matching every descriptor, the place and the window, best first. Empty
    ``matches`` means nothing matched in the searched window: say so plainly."""

    matches: tuple[IdentityMatch, ...]
    searched_start: datetime | None
    searched_end: datetime | None


_STAY_START = re.compile(r"\b(?:landed|arrived|arriving|lands|landing|back) in\b", re.IGNORECASE)


def user_stays(*, user: User) -> list[tuple[str, datetime, datetime | None]]:
    """Where the user was, read from their own messages ("Landed in Mexico City!", "Lands in
    Lisbon tomorrow"): (city, from, until) in time order; a stay lasts until the next one.
    Reads only the user's messages that use those phrases."""
    starts: list[tuple[datetime, str]] = []
    for text, sent_at in (
        Message.objects.filter(
            user=user,
            is_from_self=True,
            deleted_at__isnull=True,
            text__iregex=r"(landed|arrived|arriving|lands|landing|back) in ",
        )
        .order_by("sent_at", "pk")
        .values_list("text", "sent_at")
    ):
        for match in _STAY_START.finditer(text):
            cities = cities_in(text[match.end() : match.end() + 60])
            if cities:
                shift = timedelta(days=1) if "tomorrow" in text.lower() else timedelta(0)
                starts.append((sent_at + shift, cities[0]))
                break
    stays: list[tuple[str, datetime, datetime | None]] = []
    for index, (start, city) in enumerate(starts):
        until = starts[index + 1][0] if index + 1 < len(starts) else None
        stays.append((city, start, until))
    return stays


def _people_first_met_during(
    *, user: User, start: datetime, end: datetime | None
) -> dict[int, int]:
    """People whose first message to or with the user falls in [start, end): person id ->
    that first message id (in a chat visible to AI)."""
    first_messages = (
        Message.objects.filter(
            user=user,
            deleted_at__isnull=True,
            sender_person__isnull=False,
            chat__is_excluded_from_ai=False,
        )
        .order_by("sender_person_id", "sent_at", "pk")
        .distinct("sender_person_id")
        .values_list("sender_person_id", "pk", "sent_at")
    )
    met: dict[int, int] = {}
    for person_id, message_id, sent_at in first_messages:
        if sent_at >= start and (end is None or sent_at < end):
            met[person_id] = message_id
    return met


def _place_matches(value: str, city: str) -> bool:
    return fold_text(city) in fold_text(value)


def identity_lookup(
    *,
    user: User,
    descriptors: Sequence[str] = (),
    city: str | None = None,
    start: datetime | None = None,
    end: datetime | None = None,
    person_ids: Sequence[int] | None = None,
    related_to_person_ids: Sequence[int] | None = None,
    related_to_user: bool = False,
    limit: int = 5,
) -> IdentityLookupResult:
    """Who the user means by descriptors, a place and a window ("the Russian guy I met in
    Mexico City", "Ana's brother").

    Candidates: ``person_ids`` when given; people with a relationship fact to
    ``related_to_person_ids``, or to the user with ``related_to_user`` ("my sister"); and, for a
    ``city``, people the user met there (a ``met_at``
    fact naming it, or a first message while the user was staying there, per ``user_stays``),
    or who live in / come from it. ``start``/``end`` bound the meeting and the supporting
    messages. Each descriptor must match: a nationality (``retrieval.lexicon.NATIONALITIES``)
    is derived at answer time from where the person is from or lives (never stored unless the
    memory policy kept a stated one); a relation word must be a relationship fact. Everything
    returned cites the messages it rests on.
    """
    facts = person_facts_for_user(user=user, person_ids=person_ids)
    facts_by_person: dict[int, list[PersonFactView]] = {}
    for fact in facts:
        facts_by_person.setdefault(fact.person_id, []).append(fact)

    def in_window(moment: datetime) -> bool:
        return (start is None or moment >= start) and (end is None or moment < end)

    evidence: dict[int, list[int]] = {}
    reasons: dict[int, list[str]] = {}

    def note(person_id: int, reason: str, message_ids: Sequence[int]) -> None:
        reasons.setdefault(person_id, []).append(reason)
        bucket = evidence.setdefault(person_id, [])
        bucket.extend(mid for mid in message_ids if mid not in bucket)

    if person_ids is not None:
        for person_id in person_ids:
            note(person_id, "named", ())
    if related_to_person_ids is not None:
        related_names = dict(
            Person.objects.filter(user=user, pk__in=list(related_to_person_ids)).values_list(
                "pk", "display_name"
            )
        )
        for fact in facts:
            if fact.kind == FactKind.RELATIONSHIP and fact.related_person_id in set(
                related_to_person_ids
            ):
                note(
                    fact.person_id,
                    f"{fact.value} of {related_names.get(fact.related_person_id or 0, '')}",
                    fact.source_message_ids,
                )
    if related_to_user:
        # "my sister": the user's relationships of the kinds the descriptors name (any kind
        # when they name none).
        wanted = {fold_text(d) for d in descriptors} & {fold_text(w) for w in RELATIONS}
        for fact in facts:
            if (
                fact.kind == FactKind.RELATIONSHIP
                and fact.related_person_id is None
                and (not wanted or fold_text(fact.value) in wanted)
            ):
                note(fact.person_id, f"your {fact.value}", fact.source_message_ids)
    if city:
        for fact in facts:
            if (
                fact.kind in (FactKind.MET_AT, FactKind.LIVES_IN, FactKind.ORIGIN)
                and _place_matches(fact.value, city)
                and in_window(fact.valid_from)
            ):
                note(fact.person_id, f"{fact.kind} {fact.value}", fact.source_message_ids)
        for stay_city, stay_start, stay_end in user_stays(user=user):
            if fold_text(stay_city) != fold_text(city):
                continue
            window_start = max(stay_start, start) if start else stay_start
            window_end = min(stay_end, end) if (stay_end and end) else (stay_end or end)
            met = _people_first_met_during(user=user, start=window_start, end=window_end)
            for person_id, message_id in met.items():
                note(person_id, f"first met while you were in {stay_city}", (message_id,))
        # A meeting fact in the same message as the city counts as met there.
        city_messages = set(
            Message.objects.filter(
                user=user,
                deleted_at__isnull=True,
                chat__is_excluded_from_ai=False,
                pk__in=[
                    mid
                    for fact in facts
                    if fact.kind == FactKind.MET_AT
                    for mid in fact.source_message_ids
                ],
                text__icontains=city,
            ).values_list("pk", flat=True)
        )
        for fact in facts:
            if fact.kind == FactKind.MET_AT and city_messages & set(fact.source_message_ids):
                note(fact.person_id, f"met at {fact.value}, {city}", fact.source_message_ids)

    candidates = list(evidence)
    if person_ids is None and related_to_person_ids is None and not related_to_user and not city:
        candidates = []
    nationalities = {fold_text(canonical): canonical for canonical in NATIONALITIES}
    relation_words = {fold_text(word) for word in RELATIONS}
    names = dict(
        Person.objects.filter(user=user, pk__in=candidates).values_list("pk", "display_name")
    )
    matches: list[IdentityMatch] = []
    for person_id in candidates:
        person_facts = facts_by_person.get(person_id, [])
        derived: list[DerivedAttribute] = []
        ok = True
        for descriptor in descriptors:
            folded = fold_text(descriptor)
            if folded in nationalities:
                nationality = nationalities[folded]
                stated = [
                    f
                    for f in person_facts
                    if f.kind == FactKind.NATIONALITY and f.value == nationality
                ]
                implied = [
                    f
                    for f in person_facts
                    if f.kind in (FactKind.ORIGIN, FactKind.LIVES_IN)
                    and nationality_of_place(f.value) == nationality
                ]
                support = stated or sorted(implied, key=lambda f: f.kind != FactKind.ORIGIN)
                if not support:
                    ok = False
                    break
                derived.append(
                    DerivedAttribute(
                        name="nationality",
                        value=nationality,
                        reason=f"{support[0].kind} {support[0].value}",
                        source_message_ids=support[0].source_message_ids,
                    )
                )
                note(
                    person_id,
                    f"{nationality} ({support[0].kind} {support[0].value})",
                    support[0].source_message_ids,
                )
            elif folded in relation_words and not any(
                f.kind == FactKind.RELATIONSHIP and fold_text(f.value) == folded
                for f in person_facts
            ):
                ok = False
                break
        if not ok:
            continue
        current_facts = tuple(f for f in person_facts if f.is_current)
        matches.append(
            IdentityMatch(
                person_id=person_id,
                display_name=names.get(person_id, ""),
                facts=current_facts,
                derived=tuple(derived),
                evidence_message_ids=tuple(evidence.get(person_id, ())),
                reasons=tuple(reasons.get(person_id, ())),
            )
        )
    matches.sort(key=lambda match: (-len(match.reasons), match.person_id))
    return IdentityLookupResult(
        matches=tuple(matches[: max(limit, 0)]), searched_start=start, searched_end=end
    )


# --- Merges --------------------------------------------------------------------------------


def person_canonical_ids(*, user: User) -> dict[int, int]:
    """merged person id -> the person it is read as, for the user's active merges."""
    return dict(
        PersonMerge.objects.filter(user=user, split_at__isnull=True).values_list(
            "merged_person_id", "kept_person_id"
        )
    )


def person_ids_expand(*, user: User, person_ids: Sequence[int]) -> tuple[int, ...]:
    """``person_ids`` plus everyone merged with them (either way), for filters such as "messages
    from Emma" that must read all of one human's identities. One query."""
    return person_group_expand(canonical=person_canonical_ids(user=user), person_ids=person_ids)


def person_group_expand(
    *, canonical: Mapping[int, int], person_ids: Sequence[int]
) -> tuple[int, ...]:
    """``person_ids_expand`` with the merges (``person_canonical_ids``) already read."""
    roots = {canonical.get(pk, pk) for pk in person_ids}
    expanded = set(person_ids) | roots
    expanded |= {merged for merged, kept in canonical.items() if kept in roots}
    return tuple(sorted(expanded))


@dataclass(frozen=True)
class MergeSuggestion:
    person_id: int
    other_person_id: int
    display_name: str
    other_display_name: str
    reasons: tuple[str, ...]


def _name_parts(name: str) -> list[str]:
    return [part.strip(".") for part in fold_text(name).split() if part.strip(".")]


def names_compatible(first: str, second: str) -> bool:
    """ "Emma Clarke" ~ "Emma C." ~ "Emma C 🌿": same first name, and any further part of the
    shorter name is the other's part or its initial."""
    a, b = _name_parts(first), _name_parts(second)
    if not a or not b or a[0] != b[0] or (len(a) == 1 and len(b) == 1):
        return False
    return all(
        mine.startswith(theirs) or theirs.startswith(mine)
        for mine, theirs in zip(a[1:], b[1:], strict=False)
    )


def fuller_names(*, user: User, ranked: Sequence[RelationshipMetrics]) -> dict[int, str]:
    """For people saved under a cut name ("Lee H 🏄"), the fuller name their platform showed on
    the messages a ranking cites ("Lee Harwood"): a sender name compatible with the saved one
    (``names_compatible``) with more letters. One query over the cited messages only."""
    canonical = person_canonical_ids(user=user)
    message_ids = [mid for item in ranked for mid in item.representative_message_ids]
    seen: dict[int, set[str]] = {}
    for person_id, sender_name in (
        Message.objects.filter(user=user, pk__in=message_ids, sender_person__isnull=False)
        .values_list("sender_person_id", "sender_name")
        .distinct()
    ):
        seen.setdefault(canonical.get(person_id, person_id), set()).add(sender_name or "")
    fuller: dict[int, str] = {}
    for item in ranked:
        letters = _letter_count(item.display_name)
        longer = [
            name
            for name in seen.get(item.person_id, ())
            if _letter_count(name) > letters and names_compatible(name, item.display_name)
        ]
        if longer:
            fuller[item.person_id] = max(longer, key=lambda name: (_letter_count(name), name))
    return fuller


def _letter_count(name: str) -> int:
    return sum(char.isalpha() for char in name)


def merge_suggestions(*, user: User, limit: int = 50) -> list[MergeSuggestion]:
    """Pairs of the user's people who may be one human: an identity value they share across
    kinds or platforms (a handle equal to an email's local part, the same number on two
    platforms that the importer could not match), or compatible names. Pairs already merged are
    left out. Suggestions only: nothing changes until the user merges."""
    people = dict(Person.objects.filter(user=user).values_list("pk", "display_name"))
    canonical = person_canonical_ids(user=user)
    reasons: dict[tuple[int, int], list[str]] = {}

    def suggest(first: int, second: int, reason: str) -> None:
        if first == second or canonical.get(first, first) == canonical.get(second, second):
            return
        key = (min(first, second), max(first, second))
        bucket = reasons.setdefault(key, [])
        if reason not in bucket:
            bucket.append(reason)

    by_value: dict[str, set[int]] = {}
    for person_id, kind, value in PersonIdentity.objects.filter(user=user).values_list(
        "person_id", "kind", "value"
    ):
        key = value.lower()
        if kind == IdentityKind.EMAIL:
            key = key.split("@", 1)[0]
        elif kind == IdentityKind.PHONE:
            key = "".join(ch for ch in key if ch.isdigit())[-9:]
        elif kind == IdentityKind.NAME:
            continue
        if len(key) >= 4:
            by_value.setdefault(key, set()).add(person_id)
    for ids in by_value.values():
        ordered = sorted(ids)
        for index, first in enumerate(ordered):
            for second in ordered[index + 1 :]:
                suggest(first, second, "shared identifier")
    by_first_name: dict[str, list[int]] = {}
    for person_id, name in people.items():
        parts = _name_parts(name)
        if parts:
            by_first_name.setdefault(parts[0], []).append(person_id)
    for same_first_name in by_first_name.values():
        ordered = sorted(same_first_name)
        for index, first in enumerate(ordered):
            for second in ordered[index + 1 :]:
                if names_compatible(people[first], people[second]):
                    suggest(first, second, "similar name")
    suggestions = [
        MergeSuggestion(
            person_id=first,
            other_person_id=second,
            display_name=people[first],
            other_display_name=people[second],
            reasons=tuple(found),
        )
        for (first, second), found in sorted(reasons.items())
    ]
    suggestions.sort(key=lambda item: (-len(item.reasons), item.person_id, item.other_person_id))
    return suggestions[: max(limit, 0)]
