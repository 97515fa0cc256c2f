"""Beat tasks: thin shells around the rollout watcher and the alert rules."""

from __future__ import annotations

from celery import shared_task

from observability.rollouts import rollouts_evaluate


@shared_task(name="observability.rollouts_evaluate", soft_time_limit=120, time_limit=180)
def rollouts_evaluate_task() -> int:
    """Evaluate every active rollout's gates; returns how many were rolled back."""
    return sum(verdict.is_rolled_back for verdict in rollouts_evaluate())
