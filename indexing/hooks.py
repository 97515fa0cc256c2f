"""Indexing's conversation hook (declared in ``settings.CONVERSATION_HOOKS``): entries and
counters change with the data, inside the writing transaction; the per-user jobs are
requested once the data commits."""

from __future__ import annotations

from collections.abc import Iterable

from conversations.hooks import ChatExclusionChange, MessagesChange
from indexing import dispatch, services


class IndexingHook:
    def messages_changed(self, change: MessagesChange) -> Iterable[int]:
        """The index versions whose entries changed."""
        return services.entries_sync_for_messages(
            user_id=change.user_id,
            created_ids=change.created_ids,
            changed_ids=change.changed_ids,
            deleted_ids=change.deleted_ids,
        )

    def chat_exclusion_changed(self, change: ChatExclusionChange) -> Iterable[int]:
        return services.entries_sync_for_chat_exclusion(
            user_id=change.user_id, chat_id=change.chat_id, is_excluded=change.is_excluded
        )

    def schedule(self, *, user_id: int, keys: frozenset[int]) -> None:
        dispatch.index_jobs_enqueue(user_id=user_id, version_ids=sorted(keys))


hook = IndexingHook()
