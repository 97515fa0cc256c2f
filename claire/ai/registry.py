"""Model implementations by configured model key.

``models_overridden`` is the test seam: it puts a given instance (typically a scripted
``MockLanguageModel``) behind a configured key for the duration of a ``with`` block, so tests
of the answer engine drive the real runtime (routing, timeouts, failover, usage) without a
provider.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import cast

from django.core.exceptions import ImproperlyConfigured

from claire.ai.config import LITELLM_PROVIDERS, ModelConfig
from claire.ai.providers.base import EmbeddingModel, LanguageModel

_overrides: dict[str, LanguageModel | EmbeddingModel] = {}


@contextmanager
def models_overridden(instances: Mapping[str, LanguageModel | EmbeddingModel]) -> Iterator[None]:
    previous = dict(_overrides)
    _overrides.update(instances)
    try:
        yield
    finally:
        _overrides.clear()
        _overrides.update(previous)


def language_model_for(config: ModelConfig) -> LanguageModel:
    override = _overrides.get(config.key)
    if override is not None:
        return cast(LanguageModel, override)
    if config.provider == "mock":
        from claire.ai.local.mock import MockLanguageModel

        return MockLanguageModel.from_options(config.options, model_name=config.model)
    if config.provider == "local":
        from claire.ai.local.extractive import MODEL_NAME, ExtractiveAnswerer

        if config.model == MODEL_NAME:
            return ExtractiveAnswerer.from_options(config.options)
    if config.provider in LITELLM_PROVIDERS:
        from claire.ai.providers.litellm_provider import LiteLLMLanguageModel

        return LiteLLMLanguageModel(config)
    raise ImproperlyConfigured(f"model {config.key!r} is not a language model")


def embedding_model_for(config: ModelConfig) -> EmbeddingModel:
    override = _overrides.get(config.key)
    if override is not None:
        return cast(EmbeddingModel, override)
    if config.provider == "local":
        from claire.ai.local import embedder
        from claire.ai.local.mock import HashEmbedder

        if config.model == embedder.MODEL_NAME:
            return embedder.minilm_embedder()
        if config.model.startswith("hash-embed"):
            return HashEmbedder(
                dimensions=config.capabilities.embedding_dimensions, model_name=config.model
            )
    if config.provider in LITELLM_PROVIDERS:
        from claire.ai.providers.litellm_provider import LiteLLMEmbeddingModel

        return LiteLLMEmbeddingModel(config)
    raise ImproperlyConfigured(f"model {config.key!r} is not an embedding model")
