"""What a claimed job writes: the next batch of entries seeded, embedding results stored (with
their counters), and failed embeddings queued again."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from indexing.errors import IndexingError
from indexing.models import (
    EntryState,
    IndexJob,
    JobPhase,
)
from indexing.services.entries import entries_insert_eligible
from indexing.services.jobs import job_touch
from indexing.services.progress import ProgressDelta, progress_apply
from indexing.services.versions import maintained_version_ids
from indexing.sql import (
    sql,
)
from indexing.vector_copy import STAGE_TABLE, vectors_stage

logger = logging.getLogger(__name__)

# --- entries: written by jobs -----------------------------------------------------------------


def entries_seed_batch(*, job: IndexJob, worker_id: str, batch_size: int) -> int | None:
    """Create the entries of the next ``batch_size`` messages (in sent order) that existed
    before the job's version; returns how many were new, or None once seeding is complete
    (then the user's progress is marked seeded and the job moves to embedding).

    Messages ingested after the version was created got their entries from ingestion, so a
    keyset walk over (sent_at, id) misses nothing; the chats are share-locked so that a delete
    or exclusion cannot slip in between reading a message and creating its entry.
    """
    version_id = job.index_version_id
    with transaction.atomic():
        with connection.cursor() as cursor:
            keyset_sql = ""
            keyset_params: list[Any] = []
            if job.cursor_sent_at is not None:
                keyset_sql = "AND (m.sent_at, m.id) > (%s, %s)"
                keyset_params = [job.cursor_sent_at, job.cursor]
            cursor.execute(
                sql(
                    """
                SELECT m.id, m.chat_id, m.sent_at FROM {message} m
                WHERE m.user_id = %s AND m.deleted_at IS NULL {keyset_sql}
                ORDER BY m.sent_at, m.id
                LIMIT %s
                """,
                    keyset_sql=keyset_sql,
                ),
                [job.user_id, *keyset_params, batch_size],
            )
            candidates = cursor.fetchall()
            chat_ids = sorted({int(row[1]) for row in candidates})
            if chat_ids:
                # Same order as ingestion: chats, then the version-set lock, then entries.
                cursor.execute(
                    sql("SELECT id FROM {chat} WHERE id = ANY(%s) ORDER BY id FOR SHARE"),
                    [chat_ids],
                )
        if version_id not in maintained_version_ids():
            raise IndexingError("version_not_maintained", "The index version is not maintained.")
        if not candidates:
            progress_apply(user_id=job.user_id, deltas={}, mark_seeded=[version_id])
            job_touch(
                job=job, worker_id=worker_id, phase=JobPhase.EMBED, cursor=0, cursor_sent_at=None
            )
            job.phase, job.cursor, job.cursor_sent_at = JobPhase.EMBED, 0, None
            return None
        inserted = entries_insert_eligible(
            user_id=job.user_id,
            version_ids=[version_id],
            where_sql="m.id = ANY(%s)",
            params=[[int(row[0]) for row in candidates]],
        )
        count = inserted.get(version_id, 0)
        progress_apply(user_id=job.user_id, deltas={version_id: ProgressDelta(eligible=count)})
        last_id, last_sent_at = int(candidates[-1][0]), candidates[-1][2]
        job_touch(
            job=job,
            worker_id=worker_id,
            cursor=last_id,
            cursor_sent_at=last_sent_at,
            seeded_count=job.seeded_count + count,
        )
        job.cursor, job.cursor_sent_at = last_id, last_sent_at
        job.seeded_count += count
        return count


@dataclass(frozen=True)
class EntryOutcome:
    """What the provider did with one pending entry. ``expected_hash`` is the entry's hash when
    it was read; the vector (or failure) is written only if the entry still has it."""

    entry_id: int
    message_id: int
    expected_hash: str
    content_hash: str
    vector: Sequence[float] | None = None
    error_code: str = ""
    is_transient: bool = False


@dataclass(frozen=True)
class BatchWrite:
    embedded: int
    failed: int
    retrying: int
    skipped: int


def entries_results_write(
    *, job: IndexJob, worker_id: str, outcomes: Sequence[EntryOutcome], cursor: int
) -> BatchWrite:
    """Write one provider batch: vectors in the order the provider returned them, failures,
    counters and the job's cursor, in one transaction. Entries that changed or vanished since
    they were read are skipped (ingestion already reset or removed them)."""
    version_id = job.index_version_id
    max_attempts = settings.INDEXING_ENTRY_MAX_ATTEMPTS
    with transaction.atomic():
        with connection.cursor() as db:
            # Vectors are derived data: if the database server itself crashed right after this
            # commit, the batch would come back pending, counters and all, and be embedded
            # again. Not waiting for the WAL flush on every batch is worth that.
            db.execute("SET LOCAL synchronous_commit = off")
            db.execute(
                sql("""
                SELECT id, state, content_hash FROM {entry}
                WHERE id = ANY(%s) ORDER BY id FOR UPDATE
                """),
                [[outcome.entry_id for outcome in outcomes]],
            )
            current = {int(row[0]): (str(row[1]), str(row[2])) for row in db.fetchall()}
        live = [
            outcome
            for outcome in outcomes
            if current.get(outcome.entry_id) == (EntryState.PENDING, outcome.expected_hash)
        ]
        skipped = len(outcomes) - len(live)
        vectors = [outcome for outcome in live if outcome.vector is not None]
        permanent = [o for o in live if o.vector is None and not o.is_transient]
        transient = [o for o in live if o.vector is None and o.is_transient]
        failed = 0
        retrying = 0
        with connection.cursor() as db:
            if vectors:
                vectors_stage(
                    [
                        (o.entry_id, o.content_hash, o.vector)
                        for o in vectors
                        if o.vector is not None
                    ]
                )
                db.execute(
                    sql(
                        """
                    UPDATE {entry} e
                    SET state = %s, embedding = s.embedding, content_hash = s.content_hash,
                        attempts = e.attempts + 1, error_code = '', last_attempt_at = now(),
                        embedded_at = now()
                    FROM {stage} s
                    WHERE e.id = s.id AND e.id = ANY(%s)
                    """,
                        stage=STAGE_TABLE,
                    ),
                    # The id list steers the planner to the primary key (the staging table
                    # has no statistics).
                    [EntryState.EMBEDDED.value, [o.entry_id for o in vectors]],
                )
            if permanent:
                db.execute(
                    sql("""
                    UPDATE {entry} e
                    SET state = %s, content_hash = d.content_hash, error_code = d.code,
                        attempts = e.attempts + 1, last_attempt_at = now()
                    FROM unnest(%s::bigint[], %s::text[], %s::text[]) AS d(id, content_hash, code)
                    WHERE e.id = d.id
                    """),
                    [
                        EntryState.FAILED.value,
                        [o.entry_id for o in permanent],
                        [o.content_hash for o in permanent],
                        [o.error_code[:64] for o in permanent],
                    ],
                )
                failed += len(permanent)
            if transient:
                # A transient refusal of one input (the runtime already retried it) counts an
                # attempt; past the ceiling the entry is failed for good and shown as such.
                db.execute(
                    sql("""
                    UPDATE {entry} e
                    SET attempts = e.attempts + 1, last_attempt_at = now(),
                        error_code = CASE WHEN e.attempts + 1 >= %s THEN 'retries_exhausted'
                                          ELSE d.code END,
                        state = CASE WHEN e.attempts + 1 >= %s THEN %s ELSE e.state END
                    FROM unnest(%s::bigint[], %s::text[]) AS d(id, code)
                    WHERE e.id = d.id
                    RETURNING e.state
                    """),
                    [
                        max_attempts,
                        max_attempts,
                        EntryState.FAILED.value,
                        [o.entry_id for o in transient],
                        [o.error_code[:64] for o in transient],
                    ],
                )
                states = [str(row[0]) for row in db.fetchall()]
                newly_failed = sum(1 for state in states if state == EntryState.FAILED)
                failed += newly_failed
                retrying = len(states) - newly_failed
        progress_apply(
            user_id=job.user_id,
            deltas={version_id: ProgressDelta(embedded=len(vectors), failed=failed)},
        )
        job_touch(
            job=job,
            worker_id=worker_id,
            cursor=cursor,
            embedded_count=job.embedded_count + len(vectors),
            failed_count=job.failed_count + failed,
            skipped_count=job.skipped_count + skipped,
        )
    job.cursor = cursor
    job.embedded_count += len(vectors)
    job.failed_count += failed
    job.skipped_count += skipped
    return BatchWrite(embedded=len(vectors), failed=failed, retrying=retrying, skipped=skipped)


@dataclass(frozen=True)
class FailuresRetry:
    retried: int
    jobs_needed: list[tuple[int, int]]  # (user id, version id)


def embedding_failures_retry(*, entry_ids: Sequence[int]) -> FailuresRetry:
    """Put failed entries of maintained versions back to pending (attempts reset)."""
    with transaction.atomic():
        version_ids = maintained_version_ids()
        with connection.cursor() as cursor:
            cursor.execute(
                sql("""
                WITH locked AS (
                    SELECT id FROM {entry}
                    WHERE id = ANY(%s) AND state = %s AND index_version_id = ANY(%s)
                    ORDER BY id FOR UPDATE
                )
                UPDATE {entry} e SET state = %s, attempts = 0, error_code = ''
                FROM locked WHERE e.id = locked.id
                RETURNING e.user_id, e.index_version_id
                """),
                [
                    list(entry_ids),
                    EntryState.FAILED.value,
                    version_ids,
                    EntryState.PENDING.value,
                ],
            )
            rows = [(int(user_id), int(version_id)) for user_id, version_id in cursor.fetchall()]
        by_user: dict[int, dict[int, ProgressDelta]] = defaultdict(
            lambda: defaultdict(ProgressDelta)
        )
        for user_id, version_id in rows:
            by_user[user_id][version_id].failed -= 1
        for user_id in sorted(by_user):
            progress_apply(user_id=user_id, deltas=by_user[user_id])
    return FailuresRetry(retried=len(rows), jobs_needed=sorted(set(rows)))
