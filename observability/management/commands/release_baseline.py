"""Capture the release baseline: latency, tokens, requests and cost of a window's answers.

    python manage.py release_baseline [--hours 24 | --since ISO [--until ISO]]
        [--profile answer] [--label TEXT] [--grounding demo-v1]

Reads the usage events (one per answer) of the window and stores a ``ReleaseBaseline`` row
that ``release_gates`` and the rollout watcher compare against. ``--grounding`` also runs a
golden set through ``run_evals`` and stores its pass rate.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from observability.gates import baseline_capture, grounding_run


def window_from(options: dict[str, Any]) -> tuple[datetime, datetime]:
    end = timezone.now()
    if options["until"]:
        end = _aware(options["until"])
    if options["since"]:
        return _aware(options["since"]), end
    return end - timedelta(hours=options["hours"]), end


def _aware(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise CommandError(f"{text}: needs a UTC offset, e.g. 2026-05-20T10:00:00+00:00")
    return moment


def add_window_arguments(parser: CommandParser, *, default_hours: int) -> None:
    parser.add_argument("--hours", type=int, default=default_hours)
    parser.add_argument("--since", default="", help="ISO time with offset")
    parser.add_argument("--until", default="", help="ISO time with offset (default now)")


class Command(BaseCommand):
    help = "Store the latency, tokens, requests and cost of a window's answers as a baseline."

    def add_arguments(self, parser: CommandParser) -> None:
        add_window_arguments(parser, default_hours=24 * 7)
        parser.add_argument("--profile", default="answer")
        parser.add_argument("--label", default="")
        parser.add_argument("--grounding", default="", help="a golden set to run, e.g. demo-v1")

    def handle(self, *args: Any, **options: Any) -> None:
        start, end = window_from(options)
        grounding = grounding_run(set_name=options["grounding"]) if options["grounding"] else None
        baseline = baseline_capture(
            start=start,
            end=end,
            profile=options["profile"],
            label=options["label"],
            grounding=grounding,
        )
        self.stdout.write(
            json.dumps(
                {
                    "baseline": baseline.pk,
                    "profile": baseline.profile,
                    "windowStart": start.isoformat(),
                    "windowEnd": end.isoformat(),
                    "answers": baseline.answers,
                    "ttftP50Ms": baseline.ttft_p50_ms,
                    "ttftP95Ms": baseline.ttft_p95_ms,
                    "completionP50Ms": baseline.duration_p50_ms,
                    "completionP95Ms": baseline.duration_p95_ms,
                    "inputTokens": baseline.input_tokens,
                    "outputTokens": baseline.output_tokens,
                    "cachedInputTokens": baseline.cached_input_tokens,
                    "embeddingTokens": baseline.embedding_tokens,
                    "estimatedMicroUsd": baseline.estimated_micro_usd,
                    "settledMicroUsd": baseline.settled_micro_usd,
                    "streamFailureRate": baseline.stream_failure_rate,
                    "groundingPassRate": baseline.grounding_pass_rate,
                },
                indent=2,
            )
        )
