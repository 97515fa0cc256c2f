"""Progress counters (``IndexProgress``): moved in the same transaction as the entries they
count, and recounted from the entries to check them (``reconcile_index_progress``)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import F
from django.utils import timezone

from indexing.models import (
    EntryState,
    IndexProgress,
)
from indexing.sql import (
    sql,
)

logger = logging.getLogger(__name__)


@dataclass
class ProgressDelta:
    eligible: int = 0
    embedded: int = 0
    failed: int = 0

    def count_removed(self, state: str) -> None:
        self.eligible -= 1
        self.count_left(state)

    def count_left(self, state: str) -> None:
        """An entry left ``state`` (for pending, which is not a counter, nothing moves)."""
        if state == EntryState.EMBEDDED:
            self.embedded -= 1
        elif state == EntryState.FAILED:
            self.failed -= 1

    @property
    def is_zero(self) -> bool:
        return self.eligible == 0 and self.embedded == 0 and self.failed == 0


# --- progress ---------------------------------------------------------------------------------


def progress_apply(
    *, user_id: int, deltas: Mapping[int, ProgressDelta], mark_seeded: Iterable[int] = ()
) -> None:
    """Move a user's counters by ``deltas`` (keyed by version id). Caller is in the transaction
    that made the entry changes the deltas describe."""
    seeded = set(mark_seeded)
    now = timezone.now()
    for version_id in sorted(set(deltas) | seeded):
        delta = deltas.get(version_id, ProgressDelta())
        if delta.is_zero and version_id not in seeded:
            continue
        changes: dict[str, Any] = {
            "eligible": F("eligible") + delta.eligible,
            "embedded": F("embedded") + delta.embedded,
            "failed": F("failed") + delta.failed,
            "updated_at": now,
        }
        if version_id in seeded:
            changes["is_seeded"] = True
        if IndexProgress.objects.filter(user_id=user_id, index_version_id=version_id).update(
            **changes
        ):
            continue
        # First change for this user and version: insert, or add to the row a concurrent
        # transaction inserted first.
        with connection.cursor() as cursor:
            cursor.execute(
                sql("""
                INSERT INTO {progress}
                    (user_id, index_version_id, eligible, embedded, failed, is_seeded, updated_at)
                VALUES (%s, %s, %s, %s, %s, %s, %s)
                ON CONFLICT (user_id, index_version_id) DO UPDATE SET
                    eligible = {progress}.eligible + EXCLUDED.eligible,
                    embedded = {progress}.embedded + EXCLUDED.embedded,
                    failed = {progress}.failed + EXCLUDED.failed,
                    is_seeded = {progress}.is_seeded OR EXCLUDED.is_seeded,
                    updated_at = EXCLUDED.updated_at
                """),
                [
                    user_id,
                    version_id,
                    delta.eligible,
                    delta.embedded,
                    delta.failed,
                    version_id in seeded,
                    now,
                ],
            )


@dataclass(frozen=True)
class ProgressRecount:
    """An offline recount of one user's index in one version, next to the stored counters."""

    user_id: int
    index_version_id: int
    stored_eligible: int  # 0 when the user has no progress row yet
    stored_embedded: int
    stored_failed: int
    is_seeded: bool
    eligible_messages: int  # eligible messages, counted in the conversation data
    entries: int
    embedded: int
    failed: int
    missing_entries: int  # eligible messages without an entry
    orphan_entries: int  # entries of messages that are no longer eligible
    stale_entries: int  # embedded or failed entries whose hash is not the message's

    @property
    def counters_match(self) -> bool:
        return (self.stored_eligible, self.stored_embedded, self.stored_failed) == (
            self.entries,
            self.embedded,
            self.failed,
        )

    @property
    def is_consistent(self) -> bool:
        return (
            self.counters_match
            and self.orphan_entries == 0
            and self.stale_entries == 0
            and (self.missing_entries == 0 or not self.is_seeded)
        )


def progress_recount(*, user_id: int, index_version_id: int) -> ProgressRecount:
    """Count everything from scratch (a full scan of the user's messages: offline only)."""
    with connection.cursor() as cursor:
        cursor.execute(
            sql("""
            SELECT
                count(*) FILTER (WHERE {eligible}),
                count(e.id),
                count(*) FILTER (WHERE e.state = %s),
                count(*) FILTER (WHERE e.state = %s),
                count(*) FILTER (WHERE e.id IS NULL AND {eligible}),
                count(*) FILTER (WHERE e.id IS NOT NULL AND NOT ({eligible})),
                count(*) FILTER (WHERE e.state <> %s AND e.content_hash <> m.content_hash)
            FROM {message} m
            JOIN {chat} c ON c.id = m.chat_id
            LEFT JOIN {entry} e ON e.message_id = m.id AND e.index_version_id = %s
            WHERE m.user_id = %s
            """),
            [
                EntryState.EMBEDDED.value,
                EntryState.FAILED.value,
                EntryState.PENDING.value,
                index_version_id,
                user_id,
            ],
        )
        row = cursor.fetchone()
    assert row is not None
    stored = IndexProgress.objects.filter(
        user_id=user_id, index_version_id=index_version_id
    ).first()
    return ProgressRecount(
        user_id=user_id,
        index_version_id=index_version_id,
        stored_eligible=stored.eligible if stored else 0,
        stored_embedded=stored.embedded if stored else 0,
        stored_failed=stored.failed if stored else 0,
        is_seeded=stored.is_seeded if stored else False,
        eligible_messages=int(row[0]),
        entries=int(row[1]),
        embedded=int(row[2]),
        failed=int(row[3]),
        missing_entries=int(row[4]),
        orphan_entries=int(row[5]),
        stale_entries=int(row[6]),
    )
