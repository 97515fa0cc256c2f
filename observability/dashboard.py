"""The staff dashboard's figures: one window (1h, 24h, 7d, 30d) cut into buckets, each
bucket's usage report for one model profile, and the window's route mix, source counts and
per-profile table. Counts, timings and money only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count
from django.utils import timezone

from billing.models import UsageEvent
from billing.reports import ProfileUsage, usage_report
from observability.charts import Series, bar_chart, line_chart, stacked_bar_chart
from observability.models import AlertFiring, AlertRule, GateRun, Rollout

# name -> (window length, bucket count, bucket label format)
WINDOWS: dict[str, tuple[timedelta, int, str]] = {
    "15m": (timedelta(minutes=15), 15, "%H:%M"),
    "1h": (timedelta(hours=1), 12, "%H:%M"),
    "24h": (timedelta(hours=24), 24, "%H:%M"),
    "7d": (timedelta(days=7), 14, "%d %b"),
    "30d": (timedelta(days=30), 30, "%d %b"),
}
DEFAULT_WINDOW = "24h"


@dataclass(frozen=True)
class Dashboard:
    window: str
    profile: str
    start: datetime
    end: datetime
    charts: list[str]
    profiles: tuple[ProfileUsage, ...]
    profile_names: list[str]
    rules: list[AlertRule]
    firings: list[AlertFiring]
    rollouts: list[Rollout]
    gate_runs: list[GateRun]


def _for(report_profiles: tuple[ProfileUsage, ...], profile: str) -> ProfileUsage | None:
    return next((usage for usage in report_profiles if usage.profile == profile), None)


def dashboard_build(*, window: str, profile: str, now: datetime | None = None) -> Dashboard:
    now = now or timezone.now()
    length, count, label_format = WINDOWS.get(window, WINDOWS[DEFAULT_WINDOW])
    window = window if window in WINDOWS else DEFAULT_WINDOW
    start = now - length
    step = length / count
    labels: list[str] = []
    buckets: list[ProfileUsage | None] = []
    for index in range(count):
        bucket_start = start + step * index
        labels.append(timezone.localtime(bucket_start + step).strftime(label_format))
        report = usage_report(start=bucket_start, end=bucket_start + step)
        buckets.append(_for(report.profiles, profile))

    def values(name: str) -> list[float | None]:
        return [None if b is None else getattr(b, name) for b in buckets]

    def totals(name: str) -> list[float | None]:
        return [0.0 if b is None else float(getattr(b, name)) for b in buckets]

    whole = usage_report(start=start, end=now)
    selected = _for(whole.profiles, profile)
    routes = selected.routes if selected else {}
    sources = (
        UsageEvent.objects.filter(created_at__gte=start, created_at__lt=now, profile=profile)
        .values("source_count")
        .order_by("source_count")
        .annotate(n=Count("pk"))
    )
    source_counts = {row["source_count"]: row["n"] for row in sources}
    uncached = [
        None if b is None else float(b.input_tokens - b.cached_input_tokens) for b in buckets
    ]
    charts = [
        line_chart(
            "Time to first token (ms)",
            labels,
            [Series("p50", values("ttft_p50_ms")), Series("p95", values("ttft_p95_ms"))],
        ),
        line_chart(
            "Completion (ms)",
            labels,
            [Series("p50", values("duration_p50_ms")), Series("p95", values("duration_p95_ms"))],
        ),
        stacked_bar_chart(
            "Tokens by kind",
            labels,
            [
                Series("input", uncached),
                Series("cached", totals("cached_input_tokens")),
                Series("output", totals("output_tokens")),
                Series("embedding", totals("embedding_tokens")),
            ],
        ),
        line_chart(
            "Cost (micro-USD)",
            labels,
            [
                Series("estimated", totals("estimated_micro_usd")),
                Series("settled", totals("settled_micro_usd")),
            ],
        ),
        line_chart(
            "Rates",
            labels,
            [
                Series("no call", values("no_call_rate")),
                Series("fallback", values("fallback_rate")),
                Series("cancelled", values("cancellation_rate")),
                Series("stream failed", values("stream_failure_rate")),
            ],
        ),
        line_chart("Answers", labels, [Series("answers", totals("events"))]),
        bar_chart("Route mix", list(routes), [float(n) for n in routes.values()]),
        bar_chart(
            "Sources per answer",
            [str(n) for n in source_counts],
            [float(n) for n in source_counts.values()],
        ),
    ]
    profile_names = sorted(
        {profile, *UsageEvent.objects.values_list("profile", flat=True).distinct()} - {""}
    )
    return Dashboard(
        window=window,
        profile=profile,
        start=start,
        end=now,
        charts=charts,
        profiles=whole.profiles,
        profile_names=profile_names,
        rules=list(AlertRule.objects.all()),
        firings=list(AlertFiring.objects.select_related("rule")[:10]),
        rollouts=list(Rollout.objects.order_by("feature")),
        gate_runs=list(GateRun.objects.all()[:10]),
    )
