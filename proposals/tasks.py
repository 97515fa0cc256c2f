"""Celery tasks of proposals: thin shells around services."""

from __future__ import annotations

from celery import shared_task

from proposals import services


@shared_task(name="proposals.receipt_execute", soft_time_limit=30, time_limit=60)
def receipt_execute(receipt_id: int) -> str:
    """Idempotent: a receipt already past ``queued`` is left as it is."""
    receipt = services.receipt_execute(receipt_id=receipt_id)
    return receipt.status if receipt is not None else "gone"
