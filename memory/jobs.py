"""The per-user memory job: ingests mark it dirty, one worker at a time brings memory up to
date from what changed (``MemoryJob``).

* ``memory_job_mark_dirty`` runs inside the ingest transaction: it adds the touched chats and
  the earliest send time of the changed messages to the user's row (one upsert).
* ``memory_job_request`` runs after the commit: it queues the job unless it is already queued
  or running (the running job takes the new work before it goes idle), and says whether a task
  must be sent.
* ``memory_job_run`` claims the row through a lease, takes the pending work and calls
  ``memory_update``, until nothing is pending.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from claire.accounts.models import User
from claire.db.leases import Claim, LeaseLost, lease_check, lease_claim, lease_renew
from memory import services
from memory.models import MemoryJob, MemoryJobState

logger = logging.getLogger(__name__)

OPEN_STATES = (MemoryJobState.QUEUED, MemoryJobState.RUNNING)


def _lease() -> timedelta:
    return timedelta(seconds=settings.MEMORY_JOB_LEASE_SECONDS)


def memory_job_mark_dirty(
    *, user_id: int, chat_ids: set[int], since: datetime | None, facts: bool
) -> None:
    """Record changed messages: their chats, the earliest send time and whether they can
    change facts. Inside the ingest transaction, so the mark commits or rolls back with the
    data; concurrent ingests of the same user queue on the row and each adds its own."""
    if not chat_ids:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO memory_memoryjob (user_id, state, pending_since, pending_chat_ids, "
            "pending_facts, running_chat_ids, running_facts, facts_inputs_signature, attempts, "
            "last_error, lease_owner, runs_count, last_run_chats, last_run_ms, updated_at) "
            "VALUES (%s, %s, %s, %s::bigint[], %s, '{}', false, '', 0, '', '', 0, 0, 0, now()) "
            "ON CONFLICT (user_id) DO UPDATE SET "
            "pending_since = LEAST(memory_memoryjob.pending_since, EXCLUDED.pending_since), "
            "pending_chat_ids = ARRAY(SELECT DISTINCT unnest(memory_memoryjob.pending_chat_ids "
            "|| EXCLUDED.pending_chat_ids) ORDER BY 1), "
            "pending_facts = memory_memoryjob.pending_facts OR EXCLUDED.pending_facts, "
            "updated_at = now()",
            [user_id, MemoryJobState.IDLE, since, sorted(chat_ids), facts],
        )


def memory_job_request(*, user_id: int) -> bool:
    """Queue the user's job when it is idle, failed, or stranded (its lease ran out); True when
    the caller must send its task. A queued or running job with a live lease takes the new
    work itself."""
    now = timezone.now()
    with transaction.atomic():
        job = MemoryJob.objects.select_for_update().filter(user_id=user_id).first()
        if job is None or not (job.pending_chat_ids or job.running_chat_ids):
            return False
        is_live = job.state in OPEN_STATES and (
            job.lease_expires_at is not None and job.lease_expires_at > now
        )
        if is_live:
            return False
        if job.state == MemoryJobState.FAILED:
            # New data is a new chance for a job that gave up.
            job.attempts = 0
        job.state = MemoryJobState.QUEUED
        job.lease_owner = ""
        job.lease_expires_at = now + timedelta(seconds=settings.MEMORY_JOB_QUEUED_GRACE_SECONDS)
        job.save(
            update_fields=["state", "attempts", "lease_owner", "lease_expires_at", "updated_at"]
        )
    return True


def memory_jobs_stranded() -> list[int]:
    """Users whose open job's lease ran out (a lost task or a dead worker): queue them again
    and return their ids, for the caller to send."""
    stranded = MemoryJob.objects.filter(
        state__in=OPEN_STATES, lease_expires_at__lt=timezone.now()
    ).values_list("user_id", flat=True)
    return [user_id for user_id in stranded if memory_job_request(user_id=user_id)]


def _claim(*, user_id: int, worker_id: str) -> MemoryJob | None:
    """Take the job and its pending work, or None when there is nothing to do or a live
    worker holds it. A claim after a dead worker keeps that worker's work and adds the new."""
    now = timezone.now()
    with transaction.atomic():
        job = MemoryJob.objects.select_for_update().filter(user_id=user_id).first()
        if job is None or job.state not in OPEN_STATES:
            return None
        claim = lease_claim(
            job,
            worker_id=worker_id,
            lease=_lease(),
            max_attempts=settings.MEMORY_JOB_MAX_ATTEMPTS,
            now=now,
        )
        if claim is Claim.HELD:
            return None
        if claim is Claim.GAVE_UP:
            job.save()
            logger.warning("memory.job_failed", extra={"user_id": user_id})
            return None
        _take_pending(job)
        job.started_at = now
        job.save()
    return job


def _take_pending(job: MemoryJob) -> None:
    """Move the pending work into the running work (joined with any left by a dead worker)."""
    sinces = [moment for moment in (job.running_since, job.pending_since) if moment is not None]
    job.running_since = min(sinces) if sinces else None
    job.running_chat_ids = sorted({*job.running_chat_ids, *job.pending_chat_ids})
    job.running_facts = job.running_facts or job.pending_facts
    job.pending_since = None
    job.pending_chat_ids = []
    job.pending_facts = False


def _finish_or_take_more(*, job: MemoryJob, worker_id: str, elapsed_ms: int) -> bool:
    """After a run: take the work that arrived meanwhile (False: run again) or go idle
    (True)."""
    with transaction.atomic():
        locked = MemoryJob.objects.select_for_update().get(pk=job.pk)
        lease_check(locked, worker_id=worker_id)
        locked.runs_count += 1
        locked.last_run_chats = len(locked.running_chat_ids)
        locked.last_run_ms = elapsed_ms
        locked.running_since = None
        locked.running_chat_ids = []
        locked.running_facts = False
        locked.facts_inputs_signature = job.facts_inputs_signature
        is_done = not locked.pending_chat_ids
        if is_done:
            locked.state = MemoryJobState.IDLE
            locked.lease_owner = ""
            locked.lease_expires_at = None
            locked.attempts = 0
            locked.last_error = ""
            locked.finished_at = timezone.now()
        else:
            _take_pending(locked)
            locked.lease_expires_at = timezone.now() + _lease()
        locked.save()
    job.running_since = locked.running_since
    job.running_chat_ids = locked.running_chat_ids
    job.running_facts = locked.running_facts
    return is_done


@dataclass(frozen=True)
class MemoryJobRun:
    runs: int
    chats: int


def memory_job_run(*, user_id: int, worker_id: str) -> MemoryJobRun | None:
    """Claim the user's job and update memory until nothing is pending. None when there was
    nothing to claim. An error leaves the taken work on the row (failed after too many
    attempts, else queued again by the next request or the recovery)."""
    job = _claim(user_id=user_id, worker_id=worker_id)
    if job is None:
        return None
    user = User.objects.filter(pk=user_id).first()
    runs = chats = 0
    while user is not None:
        started = time.perf_counter()
        try:
            with transaction.atomic():
                _lease_renew(job=job, worker_id=worker_id)
                signature = services.facts_inputs_signature(user=user, today=timezone.now().date())
                people_changed = signature != job.facts_inputs_signature
                services.memory_update(
                    user=user,
                    chat_ids=job.running_chat_ids,
                    since=job.running_since,
                    facts=job.running_facts or people_changed,
                    people_changed=people_changed,
                )
                job.facts_inputs_signature = signature
        except LeaseLost:
            raise
        except Exception as error:
            _give_back(job=job, worker_id=worker_id, error=type(error).__name__)
            raise
        runs += 1
        chats += len(job.running_chat_ids)
        elapsed_ms = round((time.perf_counter() - started) * 1000)
        if _finish_or_take_more(job=job, worker_id=worker_id, elapsed_ms=elapsed_ms):
            break
    logger.info("memory.job_done", extra={"user_id": user_id, "runs": runs, "chats": chats})
    return MemoryJobRun(runs=runs, chats=chats)


def _lease_renew(*, job: MemoryJob, worker_id: str) -> None:
    """Renew the lease, or raise ``LeaseLost``; inside the update's transaction, so a worker
    that lost the job writes nothing."""
    lease_renew(MemoryJob.objects, job=job, worker_id=worker_id, lease=_lease())


def _give_back(*, job: MemoryJob, worker_id: str, error: str) -> None:
    with transaction.atomic():
        locked = MemoryJob.objects.select_for_update().get(pk=job.pk)
        if locked.lease_owner != worker_id:
            return
        locked.attempts += 1
        locked.last_error = error[:255]
        locked.state = (
            MemoryJobState.FAILED
            if locked.attempts >= settings.MEMORY_JOB_MAX_ATTEMPTS
            else MemoryJobState.QUEUED
        )
        locked.lease_owner = ""
        locked.lease_expires_at = timezone.now() + timedelta(
            seconds=settings.MEMORY_JOB_RETRY_SECONDS
        )
        locked.save()
    logger.warning("memory.job_error", extra={"user_id": job.user_id, "error_class": error})
