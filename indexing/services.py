"""Writes of the indexing app: index entries and progress counters, jobs, versions, cutover.

Every function that changes entries moves the ``IndexProgress`` counters in the same
transaction, so the counters are always equal to a recount of the entries
(``reconcile_index_progress`` checks exactly that). Locks are taken in one order everywhere:
chats, then entries (by primary key), then progress rows (by version), then the job row.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone

from claire.accounts.models import User
from claire.db.leases import (
    WORKER_LOST,
    Claim,
    LeaseLost,
    lease_check,
    lease_claim,
    lease_renew,
)
from indexing.models import (
    MAINTAINED_VERSION_STATES,
    OPEN_JOB_STATES,
    EntryState,
    IndexJob,
    IndexProgress,
    IndexVersion,
    IndexVersionState,
    JobPhase,
    JobState,
)
from indexing.search_indexes import (
    search_index_drop,
    search_index_ensure,
    user_search_index_drop,
    user_search_index_ensure,
    user_text_index_drop,
    user_text_index_ensure,
)
from indexing.selectors import failed_job_errors
from indexing.sql import (
    SEARCH_INDEX_BUILD_LOCK_NAMESPACE,
    USER_SEARCH_INDEX_BUILD_LOCK_NAMESPACE,
    VERSION_SET_LOCK_KEY,
    sql,
)
from indexing.vector_copy import STAGE_TABLE, vectors_stage

logger = logging.getLogger(__name__)


class IndexingError(Exception):
    """A refused indexing operation; ``code`` is stable and safe to show."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


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


# --- version set ------------------------------------------------------------------------------


def _maintained_version_ids() -> list[int]:
    """The building and active versions. Caller is in a transaction; the shared lock held
    until it ends keeps version changes from interleaving with its entry changes."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock_shared(%s)", [VERSION_SET_LOCK_KEY])
    return list(
        IndexVersion.objects.filter(state__in=MAINTAINED_VERSION_STATES)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _version_set_lock_exclusive() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [VERSION_SET_LOCK_KEY])


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


# --- entries: maintained by conversation changes ----------------------------------------------


def _entries_insert_eligible(
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
    version_ids = _maintained_version_ids()
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
        inserted = _entries_insert_eligible(
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
    version_ids = _maintained_version_ids()
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
        deltas = _deltas_bulk(rows, removed=True)
        progress_apply(user_id=user_id, deltas=deltas)
        return []
    inserted = _entries_insert_eligible(
        user_id=user_id, version_ids=version_ids, where_sql="m.chat_id = %s", params=[chat_id]
    )
    progress_apply(
        user_id=user_id,
        deltas={
            version_id: ProgressDelta(eligible=count) for version_id, count in inserted.items()
        },
    )
    return sorted(inserted)


def _deltas_bulk(
    rows: Iterable[tuple[int, str, int]], *, removed: bool
) -> dict[int, ProgressDelta]:
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


# --- entries: written by jobs -----------------------------------------------------------------


def _job_lease() -> timedelta:
    return timedelta(seconds=settings.INDEXING_JOB_LEASE_SECONDS)


def _job_touch(*, job: IndexJob, worker_id: str, **changes: object) -> None:
    """Renew the lease and apply ``changes`` to the job row, or raise ``LeaseLost``."""
    lease_renew(IndexJob.objects, job=job, worker_id=worker_id, lease=_job_lease(), **changes)


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
        if version_id not in _maintained_version_ids():
            raise IndexingError("version_not_maintained", "The index version is not maintained.")
        if not candidates:
            progress_apply(user_id=job.user_id, deltas={}, mark_seeded=[version_id])
            _job_touch(
                job=job, worker_id=worker_id, phase=JobPhase.EMBED, cursor=0, cursor_sent_at=None
            )
            job.phase, job.cursor, job.cursor_sent_at = JobPhase.EMBED, 0, None
            return None
        inserted = _entries_insert_eligible(
            user_id=job.user_id,
            version_ids=[version_id],
            where_sql="m.id = ANY(%s)",
            params=[[int(row[0]) for row in candidates]],
        )
        count = inserted.get(version_id, 0)
        progress_apply(user_id=job.user_id, deltas={version_id: ProgressDelta(eligible=count)})
        last_id, last_sent_at = int(candidates[-1][0]), candidates[-1][2]
        _job_touch(
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
        _job_touch(
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
        version_ids = _maintained_version_ids()
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


# --- jobs -------------------------------------------------------------------------------------


def _queued_grace() -> timedelta:
    # A queued job's task should start within this; longer means its message was lost.
    return timedelta(seconds=settings.INDEXING_JOB_QUEUED_GRACE_SECONDS)


def index_jobs_request(*, user_id: int, version_ids: Iterable[int]) -> list[int]:
    """Make sure each (user, version) has an open job and return the ids of jobs whose task
    must be sent: new jobs and stranded ones. A job already open is told to look again
    before finishing, so no extra task is sent for it. Runs outside the ingest transaction."""
    to_send: list[int] = []
    now = timezone.now()
    for version_id in sorted(set(version_ids)):
        open_jobs = IndexJob.objects.filter(
            user_id=user_id, index_version_id=version_id, state__in=OPEN_JOB_STATES
        )
        if open_jobs.update(rerun_requested=True):
            stranded = open_jobs.filter(lease_expires_at__lt=now).values_list("pk", flat=True)
            to_send.extend(index_jobs_mark_sent(job_ids=list(stranded)))
            continue
        try:
            with transaction.atomic():
                job = IndexJob.objects.create(
                    user_id=user_id,
                    index_version_id=version_id,
                    lease_expires_at=now + _queued_grace(),
                )
        except IntegrityError:
            # Created concurrently by another request; that job has not started yet or will
            # rerun, either way it sees this work.
            open_jobs.update(rerun_requested=True)
            continue
        to_send.append(job.pk)
    return to_send


def index_jobs_mark_sent(*, job_ids: Sequence[int]) -> list[int]:
    """Stranded jobs (their worker died, or their queued message was lost) go back to queued
    with a fresh grace period; returns the ids whose task must be sent again."""
    if not job_ids:
        return []
    now = timezone.now()
    recovered: list[int] = []
    for job_id in job_ids:
        with transaction.atomic():
            job = (
                IndexJob.objects.select_for_update()
                .filter(pk=job_id, state__in=OPEN_JOB_STATES, lease_expires_at__lt=now)
                .first()
            )
            if job is None:
                continue
            if job.state == JobState.RUNNING:
                job.attempts += 1
                job.last_error = WORKER_LOST
            job.state = JobState.QUEUED
            job.lease_owner = ""
            job.lease_expires_at = now + _queued_grace()
            job.save(
                update_fields=[
                    "state",
                    "lease_owner",
                    "lease_expires_at",
                    "attempts",
                    "last_error",
                    "updated_at",
                ]
            )
            recovered.append(job.pk)
    if recovered:
        logger.info("indexing.jobs_recovered", extra={"job_ids": recovered})
    return recovered


def index_jobs_recover() -> list[int]:
    """Every open job whose lease expired: returns the ids whose task must be sent again."""
    stranded = IndexJob.objects.filter(
        state__in=OPEN_JOB_STATES, lease_expires_at__lt=timezone.now()
    ).values_list("pk", flat=True)
    return index_jobs_mark_sent(job_ids=list(stranded))


def index_job_claim(*, job_id: int, worker_id: str) -> IndexJob | None:
    """Take the job for ``worker_id``, or None when it is finished, gone, or held by a live
    worker. Claiming a running job whose lease expired resumes it from its cursor."""
    now = timezone.now()
    with transaction.atomic():
        job = (
            IndexJob.objects.select_for_update()
            .select_related("index_version")
            .filter(pk=job_id)
            .first()
        )
        if job is None or job.state not in OPEN_JOB_STATES:
            return None
        claim = lease_claim(
            job,
            worker_id=worker_id,
            lease=_job_lease(),
            max_attempts=settings.INDEXING_JOB_MAX_ATTEMPTS,
            now=now,
        )
        if claim is Claim.HELD:
            return None
        if claim is Claim.GAVE_UP:
            job.save()
            logger.warning(
                "indexing.job_failed",
                extra={"job_id": job.pk, "user_id": job.user_id, "error_code": job.last_error},
            )
            return None
        job.started_at = job.started_at or now
        job.save()
    logger.info(
        "indexing.job_claimed",
        extra={"job_id": job.pk, "user_id": job.user_id, "phase": job.phase, "cursor": job.cursor},
    )
    return job


def index_job_heartbeat(*, job: IndexJob, worker_id: str) -> None:
    _job_touch(job=job, worker_id=worker_id)


def index_job_finish(*, job: IndexJob, worker_id: str) -> bool:
    """Mark the job done, unless work arrived while it ran: then clear the request, rewind the
    cursor and return False so the caller makes another pass."""
    with transaction.atomic():
        locked = IndexJob.objects.select_for_update().get(pk=job.pk)
        lease_check(locked, worker_id=worker_id)
        now = timezone.now()
        if locked.rerun_requested:
            locked.rerun_requested = False
            locked.cursor = 0
            locked.lease_expires_at = now + _job_lease()
            locked.save(
                update_fields=["rerun_requested", "cursor", "lease_expires_at", "updated_at"]
            )
            job.cursor = 0
            return False
        locked.state = JobState.DONE
        locked.finished_at = now
        locked.lease_owner = ""
        locked.lease_expires_at = None
        locked.last_error = ""
        locked.save()
    job.state = JobState.DONE
    logger.info(
        "indexing.job_done",
        extra={
            "job_id": job.pk,
            "user_id": job.user_id,
            "index_version_id": job.index_version_id,
            "embedded": locked.embedded_count,
            "failed": locked.failed_count,
            "skipped": locked.skipped_count,
        },
    )
    return True


def index_job_release(
    *, job: IndexJob, worker_id: str, error_code: str = "", count_attempt: bool = False
) -> IndexJob:
    """Give the job back to the queue (time slice used up, or a transient error). Its task is
    sent again by the caller."""
    with transaction.atomic():
        locked = IndexJob.objects.select_for_update().get(pk=job.pk)
        lease_check(locked, worker_id=worker_id)
        locked.state = JobState.QUEUED
        locked.lease_owner = ""
        locked.lease_expires_at = timezone.now() + _queued_grace()
        if count_attempt:
            locked.attempts += 1
        if error_code:
            locked.last_error = error_code
        locked.save()
    return locked


def index_job_fail(*, job: IndexJob, worker_id: str | None, error_code: str) -> None:
    """Stop the job for good; its pending entries stay pending (and are shown as such) until a
    later ingest, a retry from the admin or a backfill opens a new job."""
    with transaction.atomic():
        locked = IndexJob.objects.select_for_update().get(pk=job.pk)
        if locked.state not in OPEN_JOB_STATES:
            return
        if worker_id is not None and locked.lease_owner not in ("", worker_id):
            raise LeaseLost(f"job {job.pk} is no longer held by {worker_id}")
        locked.state = JobState.FAILED
        locked.last_error = error_code[:255]
        locked.finished_at = timezone.now()
        locked.lease_owner = ""
        locked.lease_expires_at = None
        locked.save()
    logger.warning(
        "indexing.job_failed",
        extra={"job_id": job.pk, "user_id": job.user_id, "error_code": error_code},
    )


def index_jobs_close_for_version(*, index_version: IndexVersion, reason: str) -> int:
    """Open jobs of a version that stopped being maintained end as done; their worker notices
    at its next write."""
    return IndexJob.objects.filter(index_version=index_version, state__in=OPEN_JOB_STATES).update(
        state=JobState.DONE,
        last_error=reason,
        finished_at=timezone.now(),
        lease_owner="",
        lease_expires_at=None,
    )


# --- versions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelIdentity:
    provider: str
    model: str
    dimensions: int


def index_version_create(*, profile: str, identity: ModelIdentity) -> IndexVersion:
    """A new version for ``identity``. It builds in parallel with the active one; the first
    version ever becomes active at once, since nothing else could answer meanwhile. Refused
    when a maintained version already has this identity."""
    with transaction.atomic():
        _version_set_lock_exclusive()
        maintained = IndexVersion.objects.filter(state__in=MAINTAINED_VERSION_STATES)
        duplicate = maintained.filter(
            provider=identity.provider, model=identity.model, dimensions=identity.dimensions
        ).first()
        if duplicate is not None:
            raise IndexingError(
                "version_exists",
                f"Version {duplicate.version} already indexes {identity.provider}/"
                f"{identity.model} at {identity.dimensions} dimensions.",
            )
        last = IndexVersion.objects.order_by("-version").values_list("version", flat=True).first()
        has_active = IndexVersion.objects.filter(state=IndexVersionState.ACTIVE).exists()
        now = timezone.now()
        version = IndexVersion.objects.create(
            version=(last or 0) + 1,
            profile=profile,
            provider=identity.provider,
            model=identity.model,
            dimensions=identity.dimensions,
            state=IndexVersionState.BUILDING if has_active else IndexVersionState.ACTIVE,
            activated_at=None if has_active else now,
        )
    logger.info(
        "indexing.version_created",
        extra={
            "index_version": version.version,
            "provider": version.provider,
            "model": version.model,
            "dimensions": version.dimensions,
            "state": version.state,
        },
    )
    return version


@dataclass(frozen=True)
class CutoverBlocker:
    user_id: int
    eligible: int
    embedded: int
    failed: int
    is_seeded: bool
    # Why nothing moves, when the user's latest job for the version failed.
    job_error: str = ""


def cutover_blockers(*, index_version: IndexVersion, limit: int = 100) -> list[CutoverBlocker]:
    """Users whose index in ``index_version`` is not complete: every user with content in the
    active version, and every user with any progress in the new one, must be seeded with no
    pending entries. Reads one progress row per user (an offline check, not a request path)."""
    active = IndexVersion.objects.filter(state=IndexVersionState.ACTIVE).first()
    new_rows = {
        row.user_id: row for row in IndexProgress.objects.filter(index_version=index_version)
    }
    required_users = set(new_rows)
    if active is not None:
        required_users |= set(
            IndexProgress.objects.filter(index_version=active, eligible__gt=0).values_list(
                "user_id", flat=True
            )
        )
    blockers: list[CutoverBlocker] = []
    errors = failed_job_errors(user_ids=sorted(required_users), index_versions=[index_version])
    for user_id in sorted(required_users):
        row = new_rows.get(user_id)
        if row is not None and row.is_complete:
            continue
        blockers.append(
            CutoverBlocker(
                user_id=user_id,
                eligible=row.eligible if row else 0,
                embedded=row.embedded if row else 0,
                failed=row.failed if row else 0,
                is_seeded=row.is_seeded if row else False,
                job_error=errors.get((user_id, index_version.pk), ""),
            )
        )
        if len(blockers) >= limit:
            break
    return blockers


@contextmanager
def _advisory_lock_if_free(namespace: int, key: int) -> Iterator[bool]:
    """Hold the session advisory lock (``namespace``, ``key``) for the block when nobody else
    holds it; yields whether it was taken (the block decides what to do when it was not)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [namespace, key])
        row = cursor.fetchone()
        taken = row is not None and bool(row[0])
        try:
            yield taken
        finally:
            if taken:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [namespace, key])


def index_version_search_index_build(*, index_version: IndexVersion) -> bool:
    """Build the version's HNSW index if it has none (concurrently when called outside a
    transaction). Returns False when another process is building it right now."""
    with _advisory_lock_if_free(SEARCH_INDEX_BUILD_LOCK_NAMESPACE, int(index_version.pk)) as taken:
        if not taken:
            return False
        search_index_ensure(index_version=index_version)
    now = timezone.now()
    IndexVersion.objects.filter(pk=index_version.pk, search_index_built_at__isnull=True).update(
        search_index_built_at=now
    )
    index_version.search_index_built_at = index_version.search_index_built_at or now
    return True


def user_search_index_due(*, user_id: int, index_version: IndexVersion) -> bool:
    """A user of a maintained version gets an HNSW index of their own once their vectors reach
    ``INDEXING_USER_SEARCH_INDEX_MIN_VECTORS`` (checked when their job completes, so a backfill
    finishes before the graph is built in one go). One single-row read."""
    if not index_version.is_maintained:
        return False
    return IndexProgress.objects.filter(
        user_id=user_id,
        index_version=index_version,
        embedded__gte=settings.INDEXING_USER_SEARCH_INDEX_MIN_VECTORS,
        search_index_built_at__isnull=True,
    ).exists()


def user_search_index_build(*, user_id: int, index_version: IndexVersion) -> bool:
    """Build the user's own HNSW index in the version (concurrently when called outside a
    transaction) and record it on their progress row, from which searches choose their plan;
    also the user's own full-text index (once, for every version), for the lexical leg.
    Returns False when another process is building one of the user's indexes right now, or
    the version is no longer maintained."""
    with _advisory_lock_if_free(USER_SEARCH_INDEX_BUILD_LOCK_NAMESPACE, int(user_id)) as taken:
        if not taken:
            return False
        version = IndexVersion.objects.get(pk=index_version.pk)
        if not version.is_maintained:
            return False
        user_search_index_ensure(index_version=version, user_id=user_id)
        user_text_index_ensure(user_id=user_id)
        version.refresh_from_db()
        if not version.is_maintained:
            # Retired while the index was being built: its retirement may have dropped the
            # version's indexes before this one existed.
            user_search_index_drop(index_version=version, user_id=user_id)
            return False
        IndexProgress.objects.filter(
            user_id=user_id, index_version=version, search_index_built_at__isnull=True
        ).update(search_index_built_at=timezone.now())
    return True


def user_search_index_remove(*, user_id: int, index_version: IndexVersion) -> None:
    """Drop the user's own index in the version: searches go back to the version's index."""
    IndexProgress.objects.filter(user_id=user_id, index_version=index_version).update(
        search_index_built_at=None
    )
    user_search_index_drop(index_version=index_version, user_id=user_id)


def user_indexes_drop(*, user_id: int) -> None:
    """Drop every index of a deleted user's own (their graph in each version, their full-text
    index): a partial index is checked on every write to its table, whoever writes."""
    for index_version in IndexVersion.objects.all():
        user_search_index_drop(index_version=index_version, user_id=user_id)
    user_text_index_drop(user_id=user_id)


def search_index_due(*, index_version: IndexVersion) -> bool:
    """The active version gets its HNSW index once its initial backfill is complete."""
    return (
        index_version.state == IndexVersionState.ACTIVE
        and not index_version.has_search_index
        and not cutover_blockers(index_version=index_version, limit=1)
    )


def index_cutover(*, to_version: IndexVersion) -> IndexVersion | None:
    """Make ``to_version`` the one searched version. Allowed only when it is complete for every
    user (``cutover_blockers`` is empty). Its HNSW index is built first (outside the switch's
    transaction, so searches and ingestion go on meanwhile). The previous active version stops
    being maintained (state retiring) and is returned, for ``index_version_retire``."""
    blockers = cutover_blockers(index_version=to_version, limit=1)
    if to_version.state == IndexVersionState.BUILDING and not blockers:
        index_version_search_index_build(index_version=to_version)
    with transaction.atomic():
        _version_set_lock_exclusive()
        target = IndexVersion.objects.select_for_update().get(pk=to_version.pk)
        if target.state != IndexVersionState.BUILDING:
            raise IndexingError(
                "version_not_building", f"Version {target.version} is {target.state}."
            )
        blockers = cutover_blockers(index_version=target, limit=1)
        if blockers:
            raise IndexingError(
                "version_incomplete",
                f"Version {target.version} is not complete for every user "
                f"(first: user {blockers[0].user_id}).",
            )
        previous = (
            IndexVersion.objects.select_for_update().filter(state=IndexVersionState.ACTIVE).first()
        )
        now = timezone.now()
        if previous is not None:
            previous.state = IndexVersionState.RETIRING
            previous.save(update_fields=["state"])
            index_jobs_close_for_version(index_version=previous, reason="version_retired")
        target.state = IndexVersionState.ACTIVE
        target.activated_at = now
        target.save(update_fields=["state", "activated_at"])
    logger.info(
        "indexing.cutover",
        extra={
            "index_version": target.version,
            "previous_version": previous.version if previous else None,
        },
    )
    to_version.state, to_version.activated_at = target.state, target.activated_at
    return previous


def index_version_retire(
    *, index_version: IndexVersion, batch_size: int | None = None
) -> Iterable[int]:
    """Delete a non-active version's entries in batches (yielding how many each batch removed),
    then its progress rows and vector index. A building version can be abandoned this way."""
    batch_size = batch_size or settings.INDEXING_RETIRE_BATCH_SIZE
    with transaction.atomic():
        _version_set_lock_exclusive()
        version = IndexVersion.objects.select_for_update().get(pk=index_version.pk)
        if version.state == IndexVersionState.ACTIVE:
            raise IndexingError(
                "version_active", "The active version cannot be retired; cut over first."
            )
        if version.state == IndexVersionState.BUILDING:
            version.state = IndexVersionState.RETIRING
            version.save(update_fields=["state"])
            index_jobs_close_for_version(index_version=version, reason="version_retired")
    while True:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                sql("""
                DELETE FROM {entry} WHERE id IN (
                    SELECT id FROM {entry} WHERE index_version_id = %s
                    ORDER BY id LIMIT %s
                )
                """),
                [version.pk, batch_size],
            )
            deleted = cursor.rowcount
        if deleted:
            yield deleted
        if deleted < batch_size:
            break
    with transaction.atomic():
        IndexProgress.objects.filter(index_version=version).delete()
        IndexVersion.objects.filter(pk=version.pk).update(
            state=IndexVersionState.RETIRED, retired_at=timezone.now()
        )
    search_index_drop(index_version=version)
    index_version.state = IndexVersionState.RETIRED
    logger.info("indexing.version_retired", extra={"index_version": version.version})


def users_with_messages() -> Iterable[User]:
    """Everyone who has conversation data, for backfills."""
    return User.objects.filter(chats__isnull=False).distinct().order_by("pk")


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
            if index_version_id not in _maintained_version_ids():
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
            _entries_insert_eligible(
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
