"""The AI runtime's one table: what a probe verified about each configured model."""

from __future__ import annotations

from django.db import models


class ModelCapabilityRecord(models.Model):
    """The latest probe of one configured model (``python manage.py probe_models``).

    ``capabilities`` holds what the probe verified (a claim that failed is stored as False),
    ``checks`` a short result per exercised capability. Routing trusts a record only while
    ``config_fingerprint`` matches the model's current configuration.
    """

    model_key = models.CharField(max_length=200, unique=True)
    provider = models.CharField(max_length=50)
    model = models.CharField(max_length=200)
    config_fingerprint = models.CharField(max_length=64)
    capabilities = models.JSONField(default=dict, blank=True)
    checks = models.JSONField(default=dict, blank=True)
    is_probe_ok = models.BooleanField(default=False)
    error_code = models.CharField(max_length=50, blank=True, default="")
    verified_at = models.DateTimeField()

    class Meta:
        ordering = ("model_key",)

    def __str__(self) -> str:
        return f"{self.model_key} ({'ok' if self.is_probe_ok else self.error_code or 'failed'})"
