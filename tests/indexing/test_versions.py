"""Model change -> a parallel version -> explicit cutover -> retiring the old version."""

import pytest
from django.conf import settings
from django.test import override_settings

from claire.ai.config import ai_config_reset
from indexing import jobs, services
from indexing.models import IndexJob, IndexProgress, IndexVersion, MessageEmbedding
from indexing.search_indexes import search_index_exists
from indexing.selectors import active_index_version, index_status_for_user, vector_search
from tests.indexing.conftest import HASH_EMBED_PROFILE
from tests.indexing.embedders import hash_vector
from tests.indexing.support import counters, ingest, message, run_job

pytestmark = pytest.mark.django_db

SMALL_MODEL = {
    "provider": "local",
    "model": "hash-embed-64",
    "data_policy": "local",
    "capabilities": {"embedding_dimensions": 64, "usage_reporting": True},
    "max_inputs_per_request": 32,
    "max_tokens_per_request": 100_000,
    "max_input_tokens": 512,
}


@pytest.fixture
def next_profile():
    """A second embed profile whose model has other dimensions: a model change."""
    with override_settings(
        AI_MODELS={"local/hash-embed-64": SMALL_MODEL},
        AI_PROFILES={
            **settings.AI_PROFILES,
            "embed": HASH_EMBED_PROFILE,
            "embed_next": {
                "kind": "embedding",
                "requires": ["embeddings"],
                "candidates": ["local/hash-embed-64"],
            },
        },
    ):
        ai_config_reset()
        yield "embed_next"
    ai_config_reset()


def test_model_change_builds_in_parallel_then_cuts_over_and_retires(
    user, other_user, version, next_profile
):
    ingest(user, [message(n) for n in range(1, 6)])
    ingest(other_user, [message(1)])
    run_job(user, version)
    run_job(other_user, version)

    identity = jobs.current_model_identity(profile=next_profile)
    assert identity == services.ModelIdentity("local", "hash-embed-64", 64)
    new = services.index_version_create(profile=next_profile, identity=identity)
    assert (new.version, new.state, new.dimensions) == (2, "building", 64)
    # Its HNSW index is built at cutover, after the backfill, not maintained through it.
    assert not search_index_exists(index_version=new)

    # Ingestion maintains both versions from now on; the old one keeps answering.
    ingest(user, [message(6, "a brand new message about the trip")])
    assert counters(user, version) == (6, 5, 0)
    assert counters(user, new) == (1, 0, 0)
    assert active_index_version() == version
    assert len(vector_search(user=user, query_vector=hash_vector("trip"), limit=10)) == 5

    with pytest.raises(services.IndexingError) as refused:
        services.index_cutover(to_version=new)
    assert refused.value.code == "version_incomplete"
    assert [b.user_id for b in services.cutover_blockers(index_version=new)] == sorted(
        [user.pk, other_user.pk]
    )

    run_job(user, new)
    assert [b.user_id for b in services.cutover_blockers(index_version=new)] == [other_user.pk]
    run_job(other_user, new)
    assert counters(user, new) == (6, 6, 0)
    assert services.cutover_blockers(index_version=new) == []

    previous = services.index_cutover(to_version=new)
    assert previous == version
    assert search_index_exists(index_version=new)
    assert new.has_search_index
    version.refresh_from_db()
    new.refresh_from_db()
    assert (version.state, new.state) == ("retiring", "active")
    assert active_index_version() == new
    status = index_status_for_user(user=user)
    assert (status.version, status.model, status.dimensions, status.state) == (
        2,
        "hash-embed-64",
        64,
        "ready",
    )
    hits = vector_search(user=user, query_vector=[1.0] + [0.0] * 63, limit=50)
    assert len(hits) == 6
    with pytest.raises(ValueError):
        vector_search(user=user, query_vector=hash_vector("trip"))

    # The retiring version is no longer maintained.
    ingest(user, [message(7)])
    assert (
        MessageEmbedding.objects.filter(
            index_version=version, message__platform_message_id="m7"
        ).count()
        == 0
    )
    assert counters(user, new) == (7, 6, 0)

    batches = list(services.index_version_retire(index_version=version, batch_size=2))
    assert batches == [2, 2, 2, 1]
    version.refresh_from_db()
    assert version.state == "retired"
    assert version.retired_at is not None
    assert MessageEmbedding.objects.filter(index_version=version).count() == 0
    assert IndexProgress.objects.filter(index_version=version).count() == 0
    assert not search_index_exists(index_version=version)
    assert MessageEmbedding.objects.filter(index_version=new).count() == 8


def test_the_active_version_cannot_be_retired(version):
    with pytest.raises(services.IndexingError) as refused:
        list(services.index_version_retire(index_version=version))
    assert refused.value.code == "version_active"
    version.refresh_from_db()
    assert version.state == "active"


def test_only_a_building_version_can_be_cut_over_to(version):
    with pytest.raises(services.IndexingError) as refused:
        services.index_cutover(to_version=version)
    assert refused.value.code == "version_not_building"


def test_a_version_for_a_model_already_indexed_is_refused(version):
    with pytest.raises(services.IndexingError) as refused:
        services.index_version_create(
            profile="embed", identity=services.ModelIdentity("local", "hash-embed-384", 384)
        )
    assert refused.value.code == "version_exists"
    assert IndexVersion.objects.count() == 1


def test_abandoning_a_building_version_closes_its_jobs(user, version, next_profile):
    new = services.index_version_create(
        profile=next_profile, identity=jobs.current_model_identity(profile=next_profile)
    )
    ingest(user, [message(1)])
    services.index_jobs_request(user_id=user.pk, version_ids=[new.pk])
    assert list(services.index_version_retire(index_version=new)) == [1]
    job = IndexJob.objects.get(index_version=new)
    assert (job.state, job.last_error) == ("done", "version_retired")
    assert counters(user, version) == (1, 0, 0)
