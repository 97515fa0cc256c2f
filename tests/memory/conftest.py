"""Shared fixtures for personal-memory tests: the demo corpus loaded once per test that asks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from fixtures.demo_corpus import DemoCorpus, build_demo_corpus

DEMO_NOW = datetime(2026, 5, 20, 10, 0, tzinfo=UTC)


@pytest.fixture(scope="session")
def demo_corpus() -> DemoCorpus:
    return build_demo_corpus(now=DEMO_NOW, seed=7)
