"""Billing data: versioned price books, per-user AI policy and budget counters, reservations
and usage events. Money is integer micro-USD (1 USD = 1,000,000 micro-USD) in every column.

This app is the only owner of these tables and the only code that writes them
(``billing.services``); ``docs/BILLING.md`` describes the accounting rules.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


def default_daily_limit_micro_usd() -> int:
    return int(settings.BILLING_DEFAULT_DAILY_LIMIT_MICRO_USD)


def default_monthly_limit_micro_usd() -> int:
    return int(settings.BILLING_DEFAULT_MONTHLY_LIMIT_MICRO_USD)


def default_is_ai_enabled() -> bool:
    return bool(settings.BILLING_DEFAULT_AI_ENABLED)


def default_has_remote_consent() -> bool:
    """Referenced by the first migration only: remote consent lives on the user now
    (``claire.accounts.consent``)."""
    return bool(settings.REMOTE_CONSENT_DEFAULT)


class PriceBook(models.Model):
    """One version of the prices. The version in force at a time is the one with the latest
    ``effective_from`` at or before it. A version is locked by the first reservation that
    prices against it; from then on neither its entries nor its version/effective time can
    change (enforced by database triggers, see the ``price_book_immutability`` migration)."""

    version = models.PositiveIntegerField(unique=True)
    effective_from = models.DateTimeField(db_index=True)
    note = models.CharField(max_length=255, blank=True)
    is_locked = models.BooleanField(default=False)
    locked_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-version"]

    def __str__(self) -> str:
        return f"Price book v{self.version}"


class PriceBookEntry(models.Model):
    """Prices of one provider + model: token rates per million tokens and a flat reserve per
    additional model step, all in micro-USD."""

    price_book = models.ForeignKey(PriceBook, on_delete=models.CASCADE, related_name="entries")
    provider = models.CharField(max_length=64)
    model = models.CharField(max_length=200)
    input_micro_usd_per_million = models.BigIntegerField(default=0)
    cached_input_micro_usd_per_million = models.BigIntegerField(default=0)
    output_micro_usd_per_million = models.BigIntegerField(default=0)
    embedding_micro_usd_per_million = models.BigIntegerField(default=0)
    step_reserve_micro_usd = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["provider", "model"]
        verbose_name_plural = "price book entries"
        constraints = [
            models.UniqueConstraint(
                fields=["price_book", "provider", "model"], name="price_book_entry_unique_model"
            ),
            models.CheckConstraint(
                condition=Q(input_micro_usd_per_million__gte=0)
                & Q(cached_input_micro_usd_per_million__gte=0)
                & Q(output_micro_usd_per_million__gte=0)
                & Q(embedding_micro_usd_per_million__gte=0)
                & Q(step_reserve_micro_usd__gte=0),
                name="price_book_entry_prices_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.provider}/{self.model}"


class AiPolicy(models.Model):
    """Whether a user may use AI at all and their spending limits. Users without a row get the
    defaults from settings. (Consent to remote providers is the user's own decision, kept on
    the user: ``claire.accounts.consent``.)"""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ai_policy"
    )
    is_ai_enabled = models.BooleanField(default=default_is_ai_enabled)
    daily_limit_micro_usd = models.BigIntegerField(default=default_daily_limit_micro_usd)
    monthly_limit_micro_usd = models.BigIntegerField(default=default_monthly_limit_micro_usd)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "AI policy"
        verbose_name_plural = "AI policies"
        constraints = [
            models.CheckConstraint(
                condition=Q(daily_limit_micro_usd__gte=0) & Q(monthly_limit_micro_usd__gte=0),
                name="ai_policy_limits_not_negative",
            )
        ]

    def __str__(self) -> str:
        return f"AI policy of {self.user}"


class PeriodKind(models.TextChoices):
    DAY = "day", "Day"
    MONTH = "month", "Month"


class BudgetPeriod(models.Model):
    """Spend counters of one user for one day or month of their home timezone.

    ``reserved`` holds the estimates of open reservations, ``spent`` the settled costs. Both
    only move through ``billing.services`` while the row is locked, so a reservation is
    admitted only when ``spent + reserved + estimate <= limit``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="budget_periods"
    )
    kind = models.CharField(max_length=8, choices=PeriodKind.choices)
    starts_on = models.DateField(help_text="First local day of the period.")
    spent_micro_usd = models.BigIntegerField(default=0)
    reserved_micro_usd = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-starts_on", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "starts_on"], name="budget_period_unique_user_period"
            ),
            models.CheckConstraint(
                condition=Q(spent_micro_usd__gte=0) & Q(reserved_micro_usd__gte=0),
                name="budget_period_counters_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} {self.starts_on}"


class ReservationState(models.TextChoices):
    OPEN = "open", "Open"
    SETTLED = "settled", "Settled"
    RELEASED = "released", "Released"


class Reservation(models.Model):
    """The maximum cost of one generation attempt, held against the user's day and month
    budgets until the attempt ends. It records the price-book version it was priced with and
    the token plan behind the estimate, so settlement (or the sweeper) prices consistently."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="billing_reservations"
    )
    request_id = models.CharField(max_length=64)
    attempt = models.PositiveSmallIntegerField(default=1)
    price_book = models.ForeignKey(PriceBook, on_delete=models.PROTECT, related_name="+")
    provider = models.CharField(max_length=64)
    model = models.CharField(max_length=200)
    embedding_provider = models.CharField(
        max_length=64, blank=True, help_text="Blank: the query embedding is priced with model."
    )
    embedding_model = models.CharField(max_length=200, blank=True)
    day_period = models.ForeignKey(BudgetPeriod, on_delete=models.PROTECT, related_name="+")
    month_period = models.ForeignKey(BudgetPeriod, on_delete=models.PROTECT, related_name="+")
    query_embedding_tokens = models.PositiveIntegerField(default=0)
    uncached_input_tokens = models.PositiveIntegerField(default=0)
    cache_read_tokens = models.PositiveIntegerField(default=0)
    max_output_tokens = models.PositiveIntegerField(default=0)
    permitted_additional_steps = models.PositiveSmallIntegerField(default=0)
    estimated_micro_usd = models.BigIntegerField()
    settled_micro_usd = models.BigIntegerField(null=True, blank=True)
    state = models.CharField(
        max_length=8, choices=ReservationState.choices, default=ReservationState.OPEN
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField(help_text="After this the sweeper closes it.")
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "request_id", "attempt"], name="reservation_unique_attempt"
            ),
            models.CheckConstraint(
                condition=Q(estimated_micro_usd__gte=0), name="reservation_estimate_not_negative"
            ),
        ]
        indexes = [
            models.Index(
                fields=["expires_at"],
                condition=Q(state="open"),
                name="reservation_open_expiry",
            )
        ]

    def __str__(self) -> str:
        return f"{self.request_id}#{self.attempt} ({self.state})"


class OpenReservation(Reservation):
    """Reservations still holding budget, listed on their own in the admin."""

    class Meta:
        proxy = True
        ordering = ["expires_at"]


class Ending(models.TextChoices):
    COMPLETED = "completed", "Completed"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Cancelled"
    PARTIAL = "partial", "Partial"
    ABANDONED = "abandoned", "Abandoned (closed by the sweeper)"
    NO_CALL = "no_call", "No model call"


class CacheStatus(models.TextChoices):
    NONE = "none", "No cache"
    HIT = "hit", "Hit"
    PARTIAL = "partial", "Partial hit"
    MISS = "miss", "Miss"


class UsageEvent(models.Model):
    """One row per answer attempt, written once at settlement and never updated (a database
    trigger refuses updates). Holds counts, timings and money only: never message text,
    question text, embeddings or credentials."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="usage_events"
    )
    reservation = models.OneToOneField(
        Reservation,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="usage_event",
    )
    request_id = models.CharField(max_length=64)
    attempt = models.PositiveSmallIntegerField(default=1)
    route = models.CharField(max_length=64, blank=True)
    profile = models.CharField(max_length=64, blank=True)
    provider = models.CharField(max_length=64, blank=True)
    model = models.CharField(max_length=200, blank=True)
    price_book = models.ForeignKey(
        PriceBook, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    price_book_version = models.PositiveIntegerField(null=True, blank=True)
    ending = models.CharField(max_length=16, choices=Ending.choices)
    input_tokens = models.PositiveIntegerField(
        default=0, help_text="All prompt tokens, cache reads included."
    )
    cached_input_tokens = models.PositiveIntegerField(
        default=0, help_text="The prompt tokens read from the provider's cache."
    )
    output_tokens = models.PositiveIntegerField(default=0)
    embedding_tokens = models.PositiveIntegerField(default=0)
    is_usage_estimated = models.BooleanField(
        default=False, help_text="The provider did not report usage; the counts are estimates."
    )
    estimated_micro_usd = models.BigIntegerField(default=0)
    settled_micro_usd = models.BigIntegerField(default=0)
    time_to_first_token_ms = models.PositiveIntegerField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    source_count = models.PositiveIntegerField(default=0)
    cache_status = models.CharField(
        max_length=8, choices=CacheStatus.choices, default=CacheStatus.NONE
    )
    error_class = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "request_id", "attempt"], name="usage_event_unique_attempt"
            )
        ]
        indexes = [models.Index(fields=["user", "created_at"], name="usage_event_user_time")]

    def __str__(self) -> str:
        return f"{self.request_id}#{self.attempt} {self.ending}"
