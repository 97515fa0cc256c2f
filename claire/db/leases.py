"""Leases on durable job rows: one worker at a time holds a job until its lease expires.

Indexing's ``IndexJob`` and memory's ``MemoryJob`` share the shape this module works on:
``state`` (with ``running`` and ``failed`` values), ``attempts``, ``last_error``,
``lease_owner``, ``lease_expires_at``, ``started_at`` and ``finished_at``. The rules are the
same for both: a running job whose lease expired was held by a worker that died, which counts
as a failed attempt; a job that keeps losing its workers (out of memory on one batch, say) is
given up instead of taking every worker down in turn; and only the lease holder may write.
"""

from __future__ import annotations

import enum
from datetime import datetime, timedelta
from typing import Any, Protocol

from django.db import models
from django.utils import timezone

RUNNING = "running"
FAILED = "failed"
WORKER_LOST = "worker_lost"


class LeaseLost(Exception):
    """Another worker holds the job now (this one was presumed dead); stop without writing."""


class LeasedJob(Protocol):
    pk: Any
    state: str
    attempts: int
    last_error: str
    lease_owner: str
    lease_expires_at: datetime | None
    started_at: datetime | None
    finished_at: datetime | None


class Claim(enum.Enum):
    TAKEN = "taken"
    HELD = "held"
    GAVE_UP = "gave_up"


def lease_claim(
    job: LeasedJob, *, worker_id: str, lease: timedelta, max_attempts: int, now: datetime
) -> Claim:
    """Decide the claim of an open ``job`` row locked ``FOR UPDATE`` by the caller.

    ``HELD``: a live worker holds it (nothing changed). ``GAVE_UP``: too many attempts, the
    job is now failed (the caller saves it). ``TAKEN``: the job is running under
    ``worker_id`` with a fresh lease (the caller may add its own changes, then saves)."""
    if job.state == RUNNING:
        if job.lease_expires_at is not None and job.lease_expires_at > now:
            return Claim.HELD
        job.attempts += 1
        job.last_error = WORKER_LOST
    if job.attempts >= max_attempts:
        job.state = FAILED
        job.last_error = f"{job.last_error or 'attempts'}:gave_up"
        job.lease_owner = ""
        job.lease_expires_at = None
        job.finished_at = now
        return Claim.GAVE_UP
    job.state = RUNNING
    job.lease_owner = worker_id
    job.lease_expires_at = now + lease
    return Claim.TAKEN


def lease_renew(
    manager: models.Manager[Any],
    *,
    job: LeasedJob,
    worker_id: str,
    lease: timedelta,
    **changes: object,
) -> None:
    """Renew the lease and apply ``changes`` (field -> value or expression) to the job row, or
    raise ``LeaseLost``. Inside a transaction this also makes that transaction's writes
    conditional on still holding the job."""
    now = timezone.now()
    updated = manager.filter(pk=job.pk, state=RUNNING, lease_owner=worker_id).update(
        lease_expires_at=now + lease, updated_at=now, **changes
    )
    if updated != 1:
        raise LeaseLost(f"job {job.pk} is no longer held by {worker_id}")


def lease_check(job: LeasedJob, *, worker_id: str) -> None:
    """Raise ``LeaseLost`` unless the (freshly locked) row is still running under
    ``worker_id``."""
    if job.state != RUNNING or job.lease_owner != worker_id:
        raise LeaseLost(f"job {job.pk} is no longer held by {worker_id}")
