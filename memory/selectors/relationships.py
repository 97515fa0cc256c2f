"""Relationships: what the user and each person exchanged, and the people rankings built on it."""

from __future__ import annotations

import dataclasses
import math
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
    Person,
)
from memory.models import PersonChatDay
from memory.selectors.merges import person_canonical_ids, person_group_expand
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
