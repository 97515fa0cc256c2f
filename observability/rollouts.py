"""Rollout by account, and the watcher that rolls back on a gate regression.

The cohorts of a rollout, in order: ``internal`` (staff accounts, when included), ``accounts``
(the named ones), then ``percentage`` (accounts whose stable hash of feature and id falls below
the rollout's percentage). ``profile_for_user`` is the hook the answer engine asks which AI
profile serves a user; it costs one query (two for a named-account check).

``rollouts_evaluate`` (a beat task) compares each cohort's recent answers on the rolled-out
profile with the latest baseline, and a failed grounding gate of a release evaluation made
since the rollout started counts against every cohort. Any regression rolls the rollout back
at once; every evaluation is a ``GateRun`` and every change a ``RolloutEvent``.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from billing.models import UsageEvent
from claire.accounts.models import User
from observability.gates import (
    GateResult,
    GateThresholds,
    baseline_latest,
    gate_run_record,
    gates_evaluate,
)
from observability.models import GateRun, Rollout, RolloutEvent, RolloutStatus

logger = logging.getLogger(__name__)

ANSWER_PROFILE_FEATURE = "answer-profile"
COHORTS = ("internal", "accounts", "percentage")


def hash_bucket(*, feature: str, user_id: int) -> int:
    """0..99, stable for an account and a feature (a new feature reshuffles the accounts)."""
    digest = hashlib.sha256(f"{feature}:{user_id}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % 100


def cohort_for(*, rollout: Rollout, user: User) -> str:
    """The cohort ``user`` belongs to, or "" when outside the rollout."""
    if rollout.includes_internal and user.is_staff:
        return "internal"
    if rollout.accounts.filter(pk=user.pk).exists():
        return "accounts"
    if hash_bucket(feature=rollout.feature, user_id=user.pk) < rollout.percentage:
        return "percentage"
    return ""


def profile_for_user(*, feature: str, user: User, default: str) -> str:
    """The profile serving ``user`` for ``feature``: the rolled-out one inside an active
    rollout's cohorts, else its previous profile, else ``default`` (no rollout)."""
    rollout = Rollout.objects.filter(feature=feature).first()
    if rollout is None:
        return default
    if rollout.status == RolloutStatus.ACTIVE and cohort_for(rollout=rollout, user=user):
        return rollout.profile
    return rollout.previous_profile


def cohort_user_ids(*, rollout: Rollout, start: datetime, end: datetime) -> dict[str, set[int]]:
    """The accounts of each cohort that answered on the rolled-out profile in the window
    (an account counts in its first cohort only)."""
    active = set(
        UsageEvent.objects.filter(
            profile=rollout.profile, created_at__gte=start, created_at__lt=end
        ).values_list("user_id", flat=True)
    )
    staff = (
        set(User.objects.filter(pk__in=active, is_staff=True).values_list("pk", flat=True))
        if rollout.includes_internal
        else set()
    )
    named = set(rollout.accounts.filter(pk__in=active).values_list("pk", flat=True)) - staff
    hashed = {
        user_id
        for user_id in active - staff - named
        if hash_bucket(feature=rollout.feature, user_id=user_id) < rollout.percentage
    }
    return {"internal": staff, "accounts": named, "percentage": hashed}


@dataclass(frozen=True)
class RolloutVerdict:
    rollout_id: int
    is_rolled_back: bool
    regressed_cohorts: tuple[str, ...]


def _release_grounding_failures(*, since: datetime) -> list[GateResult]:
    """Failed grounding gates of release evaluations (``release_gates``) since ``since``."""
    failures = []
    for run in GateRun.objects.filter(scope="release", created_at__gte=since, is_passed=False):
        for result in run.results:
            if str(result.get("gate", "")).startswith("grounding") and not result["is_passed"]:
                failures.append(
                    GateResult(
                        gate=result["gate"],
                        is_passed=False,
                        observed=result.get("observed"),
                        limit=result.get("limit"),
                        detail=f"release gate run {run.pk}",
                    )
                )
    return failures


def rollout_evaluate(
    *, rollout_id: int, now: datetime | None = None, thresholds: GateThresholds | None = None
) -> RolloutVerdict | None:
    """Evaluate the gates for each cohort of an active rollout and roll it back on any
    regression. Idempotent: a rollout already rolled back is left alone. ``None`` when the
    rollout is gone, not active, or there is no baseline to compare with."""
    now = now or timezone.now()
    thresholds = thresholds or GateThresholds.from_settings()
    with transaction.atomic():
        rollout = Rollout.objects.select_for_update().filter(pk=rollout_id).first()
        if rollout is None or rollout.status != RolloutStatus.ACTIVE:
            return None
        baseline = baseline_latest(profile=rollout.previous_profile) or baseline_latest()
        if baseline is None:
            logger.info("observability.rollout_no_baseline", extra={"rollout_id": rollout_id})
            return None

        start = max(now - timedelta(hours=settings.RELEASE_GATE_WINDOW_HOURS), rollout.started_at)
        grounding_failures = _release_grounding_failures(since=rollout.started_at)
        regressed: list[str] = []
        for cohort, user_ids in cohort_user_ids(rollout=rollout, start=start, end=now).items():
            results = grounding_failures + gates_evaluate(
                baseline=baseline,
                start=start,
                end=now,
                thresholds=thresholds,
                user_ids=user_ids,
                profile=rollout.profile,
            )
            run = gate_run_record(
                baseline=baseline, scope=f"{rollout.feature}:{cohort}", results=results
            )
            if not run.is_passed:
                regressed.append(cohort)
                RolloutEvent.objects.create(
                    rollout=rollout,
                    action="gate_regression",
                    cohort=cohort,
                    gate_run=run,
                    detail={
                        "failed": [r.gate for r in results if not r.is_passed],
                        "answers": len(user_ids),
                    },
                )
        if regressed:
            rollout.status = RolloutStatus.ROLLED_BACK
            rollout.save(update_fields=["status", "updated_at"])
            RolloutEvent.objects.create(
                rollout=rollout,
                action="rolled_back",
                detail={"cohorts": regressed, "to_profile": rollout.previous_profile},
            )
            logger.warning(
                "observability.rollout_rolled_back",
                extra={"rollout_id": rollout.pk, "feature": rollout.feature, "cohorts": regressed},
            )
    return RolloutVerdict(
        rollout_id=rollout_id, is_rolled_back=bool(regressed), regressed_cohorts=tuple(regressed)
    )


def rollouts_evaluate(*, now: datetime | None = None) -> list[RolloutVerdict]:
    ids = (
        Rollout.objects.filter(status=RolloutStatus.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    verdicts = [rollout_evaluate(rollout_id=rollout_id, now=now) for rollout_id in ids]
    return [verdict for verdict in verdicts if verdict is not None]


def rollout_change_record(
    *, rollout: Rollout, actor: User | None, changes: dict[str, object]
) -> None:
    """Audit an operator's change (the admin calls this after saving)."""
    RolloutEvent.objects.create(
        rollout=rollout, action="changed", actor=actor, detail={"changes": changes}
    )
