"""Release baselines and gates over usage events."""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO

import pytest
from django.core.management import call_command

from observability.gates import GateThresholds, GroundingResult, grounding_gate
from observability.models import GateRun, ReleaseBaseline
from tests.factories import UserFactory
from tests.observability.factories import BASE_DAY, RELEASE_DAY, answers

pytestmark = pytest.mark.django_db

THRESHOLDS = GateThresholds(
    max_latency_ratio=1.5,
    latency_slack_ms=50,
    max_cost_ratio=1.25,
    max_stream_error_rate=0.05,
    max_grounding_drop=0.02,
    min_answers=5,
)


def _window(day: dt.datetime) -> list[str]:
    return ["--since", day.isoformat(), "--until", (day + dt.timedelta(hours=2)).isoformat()]


def _baseline() -> ReleaseBaseline:
    answers(10, at=BASE_DAY)
    out = StringIO()
    call_command("release_baseline", *_window(BASE_DAY), "--label", "before", stdout=out)
    return ReleaseBaseline.objects.get(pk=json.loads(out.getvalue())["baseline"])


def _gates(*extra: str) -> tuple[int, dict]:
    out = StringIO()
    try:
        call_command(
            "release_gates",
            *_window(RELEASE_DAY),
            "--no-grounding",
            *extra,
            stdout=out,
            stderr=StringIO(),
        )
        code = 0
    except SystemExit as exit_status:
        code = int(exit_status.code or 0)
    return code, json.loads(out.getvalue())


def test_baseline_captures_latency_tokens_requests_and_cost():
    answers(3, at=BASE_DAY - dt.timedelta(days=1))  # outside the window
    baseline = _baseline()
    assert baseline.answers == 10
    assert baseline.label == "before"
    assert (baseline.ttft_p50_ms, baseline.ttft_p95_ms) == (200.0, 200.0)
    assert (baseline.duration_p50_ms, baseline.duration_p95_ms) == (900.0, 900.0)
    assert (baseline.input_tokens, baseline.output_tokens) == (10_000, 2_000)
    assert (baseline.estimated_micro_usd, baseline.settled_micro_usd) == (50_000, 45_000)
    assert baseline.stream_failure_rate == 0.0
    assert baseline.grounding_pass_rate is None


def test_gates_pass_when_the_release_window_looks_like_the_baseline():
    baseline = _baseline()
    answers(10, at=RELEASE_DAY, time_to_first_token_ms=220, duration_ms=950)
    code, report = _gates()
    assert code == 0
    assert report["passed"] is True
    assert {gate["gate"] for gate in report["gates"]} == {
        "cost",
        "stream_error",
        "latency_ttft_p95",
        "latency_completion_p95",
    }
    run = GateRun.objects.get()
    assert (run.baseline, run.scope, run.is_passed) == (baseline, "release", True)


def test_each_regression_fails_its_gate_and_exits_non_zero():
    _baseline()
    answers(8, at=RELEASE_DAY, duration_ms=2_000, settled_micro_usd=9_000)
    answers(2, at=RELEASE_DAY, ending="failed")
    code, report = _gates()
    assert code == 1
    failed = {gate["gate"]: gate for gate in report["gates"] if not gate["is_passed"]}
    assert set(failed) == {"cost", "stream_error", "latency_completion_p95"}
    assert failed["latency_completion_p95"]["limit"] == 900 * 1.5 + 50
    assert failed["stream_error"]["observed"] == 0.2
    assert GateRun.objects.get().is_passed is False


def test_thresholds_are_configurable_on_the_command_line():
    _baseline()
    answers(10, at=RELEASE_DAY, duration_ms=2_000)
    assert _gates()[0] == 1
    code, report = _gates("--max-latency-ratio", "3")
    assert code == 0
    (completion,) = [g for g in report["gates"] if g["gate"] == "latency_completion_p95"]
    assert completion["limit"] == 900 * 3 + 50


def test_too_few_answers_are_not_judged():
    _baseline()
    answers(2, at=RELEASE_DAY, duration_ms=60_000, user=UserFactory())
    code, report = _gates()
    assert code == 0
    assert all("not judged" in gate["detail"] for gate in report["gates"])


def test_no_baseline_is_an_error():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="release_baseline"):
        call_command("release_gates", "--no-grounding", stdout=StringIO())


def test_grounding_gate_holds_the_set_thresholds_and_the_baseline_floor():
    good = GroundingResult(set_name="demo-v1", pass_rate=0.95, is_within_set_thresholds=True)
    assert grounding_gate(grounding=good, baseline_pass_rate=0.96, thresholds=THRESHOLDS).is_passed
    dropped = grounding_gate(grounding=good, baseline_pass_rate=0.98, thresholds=THRESHOLDS)
    assert (dropped.is_passed, dropped.limit) == (False, 0.96)
    below_set = GroundingResult(set_name="demo-v1", pass_rate=0.99, is_within_set_thresholds=False)
    result = grounding_gate(grounding=below_set, baseline_pass_rate=None, thresholds=THRESHOLDS)
    assert (result.is_passed, result.gate) == (False, "grounding:demo-v1")
