"""Operator records: release baselines, gate evaluations, rollouts and their audit log, alert
rules and their firings. Counts, rates, timings and money only; never content."""

from __future__ import annotations

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
    results = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.scope} {'passed' if self.is_passed else 'regressed'}"
