"""Shared fixtures for personal-memory tests: the demo corpus loaded once per test that asks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from fixtures.demo_corpus import DemoCorpus, build_demo_corpus

# The AI runtime's fixtures (configuration, the fake OpenAI-compatible server) for the
# ``extract`` model tests.
from tests.claire.ai.conftest import configure_ai, fake_openai, fake_openai_server  # noqa: F401

DEMO_NOW = datetime(2026, 5, 20, 10, 0, tzinfo=UTC)


@pytest.fixture(scope="session")
def demo_corpus() -> DemoCorpus:
    return build_demo_corpus(now=DEMO_NOW, seed=7)


@pytest.fixture
def maya(user):
    """The user of the loop stories, named Maya (the stories address her by name)."""
    user.first_name = "Maya"
    user.save()
    return user
