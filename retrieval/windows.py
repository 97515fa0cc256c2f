"""Message windows: each search hit grows into the neighbouring messages of its chat.

A hit alone rarely answers a question: "Yes, Friday at 8" needs the message it replied to.
``windows_expand`` loads, in one query, ``before`` live messages preceding and ``after``
following every hit in its chat (ordered by ``(sent_at, id)``, the chat's reading order), then
merges windows of the same chat that share a message, so no message is shown twice. Windows
come back in the rank order of their best hit and remember which of their messages were hits.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import connection

from claire.accounts.models import User


@dataclass(frozen=True)
class WindowMessage:
    message_id: int
    sent_at: datetime
    sender_name: str
    is_from_self: bool
    text: str
    is_hit: bool


@dataclass(frozen=True)
class MessageWindow:
    """Consecutive live messages of one chat around one or more hits (reading order)."""

    chat_id: int
    chat_title: str
    platform: str
    messages: tuple[WindowMessage, ...]
    # Hits inside this window, best ranked first.
    hit_message_ids: tuple[int, ...]
    # Position of the best hit in the ranked input (0 = the top hit).
    best_rank: int

    @property
    def primary_message_id(self) -> int:
        return self.hit_message_ids[0]

    @property
    def message_ids(self) -> tuple[int, ...]:
        return tuple(message.message_id for message in self.messages)

    def ranked_message_ids(self) -> list[int]:
        """Hits in rank order, then the other messages nearest a hit first.

        This is the order a reader would take them in when a window must be cut short, and
        the order the evaluation uses for "hits after window expansion".
        """
        position = {message.message_id: index for index, message in enumerate(self.messages)}
        hit_positions = [position[message_id] for message_id in self.hit_message_ids]
        neighbours = [message for message in self.messages if not message.is_hit]
        neighbours.sort(
            key=lambda message: (
                min(abs(position[message.message_id] - hit) for hit in hit_positions),
                position[message.message_id],
            )
        )
        return [*self.hit_message_ids, *(message.message_id for message in neighbours)]


_WINDOWS_SQL = """
WITH hits AS (
    SELECT h.message_id, h.ord
    FROM unnest(%(message_ids)s::bigint[]) WITH ORDINALITY AS h(message_id, ord)
)
SELECT h.ord, hm.id, w.id, w.sent_at, w.is_from_self, w.sender_name, p.display_name, w.text,
       c.id, c.title, c.platform,
       -- The human a sender shown under one of their handles is merged into ("dylr" on
       -- Discord, linked to a contact saved by name): that contact's name.
       (SELECT kp.display_name
        FROM memory_personmerge pm
        JOIN conversations_person kp ON kp.id = pm.kept_person_id
        WHERE pm.merged_person_id = w.sender_person_id AND pm.user_id = %(user_id)s
          AND pm.split_at IS NULL
          AND EXISTS (SELECT 1 FROM conversations_personidentity i
                      WHERE i.person_id = w.sender_person_id AND i.kind = 'handle'
                        AND i.value = lower(ltrim(btrim(w.sender_name), '@'))))
FROM hits h
JOIN conversations_message hm
  ON hm.id = h.message_id AND hm.user_id = %(user_id)s AND hm.deleted_at IS NULL
JOIN conversations_chat c
  ON c.id = hm.chat_id AND c.user_id = %(user_id)s AND NOT c.is_excluded_from_ai
CROSS JOIN LATERAL (
    (SELECT m.id, m.sent_at, m.is_from_self, m.sender_name, m.sender_person_id, m.text
     FROM conversations_message m
     WHERE m.chat_id = hm.chat_id AND m.user_id = %(user_id)s AND m.deleted_at IS NULL
       AND (m.sent_at, m.id) < (hm.sent_at, hm.id)
     ORDER BY m.sent_at DESC, m.id DESC
     LIMIT %(before)s)
    UNION ALL
    SELECT hm.id, hm.sent_at, hm.is_from_self, hm.sender_name, hm.sender_person_id, hm.text
    UNION ALL
    (SELECT m.id, m.sent_at, m.is_from_self, m.sender_name, m.sender_person_id, m.text
     FROM conversations_message m
     WHERE m.chat_id = hm.chat_id AND m.user_id = %(user_id)s AND m.deleted_at IS NULL
       AND (m.sent_at, m.id) > (hm.sent_at, hm.id)
     ORDER BY m.sent_at, m.id
     LIMIT %(after)s)
) w
LEFT JOIN conversations_person p ON p.id = w.sender_person_id
"""

SELF_SENDER_NAME = "You"


@dataclass
class _Draft:
    chat_id: int
    chat_title: str
    platform: str
    messages: dict[int, WindowMessage]
    hit_ranks: dict[int, int]

    def sort_key(self, message_id: int) -> tuple[datetime, int]:
        return (self.messages[message_id].sent_at, message_id)

    def first(self) -> tuple[datetime, int]:
        return min(self.sort_key(message_id) for message_id in self.messages)

    def last(self) -> tuple[datetime, int]:
        return max(self.sort_key(message_id) for message_id in self.messages)


def windows_expand(
    *,
    user: User,
    message_ids: Sequence[int],
    before: int,
    after: int,
    separate_ids: Collection[int] = (),
) -> list[MessageWindow]:
    """Windows around ``message_ids`` (ranked best first), merged where they overlap.

    A merged window is cited through its best hit only, so hits that must each be citable on
    their own (``separate_ids``: two open loops of one chat, two steps of one plan) are cut
    apart again after merging: each message goes to the nearest of them (``_split_at``).

    One query whatever the number of hits. Hits that are deleted, in an excluded chat or not
    the user's are dropped silently: the caller's ranking already filtered them, and this is
    the last line of defence, not an error path.
    """
    if not message_ids:
        return []
    ranked_ids = list(dict.fromkeys(message_ids))
    with connection.cursor() as cursor:
        cursor.execute(
            _WINDOWS_SQL,
            {
                "message_ids": ranked_ids,
                "user_id": user.pk,
                "before": max(before, 0),
                "after": max(after, 0),
            },
        )
        rows = cursor.fetchall()

    drafts: dict[int, _Draft] = {}
    for row in rows:
        (ordinal, hit_id, message_id, sent_at, is_from_self, sender_name, person_name, text) = row[
            :8
        ]
        chat_id, chat_title, platform, human_name = row[8:]
        draft = drafts.get(hit_id)
        if draft is None:
            draft = drafts[hit_id] = _Draft(
                chat_id=chat_id,
                chat_title=chat_title,
                platform=platform,
                messages={},
                hit_ranks={hit_id: int(ordinal) - 1},
            )
        draft.messages[message_id] = WindowMessage(
            message_id=message_id,
            sent_at=sent_at,
            sender_name=_display_sender(
                is_from_self=is_from_self,
                sender_name=sender_name,
                person_name=person_name,
                human_name=human_name,
            ),
            is_from_self=is_from_self,
            text=text,
            is_hit=False,
        )

    merged = _merge_overlaps(list(drafts.values()))
    separate = set(separate_ids)
    windows = [_finish(part) for draft in merged for part in _split_at(draft, separate)]
    windows.sort(key=lambda window: window.best_rank)
    return windows


def _display_sender(
    *, is_from_self: bool, sender_name: str, person_name: str | None, human_name: str | None = None
) -> str:
    """How a message's sender is shown: the name the platform showed, else the contact's; a
    handle of someone merged with a contact saved by name is shown with that name
    ("Dylan (dylr)")."""
    if is_from_self:
        return SELF_SENDER_NAME
    shown = sender_name or person_name or "Unknown"
    if human_name and sender_name and human_name != sender_name:
        return f"{human_name} ({sender_name})"
    return shown


def _merge_overlaps(drafts: list[_Draft]) -> list[_Draft]:
    """Windows are contiguous runs of one chat, so two overlap exactly when, in reading order,
    the next one starts at or before the end of the current one."""
    merged: list[_Draft] = []
    by_chat: dict[int, list[_Draft]] = {}
    for draft in drafts:
        by_chat.setdefault(draft.chat_id, []).append(draft)
    for chat_drafts in by_chat.values():
        chat_drafts.sort(key=lambda draft: draft.first())
        current = chat_drafts[0]
        for draft in chat_drafts[1:]:
            if draft.first() <= current.last():
                current.messages.update(draft.messages)
                current.hit_ranks.update(draft.hit_ranks)
            else:
                merged.append(current)
                current = draft
        merged.append(current)
    return merged


def _split_at(draft: _Draft, separate: set[int]) -> list[_Draft]:
    """``draft`` cut into one part per hit of ``separate`` it holds (unchanged with fewer than
    two): each message joins the nearest such hit in reading order, the earlier on a tie;
    other hits stay in the part they fall into."""
    ordered_ids = sorted(draft.messages, key=draft.sort_key)
    leads = [index for index, message_id in enumerate(ordered_ids) if message_id in separate]
    if len(leads) < 2 or not all(ordered_ids[index] in draft.hit_ranks for index in leads):
        return [draft]
    parts = {
        lead: _Draft(
            chat_id=draft.chat_id,
            chat_title=draft.chat_title,
            platform=draft.platform,
            messages={},
            hit_ranks={},
        )
        for lead in leads
    }
    for index, message_id in enumerate(ordered_ids):
        nearest = min(leads, key=lambda lead: (abs(lead - index), lead))
        part = parts[nearest]
        part.messages[message_id] = draft.messages[message_id]
        if message_id in draft.hit_ranks:
            part.hit_ranks[message_id] = draft.hit_ranks[message_id]
    return list(parts.values())


def _finish(draft: _Draft) -> MessageWindow:
    ordered_ids = sorted(draft.messages, key=draft.sort_key)
    hits = sorted(draft.hit_ranks, key=lambda message_id: draft.hit_ranks[message_id])
    hit_set = set(hits)
    messages = tuple(
        WindowMessage(
            message_id=message.message_id,
            sent_at=message.sent_at,
            sender_name=message.sender_name,
            is_from_self=message.is_from_self,
            text=message.text,
            is_hit=message.message_id in hit_set,
        )
        for message in (draft.messages[message_id] for message_id in ordered_ids)
    )
    return MessageWindow(
        chat_id=draft.chat_id,
        chat_title=draft.chat_title,
        platform=draft.platform,
        messages=messages,
        hit_message_ids=tuple(hits),
        best_rank=draft.hit_ranks[hits[0]],
    )
