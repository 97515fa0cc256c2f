"""Reads of threads and turns, always scoped by the owner.

The ``*_get_for_user`` helpers fail closed: a missing row and someone else's row raise the same
``NotFound``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import Q

from assistant.models import Thread, Turn, TurnRole, TurnStatus
from assistant.types import ThreadSummary
from claire.accounts.models import User
from claire.errors import NotFound

# The model sees at most this many earlier answers of the thread (and their questions).
RECENT_ASSISTANT_TURNS = 6


def threads_for_user(
    *, user: User, before: tuple[datetime, int] | None = None, limit: int = 20
) -> list[Thread]:
    """Most recently active first, keyset-paginated on (last_activity_at, id)."""
    queryset = Thread.objects.filter(user=user).order_by("-last_activity_at", "-id")
    if before is not None:
        activity_at, thread_id = before
        queryset = queryset.filter(
            Q(last_activity_at__lt=activity_at) | Q(last_activity_at=activity_at, id__lt=thread_id)
        )
    return list(queryset[:limit])


def thread_get_for_user(*, user: User, thread_id: int | str) -> Thread:
    try:
        return Thread.objects.get(user=user, pk=int(thread_id))
    except (Thread.DoesNotExist, ValueError, TypeError):
        raise NotFound(message="Thread not found.") from None


def turns_for_thread(
    *, user: User, thread: Thread, before: tuple[datetime, int] | None = None, limit: int = 50
) -> list[Turn]:
    """Newest first, keyset-paginated on (created_at, id)."""
    queryset = (
        Turn.objects.filter(user=user, thread=thread)
        .select_related("user_turn")
        .order_by("-created_at", "-id")
    )
    if before is not None:
        created_at, turn_id = before
        queryset = queryset.filter(
            Q(created_at__lt=created_at) | Q(created_at=created_at, id__lt=turn_id)
        )
    return list(queryset[:limit])


def turn_get_for_user(*, user: User, turn_id: int | str, role: str | None = None) -> Turn:
    filters = Q(user=user)
    if role is not None:
        filters &= Q(role=role)
    try:
        return Turn.objects.select_related("thread", "user_turn").get(filters, pk=int(turn_id))
    except (Turn.DoesNotExist, ValueError, TypeError):
        raise NotFound(message="Turn not found.") from None


def request_is_seen(*, user: User, request_id: str) -> bool:
    """Whether the user sent ``request_id`` before: one probe of the unique (user, request id)
    index. Plain SQL, because every new question asks it twice and the ORM would spend ten times
    the probe's own cost building the query."""
    with connection.cursor() as cursor:
        # role = 'user' as a literal: the unique index is partial on it.
        cursor.execute(
            "SELECT 1 FROM assistant_turn"
            " WHERE user_id = %s AND role = 'user' AND request_id = %s LIMIT 1",
            [user.pk, request_id],
        )
        return cursor.fetchone() is not None


def requests_seen(*, keys: list[tuple[int, str]]) -> set[tuple[int, str]]:
    """Which of ``keys`` (user id, request id) were sent before: one probe of the unique index
    for them all (plain SQL, as ``request_is_seen``)."""
    if not keys:
        return set()
    rows = ", ".join("(%s, %s)" for _ in keys)
    query = f"SELECT user_id, request_id FROM assistant_turn WHERE role = 'user' AND (user_id, request_id) IN ({rows})"  # noqa: S608, E501 - placeholders only
    parameters: list[int | str] = []
    for user_id, request_id in keys:
        parameters += [user_id, request_id]
    with connection.cursor() as cursor:
        cursor.execute(query, parameters)
        return {(int(user_id), str(request_id)) for user_id, request_id in cursor.fetchall()}


def turn_for_request(*, user: User, request_id: str) -> Turn | None:
    """The user turn of ``request_id`` with its assistant turn, if the request was seen."""
    # At most one row (a unique constraint): no ordering to compile or sort.
    found = list(
        Turn.objects.select_related("thread", "assistant_turn").filter(
            user=user, role=TurnRole.USER, request_id=request_id
        )[:1]
    )
    return found[0] if found else None


@dataclass(frozen=True)
class Exchange:
    """One earlier question and its answer, as generation reads them."""

    question: str
    answer: str


def recent_exchanges_for_generation(
    *, user: User, thread: Thread, before_turn_id: int, limit: int = RECENT_ASSISTANT_TURNS
) -> list[Exchange]:
    """The last ``limit`` completed answers of the thread before ``before_turn_id``, oldest
    first. One bounded query: generation never reads the whole history."""
    answers = list(
        Turn.objects.filter(
            user=user,
            thread=thread,
            role=TurnRole.ASSISTANT,
            status=TurnStatus.COMPLETED,
            id__lt=before_turn_id,
        )
        .select_related("user_turn")
        .order_by("-id")[:limit]
    )
    return [
        Exchange(question=turn.user_turn.text if turn.user_turn else "", answer=turn.text)
        for turn in reversed(answers)
    ]


def thread_summary_of(thread: Thread) -> ThreadSummary:
    """The thread as an answer's ``thread`` and the history API show it."""
    return ThreadSummary(
        thread_id=thread.pk,
        title=thread.title,
        kind=thread.kind,
        chat_id=thread.chat_id,
        created_at=thread.created_at,
        last_activity_at=thread.last_activity_at,
    )
