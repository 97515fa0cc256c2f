"""Receivers of conversation signals. They run inside the writing transaction: entries and
counters change with the data, and the per-user job is requested once the data commits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from indexing import services
from indexing.dispatch import index_jobs_enqueue_on_commit


def on_messages_changed(
    sender: Any,
    *,
    user_id: int,
    created_ids: Sequence[int] = (),
    changed_ids: Sequence[int] = (),
    deleted_ids: Sequence[int] = (),
    **kwargs: Any,
) -> None:
    version_ids = services.entries_sync_for_messages(
        user_id=user_id, created_ids=created_ids, changed_ids=changed_ids, deleted_ids=deleted_ids
    )
    if version_ids:
        index_jobs_enqueue_on_commit(user_id=user_id, version_ids=version_ids)


def on_chat_ai_exclusion_changed(
    sender: Any, *, user_id: int, chat_id: int, is_excluded: bool, **kwargs: Any
) -> None:
    version_ids = services.entries_sync_for_chat_exclusion(
        user_id=user_id, chat_id=chat_id, is_excluded=is_excluded
    )
    if version_ids:
        index_jobs_enqueue_on_commit(user_id=user_id, version_ids=version_ids)


def on_user_deleted(sender: Any, *, instance: Any, **kwargs: Any) -> None:
    """A deleted user's own indexes go once the deletion commits (then concurrently, without
    locking writers out of the tables)."""
    user_id = int(instance.pk)
    transaction.on_commit(lambda: services.user_indexes_drop(user_id=user_id))
