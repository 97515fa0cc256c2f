"""Operator reports over usage events: the numbers a dashboard breaks down, never content.

``usage_report`` aggregates the append-only usage events of a period (all users, or one) by
model profile: answers, p50/p95 time to first token and completion latency, input, output and
cache tokens, estimated and settled micro-USD, the no-call, fallback, cancellation and stream
failure rates, the retrieval routes and the mean source count. One query per profile for the
percentiles and counts (PostgreSQL ``percentile_cont``) and one for the routes.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import (
    Aggregate,
    Avg,
    Count,
    F,
    FloatField,
    Q,
    QuerySet,
    Sum,
)

from billing.models import Ending, UsageEvent
from claire.accounts.models import User


class Percentile(Aggregate):
    """``percentile_cont(fraction) WITHIN GROUP (ORDER BY expression)``; NULLs are ignored."""

    function = "percentile_cont"
    template = "%(function)s(%(fraction)s) WITHIN GROUP (ORDER BY %(expressions)s)"
    output_field = FloatField()

    def __init__(self, expression: Any, *, fraction: float, **extra: Any) -> None:
        if not 0.0 <= fraction <= 1.0:
            raise ValueError("fraction must be within [0, 1]")
        super().__init__(expression, fraction=repr(float(fraction)), **extra)


@dataclass(frozen=True)
class ProfileUsage:
    profile: str
    events: int
    ttft_p50_ms: float | None
    ttft_p95_ms: float | None
    duration_p50_ms: float | None
    duration_p95_ms: float | None
    input_tokens: int
    cached_input_tokens: int
    output_tokens: int
    embedding_tokens: int
    estimated_micro_usd: int
    settled_micro_usd: int
    no_call_rate: float
    fallback_rate: float
    cancellation_rate: float
    stream_failure_rate: float
    estimated_usage_rate: float
    mean_source_count: float | None
    routes: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class UsageReport:
    start: datetime
    end: datetime
    profiles: tuple[ProfileUsage, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "profiles": [asdict(profile) for profile in self.profiles],
        }


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def usage_report(
    *,
    start: datetime,
    end: datetime,
    user: User | None = None,
    user_ids: Collection[int] | None = None,
) -> UsageReport:
    """Usage events created in ``[start, end)``, for ``user``, the users ``user_ids`` (a
    cohort) or everyone, by profile."""
    events: QuerySet[UsageEvent] = UsageEvent.objects.filter(
        created_at__gte=start, created_at__lt=end
    )
    if user is not None:
        events = events.filter(user=user)
    if user_ids is not None:
        events = events.filter(user_id__in=list(user_ids))
    # A fallback: the model that ran is not the one the reservation was made for.
    fell_back = Q(reservation__isnull=False) & (
        ~Q(provider=F("reservation__provider")) | ~Q(model=F("reservation__model"))
    )
    rows = (
        events.values("profile")
        .order_by("profile")
        .annotate(
            events=Count("pk"),
            ttft_p50=Percentile("time_to_first_token_ms", fraction=0.5),
            ttft_p95=Percentile("time_to_first_token_ms", fraction=0.95),
            duration_p50=Percentile("duration_ms", fraction=0.5),
            duration_p95=Percentile("duration_ms", fraction=0.95),
            input_tokens=Sum("input_tokens"),
            cached_input_tokens=Sum("cached_input_tokens"),
            output_tokens=Sum("output_tokens"),
            embedding_tokens=Sum("embedding_tokens"),
            estimated_micro_usd=Sum("estimated_micro_usd"),
            settled_micro_usd=Sum("settled_micro_usd"),
            no_call=Count("pk", filter=Q(ending=Ending.NO_CALL)),
            fallback=Count("pk", filter=fell_back),
            cancelled=Count("pk", filter=Q(ending=Ending.CANCELLED)),
            stream_failed=Count("pk", filter=Q(ending__in=[Ending.FAILED, Ending.PARTIAL])),
            estimated_usage=Count("pk", filter=Q(is_usage_estimated=True)),
            mean_sources=Avg("source_count"),
        )
    )
    routes: dict[str, dict[str, int]] = {}
    for row in (
        events.values("profile", "route").order_by("profile", "route").annotate(n=Count("pk"))
    ):
        routes.setdefault(row["profile"], {})[row["route"] or "-"] = row["n"]
    profiles = tuple(
        ProfileUsage(
            profile=row["profile"] or "-",
            events=row["events"],
            ttft_p50_ms=_rounded(row["ttft_p50"]),
            ttft_p95_ms=_rounded(row["ttft_p95"]),
            duration_p50_ms=_rounded(row["duration_p50"]),
            duration_p95_ms=_rounded(row["duration_p95"]),
            input_tokens=row["input_tokens"] or 0,
            cached_input_tokens=row["cached_input_tokens"] or 0,
            output_tokens=row["output_tokens"] or 0,
            embedding_tokens=row["embedding_tokens"] or 0,
            estimated_micro_usd=row["estimated_micro_usd"] or 0,
            settled_micro_usd=row["settled_micro_usd"] or 0,
            no_call_rate=_rate(row["no_call"], row["events"]),
            fallback_rate=_rate(row["fallback"], row["events"]),
            cancellation_rate=_rate(row["cancelled"], row["events"]),
            stream_failure_rate=_rate(row["stream_failed"], row["events"]),
            estimated_usage_rate=_rate(row["estimated_usage"], row["events"]),
            mean_source_count=_rounded(row["mean_sources"]),
            routes=routes.get(row["profile"], {}),
        )
        for row in rows
    )
    return UsageReport(start=start, end=end, profiles=profiles)
