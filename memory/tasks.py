"""Celery tasks of personal memory: thin shells that take ids and call one service."""

from __future__ import annotations

import logging
import os
import socket

from celery import Task, shared_task

from claire.accounts.models import User
from memory import jobs, services
from memory.refine import facts_refine, refine_configured

logger = logging.getLogger(__name__)


@shared_task(
    name="memory.refresh",
    acks_late=True,
    soft_time_limit=300,
    time_limit=360,
    ignore_result=True,
)
def memory_refresh(user_id: int, chat_ids: list[int]) -> None:
    """Re-derive plans and the loops of ``chat_ids`` (tasks sent before ingests marked the
    memory job instead; ``memory.run_job`` is what ingests send now). Safe to run twice;
    returns quietly when the user is gone."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return
    services.memory_refresh(user=user, chat_ids=chat_ids)
    logger.info("memory.refreshed", extra={"user_id": user_id, "chats": len(chat_ids)})
    if refine_configured():
        memory_refine.delay(user_id)


@shared_task(
    bind=True,
    name="memory.run_job",
    acks_late=True,
    soft_time_limit=300,
    time_limit=360,
    ignore_result=True,
)
def memory_run_job(self: Task, user_id: int) -> None:
    """Bring the user's memory up to date from what their ingests marked (``MemoryJob``).
    A duplicate delivery finds the job held or idle and returns."""
    worker_id = f"{socket.gethostname()}:{os.getpid()}:{self.request.id or 'inline'}"[:64]
    run = jobs.memory_job_run(user_id=user_id, worker_id=worker_id)
    if run is not None and refine_configured():
        memory_refine.delay(user_id)


@shared_task(name="memory.recover_jobs", ignore_result=True, soft_time_limit=120, time_limit=180)
def memory_recover_jobs() -> None:
    """Send again the jobs whose task was lost or whose worker died."""
    for user_id in jobs.memory_jobs_stranded():
        memory_run_job.delay(user_id)


@shared_task(
    name="memory.refine",
    acks_late=True,
    soft_time_limit=900,
    time_limit=960,
    ignore_result=True,
)
def memory_refine(user_id: int) -> None:
    """Let the ``extract`` model read the user's unread fact-bearing messages (only when that
    profile names a model eligible for the user). A message is read once, so a retry or a
    second run costs only what is still unread."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return
    facts_refine(user=user)
