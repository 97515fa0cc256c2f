from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings

from claire.ai.config import ai_config_reset
from indexing import services
from indexing.models import IndexVersion

# The embed profile on the deterministic hash embedder, with quick runtime retries.
HASH_EMBED_PROFILE = {
    "candidates": ["local/hash-embed"],
    "retry_max_attempts": 2,
    "retry_base_delay_s": 0.01,
    "retry_max_delay_s": 0.02,
}


@pytest.fixture(autouse=True)
def hash_embed_profile():
    with override_settings(AI_PROFILES={**settings.AI_PROFILES, "embed": HASH_EMBED_PROFILE}):
        ai_config_reset()
        yield
    ai_config_reset()


@pytest.fixture
def version(db) -> IndexVersion:
    """The first (hence active) index version."""
    return services.index_version_create(
        profile="embed",
        identity=services.ModelIdentity(provider="local", model="hash-embed-384", dimensions=384),
    )


@pytest.fixture
def sent_jobs(monkeypatch) -> list[int]:
    """Job ids whose Celery task was sent (the broker is not involved)."""
    sent: list[int] = []
    monkeypatch.setattr(
        "indexing.dispatch.index_job_send",
        lambda *, job_id, countdown=None: sent.append(job_id),
    )
    return sent
