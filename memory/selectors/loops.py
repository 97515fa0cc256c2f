"""Loops: open threads the user has not closed, and loops of any status."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from claire.accounts.models import User
from memory.models import (
    Loop,
    LoopKind,
    LoopStatus,
)
from memory.selectors.merges import person_ids_expand


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
