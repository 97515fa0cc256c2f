"""Factories for model capability records (what a probe verified a model can do)."""

from __future__ import annotations

import factory
from factory.django import DjangoModelFactory

from claire.ai.models import ModelCapabilityRecord
from tests.factories._times import ANCHOR


class ModelCapabilityRecordFactory(DjangoModelFactory[ModelCapabilityRecord]):
    class Meta:
        model = ModelCapabilityRecord

    model_key = factory.Sequence(lambda n: f"openai/model-{n}")
    provider = "openai"
    model = factory.LazyAttribute(lambda record: record.model_key.split("/", 1)[1])
    config_fingerprint = factory.Sequence(lambda n: f"{n:064x}")
    capabilities = factory.LazyFunction(lambda: {"streaming": True, "tools": False})
    is_probe_ok = True
    verified_at = ANCHOR
