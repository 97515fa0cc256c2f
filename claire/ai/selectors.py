"""Reads of the AI runtime's table (capability records are global, not per user)."""

from __future__ import annotations

from collections.abc import Iterable

from claire.ai.models import ModelCapabilityRecord


def capability_records_by_key(*, model_keys: Iterable[str]) -> dict[str, ModelCapabilityRecord]:
    records = ModelCapabilityRecord.objects.filter(model_key__in=list(model_keys))
    return {record.model_key: record for record in records}
