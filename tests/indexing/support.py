"""Helpers for indexing tests: ingest through the real conversations service, read state."""

from __future__ import annotations

import datetime as dt

from conversations.identities import IncomingIdentity
from conversations.models import Message
from conversations.services import IncomingChat, IncomingMessage, messages_ingest
from indexing.models import EntryState, IndexProgress, IndexVersion, MessageEmbedding

BASE_TIME = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
SENDER = IncomingIdentity(platform="telegram", platform_user_id="u-ana", display_name="Ana")


def message(
    key: str | int,
    text: str | None = None,
    *,
    minute: int | None = None,
    deleted: bool = False,
    kind: str = "text",
) -> IncomingMessage:
    if minute is None:
        minute = key if isinstance(key, int) else 0
    return IncomingMessage(
        platform_message_id=f"m{key}" if isinstance(key, int) else key,
        sent_at=BASE_TIME + dt.timedelta(minutes=minute),
        text=text if text is not None else f"message number {key} about dinner plans",
        sender=SENDER,
        kind=kind,
        is_deleted=deleted,
    )


def ingest(user, messages: list[IncomingMessage], *, chat: str = "c1"):
    return messages_ingest(
        user=user,
        chats=[IncomingChat(platform="telegram", platform_chat_id=chat, title=f"Chat {chat}")],
        messages=[(chat, item) for item in messages],
    )


def message_row(user, key: str | int, *, chat: str = "c1") -> Message:
    platform_id = f"m{key}" if isinstance(key, int) else key
    return Message.objects.get(
        user=user, chat__platform_chat_id=chat, platform_message_id=platform_id
    )


def counters(user, version: IndexVersion) -> tuple[int, int, int]:
    row = IndexProgress.objects.filter(user=user, index_version=version).first()
    return (row.eligible, row.embedded, row.failed) if row else (0, 0, 0)


def entry_states(user, version: IndexVersion) -> dict[str, str]:
    """Platform message id -> entry state."""
    return dict(
        MessageEmbedding.objects.filter(user=user, index_version=version).values_list(
            "message__platform_message_id", "state"
        )
    )


def recount(user, version: IndexVersion) -> tuple[int, int, int]:
    """Eligible messages (from the conversation data), embedded and failed entries whose hash
    matches their message: what the counters must equal once the version is seeded."""
    eligible = (
        Message.objects.filter(
            user=user, deleted_at__isnull=True, kind="text", chat__is_excluded_from_ai=False
        )
        .exclude(text__regex=r"^\s*$")
        .count()
    )
    entries = MessageEmbedding.objects.filter(user=user, index_version=version)
    embedded = sum(
        1
        for state, entry_hash, message_hash in entries.values_list(
            "state", "content_hash", "message__content_hash"
        )
        if state == EntryState.EMBEDDED and entry_hash == message_hash
    )
    failed = entries.filter(state=EntryState.FAILED).count()
    return eligible, embedded, failed


def run_job(user, version, *, worker_id: str = "test-worker", slice_seconds: float = 0):
    """Open (or reuse) the user's job for ``version`` and run it inline."""
    from indexing import jobs, services
    from indexing.selectors import open_index_job

    services.index_jobs_request(user_id=user.pk, version_ids=[version.pk])
    job = open_index_job(user_id=user.pk, index_version_id=version.pk)
    assert job is not None
    return jobs.index_job_run(job_id=job.pk, worker_id=worker_id, slice_seconds=slice_seconds)
