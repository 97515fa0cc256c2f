"""Celery tasks of personal memory: thin shells that take ids and call one service."""

from __future__ import annotations

import logging

from celery import shared_task

from claire.accounts.models import User
from retrieval.memory import services

logger = logging.getLogger(__name__)


@shared_task(
    name="memory.refresh",
    acks_late=True,
    soft_time_limit=300,
    time_limit=360,
    ignore_result=True,
)
def memory_refresh(user_id: int, chat_ids: list[int]) -> None:
    """Re-derive plans and the loops of ``chat_ids`` after an ingest. Safe to run twice; returns
    quietly when the user is gone."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return
    services.memory_refresh(user=user, chat_ids=chat_ids)
    logger.info("memory.refreshed", extra={"user_id": user_id, "chats": len(chat_ids)})
