"""Beat tasks: thin shells around the rollout watcher and the alert rules."""

from __future__ import annotations

from celery import shared_task

from observability.alerts import alerts_evaluate
from observability.rollouts import rollouts_evaluate


@shared_task(name="observability.rollouts_evaluate", soft_time_limit=120, time_limit=180)
def rollouts_evaluate_task() -> int:
    """Evaluate every active rollout's gates; returns how many were rolled back."""
    return sum(verdict.is_rolled_back for verdict in rollouts_evaluate())


@shared_task(name="observability.alerts_evaluate", soft_time_limit=60, time_limit=90)
def alerts_evaluate_task() -> int:
    """Evaluate the alert rules; returns how many changed state."""
    return len(alerts_evaluate())
