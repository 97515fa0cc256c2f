"""Configuration: layering, TOML and JSON sources, and refusals."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ImproperlyConfigured

from claire.ai.config import Capabilities, ai_config, build_config
from claire.ai.types import ModelDataPolicy

TOML = """
[models."openai/gpt-4.1-mini"]
provider = "openai"
model = "gpt-4.1-mini"
api_key_env = "OPENAI_API_KEY"
data_policy = "remote"

[models."openai/gpt-4.1-mini".capabilities]
streaming = true
structured_output = true
usage_reporting = true
max_context_tokens = 1047576

[profiles.answer]
candidates = ["openai/gpt-4.1-mini", "local/extractive"]
first_token_timeout_s = 12.5
"""


def test_toml_file_adds_models_and_overrides_profile_fields(settings, tmp_path):
    path = tmp_path / "ai.toml"
    path.write_text(TOML)
    settings.AI_CONFIG = str(path)

    config = ai_config()

    model = config.models["openai/gpt-4.1-mini"]
    assert (model.provider, model.model, model.api_key_env) == (
        "openai",
        "gpt-4.1-mini",
        "OPENAI_API_KEY",
    )
    assert model.data_policy == ModelDataPolicy.REMOTE
    assert model.capabilities == Capabilities(
        streaming=True, structured_output=True, usage_reporting=True, max_context_tokens=1047576
    )
    answer = config.profile("answer")
    assert answer.candidates == ("openai/gpt-4.1-mini", "local/extractive")
    assert answer.first_token_timeout_s == 12.5
    assert answer.requires == frozenset({"streaming"})  # default kept
    assert "local/minilm" in config.models  # built-ins stay


def test_inline_json_configuration(settings):
    settings.AI_CONFIG = json.dumps(
        {
            "models": {
                "ollama/llama3": {
                    "provider": "ollama",
                    "model": "llama3.1:8b",
                    "api_base": "http://127.0.0.1:11434",
                    "data_policy": "local",
                    "capabilities": {"streaming": True},
                }
            },
            "profiles": {"draft": {"candidates": ["ollama/llama3"]}},
        }
    )

    config = ai_config()

    assert config.profile("draft").candidates == ("ollama/llama3",)
    assert config.models["ollama/llama3"].data_policy == ModelDataPolicy.LOCAL


def test_configuration_change_resets_the_cached_config(settings):
    settings.AI_PROFILES = {"answer": {"candidates": ["local/extractive"]}}
    assert ai_config().profile("answer").candidates == ("local/extractive",)

    settings.AI_PROFILES = {"answer": {"candidates": ["local/mock"]}}

    assert ai_config().profile("answer").candidates == ("local/mock",)


@pytest.mark.parametrize(
    ("models", "profiles", "message"),
    [
        (
            {"x/y": {"provider": "openai", "model": "m", "data_policy": "remote", "api_key": "sk"}},
            {},
            "credentials are never configured directly",
        ),
        (
            {"x/y": {"provider": "vendor", "model": "m", "data_policy": "remote"}},
            {},
            "unknown provider",
        ),
        (
            {"x/y": {"provider": "local", "model": "m", "data_policy": "remote"}},
            {},
            "in-process models are local",
        ),
        ({}, {"answer": {"candidates": ["missing/model"]}}, "unconfigured model 'missing/model'"),
        ({}, {"answer": {"requires": ["telepathy"]}}, "unknown capabilities"),
        ({}, {"summarize": {"candidates": []}}, "profile 'summarize': \"kind\" is missing"),
        (
            {},
            {"summarize": {"kind": "chat", "candidates": []}},
            '"kind" is \'chat\', not "embedding" or "generation"',
        ),
        (
            {
                "x/y": {
                    "provider": "openai",
                    "model": "m",
                    "data_policy": "remote",
                    "capabilities": {"vision": True},
                }
            },
            {},
            "unknown model capabilities",
        ),
    ],
)
def test_invalid_configuration_is_refused(models, profiles, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        build_config(models=models, profiles=profiles, external={})


def test_missing_config_file_is_refused(settings, tmp_path):
    settings.AI_CONFIG = str(tmp_path / "absent.toml")

    with pytest.raises(ImproperlyConfigured, match="missing file"):
        ai_config()
