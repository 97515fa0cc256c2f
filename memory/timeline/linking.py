"""Which messages join a plan: its conversation, then later messages that name its day."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime

from django.db.models import Q, QuerySet

from claire.accounts.models import User
from conversations.models import ChatKind, ChatParticipant, Message, Person
from memory.extract import plan_signal
from memory.extract.plans import before_another_offer
from memory.findings import PlanWhen
from memory.models import PlanStatus
from memory.selectors import PlanTimeline
from memory.timeline.rows import (
    _DECLINE,
    _NOT_NAMES,
    _RELATIVE_SQL,
    _WEEKDAY_SQL,
    CATEGORY_WORDS,
    FOREIGN_MOVES,
    LINK_HORIZON,
    LINK_READ,
    LINK_SHIFT,
    THREAD_BEFORE,
    THREAD_WINDOW,
    _names_day,
    _Row,
    _rows,
    _says_change,
    _when,
)
from memory.timeline.steps import _Steps
from retrieval.lexicon import fold_text


def _plan_read(
    *,
    user: User,
    seeds: Sequence[_Row],
    base: QuerySet[Message],
    now: datetime,
    activity: str,
    wide: QuerySet[Message] | None = None,
) -> PlanTimeline | None:
    """The plan the ``seeds`` start, with the conversation around them and the messages of
    its participants that name its day, as of ``now``."""
    if not seeds:
        return None
    seeds = sorted(seeds, key=lambda row: (row.sent_at, row.pk))
    near = Q()
    for row in seeds:
        near |= Q(
            chat_id=row.chat_id,
            sent_at__gte=row.sent_at - THREAD_BEFORE,
            sent_at__lte=row.sent_at + THREAD_WINDOW,
        )
    around = {row.pk: row for row in [*seeds, *_rows(base.filter(near))]}
    participants = {row.sender for row in around.values() if row.sender is not None}
    chats = {row.chat_id for row in seeds}
    direct_chats = set(
        ChatParticipant.objects.filter(
            chat__user=user, chat__kind=ChatKind.DIRECT, person_id__in=participants
        ).values_list("chat_id", flat=True)
    )
    where = Q(chat_id__in=chats | direct_chats)
    anchors = _anchor_names(seeds, user=user)
    if anchors:
        where |= Q(text__iregex=r"\m(" + "|".join(re.escape(word) for word in anchors) + r")\M")
    later = _rows(
        base.filter(
            where,
            sent_at__gt=seeds[0].sent_at,
            sent_at__lte=min(now, seeds[-1].sent_at + LINK_HORIZON),
        ),
        limit=LINK_READ,
    )
    own = chats | direct_chats
    foreign = _foreign_moves(
        base=(base if wide is None else wide).exclude(where),
        since=seeds[0].sent_at,
        until=min(now, seeds[-1].sent_at + LINK_HORIZON),
        user=user,
    )
    names = _first_names(user=user, person_ids={*participants, *(r.sender for r in foreign)})
    people_names = {names[pid] for pid in participants if names.get(pid)}
    reader = _Steps(user=user, activity=activity)
    linked_until: dict[int, datetime] = {}
    zone = user.zoneinfo
    for row in _dedupe([*around.values(), *later, *foreign]):
        open_until = linked_until.get(row.chat_id)
        keep = row.pk in around or (open_until is not None and row.sent_at <= open_until)
        if not keep and row.chat_id not in own and row.pk not in around:
            # Said in a chat of none of the plan's people (another platform, a friend asked to
            # help): a move of its day, near it, is the plan's.
            keep = _by_the_plans_people(row, names, people_names) and _is_foreign_move(
                row, reader, user=user
            )
            if keep:
                linked_until[row.chat_id] = row.sent_at + THREAD_WINDOW
        elif not keep:
            current = reader.current
            keep = (
                current is not None
                and current.day is not None
                and row.sent_at.astimezone(zone).date() <= current.day
                and (
                    _names_day(row, current.day, user=user)
                    or _is_organiser_change(row, reader, user=user)
                    or _is_participant_update(
                        row,
                        people=participants,
                        own_chats=chats | direct_chats,
                        user=user,
                        reader=reader,
                    )
                )
            )
            if keep:
                linked_until[row.chat_id] = row.sent_at + THREAD_WINDOW
        if keep:
            reader.take(row)
    return reader.plan()


# A capitalised word inside a sentence: a name ("Adeyemi", "Linden"), not a sentence start.
_INNER_NAME = re.compile(r"(?<=[\w,;:)\u2014-] )([A-Z\u00c0-\u00dd][a-z\u00e0-\u00ff]{3,})\b")


ANCHORS = 8


def _anchor_names(seeds: Sequence[_Row], *, user: User) -> list[str]:
    """Names said inside the seed messages' sentences ("Ines mentioned Adeyemi Plumbing"):
    a later message naming one of them and the plan's day is about the plan, in any chat."""
    own = {fold_text(part) for part in (user.first_name, user.last_name) if part}
    found: list[str] = []
    for row in seeds:
        for match in _INNER_NAME.finditer(row.text):
            word = match.group(1)
            folded = fold_text(word)
            if folded in _NOT_NAMES or folded in own or word in found:
                continue
            found.append(word)
    return found[:ANCHORS]


def _is_organiser_change(row: _Row, reader: _Steps, *, user: User) -> bool:
    """A change with a new time from the person who set the plan ("change of plans, the
    van is only free on Sunday, so it's Sunday at 10am now"), before the plan's day."""
    first = reader.steps[0] if reader.steps else None
    if first is None or first.sender_person_id is None or row.sender != first.sender_person_id:
        return False
    signal = plan_signal(row.text)
    changed = signal.status == PlanStatus.CHANGED or _says_change(fold_text(row.text))
    return bool(changed) and _near_current(_when(row, signal.event_label, "", user), reader)


def _near_current(said: PlanWhen | None, reader: _Steps) -> bool:
    """Whether a new time said away from the plan's conversation is near the plan's day: a
    move is by days ("Saturday instead of Friday"); a time weeks away is another plan's."""
    if said is None:
        return False
    current = reader.current
    if said.day is None or current is None or current.day is None:
        return True
    return abs((said.day - current.day).days) <= LINK_SHIFT.days


def _foreign_moves(
    *, base: QuerySet[Message], since: datetime, until: datetime, user: User
) -> list[_Row]:
    """Messages outside the plan's chats that move something to a time, with the
    conversation right after each (read only if the move is linked to the plan)."""
    moves = [
        row
        for row in _rows(
            base.filter(
                Q(text__iregex=_WEEKDAY_SQL) | Q(text__iregex=_RELATIVE_SQL),
                sent_at__gt=since,
                sent_at__lte=until,
            ),
            limit=LINK_READ,
        )
        if plan_signal(row.text).status == PlanStatus.CHANGED
        and _when(row, plan_signal(row.text).event_label, "", user) is not None
    ][-FOREIGN_MOVES:]
    if not moves:
        return []
    after = Q()
    for row in moves:
        after |= Q(
            chat_id=row.chat_id,
            sent_at__gt=row.sent_at,
            sent_at__lte=min(until, row.sent_at + THREAD_WINDOW),
        )
    return [*moves, *_rows(base.filter(after))]


_NAME_WORD = re.compile(r"[^\W\d_]{2,}")


def _first_names(*, user: User, person_ids: set[int | None]) -> dict[int, str]:
    """Each person's first name as a folded word ("Tina 🌻" -> "tina")."""
    found: dict[int, str] = {}
    for pk, name in Person.objects.filter(
        user=user, pk__in=[pid for pid in person_ids if pid is not None]
    ).values_list("pk", "display_name"):
        word = _NAME_WORD.search(fold_text(name or ""))
        if word:
            found[pk] = word.group(0)
    return found


def _same_name(one: str, other: str) -> bool:
    """ "giu" and "giulia": one name the short form of the other (three letters at least)."""
    short, long = sorted((one, other), key=len)
    return len(short) >= 3 and long.startswith(short)


def _by_the_plans_people(row: _Row, names: dict[int, str], people_names: set[str]) -> bool:
    """Whether a message in another chat comes from one of the plan's people saved under
    another name ("Tina" for "Martina" on another platform), or names one of them ("Martina
    says Sunday instead")."""
    sender = names.get(row.sender) if row.sender is not None else None
    if sender and any(_same_name(sender, name) for name in people_names):
        return True
    words = set(_NAME_WORD.findall(fold_text(row.text)))
    return any(name in words for name in people_names if len(name) >= 3)


def _is_foreign_move(row: _Row, reader: _Steps, *, user: User) -> bool:
    """A move said in another chat that names the plan's day and a new time near it, in the
    days before it ("rain on Saturday, shall we move to Sunday?")."""
    current = reader.current
    if current is None or current.day is None:
        return False
    ahead = (current.day - row.sent_at.astimezone(user.zoneinfo).date()).days
    if not 0 <= ahead <= LINK_SHIFT.days or not _names_day(row, current.day, user=user):
        return False
    signal = plan_signal(row.text)
    if not (signal.status == PlanStatus.CHANGED or _says_change(fold_text(row.text))):
        return False
    return _near_current(_when(row, signal.event_label, "", user), reader)


def _is_participant_update(
    row: _Row, *, people: set[int], own_chats: set[int], user: User, reader: _Steps
) -> bool:
    """A move with a new time ("can we push to 8?") or a call-off ("sorry, have to bail")
    said in the plan's chats or a direct chat with its people, by one of them or the user:
    before the plan's day, that is about the plan even when it names no day."""
    if row.chat_id not in own_chats or not (row.is_from_self or row.sender in people):
        return False
    signal = plan_signal(row.text)
    if signal.status == PlanStatus.CANCELLED:
        return row.is_direct or not _DECLINE.search(fold_text(row.text))
    changed = signal.status == PlanStatus.CHANGED
    if changed and not signal.event_label and signal.place:
        # "X is closed, let's do Y instead": a new place, said by one of its people.
        return True
    return changed and _near_current(_when(row, signal.event_label, "", user), reader)


def _dedupe(rows: Iterable[_Row]) -> list[_Row]:
    seen: dict[int, _Row] = {}
    for row in rows:
        seen.setdefault(row.pk, row)
    return sorted(seen.values(), key=lambda row: (row.sent_at, row.pk))


# "the new due date", "save the date": a date of something, not a date with someone.
_DATE_OF_A_THING = re.compile(r"\b(?:due|new|start|end|release|expiry|closing|save the) dates?\b")
# "we call the beach off", "called it off": the verb of a call-off, not a phone call.
_CALL_OFF = re.compile(r"\bcall(?:s|ed|ing)?\b(?=(?:\s+[\w']+){0,4}\s+off\b)")


def _activity(rows: Sequence[_Row], fallback: str) -> str:
    """The kind of event the plan's messages name most ("flight", "party"), else
    ``fallback``."""
    counts: dict[str, int] = {}
    for row in rows:
        # Not the other activity a call-off offers ("cancelled, bowling at 3 instead?").
        said = before_another_offer(row.text)
        folded = _CALL_OFF.sub(" ", _DATE_OF_A_THING.sub(" ", fold_text(said)))
        for word in CATEGORY_WORDS:
            if len(word) > 3 and re.search(rf"(?<!\w){re.escape(word)}s?(?!\w)", folded):
                counts[word] = counts.get(word, 0) + 1
    # On a tie the fuller form wins ("drinks" over "drink").
    return max(sorted(counts), key=lambda word: (counts[word], len(word))) if counts else fallback
