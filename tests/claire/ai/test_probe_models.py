"""probe_models: records verified capabilities for local and fake-server models, records
failed claims as False, and routing follows the records."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from claire.ai.config import model_config
from claire.ai.models import ModelCapabilityRecord
from claire.ai.profiles import eligible_candidates
from claire.ai.types import DataPolicy
from tests.claire.ai.conftest import FAKE_KEY_ENV, fake_model
from tests.claire.ai.fake_openai_server import EMBEDDING_DIMENSIONS

pytestmark = pytest.mark.django_db


def probe(*keys: str) -> str:
    out = StringIO()
    call_command("probe_models", *[f"--model={key}" for key in keys], stdout=out)
    return out.getvalue()


def test_local_models_are_probed_and_recorded(configure_ai):
    configure_ai(profiles={"embed": {"candidates": ["local/hash-embed"]}})

    output = probe("local/extractive", "local/hash-embed")

    extractive = ModelCapabilityRecord.objects.get(model_key="local/extractive")
    assert extractive.is_probe_ok is True
    assert extractive.provider == "local"
    assert extractive.model == "extractive-answerer-v1"
    assert extractive.capabilities["streaming"] is True
    assert extractive.checks["streaming"]["ok"] is True
    assert extractive.checks["streaming"]["deltas"] > 1
    assert extractive.config_fingerprint == model_config("local/extractive").fingerprint()
    hashed = ModelCapabilityRecord.objects.get(model_key="local/hash-embed")
    assert hashed.capabilities["embedding_dimensions"] == 384
    assert hashed.checks["embeddings"] == {"ok": True, "dimensions": [384]}
    assert "local/extractive: ok" in output
    assert ModelCapabilityRecord.objects.count() == 2


def test_fake_server_models_are_probed_and_verified_claims_recorded(configure_ai, fake_openai):
    embed_entry = fake_model(fake_openai, "embed-ok", streaming=False, usage_reporting=True)
    embed_entry["capabilities"] = {
        "embedding_dimensions": EMBEDDING_DIMENSIONS,
        "usage_reporting": True,
    }
    configure_ai(
        models={
            "fake/chat": fake_model(fake_openai, "chat-ok"),
            "fake/json": fake_model(fake_openai, "chat-json", structured_output=True),
            "fake/tools": fake_model(fake_openai, "chat-tools", tool_calling=True),
            "fake/embed": embed_entry,
        }
    )

    probe("fake/chat", "fake/json", "fake/tools", "fake/embed")

    records = {record.model_key: record for record in ModelCapabilityRecord.objects.all()}
    assert set(records) == {"fake/chat", "fake/json", "fake/tools", "fake/embed"}
    assert all(record.is_probe_ok for record in records.values())
    assert records["fake/chat"].capabilities["streaming"] is True
    assert records["fake/chat"].capabilities["usage_reporting"] is True
    assert records["fake/chat"].checks["streaming"]["deltas"] == 5
    assert records["fake/json"].capabilities["structured_output"] is True
    assert records["fake/tools"].capabilities["tool_calling"] is True
    assert records["fake/embed"].capabilities["embedding_dimensions"] == EMBEDDING_DIMENSIONS
    assert records["fake/embed"].capabilities["usage_reporting"] is True


def test_failed_claims_are_recorded_false_and_exclude_the_model(configure_ai, fake_openai):
    configure_ai(
        models={
            # Claims JSON mode, but answers prose; claims usage, but never sends it.
            "fake/liar": fake_model(fake_openai, "chat-no-usage", structured_output=True),
            "fake/down": fake_model(fake_openai, "chat-500"),
        },
        profiles={
            "answer": {"candidates": ["fake/down", "fake/liar"]},
            "extract": {"candidates": ["fake/liar"]},
        },
    )

    output = probe("fake/liar", "fake/down")

    liar = ModelCapabilityRecord.objects.get(model_key="fake/liar")
    assert liar.is_probe_ok is False
    assert liar.capabilities["streaming"] is True
    assert liar.capabilities["structured_output"] is False
    assert liar.capabilities["usage_reporting"] is False
    down = ModelCapabilityRecord.objects.get(model_key="fake/down")
    assert down.is_probe_ok is False
    assert down.error_code == "provider_unavailable"
    assert down.capabilities["streaming"] is False
    assert "fake/down: FAILED (provider_unavailable)" in output
    # Streaming was verified for the liar, JSON mode was not; nothing was verified for down.
    answer = eligible_candidates(profile="answer", data_policy=DataPolicy.ALLOW_REMOTE)
    assert [candidate.model.key for candidate in answer] == ["fake/liar"]
    assert eligible_candidates(profile="extract", data_policy=DataPolicy.ALLOW_REMOTE) == []


def test_probing_again_replaces_the_record(configure_ai):
    configure_ai()
    probe("local/extractive")
    first = ModelCapabilityRecord.objects.get(model_key="local/extractive")

    probe("local/extractive")

    second = ModelCapabilityRecord.objects.get(model_key="local/extractive")
    assert second.pk == first.pk
    assert second.verified_at > first.verified_at
    assert ModelCapabilityRecord.objects.count() == 1


def test_unknown_model_key_is_refused_and_nothing_is_stored(configure_ai):
    configure_ai()

    with pytest.raises(CommandError, match="unknown AI models: nope/model"):
        probe("nope/model")

    assert ModelCapabilityRecord.objects.count() == 0


def test_model_without_its_credential_is_recorded_without_calling_it(
    configure_ai, fake_openai, monkeypatch
):
    configure_ai(models={"fake/chat": fake_model(fake_openai, "chat-ok")})
    monkeypatch.delenv(FAKE_KEY_ENV)

    output = probe("fake/chat")

    record = ModelCapabilityRecord.objects.get(model_key="fake/chat")
    assert record.is_probe_ok is False
    assert record.error_code == "missing_credentials"
    assert record.capabilities["streaming"] is False
    assert fake_openai.requests == []
    assert "fake/chat: FAILED (missing_credentials)" in output
