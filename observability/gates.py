"""Release baselines and gates.

``baseline_capture`` stores what answers of a profile looked like over a window: latency
percentiles, tokens, requests and cost, from the usage events (``billing.reports``).
``gates_evaluate`` compares another window (everyone, or a cohort's users) with a baseline:

- latency: p95 time to first token and p95 completion within ``ratio`` times the baseline + slack;
- cost: settled micro-USD per answer within ``ratio`` times the baseline's;
- stream errors: the stream failure rate at most the configured rate;
- grounding: a golden set (``run_evals``) at or above its own thresholds, and not below the
  baseline's pass rate by more than the allowed drop.

A window with fewer answers than ``min_answers`` has too little evidence to judge latency,
cost or stream errors: those gates pass and say so.
"""

from __future__ import annotations

import io
import json
from collections.abc import Collection
from dataclasses import asdict, dataclass
from datetime import datetime

from django.conf import settings
from django.core.management import call_command

from billing.reports import ProfileUsage, usage_report
from observability.models import GateRun, ReleaseBaseline

GATES = ("grounding", "cost", "stream_error", "latency_ttft_p95", "latency_completion_p95")


@dataclass(frozen=True)
class GateThresholds:
    max_latency_ratio: float
    latency_slack_ms: float
    max_cost_ratio: float
    max_stream_error_rate: float
    max_grounding_drop: float
    min_answers: int

    @classmethod
    def from_settings(cls) -> GateThresholds:
        return cls(
            max_latency_ratio=settings.RELEASE_GATE_MAX_LATENCY_RATIO,
            latency_slack_ms=settings.RELEASE_GATE_LATENCY_SLACK_MS,
            max_cost_ratio=settings.RELEASE_GATE_MAX_COST_RATIO,
            max_stream_error_rate=settings.RELEASE_GATE_MAX_STREAM_ERROR_RATE,
            max_grounding_drop=settings.RELEASE_GATE_MAX_GROUNDING_DROP,
            min_answers=settings.RELEASE_GATE_MIN_ANSWERS,
        )


@dataclass(frozen=True)
class GateResult:
    gate: str
    is_passed: bool
    observed: float | None
    limit: float | None
    detail: str = ""


@dataclass(frozen=True)
class GroundingResult:
    set_name: str
    pass_rate: float
    is_within_set_thresholds: bool
    detail: str = ""


def profile_usage(
    *, start: datetime, end: datetime, profile: str, user_ids: Collection[int] | None = None
) -> ProfileUsage | None:
    report = usage_report(start=start, end=end, user_ids=user_ids)
    return next((usage for usage in report.profiles if usage.profile == profile), None)


def baseline_capture(
    *,
    start: datetime,
    end: datetime,
    profile: str = "answer",
    label: str = "",
    grounding: GroundingResult | None = None,
) -> ReleaseBaseline:
    """Store the window's figures as a baseline (a window with no answers stores zeros)."""
    usage = profile_usage(start=start, end=end, profile=profile)
    answers = usage.events if usage is not None else 0
    figures: dict[str, float | int | None] = {}
    if usage is not None:
        figures = {
            "ttft_p50_ms": usage.ttft_p50_ms,
            "ttft_p95_ms": usage.ttft_p95_ms,
            "duration_p50_ms": usage.duration_p50_ms,
            "duration_p95_ms": usage.duration_p95_ms,
            "input_tokens": usage.input_tokens,
            "cached_input_tokens": usage.cached_input_tokens,
            "output_tokens": usage.output_tokens,
            "embedding_tokens": usage.embedding_tokens,
            "estimated_micro_usd": usage.estimated_micro_usd,
            "settled_micro_usd": usage.settled_micro_usd,
            "stream_failure_rate": usage.stream_failure_rate,
            "cancellation_rate": usage.cancellation_rate,
        }
    return ReleaseBaseline.objects.create(
        label=label,
        profile=profile,
        window_start=start,
        window_end=end,
        answers=answers,
        grounding_pass_rate=grounding.pass_rate if grounding else None,
        grounding_set=grounding.set_name if grounding else "",
        **figures,
    )


def grounding_run(*, set_name: str) -> GroundingResult:
    """Run a golden set through ``run_evals`` (its own fresh account, the configured models)
    and read its JSON summary; ``run_evals`` exits with status 1 below the set's thresholds."""
    output, errors = io.StringIO(), io.StringIO()
    is_within = True
    try:
        call_command("run_evals", "--set", set_name, "--json", stdout=output, stderr=errors)
    except SystemExit as exit_status:
        is_within = exit_status.code in (0, None)
    summary = json.loads(output.getvalue())
    pass_rate = summary["passRate"] if "passRate" in summary else summary["all"]["passRate"]
    return GroundingResult(
        set_name=set_name,
        pass_rate=float(pass_rate),
        is_within_set_thresholds=is_within,
        # run_evals names the figures below the set's thresholds ("pass rate 0.985 < 1.000").
        detail=errors.getvalue().strip()[:300],
    )


def _latency_gate(
    *, name: str, observed: float | None, base: float | None, thresholds: GateThresholds
) -> GateResult:
    if observed is None or base is None:
        return GateResult(name, True, observed, None, "no timings to compare")
    limit = round(base * thresholds.max_latency_ratio + thresholds.latency_slack_ms, 1)
    return GateResult(name, observed <= limit, observed, limit)


def grounding_gate(
    *, grounding: GroundingResult, baseline_pass_rate: float | None, thresholds: GateThresholds
) -> GateResult:
    """Passes when the set met its own thresholds and did not drop below the baseline's pass
    rate (measured on the same set) by more than the allowed drop."""
    floor = (
        None
        if baseline_pass_rate is None
        else round(baseline_pass_rate - thresholds.max_grounding_drop, 4)
    )
    is_passed = grounding.is_within_set_thresholds and (
        floor is None or grounding.pass_rate >= floor
    )
    detail = (
        ""
        if grounding.is_within_set_thresholds
        else f"below the set's own thresholds: {grounding.detail}"
    )
    return GateResult(
        f"grounding:{grounding.set_name}", is_passed, grounding.pass_rate, floor, detail
    )


def gates_evaluate(
    *,
    baseline: ReleaseBaseline,
    start: datetime,
    end: datetime,
    thresholds: GateThresholds,
    user_ids: Collection[int] | None = None,
    profile: str | None = None,
    grounding: GroundingResult | None = None,
) -> list[GateResult]:
    """Each gate's result for the window's answers of ``profile`` (the baseline's by default)
    by ``user_ids`` (everyone by default)."""
    results: list[GateResult] = []
    if grounding is not None:
        floor_rate = (
            baseline.grounding_pass_rate if baseline.grounding_set == grounding.set_name else None
        )
        results.append(
            grounding_gate(
                grounding=grounding, baseline_pass_rate=floor_rate, thresholds=thresholds
            )
        )
    usage = profile_usage(
        start=start, end=end, profile=profile or baseline.profile, user_ids=user_ids
    )
    answers = usage.events if usage is not None else 0
    if usage is None or answers < thresholds.min_answers:
        detail = f"{answers} answers, fewer than {thresholds.min_answers}: not judged"
        return results + [GateResult(gate, True, None, None, detail) for gate in GATES[1:]]
    base_cost = baseline.settled_micro_usd_per_answer
    cost_limit = round(base_cost * thresholds.max_cost_ratio, 2)
    cost = round(usage.settled_micro_usd / answers, 2)
    results.append(GateResult("cost", cost <= cost_limit, cost, cost_limit))
    results.append(
        GateResult(
            "stream_error",
            usage.stream_failure_rate <= thresholds.max_stream_error_rate,
            usage.stream_failure_rate,
            thresholds.max_stream_error_rate,
        )
    )
    results.append(
        _latency_gate(
            name="latency_ttft_p95",
            observed=usage.ttft_p95_ms,
            base=baseline.ttft_p95_ms,
            thresholds=thresholds,
        )
    )
    results.append(
        _latency_gate(
            name="latency_completion_p95",
            observed=usage.duration_p95_ms,
            base=baseline.duration_p95_ms,
            thresholds=thresholds,
        )
    )
    return results


def gate_run_record(*, baseline: ReleaseBaseline, scope: str, results: list[GateResult]) -> GateRun:
    return GateRun.objects.create(
        baseline=baseline,
        scope=scope,
        is_passed=all(result.is_passed for result in results),
        results=[asdict(result) for result in results],
    )


def baseline_latest(*, profile: str = "answer") -> ReleaseBaseline | None:
    return ReleaseBaseline.objects.filter(profile=profile).first()
