"""Writes to the AI runtime's table."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from claire.ai.capabilities import ProbeResult
from claire.ai.config import ModelConfig
from claire.ai.models import ModelCapabilityRecord

logger = logging.getLogger(__name__)


@transaction.atomic
def capability_record_store(*, model: ModelConfig, result: ProbeResult) -> ModelCapabilityRecord:
    """Replace the record of ``model`` with what ``result`` verified, stamped now."""
    record, _ = ModelCapabilityRecord.objects.update_or_create(
        model_key=model.key,
        defaults={
            "provider": model.provider,
            "model": model.model,
            "config_fingerprint": model.fingerprint(),
            "capabilities": result.capabilities.as_json(),
            "checks": result.checks,
            "is_probe_ok": result.is_ok,
            "error_code": result.error_code,
            "verified_at": timezone.now(),
        },
    )
    logger.info(
        "ai.capability_record_stored",
        extra={
            "model_key": model.key,
            "is_probe_ok": result.is_ok,
            "error_code": result.error_code,
        },
    )
    return record
