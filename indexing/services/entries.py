"""Index entries maintained by conversation changes: a message stored, edited, deleted or its
chat excluded from AI moves its entries (and their counters) at once; ``progress_repair``
rewrites a user's entries and counters from the messages."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, transaction

from indexing.errors import IndexingError
from indexing.models import (
    EntryState,
    IndexProgress,
)
from indexing.services.progress import (
    ProgressDelta,
    ProgressRecount,
    progress_apply,
    progress_recount,
)
from indexing.services.versions import maintained_version_ids
from indexing.sql import (
    sql,
)

logger = logging.getLogger(__name__)

# --- entries: maintained by conversation changes ----------------------------------------------


def entries_insert_eligible(
    *, user_id: int, version_ids: Sequence[int], where_sql: str, params: Sequence[Any]
) -> dict[int, int]:
    """Create pending entries for eligible messages matching ``where_sql`` in each version;
    existing entries are left alone. Returns new entries per version id."""
    with connection.cursor() as cursor:
        cursor.execute(
            sql(
                """
            WITH inserted AS (
                INSERT INTO {entry}
                    (message_id, user_id, chat_id, sent_at, index_version_id, state,
                     content_hash, attempts, error_code, created_at)
                SELECT m.id, m.user_id, m.chat_id, m.sent_at, v.id, %s, m.content_hash, 0, '',
                       now()
                FROM {message} m
                JOIN {chat} c ON c.id = m.chat_id
                CROSS JOIN unnest(%s::bigint[]) AS v(id)
                WHERE m.user_id = %s AND {where_sql} AND {eligible}
                ORDER BY m.id, v.id
                ON CONFLICT (message_id, index_version_id) DO NOTHING
                RETURNING index_version_id
            )
            SELECT index_version_id, count(*) FROM inserted GROUP BY index_version_id
            """,
                where_sql=where_sql,
            ),
            [EntryState.PENDING.value, list(version_ids), user_id, *params],
        )
        return {int(version_id): int(count) for version_id, count in cursor.fetchall()}


def entries_sync_for_messages(
    *,
    user_id: int,
    created_ids: Sequence[int],
    changed_ids: Sequence[int],
    deleted_ids: Sequence[int],
) -> list[int]:
    """Bring entries of the given messages in line with their current state, in every
    maintained version, and move the counters. Caller is inside the ingest transaction
    (which holds the chats' locks). Returns the ids of versions that got pending work."""
    version_ids = maintained_version_ids()
    if not version_ids:
        return []
    deltas: dict[int, ProgressDelta] = defaultdict(ProgressDelta)
    pending_versions: set[int] = set()

    touched = sorted(set(changed_ids) | set(deleted_ids))
    if touched:
        with connection.cursor() as cursor:
            cursor.execute(
                sql("""
                SELECT id, index_version_id, state FROM {entry}
                WHERE message_id = ANY(%s) AND index_version_id = ANY(%s)
                ORDER BY id FOR UPDATE
                """),
                [touched, version_ids],
            )
            locked = {int(row[0]): (int(row[1]), str(row[2])) for row in cursor.fetchall()}
        if locked:
            with connection.cursor() as cursor:
                # Deleted, turned into media, emptied: the entry (and its vector) goes now.
                cursor.execute(
                    sql("""
                    DELETE FROM {entry} e
                    USING {message} m, {chat} c
                    WHERE e.id = ANY(%s) AND m.id = e.message_id AND c.id = m.chat_id
                      AND NOT ({eligible})
                    RETURNING e.id
                    """),
                    [list(locked)],
                )
                for (entry_id,) in cursor.fetchall():
                    version_id, state = locked.pop(int(entry_id))
                    deltas[version_id].count_removed(state)
            if locked:
                # New content: the stale vector must not answer for text that is gone.
                with connection.cursor() as cursor:
                    cursor.execute(
                        sql("""
                        UPDATE {entry} e
                        SET state = %s, content_hash = m.content_hash, embedding = NULL,
                            attempts = 0, error_code = '', embedded_at = NULL
                        FROM {message} m
                        WHERE e.id = ANY(%s) AND m.id = e.message_id
                          AND e.content_hash <> m.content_hash
                        RETURNING e.id
                        """),
                        [EntryState.PENDING.value, list(locked)],
                    )
                    for (entry_id,) in cursor.fetchall():
                        version_id, state = locked[int(entry_id)]
                        deltas[version_id].count_left(state)
                        pending_versions.add(version_id)

    candidates = sorted(set(created_ids) | set(changed_ids))
    if candidates:
        inserted = entries_insert_eligible(
            user_id=user_id,
            version_ids=version_ids,
            where_sql="m.id = ANY(%s)",
            params=[candidates],
        )
        for version_id, count in inserted.items():
            deltas[version_id].eligible += count
            pending_versions.add(version_id)

    progress_apply(user_id=user_id, deltas=deltas)
    return sorted(pending_versions)


def entries_sync_for_chat_exclusion(*, user_id: int, chat_id: int, is_excluded: bool) -> list[int]:
    """Excluding a chat removes its entries (and vectors) from every maintained version;
    including it again creates pending entries for its eligible messages. Caller is inside
    the transaction that flipped the chat (and holds its lock). Returns versions with work."""
    version_ids = maintained_version_ids()
    if not version_ids:
        return []
    if is_excluded:
        with connection.cursor() as cursor:
            cursor.execute(
                sql("""
                WITH locked AS (
                    SELECT id, index_version_id, state FROM {entry}
                    WHERE chat_id = %s AND user_id = %s AND index_version_id = ANY(%s)
                    ORDER BY id FOR UPDATE
                ), removed AS (
                    DELETE FROM {entry} e USING locked
                    WHERE e.id = locked.id
                    RETURNING locked.index_version_id, locked.state
                )
                SELECT index_version_id, state, count(*) FROM removed
                GROUP BY index_version_id, state
                """),
                [chat_id, user_id, version_ids],
            )
            rows = [(int(v), str(s), int(n)) for v, s, n in cursor.fetchall()]
        deltas = deltas_bulk(rows, removed=True)
        progress_apply(user_id=user_id, deltas=deltas)
        return []
    inserted = entries_insert_eligible(
        user_id=user_id, version_ids=version_ids, where_sql="m.chat_id = %s", params=[chat_id]
    )
    progress_apply(
        user_id=user_id,
        deltas={
            version_id: ProgressDelta(eligible=count) for version_id, count in inserted.items()
        },
    )
    return sorted(inserted)


def deltas_bulk(rows: Iterable[tuple[int, str, int]], *, removed: bool) -> dict[int, ProgressDelta]:
    """Rows are (version id, former state, how many entries)."""
    deltas: dict[int, ProgressDelta] = defaultdict(ProgressDelta)
    for version_id, state, count in rows:
        delta = deltas[version_id]
        if removed:
            delta.eligible -= count
        if state == EntryState.EMBEDDED:
            delta.embedded -= count
        elif state == EntryState.FAILED:
            delta.failed -= count
    return deltas


def progress_repair(*, user_id: int, index_version_id: int) -> ProgressRecount:
    """Offline repair of one user's index in one version: entries of ineligible messages go,
    stale ones return to pending, missing ones (once seeded) are created, and the counters are
    set to a recount of the entries. Ingestion for the user waits meanwhile (chats locked);
    jobs keep running and their later counter moves apply on top of the recount."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                sql("SELECT id FROM {chat} WHERE user_id = %s ORDER BY id FOR SHARE"),
                [user_id],
            )
            if index_version_id not in maintained_version_ids():
                raise IndexingError("version_not_maintained", "The version is not maintained.")
            cursor.execute(
                sql("""
                WITH locked AS (
                    SELECT e.id FROM {entry} e
                    JOIN {message} m ON m.id = e.message_id
                    JOIN {chat} c ON c.id = m.chat_id
                    WHERE e.user_id = %s AND e.index_version_id = %s
                      AND NOT ({eligible})
                    ORDER BY e.id FOR UPDATE OF e
                )
                DELETE FROM {entry} e USING locked WHERE e.id = locked.id
                """),
                [user_id, index_version_id],
            )
            cursor.execute(
                sql("""
                WITH locked AS (
                    SELECT e.id FROM {entry} e
                    JOIN {message} m ON m.id = e.message_id
                    WHERE e.user_id = %s AND e.index_version_id = %s AND e.state <> %s
                      AND e.content_hash <> m.content_hash
                    ORDER BY e.id FOR UPDATE OF e
                )
                UPDATE {entry} e
                SET state = %s, content_hash = m.content_hash, embedding = NULL, attempts = 0,
                    error_code = '', embedded_at = NULL
                FROM locked, {message} m
                WHERE e.id = locked.id AND m.id = e.message_id
                """),
                [
                    user_id,
                    index_version_id,
                    EntryState.PENDING.value,
                    EntryState.PENDING.value,
                ],
            )
        progress = IndexProgress.objects.filter(
            user_id=user_id, index_version_id=index_version_id
        ).first()
        if progress is not None and progress.is_seeded:
            entries_insert_eligible(
                user_id=user_id,
                version_ids=[index_version_id],
                where_sql="TRUE",
                params=[],
            )
        IndexProgress.objects.get_or_create(user_id=user_id, index_version_id=index_version_id)
        with connection.cursor() as cursor:
            # The progress row is locked first: writers that have not moved it yet wait and
            # then apply their own deltas on top of this recount.
            cursor.execute(
                sql("""
                SELECT id FROM {progress}
                WHERE user_id = %s AND index_version_id = %s FOR UPDATE
                """),
                [user_id, index_version_id],
            )
            cursor.execute(
                sql("""
                UPDATE {progress} p SET
                    eligible = r.entries, embedded = r.embedded, failed = r.failed,
                    updated_at = now()
                FROM (
                    SELECT count(*) AS entries,
                           count(*) FILTER (WHERE state = %s) AS embedded,
                           count(*) FILTER (WHERE state = %s) AS failed
                    FROM {entry} WHERE user_id = %s AND index_version_id = %s
                ) r
                WHERE p.user_id = %s AND p.index_version_id = %s
                """),
                [
                    EntryState.EMBEDDED.value,
                    EntryState.FAILED.value,
                    user_id,
                    index_version_id,
                    user_id,
                    index_version_id,
                ],
            )
    return progress_recount(user_id=user_id, index_version_id=index_version_id)
