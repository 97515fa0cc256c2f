"""Fixtures for the AI runtime: configuration, the fake OpenAI-compatible server, and a
helper that drives async streams from sync tests (so database reads made through
``sync_to_async`` come back to the test's thread and see its transaction)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync

from claire.ai.generate import generate
from claire.ai.types import DataPolicy, GenerationEvent, GenerationRequest
from tests.claire.ai.fake_openai_server import FakeOpenAIServer

FAKE_KEY_ENV = "CLAIRE_TEST_FAKE_OPENAI_KEY"
FAKE_KEY = "sk-test-fake-server-key-0123456789"


@pytest.fixture(scope="session")
def fake_openai_server() -> Iterator[FakeOpenAIServer]:
    server = FakeOpenAIServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def fake_openai(fake_openai_server: FakeOpenAIServer, monkeypatch) -> FakeOpenAIServer:
    fake_openai_server.reset()
    monkeypatch.setenv(FAKE_KEY_ENV, FAKE_KEY)
    return fake_openai_server


def fake_model(server: FakeOpenAIServer, model_id: str, **capabilities: Any) -> dict[str, Any]:
    declared = {"streaming": True, "usage_reporting": True, "max_context_tokens": 8192}
    return {
        "provider": "openai_compatible",
        "model": model_id,
        "api_base": server.base_url,
        "api_key_env": FAKE_KEY_ENV,
        "data_policy": "remote",
        "capabilities": declared | capabilities,
    }


@pytest.fixture
def configure_ai(settings) -> Callable[..., None]:
    """Replace the AI configuration for one test (restored afterwards)."""
    settings.AI_CONFIG = ""
    settings.AI_MODELS = {}
    settings.AI_PROFILES = {}

    def configure(
        *, models: dict[str, dict[str, Any]] | None = None, profiles: dict[str, Any] | None = None
    ) -> None:
        settings.AI_MODELS = models or {}
        settings.AI_PROFILES = profiles or {}

    return configure


async def _collect(profile: str, request: GenerationRequest, data_policy: DataPolicy) -> list:
    events: list[GenerationEvent] = []
    async with generate(profile=profile, request=request, data_policy=data_policy) as stream:
        async for event in stream:
            events.append(event)
    return events


def run_generation(
    request: GenerationRequest,
    *,
    profile: str = "answer",
    data_policy: DataPolicy = DataPolicy.ALLOW_REMOTE,
) -> list[GenerationEvent]:
    return async_to_sync(_collect)(profile, request, data_policy)
