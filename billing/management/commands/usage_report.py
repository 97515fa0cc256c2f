"""What the answers of a period cost and how fast they were, by model profile (no content)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from billing.reports import usage_report
from claire.accounts.models import User


def _moment(value: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise CommandError(f"Not an ISO date or time: {value!r}") from None
    if moment.tzinfo is None:
        raise CommandError(f"Give a UTC offset: {value!r} (for example 2026-05-01T00:00+00:00)")
    return moment


class Command(BaseCommand):
    help = (
        "Usage by model profile over a period: answers, p50/p95 time to first token and "
        "completion latency, tokens, estimated and settled micro-USD, no-call, fallback, "
        "cancellation and stream-failure rates, routes and source counts."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--since", help="Start (ISO with offset); default 24 hours ago.")
        parser.add_argument("--until", help="End (ISO with offset); default now.")
        parser.add_argument("--user", help="Only this user's events (email address).")
        parser.add_argument("--json", action="store_true", help="Print JSON.")

    def handle(self, *args: Any, **options: Any) -> None:
        end = _moment(options["until"]) if options["until"] else timezone.now()
        start = _moment(options["since"]) if options["since"] else end - timedelta(days=1)
        if start >= end:
            raise CommandError("--since must be before --until.")
        user = None
        if options["user"]:
            user = User.objects.filter(email=options["user"].strip().lower()).first()
            if user is None:
                raise CommandError("No user with that email.")
        report = usage_report(start=start, end=end, user=user)
        if options["json"]:
            self.stdout.write(json.dumps(report.as_json(), indent=2))
            return
        self.stdout.write(f"usage {start.isoformat()} .. {end.isoformat()}")
        if not report.profiles:
            self.stdout.write("  no usage events")
        for p in report.profiles:
            self.stdout.write(
                f"  {p.profile}: {p.events} event(s); first token p50/p95 "
                f"{p.ttft_p50_ms}/{p.ttft_p95_ms} ms; completion p50/p95 "
                f"{p.duration_p50_ms}/{p.duration_p95_ms} ms"
            )
            self.stdout.write(
                f"    tokens in {p.input_tokens} (cached {p.cached_input_tokens}), out "
                f"{p.output_tokens}, embedding {p.embedding_tokens}; micro-USD estimated "
                f"{p.estimated_micro_usd}, settled {p.settled_micro_usd}"
            )
            self.stdout.write(
                f"    rates: no call {p.no_call_rate}, fallback {p.fallback_rate}, "
                f"cancelled {p.cancellation_rate}, stream failure {p.stream_failure_rate}, "
                f"estimated usage {p.estimated_usage_rate}; mean sources {p.mean_source_count}"
            )
            routes = ", ".join(f"{route} {n}" for route, n in p.routes.items())
            self.stdout.write(f"    routes: {routes}")
