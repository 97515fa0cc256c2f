"""Loops of the user's chats: derived again per chat (``loops_refresh``) or from the messages
around a change (``loops_update``), with only new and changed rows written, matched across
chats, and closed by hand (``loop_close``)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Q

from claire.accounts.models import User
from claire.errors import NotFound
from conversations.models import Chat, ChatKind, ChatParticipant, Message
from memory.closure import loops_close_across_chats
from memory.models import Loop, LoopStatus
from memory.services.loop_rules import (
    LOOP_ANSWER_HORIZON,
    LOOP_CLOSE_WINDOW,
    _ChatMessage,
    _LoopFound,
    _loops_in_chat,
)
from retrieval.lexicon import fold_text

logger = logging.getLogger(__name__)


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
