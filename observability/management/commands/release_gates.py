"""Evaluate the release gates against the stored baseline; exit 1 on a regression.

    python manage.py release_gates [--baseline ID] [--hours 24 | --since ISO [--until ISO]]
        [--set demo-v1 [--set demo-v2]] [--no-grounding]
        [--max-latency-ratio R] [--latency-slack-ms MS] [--max-cost-ratio R]
        [--max-stream-error-rate R] [--max-grounding-drop D] [--min-answers N]

Grounding runs each golden set through ``run_evals`` (``RELEASE_GATE_GOLDEN_SETS``, demo-v1
by default); cost, stream errors
and latency compare the window's answers with the baseline (``release_baseline``). Thresholds
default to the ``RELEASE_GATE_*`` settings. The evaluation is stored as a ``GateRun``.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, replace
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from observability.gates import (
    GateResult,
    GateThresholds,
    baseline_latest,
    gate_run_record,
    gates_evaluate,
    grounding_gate,
    grounding_run,
)
from observability.management.commands.release_baseline import add_window_arguments, window_from
from observability.models import ReleaseBaseline

OVERRIDES = {
    "max_latency_ratio": float,
    "latency_slack_ms": float,
    "max_cost_ratio": float,
    "max_stream_error_rate": float,
    "max_grounding_drop": float,
    "min_answers": int,
}


class Command(BaseCommand):
    help = "Evaluate grounding, cost, stream-error and latency gates against the baseline."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--baseline", type=int, default=None, help="default: the latest")
        add_window_arguments(parser, default_hours=24)
        parser.add_argument("--set", action="append", dest="sets", default=None)
        parser.add_argument("--no-grounding", action="store_true")
        for name, kind in OVERRIDES.items():
            parser.add_argument(f"--{name.replace('_', '-')}", type=kind, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["baseline"] is not None:
            baseline = ReleaseBaseline.objects.filter(pk=options["baseline"]).first()
        else:
            baseline = baseline_latest()
        if baseline is None:
            raise CommandError("no baseline: run `manage.py release_baseline` first")
        thresholds = replace(
            GateThresholds.from_settings(),
            **{name: options[name] for name in OVERRIDES if options[name] is not None},
        )
        start, end = window_from(options)
        results: list[GateResult] = []
        if not options["no_grounding"]:
            for set_name in options["sets"] or settings.RELEASE_GATE_GOLDEN_SETS:
                grounding = grounding_run(set_name=set_name)
                same_set = baseline.grounding_set == set_name
                results.append(
                    grounding_gate(
                        grounding=grounding,
                        baseline_pass_rate=baseline.grounding_pass_rate if same_set else None,
                        thresholds=thresholds,
                    )
                )
        results += gates_evaluate(baseline=baseline, start=start, end=end, thresholds=thresholds)
        run = gate_run_record(baseline=baseline, scope="release", results=results)
        self.stdout.write(
            json.dumps(
                {
                    "gateRun": run.pk,
                    "baseline": baseline.pk,
                    "passed": run.is_passed,
                    "gates": [asdict(result) for result in results],
                },
                indent=2,
            )
        )
        if not run.is_passed:
            failed = [result.gate for result in results if not result.is_passed]
            self.stderr.write("regression: " + ", ".join(failed))
            sys.exit(1)
