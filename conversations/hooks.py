"""What other apps do when conversation data changes: one declared, ordered list of hooks
(``settings.CONVERSATION_HOOKS``) that the conversation services call explicitly.

A hook has two steps:

* ``messages_changed(change)`` and ``chat_exclusion_changed(change)`` run inside the writing
  transaction, so what they record (index entries and counters, relationship counters) commits
  or rolls back with the data. Each returns the keys of the work it wants scheduled (index
  version ids, chat ids), or nothing.
* ``schedule(user_id=..., keys=...)`` runs once the data commits, with every key the
  transaction's writes returned for that user: however many ingest calls one transaction
  makes, each hook schedules its work once per user (the first of the transaction's on-commit
  callbacks takes all the keys; the others find none left). A failure there is logged and
  does not undo the committed data. Keys of a write that rolled back stay pending until the
  same user's next committed write in this thread, which schedules them too: scheduling is
  idempotent (jobs and refreshes re-read the committed data), so that costs one extra run at
  most.

Conversations sit below indexing and memory, so the list names the hooks by dotted path and
this module imports neither.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string


@dataclass(frozen=True)
class MessagesChange:
    """Message primary keys one write created, changed (text) and deleted, for one user."""

    user_id: int
    created_ids: tuple[int, ...] = ()
    changed_ids: tuple[int, ...] = ()
    deleted_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class ChatExclusionChange:
    user_id: int
    chat_id: int
    is_excluded: bool


class ConversationHook(Protocol):
    def messages_changed(self, change: MessagesChange) -> Iterable[int]: ...

    def chat_exclusion_changed(self, change: ChatExclusionChange) -> Iterable[int]: ...

    def schedule(self, *, user_id: int, keys: frozenset[int]) -> None: ...


class _PendingKeys(threading.local):
    """Keys waiting for their transaction's commit, per (hook, user), in this thread (a
    connection, and so a transaction, belongs to one thread)."""

    def __init__(self) -> None:
        self.by_hook_and_user: dict[tuple[str, int], set[int]] = {}


_pending = _PendingKeys()


@dataclass(frozen=True)
class HookSchedule:
    """The on-commit callback of one hook for one user."""

    path: str
    hook: ConversationHook
    user_id: int

    def __call__(self) -> None:
        keys = _pending.by_hook_and_user.pop((self.path, self.user_id), None)
        if keys:
            self.hook.schedule(user_id=self.user_id, keys=frozenset(keys))


def _hooks_run(*, user_id: int, step: Callable[[ConversationHook], Iterable[int]]) -> None:
    for path in settings.CONVERSATION_HOOKS:
        hook: ConversationHook = import_string(path)
        keys = set(step(hook))
        if not keys:
            continue
        _pending.by_hook_and_user.setdefault((path, user_id), set()).update(keys)
        transaction.on_commit(HookSchedule(path=path, hook=hook, user_id=user_id), robust=True)


def messages_changed_run(change: MessagesChange) -> None:
    """Every hook's step for changed messages; call inside the writing transaction."""
    _hooks_run(user_id=change.user_id, step=lambda hook: hook.messages_changed(change))


def chat_exclusion_changed_run(change: ChatExclusionChange) -> None:
    """Every hook's step for a chat's AI switch; call inside the writing transaction."""
    _hooks_run(user_id=change.user_id, step=lambda hook: hook.chat_exclusion_changed(change))
