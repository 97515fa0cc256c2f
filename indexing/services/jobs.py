"""Per-user indexing jobs (``IndexJob``): one open job per user and version, sent once, claimed
under a lease, finished, released for later, or failed."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from claire.db.leases import (
    WORKER_LOST,
    Claim,
    LeaseLost,
    lease_check,
    lease_claim,
    lease_renew,
)
from indexing.models import (
    OPEN_JOB_STATES,
    IndexJob,
    IndexVersion,
    JobState,
)

logger = logging.getLogger(__name__)


def job_lease() -> timedelta:
    return timedelta(seconds=settings.INDEXING_JOB_LEASE_SECONDS)


def job_touch(*, job: IndexJob, worker_id: str, **changes: object) -> None:
    """Renew the lease and apply ``changes`` to the job row, or raise ``LeaseLost``."""
    lease_renew(IndexJob.objects, job=job, worker_id=worker_id, lease=job_lease(), **changes)


# --- jobs -------------------------------------------------------------------------------------


def queued_grace() -> timedelta:
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
                    lease_expires_at=now + queued_grace(),
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
            job.lease_expires_at = now + queued_grace()
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
            lease=job_lease(),
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
    job_touch(job=job, worker_id=worker_id)


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
            locked.lease_expires_at = now + job_lease()
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
        locked.lease_expires_at = timezone.now() + queued_grace()
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
