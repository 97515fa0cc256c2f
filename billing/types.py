"""Typed values passed into and out of billing; money fields are integer micro-USD."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol

from billing.models import CacheStatus


class UsageLike(Protocol):
    """Token counts of one generation attempt; ``claire.ai.types.Usage`` is one.

    ``uncached_input_tokens`` are the prompt tokens billed at the input rate and
    ``cached_input_tokens`` those read from the provider's prompt cache (cache-read rate): the
    two are disjoint. ``is_estimated`` is true when the provider did not report usage and the
    counts were estimated."""

    @property
    def uncached_input_tokens(self) -> int: ...
    @property
    def cached_input_tokens(self) -> int: ...
    @property
    def output_tokens(self) -> int: ...
    @property
    def embedding_tokens(self) -> int: ...
    @property
    def is_estimated(self) -> bool: ...


@dataclass(frozen=True)
class UsageInput:
    """Billing's own ``UsageLike``: any object with these attributes is accepted."""

    uncached_input_tokens: int = 0
    cached_input_tokens: int = 0
    output_tokens: int = 0
    embedding_tokens: int = 0
    is_estimated: bool = False


@dataclass(frozen=True)
class CostPlan:
    """The most a request may use, the inputs of ``estimated_max_cost``. Input counts come
    from the actual prompt (evidence pack and instructions); ``max_output_tokens`` and
    ``permitted_additional_steps`` from the task profile."""

    query_embedding_tokens: int = 0
    uncached_input_tokens: int = 0
    cache_read_tokens: int = 0
    max_output_tokens: int = 0
    permitted_additional_steps: int = 0

    def __post_init__(self) -> None:
        if (
            min(
                self.query_embedding_tokens,
                self.uncached_input_tokens,
                self.cache_read_tokens,
                self.max_output_tokens,
                self.permitted_additional_steps,
            )
            < 0
        ):
            raise ValueError("a cost plan has no negative counts")


@dataclass(frozen=True)
class CostBreakdown:
    embedding_micro_usd: int = 0
    input_micro_usd: int = 0
    cached_input_micro_usd: int = 0
    output_micro_usd: int = 0
    steps_micro_usd: int = 0

    @property
    def total_micro_usd(self) -> int:
        return (
            self.embedding_micro_usd
            + self.input_micro_usd
            + self.cached_input_micro_usd
            + self.output_micro_usd
            + self.steps_micro_usd
        )


@dataclass(frozen=True)
class UsageTelemetry:
    """What the usage event records besides tokens and money. Counts and timings only: no
    message text, question text, embeddings or credentials can be expressed here."""

    route: str = ""
    profile: str = ""
    time_to_first_token_ms: int | None = None
    duration_ms: int | None = None
    source_count: int = 0
    cache_status: str = CacheStatus.NONE
    error_class: str = ""


@dataclass(frozen=True)
class EffectivePolicy:
    is_ai_enabled: bool
    daily_limit_micro_usd: int
    monthly_limit_micro_usd: int


@dataclass(frozen=True)
class PeriodSpend:
    kind: str
    starts_on: date
    resets_at: datetime
    limit_micro_usd: int
    spent_micro_usd: int
    reserved_micro_usd: int

    @property
    def remaining_micro_usd(self) -> int:
        return max(0, self.limit_micro_usd - self.spent_micro_usd - self.reserved_micro_usd)


@dataclass(frozen=True)
class SpendSummary:
    policy: EffectivePolicy
    day: PeriodSpend
    month: PeriodSpend

    @property
    def remaining_micro_usd(self) -> int:
        return min(self.day.remaining_micro_usd, self.month.remaining_micro_usd)
