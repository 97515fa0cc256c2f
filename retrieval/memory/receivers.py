"""Receivers of conversation signals. They run inside the ingest transaction: counters move
with the data and what deleted messages supported goes with them; extraction of plans and
loops is requested once the data commits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from claire.accounts.models import User
from conversations.models import Chat, Message
from retrieval.memory import services
from retrieval.memory.tasks import memory_refresh


def on_messages_changed(
    sender: Any,
    *,
    user_id: int,
    created_ids: Sequence[int] = (),
    changed_ids: Sequence[int] = (),
    deleted_ids: Sequence[int] = (),
    **kwargs: Any,
) -> None:
    user = User.objects.get(pk=user_id)
    services.relationship_counters_apply(
        user=user, created_ids=created_ids, deleted_ids=deleted_ids
    )
    services.memory_forget_messages(user=user, message_ids=deleted_ids)
    chat_ids = sorted(
        set(
            Message.objects.filter(
                user=user, pk__in=[*created_ids, *changed_ids, *deleted_ids]
            ).values_list("chat_id", flat=True)
        )
    )
    if chat_ids:
        _refresh_after_commit(user_id=user_id, chat_ids=chat_ids)


class _PendingRefresh:
    """Chats to refresh once the current transaction commits, per user: one task per user and
    transaction, however many ingest calls the transaction made."""

    def __init__(self) -> None:
        self.chat_ids: dict[int, set[int]] = {}

    def __call__(self) -> None:
        for user_id, chat_ids in sorted(self.chat_ids.items()):
            memory_refresh.delay(user_id, sorted(chat_ids))


def _refresh_after_commit(*, user_id: int, chat_ids: list[int]) -> None:
    connection = transaction.get_connection()
    pending = next(
        (
            callback
            for _savepoints, callback, _robust in connection.run_on_commit
            if isinstance(callback, _PendingRefresh)
        ),
        None,
    )
    if pending is not None:
        pending.chat_ids.setdefault(user_id, set()).update(chat_ids)
        return
    # Not registered yet in this transaction (or its registration was rolled back).
    pending = _PendingRefresh()
    pending.chat_ids[user_id] = set(chat_ids)
    transaction.on_commit(pending)


def on_chat_pre_delete(sender: Any, *, instance: Chat, **kwargs: Any) -> None:
    services.chat_memory_forget(chat=instance)
