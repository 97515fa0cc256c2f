"""Operator records: release baselines, gate evaluations, rollouts and their audit log, alert
rules and their firings. Counts, rates, timings and money only; never content."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ReleaseBaseline(models.Model):
    """What answers looked like over a window (``release_baseline``): the reference the
    release gates compare against. Money in integer micro-USD."""

    label = models.CharField(max_length=80, blank=True)
    profile = models.CharField(max_length=64, default="answer")
    window_start = models.DateTimeField()
    window_end = models.DateTimeField()
    answers = models.PositiveIntegerField(help_text="Usage events (requests) in the window.")
    ttft_p50_ms = models.FloatField(null=True, blank=True)
    ttft_p95_ms = models.FloatField(null=True, blank=True)
    duration_p50_ms = models.FloatField(null=True, blank=True)
    duration_p95_ms = models.FloatField(null=True, blank=True)
    input_tokens = models.BigIntegerField(default=0)
    cached_input_tokens = models.BigIntegerField(default=0)
    output_tokens = models.BigIntegerField(default=0)
    embedding_tokens = models.BigIntegerField(default=0)
    estimated_micro_usd = models.BigIntegerField(default=0)
    settled_micro_usd = models.BigIntegerField(default=0)
    stream_failure_rate = models.FloatField(default=0.0)
    cancellation_rate = models.FloatField(default=0.0)
    grounding_pass_rate = models.FloatField(
        null=True, blank=True, help_text="The golden set's pass rate, when it was run."
    )
    grounding_set = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"baseline {self.pk} {self.label or self.profile} ({self.answers} answers)"

    @property
    def settled_micro_usd_per_answer(self) -> float:
        return self.settled_micro_usd / self.answers if self.answers else 0.0


class GateRun(models.Model):
    """One evaluation of the release gates: for a release (``release_gates``) or for one
    cohort of a rollout (the beat task). ``results`` lists each gate's figures."""

    baseline = models.ForeignKey(ReleaseBaseline, on_delete=models.PROTECT, related_name="runs")
    scope = models.CharField(max_length=120, help_text="release, or <rollout>:<cohort>.")
    is_passed = models.BooleanField()
    results = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.scope} {'passed' if self.is_passed else 'regressed'}"


class RolloutStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    ROLLED_BACK = "rolled_back", "Rolled back"


class Rollout(models.Model):
    """A feature served to a growing set of accounts: the internal accounts (staff), named
    accounts, then a stable-hash percentage of everyone. Accounts outside the cohorts, and
    everyone once it is rolled back, keep ``previous_profile``."""

    feature = models.SlugField(max_length=64, unique=True)
    profile = models.CharField(max_length=64, help_text="The AI profile being rolled out.")
    previous_profile = models.CharField(
        max_length=64, default="answer", help_text="The profile everyone else keeps."
    )
    status = models.CharField(
        max_length=16, choices=RolloutStatus.choices, default=RolloutStatus.ACTIVE
    )
    includes_internal = models.BooleanField(default=True, help_text="Staff accounts.")
    accounts = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="+", help_text="Named accounts."
    )
    percentage = models.PositiveSmallIntegerField(
        default=0, help_text="Of all accounts, by a stable hash of the account and the feature."
    )
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(percentage__lte=100), name="rollout_percentage_at_most_100"
            )
        ]

    def __str__(self) -> str:
        return f"{self.feature} ({self.status}, {self.percentage}%)"


class RolloutEvent(models.Model):
    """The rollout's audit log: every change, by whom (empty: the automatic watcher), why."""

    rollout = models.ForeignKey(Rollout, on_delete=models.CASCADE, related_name="events")
    action = models.CharField(max_length=32)
    cohort = models.CharField(max_length=32, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    gate_run = models.ForeignKey(
        GateRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.rollout.feature} {self.action} {self.cohort}".strip()


class AlertMetric(models.TextChoices):
    STREAM_FAILURE_RATE = "stream_failure_rate", "Stream failure rate"
    CANCELLATION_RATE = "cancellation_rate", "Cancellation rate"
    FALLBACK_RATE = "fallback_rate", "Fallback rate"
    NO_CALL_RATE = "no_call_rate", "No-call rate"
    SETTLED_MICRO_USD_PER_HOUR = "settled_micro_usd_per_hour", "Spend (settled micro-USD/hour)"
    ESTIMATED_USAGE_RATE = "estimated_usage_rate", "Estimated-usage rate"


class AlertRule(models.Model):
    """Fires when ``metric`` over the last ``window_minutes`` of a profile's answers exceeds
    ``threshold`` (with at least ``min_answers`` answers); resolves when it falls back."""

    name = models.CharField(max_length=80, unique=True)
    metric = models.CharField(max_length=32, choices=AlertMetric.choices)
    profile = models.CharField(max_length=64, default="answer")
    threshold = models.FloatField()
    window_minutes = models.PositiveIntegerField(default=60)
    min_answers = models.PositiveIntegerField(default=5)
    is_enabled = models.BooleanField(default=True)
    sends_webhook = models.BooleanField(default=True, help_text="Post firings to the webhook.")
    is_firing = models.BooleanField(default=False)
    last_value = models.FloatField(null=True, blank=True)
    last_evaluated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class AlertState(models.TextChoices):
    FIRING = "firing", "Firing"
    RESOLVED = "resolved", "Resolved"


class AlertFiring(models.Model):
    """A rule's change of state, and whether the webhook took it."""

    rule = models.ForeignKey(AlertRule, on_delete=models.CASCADE, related_name="firings")
    state = models.CharField(max_length=16, choices=AlertState.choices)
    value = models.FloatField()
    threshold = models.FloatField()
    answers = models.PositiveIntegerField()
    webhook_status = models.CharField(
        max_length=16, blank=True, help_text="sent, failed, or empty when not sent."
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.rule.name} {self.state}"
