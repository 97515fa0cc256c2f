"""Plans read when a question is asked: seeds by topic words, by a stored plan or by a window."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time, timedelta

from django.db.models import Q, QuerySet

from claire.accounts.models import User
from conversations.models import ChatKind, ChatParticipant, Message
from memory.extract import plan_signal
from memory.findings import PlanWhen, plan_whens, when_merged
from memory.models import PlanStatus
from memory.plan_words import activity_family, role_family
from memory.selectors import PlanTimeline
from memory.timeline.linking import _activity, _dedupe, _plan_read
from memory.timeline.rows import (
    _DATED,
    _MEETING_VERBS,
    _RELATIVE_SQL,
    _TIME_WORD,
    _WEEKDAY_SQL,
    CATEGORY_WORDS,
    DATED_LOOKBACK,
    DATED_READ,
    DATED_WINDOW_DAYS,
    LINK_HORIZON,
    LINK_SHIFT,
    MAX_TOPIC_MESSAGES,
    MOVED_FROM_READ,
    OCCURRENCES_READ,
    RARE_FLOOR,
    RARE_RATIO,
    SEED_RECENT,
    THREAD_BEFORE,
    TOPIC_HORIZON,
    WINDOW_LOOKBACK,
    WINDOW_SEEDS,
    _base,
    _Row,
    _rows,
    _says_change,
    _sets_time,
    _term_regex,
    _term_sql,
    _when,
)
from retrieval.lexicon import fold_text


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
    texts: dict[int, str] = {}
    chat_of: dict[int, int] = {}
    for pk, text, title, kind, chat_id in Message.objects.filter(
        user=user, pk__in=[mid for plan in plans for mid in plan.message_ids]
    ).values_list("pk", "text", "chat__title", "chat__kind", "chat_id"):
        texts[pk] = text if kind == ChatKind.DIRECT else f"{text} {title}"
        chat_of[pk] = chat_id

    folded_of = {
        id(plan): fold_text(" ".join(texts.get(mid, "") for mid in plan.message_ids))
        for plan in plans
    }
    words_used = {
        key: sum(1 for term in words if _uses(term, folded)) for key, folded in folded_of.items()
    }

    def uses(plan: PlanTimeline) -> int:
        return words_used[id(plan)]

    def chats(plan: PlanTimeline) -> set[int]:
        return {chat_of[mid] for mid in plan.message_ids if mid in chat_of}

    # A habit's chat: the most words of the question a plan there uses. A later time agreed in
    # that chat without naming the habit ("wed 6:15?" "ok") is its next occurrence.
    habit: dict[int, int] = {}
    for plan in plans:
        for chat_id in chats(plan):
            habit[chat_id] = max(habit.get(chat_id, 0), uses(plan))

    def rank(plan: PlanTimeline) -> tuple[int, bool, bool, datetime]:
        used = uses(plan)
        whens = plan_whens(plan, user.zoneinfo)
        day = whens[-1].day if whens else None
        # Set for a day in the window, then or before it moved ("is Thursday still on?" of
        # the plan moved away from Thursday).
        in_window = window is not None and any(
            when.day is not None and window[0] <= when.day <= window[1] for when in whens
        )
        ahead = day is not None and day >= today
        if not used and in_window and person_ids:
            used = max((habit.get(chat_id, 0) for chat_id in chats(plan)), default=0)
        return (used, in_window, ahead, plan.last_sent_at)

    chosen = max(plans, key=rank)
    folded = fold_text(" ".join(texts.get(mid, "") for mid in chosen.message_ids))
    used = tuple(sorted(term for term in kept if _uses(term, folded)))
    if not used and rank(chosen)[0]:
        # The habit's next occurrence: read from the words its chat's plans use.
        habit_words = " ".join(folded_of[id(plan)] for plan in plans if chats(plan) & chats(chosen))
        used = tuple(sorted(term for term in kept if _uses(term, habit_words)))
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
