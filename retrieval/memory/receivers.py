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
        transaction.on_commit(lambda: memory_refresh.delay(user_id, chat_ids))


def on_chat_pre_delete(sender: Any, *, instance: Chat, **kwargs: Any) -> None:
    services.chat_memory_forget(chat=instance)
