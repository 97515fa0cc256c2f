from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
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


@pytest.fixture(autouse=True)
def _drop_orphan_vector_indexes(request):
    """Transactional tests flush the versions table but not the per-version (and per-user)
    indexes they built; drop those so they do not pile up in the test database."""
    yield
    if "transactional_db" not in request.fixturenames and not any(
        marker.kwargs.get("transaction") for marker in request.node.iter_markers("django_db")
    ):
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname FROM pg_indexes WHERE indexname LIKE 'indexing_embedding_hnsw_v%%'"
        )
        names = [row[0] for row in cursor.fetchall()]
        live = {
            f"indexing_embedding_hnsw_v{pk}"
            for pk in IndexVersion.objects.values_list("pk", flat=True)
        }
        for name in names:
            if name not in live:
                cursor.execute(f'DROP INDEX IF EXISTS "{name}"')
        cursor.execute(
            "SELECT indexname FROM pg_indexes WHERE indexname LIKE 'message_search_vector_u%%'"
        )
        for (name,) in cursor.fetchall():
            cursor.execute(f'DROP INDEX IF EXISTS "{name}"')


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
