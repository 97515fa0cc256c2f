"""Periodic assistant jobs (scheduled by ``CELERY_BEAT_SCHEDULE`` in settings)."""

from __future__ import annotations

import logging
import threading

from celery import shared_task
from django.db import connection

from assistant.turn_leases import turns_sweep_orphaned

logger = logging.getLogger(__name__)


@shared_task(name="assistant.sweep_orphaned_turns", soft_time_limit=50, time_limit=60)
def sweep_orphaned_turns() -> int:
    """End the answers whose server process died (lease expired). Safe to run twice or
    concurrently: each turn is ended under its row lock and skipped once ended."""
    return turns_sweep_orphaned()


def sweep_orphaned_turns_at_start() -> None:
    """Run the sweep once in the background when a server process starts: answers a crash
    left ``streaming`` end as soon as their lease has passed, without waiting for beat."""

    def sweep() -> None:
        try:
            ended = turns_sweep_orphaned()
            logger.info("assistant.startup_sweep", extra={"ended": ended})
        except Exception as error:
            logger.warning(
                "assistant.startup_sweep_failed", extra={"error_class": type(error).__name__}
            )
        finally:
            connection.close()

    threading.Thread(target=sweep, name="assistant-startup-sweep", daemon=True).start()
