"""Celery tasks of the indexing app: thin shells that take ids and call ``indexing.jobs``.

Running a task twice is harmless: a job is claimed through its lease, so a duplicate delivery
finds it running (or done) and returns. Workers that die are covered by lease expiry and
``recover_index_jobs`` (on worker start and on the beat schedule), not by broker redelivery.
"""

from __future__ import annotations

import logging
import os
import socket
from typing import Any

from celery import Task, shared_task
from celery.signals import worker_init, worker_process_init, worker_ready
from django.conf import settings
from django.db import InterfaceError, OperationalError

from claire.backoff import backoff_delay
from indexing import dispatch, jobs
from indexing.priority import cpu_priority_lower

logger = logging.getLogger(__name__)

# Generous above one time slice: a slice ends between provider batches.
_SOFT_TIME_LIMIT = int(settings.INDEXING_JOB_SLICE_SECONDS) + 300
_TIME_LIMIT = _SOFT_TIME_LIMIT + 60


def _worker_id(task: Task) -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{task.request.id or 'inline'}"[:64]


@shared_task(
    bind=True,
    name="indexing.run_job",
    acks_late=True,
    soft_time_limit=_SOFT_TIME_LIMIT,
    time_limit=_TIME_LIMIT,
    ignore_result=True,
)
def run_index_job(self: Task, job_id: int) -> None:
    try:
        result = jobs.index_job_run(job_id=job_id, worker_id=_worker_id(self))
    except (OperationalError, InterfaceError) as error:
        # The database went away mid-job (a restart, a failover), so even recording the
        # failure failed. Try again once the job's lease has run out: the claim then resumes
        # the job from its cursor (and counts the attempt on the job row the admin shows).
        logger.warning(
            "indexing.job_database_unavailable",
            extra={
                "job_id": job_id,
                "error_class": type(error).__name__,
                "retries": self.request.retries,
            },
        )
        countdown = settings.INDEXING_JOB_LEASE_SECONDS + backoff_delay(
            attempt=self.request.retries, base_s=1.0, cap_s=60.0
        )
        raise self.retry(
            countdown=countdown, max_retries=settings.INDEXING_JOB_DATABASE_RETRIES
        ) from None
    if result.outcome == jobs.JobOutcome.DONE:
        if result.search_index_due:
            build_search_index.apply_async(
                args=[result.index_version_id], queue=settings.INDEXING_CELERY_QUEUE
            )
        if result.user_search_index_due:
            build_user_search_index.apply_async(
                args=[result.index_version_id, result.user_id],
                queue=settings.INDEXING_CELERY_QUEUE,
            )
    elif result.outcome == jobs.JobOutcome.YIELDED:
        # The time slice is used up: back of the queue, so other users' jobs get a turn.
        dispatch.index_job_send(job_id=job_id)
    elif result.outcome == jobs.JobOutcome.RETRY:
        dispatch.index_job_send(job_id=job_id, countdown=result.retry_in_seconds)


@shared_task(name="indexing.recover_jobs", ignore_result=True, soft_time_limit=120, time_limit=180)
def recover_index_jobs() -> None:
    dispatch.index_jobs_recover_and_send()


@worker_init.connect
@worker_process_init.connect
def _lower_cpu_priority(sender: Any = None, **kwargs: Any) -> None:
    # Workers run background work (embedding above all); the web process answers people.
    cpu_priority_lower(
        policy=settings.INDEXING_WORKER_CPU_POLICY, niceness=settings.INDEXING_WORKER_NICENESS
    )


@worker_ready.connect
def _recover_on_worker_start(sender: Any = None, **kwargs: Any) -> None:
    # A restarted worker picks up jobs whose previous worker died, without waiting for beat.
    recover_index_jobs.apply_async(queue=settings.INDEXING_CELERY_QUEUE)


@shared_task(
    name="indexing.retire_version",
    ignore_result=True,
    acks_late=True,
    soft_time_limit=3600,
    time_limit=3660,
)
def retire_index_version(index_version_id: int) -> None:
    from indexing.models import IndexVersion
    from indexing.services import index_version_retire

    version = IndexVersion.objects.filter(pk=index_version_id).first()
    if version is None:
        return
    for _ in index_version_retire(index_version=version):
        pass


@shared_task(
    name="indexing.build_search_index",
    ignore_result=True,
    acks_late=True,
    soft_time_limit=6 * 3600,
    time_limit=6 * 3600 + 60,
)
def build_search_index(index_version_id: int) -> None:
    from indexing.models import IndexVersion
    from indexing.services import index_version_search_index_build

    version = IndexVersion.objects.filter(pk=index_version_id).first()
    if version is None or version.has_search_index or not version.is_maintained:
        return
    index_version_search_index_build(index_version=version)


@shared_task(
    name="indexing.build_user_search_index",
    ignore_result=True,
    acks_late=True,
    soft_time_limit=3600,
    time_limit=3660,
)
def build_user_search_index(index_version_id: int, user_id: int) -> None:
    from indexing.models import IndexVersion
    from indexing.services import user_search_index_build, user_search_index_due

    version = IndexVersion.objects.filter(pk=index_version_id).first()
    if version is None or not user_search_index_due(user_id=user_id, index_version=version):
        return
    user_search_index_build(user_id=user_id, index_version=version)
