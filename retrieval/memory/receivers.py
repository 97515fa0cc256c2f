"""Memory's conversation hook (declared in ``settings.CONVERSATION_HOOKS``) and its chat
deletion receiver. The hook runs inside the ingest transaction: counters move with the data
and what deleted messages supported goes with them; extraction of plans and loops is
requested once the data commits."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from claire.accounts.models import User
from claire.celery import task_send
from conversations.hooks import ChatExclusionChange, MessagesChange
from conversations.models import Chat, Message
from retrieval.memory import services


class MemoryHook:
    def messages_changed(self, change: MessagesChange) -> Iterable[int]:
        """The chats whose plans and loops need a refresh."""
        user = User.objects.get(pk=change.user_id)
        services.relationship_counters_apply(
            user=user, created_ids=change.created_ids, deleted_ids=change.deleted_ids
        )
        services.memory_forget_messages(user=user, message_ids=change.deleted_ids)
        return set(
            Message.objects.filter(
                user=user,
                pk__in=[*change.created_ids, *change.changed_ids, *change.deleted_ids],
            ).values_list("chat_id", flat=True)
        )

    def chat_exclusion_changed(self, change: ChatExclusionChange) -> Iterable[int]:
        return ()

    def schedule(self, *, user_id: int, keys: frozenset[int]) -> None:
        task_send("memory.refresh", args=[user_id, sorted(keys)])


hook = MemoryHook()


def on_chat_pre_delete(sender: Any, *, instance: Chat, **kwargs: Any) -> None:
    services.chat_memory_forget(chat=instance)
