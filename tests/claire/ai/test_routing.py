"""Eligibility: data policy, verified capabilities only, stale probes, credentials."""

from __future__ import annotations

import pytest

from claire.ai.config import ai_config
from claire.ai.profiles import candidate_decisions, eligible_candidates
from claire.ai.types import DataPolicy
from tests.claire.ai.conftest import FAKE_KEY_ENV, fake_model
from tests.factories.ai import verified_record_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def remote_then_local(configure_ai, fake_openai):
    configure_ai(
        models={"fake/chat": fake_model(fake_openai, "chat-ok")},
        profiles={"answer": {"candidates": ["fake/chat", "local/extractive"]}},
    )


def keys(candidates) -> list[str]:
    return [candidate.model.key for candidate in candidates]


def reasons(profile: str, policy: DataPolicy) -> dict[str, str]:
    decisions = candidate_decisions(profile=ai_config().profile(profile), data_policy=policy)
    return {decision.model_key: decision.reason for decision in decisions}


def test_shipped_profiles_are_all_local(settings):
    settings.AI_CONFIG = ""  # the shipped settings, without any deployment's file

    answer = eligible_candidates(profile="answer", data_policy=DataPolicy.LOCAL_ONLY)
    embed = eligible_candidates(profile="embed", data_policy=DataPolicy.LOCAL_ONLY)

    assert keys(answer) == ["local/extractive"]
    assert keys(embed) == ["local/minilm"]
    for profile in ("compile_query", "extract", "draft"):
        assert eligible_candidates(profile=profile, data_policy=DataPolicy.ALLOW_REMOTE) == []


def test_users_without_remote_consent_get_only_local_models(remote_then_local):
    verified_record_for("fake/chat")

    assert keys(eligible_candidates(profile="answer", data_policy=DataPolicy.LOCAL_ONLY)) == [
        "local/extractive"
    ]
    assert keys(eligible_candidates(profile="answer", data_policy=DataPolicy.ALLOW_REMOTE)) == [
        "fake/chat",
        "local/extractive",
    ]
    assert reasons("answer", DataPolicy.LOCAL_ONLY)["fake/chat"] == "data_policy"


def test_unverified_remote_model_is_not_eligible(remote_then_local):
    assert reasons("answer", DataPolicy.ALLOW_REMOTE) == {
        "fake/chat": "unverified",
        "local/extractive": "eligible",
    }


def test_probe_of_an_older_configuration_does_not_count(
    remote_then_local, configure_ai, fake_openai
):
    verified_record_for("fake/chat")
    configure_ai(
        models={"fake/chat": fake_model(fake_openai, "chat-ok", max_context_tokens=4096)},
        profiles={"answer": {"candidates": ["fake/chat", "local/extractive"]}},
    )

    assert reasons("answer", DataPolicy.ALLOW_REMOTE)["fake/chat"] == "stale-probe"


def test_capability_that_failed_its_probe_excludes_the_model(remote_then_local):
    verified_record_for("fake/chat", streaming=False)

    assert reasons("answer", DataPolicy.ALLOW_REMOTE)["fake/chat"] == (
        "missing_capability:streaming"
    )


def test_simulated_stream_satisfies_a_streaming_profile(remote_then_local):
    verified_record_for("fake/chat", streaming=False, simulated_stream=True)

    (first, _) = eligible_candidates(profile="answer", data_policy=DataPolicy.ALLOW_REMOTE)
    assert first.model.key == "fake/chat"
    assert first.capabilities.streaming is False
    assert first.capabilities.simulated_stream is True


def test_missing_credential_makes_the_model_ineligible(remote_then_local, monkeypatch):
    verified_record_for("fake/chat")
    monkeypatch.delenv(FAKE_KEY_ENV)

    assert reasons("answer", DataPolicy.ALLOW_REMOTE)["fake/chat"] == "missing_credentials"


def test_in_process_model_with_a_failed_probe_is_excluded(configure_ai):
    configure_ai(profiles={"answer": {"candidates": ["local/extractive"]}})
    verified_record_for("local/extractive", streaming=False)

    assert eligible_candidates(profile="answer", data_policy=DataPolicy.LOCAL_ONLY) == []
