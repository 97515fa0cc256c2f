"""Memory's conversation hook (declared in ``settings.CONVERSATION_HOOKS``) and its chat
deletion receiver. The hook runs inside the ingest transaction: counters move with the data
and what deleted messages supported goes with them; extraction of plans and loops is
requested once the data commits."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.postgres.aggregates import ArrayAgg
from django.db.models import Min

from claire.accounts.models import User
from claire.celery import task_send
from conversations.hooks import ChatExclusionChange, MessagesChange
from conversations.models import Chat, Message
from memory import jobs, services


class MemoryHook:
    def messages_changed(self, change: MessagesChange) -> Iterable[int]:
        """Marks the user's memory job dirty with the changed messages' chats and earliest
        send time, and returns those chats."""
        user = User.objects.get(pk=change.user_id)
        services.relationship_counters_apply(
            user=user, created_ids=change.created_ids, deleted_ids=change.deleted_ids
        )
        facts = services.facts_touched(
            user=user,
            changed_ids=[*change.created_ids, *change.changed_ids],
            deleted_ids=change.deleted_ids,
        )
        services.memory_forget_messages(user=user, message_ids=change.deleted_ids)
        services.message_claims_refresh(
            user=user,
            message_ids=[*change.created_ids, *change.changed_ids, *change.deleted_ids],
        )
        touched = Message.objects.filter(
            user=user, pk__in=[*change.created_ids, *change.changed_ids, *change.deleted_ids]
        ).aggregate(chat_ids=ArrayAgg("chat_id", distinct=True, default=[]), since=Min("sent_at"))
        chat_ids = set(touched["chat_ids"])
        jobs.memory_job_mark_dirty(
            user_id=user.pk, chat_ids=chat_ids, since=touched["since"], facts=facts
        )
        return chat_ids

    def chat_exclusion_changed(self, change: ChatExclusionChange) -> Iterable[int]:
        return ()

    def schedule(self, *, user_id: int, keys: frozenset[int]) -> None:
        if jobs.memory_job_request(user_id=user_id):
            task_send("memory.run_job", args=[user_id])


hook = MemoryHook()


def on_chat_pre_delete(sender: Any, *, instance: Chat, **kwargs: Any) -> None:
    services.chat_memory_forget(chat=instance)
