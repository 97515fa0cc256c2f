"""Periodic billing jobs (scheduled by ``CELERY_BEAT_SCHEDULE`` in settings)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from billing.services.reservations import reservations_sweep


@shared_task(name="billing.sweep_reservations", soft_time_limit=50, time_limit=60)
def sweep_reservations() -> int:
    """Close reservations left open by crashed processes. Safe to run twice or concurrently:
    each reservation is closed under its row lock and skipped once closed."""
    return reservations_sweep(expired_before=timezone.now())
