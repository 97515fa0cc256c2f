"""Sending job tasks. Kept apart from ``services`` so that writes never import Celery; tasks
are sent by name, so that ``indexing.tasks`` (which calls back in here) stays a leaf."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.conf import settings

from claire.celery import task_send
from indexing import services

logger = logging.getLogger(__name__)


def index_job_send(*, job_id: int, countdown: float | None = None) -> None:
    """Send the task for one job. A broker failure is logged, not raised: the job row stays
    open and ``index_jobs_recover`` sends it again once its grace period runs out."""
    try:
        task_send(
            "indexing.run_job",
            args=[job_id],
            queue=settings.INDEXING_CELERY_QUEUE,
            countdown=countdown,
        )
    except Exception as error:
        logger.warning(
            "indexing.job_send_failed",
            extra={"job_id": job_id, "error_class": type(error).__name__},
        )


def index_jobs_enqueue(*, user_id: int, version_ids: Iterable[int]) -> list[int]:
    """Open (or nudge) the user's jobs and send the tasks that need sending."""
    job_ids = services.index_jobs_request(user_id=user_id, version_ids=version_ids)
    for job_id in job_ids:
        index_job_send(job_id=job_id)
    return job_ids


def index_jobs_recover_and_send() -> list[int]:
    job_ids = services.index_jobs_recover()
    for job_id in job_ids:
        index_job_send(job_id=job_id)
    return job_ids
