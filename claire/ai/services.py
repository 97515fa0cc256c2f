"""Writes to the AI runtime's table."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.utils import timezone

from claire.ai.capabilities import ProbeResult, probe_model
from claire.ai.config import ModelConfig, ai_config
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


def models_probe(*, model_keys: Sequence[str] = ()) -> list[ModelCapabilityRecord]:
    """Probe the given configured models (all of them by default) and store each result.

    Probes run one after another: they are few, and a probe measures one model at a time.
    """
    models = ai_config().models
    unknown = [key for key in model_keys if key not in models]
    if unknown:
        raise ImproperlyConfigured(f"unknown AI models: {', '.join(unknown)}")
    selected = [models[key] for key in (model_keys or sorted(models))]

    async def probe_all() -> list[ProbeResult]:
        return [await probe_model(model) for model in selected]

    results = asyncio.run(probe_all())
    return [
        capability_record_store(model=model, result=result)
        for model, result in zip(selected, results, strict=True)
    ]
