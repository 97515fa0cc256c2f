"""Models and task profiles as configuration.

Three layers, later ones winning: the built-in local models and profile defaults below, the
``AI_MODELS`` / ``AI_PROFILES`` settings, and ``CLAIRE_AI_CONFIG`` (inline JSON, or the path
of a ``.toml`` or ``.json`` file) with the same ``models`` / ``profiles`` tables. Model ids
and endpoints live only here; credentials never do: a model names the environment variable
that holds its key (``api_key_env``) and the key is read at call time.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from claire.ai.types import ModelDataPolicy

# Providers served in this process (no data leaves the machine) and through litellm.
IN_PROCESS_PROVIDERS = frozenset({"local", "mock"})
LITELLM_PROVIDERS = frozenset({"openai", "anthropic", "ollama", "openai_compatible"})

# Capability names a profile can require.
STREAMING = "streaming"
STRUCTURED_OUTPUT = "structured_output"
TOOL_CALLING = "tool_calling"
EMBEDDINGS = "embeddings"
REQUIRABLE_CAPABILITIES = frozenset({STREAMING, STRUCTURED_OUTPUT, TOOL_CALLING, EMBEDDINGS})

ProfileKind = Literal["generation", "embedding"]


@dataclass(frozen=True)
class Capabilities:
    """What a model can do. Declared in configuration; routing uses the probe-verified copy."""

    streaming: bool = False
    structured_output: bool = False
    tool_calling: bool = False
    max_context_tokens: int = 0
    embedding_dimensions: int = 0
    usage_reporting: bool = False
    # Streams by splitting a complete (non-streamed) answer into deltas when it cannot stream.
    simulated_stream: bool = False

    def has(self, capability: str) -> bool:
        if capability == STREAMING:
            return self.streaming or self.simulated_stream
        if capability == STRUCTURED_OUTPUT:
            return self.structured_output
        if capability == TOOL_CALLING:
            return self.tool_calling
        if capability == EMBEDDINGS:
            return self.embedding_dimensions > 0
        raise ValueError(f"unknown capability {capability!r}")

    def missing(self, required: frozenset[str]) -> frozenset[str]:
        return frozenset(name for name in required if not self.has(name))

    def as_json(self) -> dict[str, bool | int]:
        return {item.name: getattr(self, item.name) for item in fields(self)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Capabilities:
        known = {item.name for item in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ImproperlyConfigured(f"unknown model capabilities: {sorted(unknown)}")
        return cls(**dict(data))


@dataclass(frozen=True)
class ModelConfig:
    """One configured model, addressed by its key (for example ``openai/gpt-4.1-mini``)."""

    key: str
    provider: str
    model: str
    data_policy: ModelDataPolicy
    capabilities: Capabilities
    api_base: str = ""
    api_key_env: str = ""
    # Embedding request limits: inputs and estimated tokens per request, tokens per input.
    max_inputs_per_request: int = 0
    max_tokens_per_request: int = 0
    max_input_tokens: int = 0
    max_concurrency: int = 4
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_in_process(self) -> bool:
        return self.provider in IN_PROCESS_PROVIDERS

    def api_key(self) -> str:
        return os.environ.get(self.api_key_env, "") if self.api_key_env else ""

    def fingerprint(self) -> str:
        """Identifies what a probe verified: a changed model, endpoint or claim needs a new one."""
        material = json.dumps(
            {
                "provider": self.provider,
                "model": self.model,
                "api_base": self.api_base,
                "data_policy": str(self.data_policy),
                "capabilities": self.capabilities.as_json(),
            },
            sort_keys=True,
        )
        return hashlib.sha256(material.encode()).hexdigest()


@dataclass(frozen=True)
class ProfileConfig:
    name: str
    kind: ProfileKind
    candidates: tuple[str, ...]
    requires: frozenset[str]
    connect_timeout_s: float = 5.0
    first_token_timeout_s: float = 20.0
    total_timeout_s: float = 90.0
    max_output_tokens: int | None = None
    # Embedding batches: transient failures retry with capped exponential backoff and jitter.
    retry_max_attempts: int = 5
    retry_base_delay_s: float = 0.5
    retry_max_delay_s: float = 20.0


@dataclass(frozen=True)
class AiConfig:
    models: Mapping[str, ModelConfig]
    profiles: Mapping[str, ProfileConfig]

    def profile(self, name: str) -> ProfileConfig:
        try:
            return self.profiles[name]
        except KeyError:
            raise ImproperlyConfigured(f"unknown AI profile {name!r}") from None


# --- built-ins -------------------------------------------------------------------------------

BUILTIN_MODELS: dict[str, dict[str, Any]] = {
    # Composes an answer from the evidence's own sentences; no language model involved.
    "local/extractive": {
        "provider": "local",
        "model": "extractive-answerer-v1",
        "data_policy": "local",
        "capabilities": {"streaming": True, "max_context_tokens": 1_000_000},
    },
    "local/minilm": {
        "provider": "local",
        "model": "all-MiniLM-L6-v2",
        "data_policy": "local",
        "capabilities": {"embedding_dimensions": 384, "usage_reporting": True},
        # The model itself truncates each input at 256 word pieces.
        "max_inputs_per_request": 256,
        "max_tokens_per_request": 65_536,
        "max_concurrency": 1,
    },
    # Deterministic hashed bag of words: for tests and benchmarks of the pipeline around
    # embeddings, never a default (its vectors carry no meaning beyond shared words).
    "local/hash-embed": {
        "provider": "local",
        "model": "hash-embed-384",
        "data_policy": "local",
        "capabilities": {"embedding_dimensions": 384, "usage_reporting": True},
        "max_inputs_per_request": 2048,
        "max_tokens_per_request": 1_000_000,
        "max_input_tokens": 8192,
        "max_concurrency": 1,
    },
    # Scripted stream for tests and UI development; the script comes from ``options``.
    "local/mock": {
        "provider": "mock",
        "model": "mock-scripted",
        "data_policy": "local",
        "capabilities": {"streaming": True, "max_context_tokens": 1_000_000},
    },
}

PROFILE_DEFAULTS: dict[str, dict[str, Any]] = {
    "answer": {
        "kind": "generation",
        "requires": [STREAMING],
        "candidates": ["local/extractive"],
        "max_output_tokens": 1200,
    },
    # The deterministic query compiler is the default; a model is opt-in.
    "compile_query": {
        "kind": "generation",
        "requires": [STRUCTURED_OUTPUT],
        "candidates": [],
        "first_token_timeout_s": 10.0,
        "total_timeout_s": 20.0,
        "max_output_tokens": 600,
    },
    "extract": {
        "kind": "generation",
        "requires": [STRUCTURED_OUTPUT],
        "candidates": [],
        "max_output_tokens": 2000,
    },
    "draft": {
        "kind": "generation",
        "requires": [STREAMING],
        "candidates": [],
        "max_output_tokens": 800,
    },
    "embed": {
        "kind": "embedding",
        "requires": [EMBEDDINGS],
        "candidates": ["local/minilm"],
        "first_token_timeout_s": 60.0,
        "total_timeout_s": 60.0,
    },
}

_MODEL_FIELDS = {item.name for item in fields(ModelConfig)} - {"key"}
_PROFILE_FIELDS = {item.name for item in fields(ProfileConfig)} - {"name"}


# --- loading ---------------------------------------------------------------------------------


def _read_external(source: str) -> dict[str, Any]:
    if not source:
        return {}
    text = source.strip()
    if text.startswith("{"):
        document = json.loads(text)
    else:
        path = Path(source)
        if not path.is_file():
            raise ImproperlyConfigured(f"CLAIRE_AI_CONFIG names a missing file: {source}")
        if path.suffix == ".toml":
            document = tomllib.loads(path.read_text())
        elif path.suffix == ".json":
            document = json.loads(path.read_text())
        else:
            raise ImproperlyConfigured("CLAIRE_AI_CONFIG must be JSON, a .toml or a .json file")
    if not isinstance(document, dict) or set(document) - {"models", "profiles"}:
        raise ImproperlyConfigured("AI configuration has two tables: models and profiles")
    return document


def _model_from(key: str, raw: Mapping[str, Any]) -> ModelConfig:
    if "api_key" in raw:
        raise ImproperlyConfigured(
            f"model {key!r}: credentials are never configured directly; "
            "name the environment variable that holds the key with api_key_env"
        )
    unknown = set(raw) - _MODEL_FIELDS
    if unknown:
        raise ImproperlyConfigured(f"model {key!r}: unknown fields {sorted(unknown)}")
    for required in ("provider", "model", "data_policy"):
        if not raw.get(required):
            raise ImproperlyConfigured(f"model {key!r}: {required} is required")
    provider = str(raw["provider"])
    if provider not in IN_PROCESS_PROVIDERS | LITELLM_PROVIDERS:
        raise ImproperlyConfigured(f"model {key!r}: unknown provider {provider!r}")
    data_policy = ModelDataPolicy(str(raw["data_policy"]))
    if provider in IN_PROCESS_PROVIDERS and data_policy != ModelDataPolicy.LOCAL:
        raise ImproperlyConfigured(f"model {key!r}: in-process models are local")
    values = dict(raw)
    values["data_policy"] = data_policy
    values["capabilities"] = Capabilities.from_json(raw.get("capabilities", {}))
    values["options"] = dict(raw.get("options", {}))
    return ModelConfig(key=key, **values)


def _profile_from(name: str, raw: Mapping[str, Any]) -> ProfileConfig:
    unknown = set(raw) - _PROFILE_FIELDS
    if unknown:
        raise ImproperlyConfigured(f"profile {name!r}: unknown fields {sorted(unknown)}")
    if "kind" not in raw:
        raise ImproperlyConfigured(
            f'profile {name!r}: "kind" is missing (set "kind": "embedding" or "generation")'
        )
    if raw["kind"] not in ("generation", "embedding"):
        raise ImproperlyConfigured(
            f'profile {name!r}: "kind" is {raw["kind"]!r}, not "embedding" or "generation"'
        )
    requires = frozenset(raw.get("requires", ()))
    if requires - REQUIRABLE_CAPABILITIES:
        raise ImproperlyConfigured(f"profile {name!r}: unknown capabilities in requires")
    values = dict(raw)
    values["candidates"] = tuple(raw.get("candidates", ()))
    values["requires"] = requires
    return ProfileConfig(name=name, **values)


def build_config(
    *,
    models: Mapping[str, Mapping[str, Any]],
    profiles: Mapping[str, Mapping[str, Any]],
    external: Mapping[str, Any],
) -> AiConfig:
    raw_models: dict[str, dict[str, Any]] = {
        key: dict(value) for key, value in BUILTIN_MODELS.items()
    }
    raw_profiles: dict[str, dict[str, Any]] = {
        key: dict(value) for key, value in PROFILE_DEFAULTS.items()
    }
    for layer in (
        {"models": models, "profiles": profiles},
        {"models": external.get("models", {}), "profiles": external.get("profiles", {})},
    ):
        for key, value in layer["models"].items():
            raw_models[key] = {**raw_models.get(key, {}), **dict(value)}
        for key, value in layer["profiles"].items():
            raw_profiles[key] = {**raw_profiles.get(key, {}), **dict(value)}

    built_models = {key: _model_from(key, value) for key, value in raw_models.items()}
    built_profiles = {key: _profile_from(key, value) for key, value in raw_profiles.items()}
    for profile in built_profiles.values():
        for candidate in profile.candidates:
            if candidate not in built_models:
                raise ImproperlyConfigured(
                    f"profile {profile.name!r} names an unconfigured model {candidate!r}"
                )
    return AiConfig(models=built_models, profiles=built_profiles)


@lru_cache(maxsize=1)
def ai_config() -> AiConfig:
    """The effective configuration, built once per process (reset when settings change)."""
    return build_config(
        models=getattr(settings, "AI_MODELS", {}),
        profiles=getattr(settings, "AI_PROFILES", {}),
        external=_read_external(getattr(settings, "AI_CONFIG", "")),
    )


def ai_config_reset() -> None:
    ai_config.cache_clear()


def model_config(key: str) -> ModelConfig:
    try:
        return ai_config().models[key]
    except KeyError:
        raise ImproperlyConfigured(f"unknown AI model {key!r}") from None


def with_capabilities(model: ModelConfig, capabilities: Capabilities) -> ModelConfig:
    return replace(model, capabilities=capabilities)
