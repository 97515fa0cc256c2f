"""Factories for model capability records (what a probe verified a model can do)."""

from __future__ import annotations

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory

from claire.ai.config import model_config
from claire.ai.models import ModelCapabilityRecord


class ModelCapabilityRecordFactory(DjangoModelFactory[ModelCapabilityRecord]):
    """A record verified just now, for a model no configuration names."""

    class Meta:
        model = ModelCapabilityRecord

    model_key = factory.Sequence(lambda n: f"test/model-{n}")
    provider = "openai_compatible"
    model = factory.Sequence(lambda n: f"model-{n}")
    config_fingerprint = factory.Sequence(lambda n: f"{n:064x}")
    capabilities = factory.LazyFunction(dict)
    checks = factory.LazyFunction(dict)
    is_probe_ok = True
    error_code = ""
    verified_at = factory.LazyFunction(timezone.now)


def verified_record_for(model_key: str, **capability_overrides: object) -> ModelCapabilityRecord:
    """A probe record matching the model's current configuration (claims verified unless
    overridden)."""
    config = model_config(model_key)
    capabilities = config.capabilities.as_json() | capability_overrides
    record: ModelCapabilityRecord = ModelCapabilityRecordFactory.create(
        model_key=model_key,
        provider=config.provider,
        model=config.model,
        config_fingerprint=config.fingerprint(),
        capabilities=capabilities,
        is_probe_ok=capabilities == config.capabilities.as_json(),
    )
    return record
