"""A plan read on demand from the messages about a topic: when is it, and did it move.

Stored plans start from an activity word ("dinner", "trip"); many plans are only a name and a
time ("Kayak day at the reservoir, Fri Jun 12?", "electrician Tue 9-11"). A question
about one names its topic, so the messages that name that topic (in any chat, on any
platform), with the conversation right after each (same chat, within ``THREAD_WINDOW``: "Move
for Sat 13th? leaving 8am" does not repeat the topic), are read in send-time order
and every one that names a day or a clock becomes a step: the first sets the time, a later
one with another time or a change word moves it, a cancellation cancels it, an agreement
confirms it. The result is a ``PlanTimeline`` like a stored plan, rendered the same way.

Only topic words that few messages use count (a word in many messages names no one plan),
and only the last ``TOPIC_HORIZON`` before the question. Deterministic; no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, time, timedelta

from claire.accounts.models import User
from conversations.models import ChatParticipant, Message
from retrieval.lexicon import fold_text
from retrieval.memory.extract import plan_signal
from retrieval.memory.findings import plan_whens, when_of
from retrieval.memory.models import PlanStatus
from retrieval.memory.selectors import PlanStepView, PlanTimeline

TOPIC_HORIZON = timedelta(days=45)
THREAD_WINDOW = timedelta(hours=3)
# Messages naming the plan's weekday join it this long after the topic was last named.
DAY_LINK_WINDOW = timedelta(days=10)
# A topic word used by more messages than this in the horizon names no single plan.
MAX_TOPIC_MESSAGES = 60
MESSAGES_READ = 400


def _stem(term: str) -> str:
    return term if len(term) <= 4 else term[: max(4, len(term) - 2)]


def _pattern(term: str) -> str:
    return rf"(?<!\w){re.escape(_stem(term))}"


_TIME_WORD = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tonight|tomorrow|weekend|morning"
    r"|evening|afternoon|night|week|month|time|when|still"
)
_DAY_NAME = re.compile(
    r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun)"
    r"\b"
)


def _day_words(rows: Sequence[tuple]) -> list[str]:
    """The weekday names the topic's timed messages use, full and short ("saturday", "sat")."""
    found: set[str] = set()
    for row in rows:
        if not plan_signal(row[4] or "").event_label:
            continue
        for match in _DAY_NAME.finditer(fold_text(row[4] or "")):
            full = {
                "mon": "monday", "tue": "tuesday", "wed": "wednesday", "thu": "thursday",
                "fri": "friday", "sat": "saturday", "sun": "sunday",
            }.get(match.group(1), match.group(1))  # fmt: skip
            found.add(full)
    return sorted(found)


def _latest_day_end(rows: Sequence[tuple], *, user: User) -> datetime:
    """The end of the latest day the topic's timed messages name (their send time if none)."""
    zone = user.zoneinfo
    latest = rows[-1][3]
    for pk, chat_id, platform, sent_at, text, is_from_self, sender in rows:
        label = plan_signal(text or "").event_label
        if not label:
            continue
        step = PlanStepView(
            message_id=pk,
            chat_id=chat_id,
            platform=platform,
            status=PlanStatus.PROPOSED,
            event_label=label,
            sent_at=sent_at,
            sender_person_id=sender,
            is_from_self=is_from_self,
        )
        day = when_of(step, activity="", zone=zone).day
        if day is not None:
            end = datetime.combine(day + timedelta(days=1), time(0), tzinfo=zone)
            latest = max(latest, end)
    return latest


def topic_plan(
    *,
    user: User,
    terms: Sequence[str],
    now: datetime,
    chat_ids: Sequence[int] | None = None,
    person_ids: Sequence[int] = (),
) -> tuple[PlanTimeline, tuple[str, ...]] | None:
    """The plan the messages about ``terms`` describe as of ``now``, with the topic words its
    messages use; ``None`` when no message about the topic names a time."""
    folded_terms = [fold_text(term.strip('"')) for term in terms if len(term.strip('"')) >= 3]
    if not folded_terms:
        return None
    since = now - TOPIC_HORIZON
    base = Message.objects.filter(
        user=user,
        deleted_at__isnull=True,
        chat__is_excluded_from_ai=False,
        sent_at__gte=since,
        sent_at__lt=now,
    )
    if chat_ids is not None:
        base = base.filter(chat_id__in=list(chat_ids))
    if person_ids:
        # A plan with someone is discussed in the chats they are in.
        base = base.filter(
            chat_id__in=ChatParticipant.objects.filter(
                chat__user=user, person_id__in=list(person_ids)
            ).values("chat_id")
        )
    counts: dict[str, int] = {}
    for term in folded_terms:
        if _TIME_WORD.fullmatch(term):
            continue
        count = base.filter(text__iregex=re.escape(_stem(term))).count()
        if 0 < count <= MAX_TOPIC_MESSAGES:
            counts[term] = count
    if not counts:
        return None
    # The rarest words name the plan; a word many times more common names other things too.
    rarest = min(counts.values())
    kept = [term for term, count in counts.items() if count <= max(3, 2 * rarest)]
    regex = "|".join(re.escape(_stem(term)) for term in kept)
    topic_rows = list(
        base.filter(text__iregex=regex)
        .select_related("chat")
        .order_by("sent_at", "pk")
        .values_list("pk", "chat_id", "chat__platform", "sent_at", "text", "is_from_self",
                     "sender_person_id")[:MESSAGES_READ]
    )  # fmt: skip
    topic_rows = [
        row for row in topic_rows if any(re.search(_pattern(t), fold_text(row[4])) for t in kept)
    ]
    if not topic_rows:
        return None
    used = {t for row in topic_rows for t in kept if re.search(_pattern(t), fold_text(row[4]))}
    thread_ids = {row[0] for row in topic_rows}
    anchors = [(row[1], row[3]) for row in topic_rows]
    # Later messages in the same chats that name the plan's day ("strong wind on Friday,
    # not ideal") are about it too, and so is the conversation right after them.
    days = _day_words(topic_rows)
    if days:
        first, last = topic_rows[0][3], topic_rows[-1][3]
        # Until the plan's day (it is discussed until it happens), or a while after the topic.
        until = max(last + DAY_LINK_WINDOW, _latest_day_end(topic_rows, user=user))
        for pk, chat_id, sent_at in base.filter(
            chat_id__in={row[1] for row in topic_rows},
            sent_at__gt=first,
            sent_at__lte=until,
            text__iregex=r"\m(" + "|".join(days) + r")",
        ).values_list("pk", "chat_id", "sent_at")[:MESSAGES_READ]:
            thread_ids.add(pk)
            anchors.append((chat_id, sent_at))
    for chat_id, sent_at in anchors:
        thread_ids.update(
            base.filter(
                chat_id=chat_id, sent_at__gt=sent_at, sent_at__lte=sent_at + THREAD_WINDOW
            ).values_list("pk", flat=True)
        )
    rows = list(
        base.filter(pk__in=thread_ids)
        .order_by("sent_at", "pk")
        .values_list("pk", "chat_id", "chat__platform", "sent_at", "text", "is_from_self",
                     "sender_person_id")
    )  # fmt: skip
    zone = user.zoneinfo
    activity = " ".join(kept)
    steps: list[PlanStepView] = []
    status = PlanStatus.PROPOSED
    current = ""
    for pk, chat_id, platform, sent_at, text, is_from_self, sender in rows:
        signal = plan_signal(text or "")
        step = PlanStepView(
            message_id=pk,
            chat_id=chat_id,
            platform=platform,
            status=PlanStatus.PROPOSED,
            event_label=signal.event_label,
            sent_at=sent_at,
            sender_person_id=sender,
            is_from_self=is_from_self,
        )
        when = when_of(step, activity=activity, zone=zone).text if signal.event_label else ""
        step_status: PlanStatus | None = None
        if signal.status == PlanStatus.CANCELLED and steps:
            step_status = PlanStatus.CANCELLED
        elif when and not current:
            step_status = PlanStatus.PROPOSED
        elif when and when != current:
            # Another time than the one set: the plan moved, whatever words it used.
            step_status = PlanStatus.CHANGED
        elif steps and (signal.status == PlanStatus.CONFIRMED or when == current):
            step_status = PlanStatus.CONFIRMED
        if step_status is None:
            continue
        if when:
            current = when
        steps.append(PlanStepView(**{**step.__dict__, "status": step_status}))
        status = step_status
    if not steps:
        return None
    plan = PlanTimeline(
        plan_id=0,
        activity=" ".join(kept),
        place="",
        event_label=next((s.event_label for s in reversed(steps) if s.event_label), ""),
        status=status,
        first_sent_at=steps[0].sent_at,
        last_sent_at=steps[-1].sent_at,
        steps=tuple(steps),
    )
    if not plan_whens(plan, zone):
        return None
    if plan.status == PlanStatus.CONFIRMED and any(
        step.status == PlanStatus.CHANGED for step in steps
    ):
        # Agreed after a move: it still moved.
        plan = PlanTimeline(**{**plan.__dict__, "status": PlanStatus.CHANGED})
    return plan, tuple(sorted(used))
