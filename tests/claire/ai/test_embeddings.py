"""embed_many: request splitting by inputs and tokens, order, retries with backoff, isolated
permanent failures, bounded concurrency, usage, and the model identity for index rows."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from claire.ai.config import ai_config
from claire.ai.embeddings import (
    EmbeddingModelIdentity,
    NoEligibleEmbeddingModel,
    aembed_many,
    embed_many,
    embedding_model_identity,
    split_requests,
)
from claire.ai.local.mock import HashEmbedder
from claire.ai.tokens import count_tokens
from claire.ai.types import DataPolicy, EmbeddingFailure, ErrorCode, Usage
from claire.backoff import backoff_delay
from tests.claire.ai.conftest import fake_model
from tests.claire.ai.fake_openai_server import EMBEDDING_DIMENSIONS, fake_vector
from tests.factories.ai import verified_record_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def remote_embedder(configure_ai, fake_openai):
    def setup(model_id: str, **limits: object) -> str:
        key = f"fake/{model_id}"
        entry = fake_model(fake_openai, model_id, streaming=False, max_context_tokens=0)
        entry["capabilities"] = {"embedding_dimensions": EMBEDDING_DIMENSIONS}
        entry.update({"max_inputs_per_request": 4, "max_tokens_per_request": 1000} | limits)
        configure_ai(
            models={key: entry},
            profiles={
                "embed": {
                    "candidates": [key],
                    "retry_max_attempts": 4,
                    "retry_base_delay_s": 0.001,
                    "retry_max_delay_s": 0.01,
                    "total_timeout_s": 5.0,
                }
            },
        )
        verified_record_for(key)
        return key

    return setup


def test_split_requests_respects_max_inputs_and_token_budget():
    assert split_requests([1] * 5, max_inputs=2, max_tokens=0) == [[0, 1], [2, 3], [4]]
    assert split_requests([4, 4, 4, 1], max_inputs=10, max_tokens=8) == [[0, 1], [2, 3]]
    # An input over the budget on its own still goes, alone.
    assert split_requests([2, 20, 2], max_inputs=10, max_tokens=8) == [[0], [1], [2]]
    assert split_requests([], max_inputs=2, max_tokens=8) == []


def test_split_requests_uses_openai_text_embedding_3_small_limits():
    # Short inputs: the 2,048-input limit binds.
    groups = split_requests([100] * 5000, max_inputs=2048, max_tokens=300_000)
    assert [len(group) for group in groups] == [2048, 2048, 904]
    assert [index for group in groups for index in group] == list(range(5000))
    # Long inputs: the 300,000-token budget binds.
    groups = split_requests([200] * 5000, max_inputs=2048, max_tokens=300_000)
    assert [len(group) for group in groups] == [1500, 1500, 1500, 500]


def test_vectors_come_back_in_input_order_across_requests(remote_embedder, fake_openai):
    key = remote_embedder("embed-ok")
    texts = [f"message number {index}" for index in range(10)]

    result = embed_many(texts, data_policy=DataPolicy.ALLOW_REMOTE)

    assert result.vectors == [fake_vector(text) for text in texts]
    assert result.failures == ()
    assert (result.provider, result.model, result.model_key, result.dimensions) == (
        "openai_compatible",
        "embed-ok",
        key,
        EMBEDDING_DIMENSIONS,
    )
    sent = [request.body["input"] for request in fake_openai.requests_for("embed-ok")]
    assert sorted(len(inputs) for inputs in sent) == [2, 4, 4]
    assert sorted(text for inputs in sent for text in inputs) == sorted(texts)
    assert result.usage == Usage(embedding_tokens=30)


def test_token_budget_splits_requests(remote_embedder, fake_openai):
    remote_embedder("embed-ok", max_tokens_per_request=10)
    texts = ["one two three four five six"] * 3  # 6 tokens each

    result = embed_many(texts, data_policy=DataPolicy.ALLOW_REMOTE)

    assert result.is_complete
    assert [len(r.body["input"]) for r in fake_openai.requests_for("embed-ok")] == [1, 1, 1]


def test_transient_failures_retry_with_backoff_then_succeed(remote_embedder, fake_openai):
    remote_embedder("embed-flaky")

    result = embed_many(["alpha", "beta"], data_policy=DataPolicy.ALLOW_REMOTE)

    assert result.vectors == [fake_vector("alpha"), fake_vector("beta")]
    assert result.failures == ()
    # 429, then 500, then success.
    assert len(fake_openai.requests_for("embed-flaky")) == 3


def test_transient_failures_past_the_attempt_limit_fail_those_inputs(remote_embedder, fake_openai):
    fake_openai.flaky_failures = 100
    remote_embedder("embed-flaky")

    result = embed_many(["alpha", "beta"], data_policy=DataPolicy.ALLOW_REMOTE)

    assert result.vectors == [None, None]
    assert result.failures == (
        EmbeddingFailure(0, ErrorCode.PROVIDER_UNAVAILABLE, retryable=True),
        EmbeddingFailure(1, ErrorCode.PROVIDER_UNAVAILABLE, retryable=True),
    )
    assert len(fake_openai.requests_for("embed-flaky")) == 4


def test_permanent_failure_names_exactly_the_inputs_that_failed(remote_embedder):
    remote_embedder("embed-ok")
    texts = ["fine one", "fine two", "POISON here", "fine three", "fine four", "also POISON"]

    result = embed_many(texts, data_policy=DataPolicy.ALLOW_REMOTE)

    assert result.failed_indexes == (2, 5)
    assert {failure.code for failure in result.failures} == {ErrorCode.INVALID_REQUEST}
    assert all(not failure.retryable for failure in result.failures)
    assert [vector is None for vector in result.vectors] == [
        False,
        False,
        True,
        False,
        False,
        True,
    ]
    assert result.vectors[0] == fake_vector("fine one")
    assert result.vectors[4] == fake_vector("fine four")


def test_concurrency_is_bounded_by_the_model_limit(remote_embedder, fake_openai):
    remote_embedder("embed-slow", max_inputs_per_request=1, max_concurrency=3)

    result = embed_many(
        [f"text {index}" for index in range(12)], data_policy=DataPolicy.ALLOW_REMOTE
    )

    assert result.is_complete
    assert len(fake_openai.requests_for("embed-slow")) == 12
    assert fake_openai.embedding_max_in_flight == 3


def test_missing_usage_is_estimated_and_flagged(remote_embedder):
    remote_embedder("embed-no-usage")
    texts = ["first text here", "second"]

    result = embed_many(texts, data_policy=DataPolicy.ALLOW_REMOTE)

    assert result.usage == Usage(
        embedding_tokens=sum(count_tokens(text) for text in texts),
        is_estimated=True,
        reported_by_provider=False,
    )


def test_remote_embedder_is_not_used_without_remote_consent(remote_embedder, fake_openai):
    remote_embedder("embed-ok")

    result = embed_many(["hello"], data_policy=DataPolicy.LOCAL_ONLY)

    assert result.vectors == [None]
    assert result.failures == (EmbeddingFailure(0, ErrorCode.NO_ELIGIBLE_MODEL, retryable=False),)
    assert fake_openai.requests == []
    with pytest.raises(NoEligibleEmbeddingModel):
        embedding_model_identity(data_policy=DataPolicy.LOCAL_ONLY)


def test_long_inputs_are_truncated_to_the_model_limit_and_reported(remote_embedder, fake_openai):
    remote_embedder("embed-ok", max_input_tokens=5)
    long_text = " ".join(["word"] * 50)

    result = embed_many(["short", long_text], data_policy=DataPolicy.ALLOW_REMOTE)

    assert result.is_complete
    assert result.truncated_indexes == (1,)
    sent_long = fake_openai.requests_for("embed-ok")[0].body["input"][1]
    assert count_tokens(sent_long) == 5


def test_async_variant_matches_the_sync_one(remote_embedder):
    remote_embedder("embed-ok")
    texts = ["a", "b", "c", "d", "e"]

    async_result = async_to_sync(aembed_many)(texts, data_policy=DataPolicy.ALLOW_REMOTE)
    sync_result = embed_many(texts, data_policy=DataPolicy.ALLOW_REMOTE)

    assert async_result.vectors == sync_result.vectors == [fake_vector(text) for text in texts]


def test_hash_embed_is_selectable_by_configuration(configure_ai):
    configure_ai(profiles={"embed": {"candidates": ["local/hash-embed"]}})

    result = embed_many(["dinner on friday", "dinner on friday", "flight to lisbon"])

    assert result.model == "hash-embed-384"
    assert result.dimensions == 384
    assert (
        result.vectors[0]
        == result.vectors[1]
        == HashEmbedder().embed_texts(["dinner on friday"])[0]
    )
    assert result.vectors[0] != result.vectors[2]
    assert embedding_model_identity() == EmbeddingModelIdentity("local", "hash-embed-384", 384)


def test_default_embedding_identity_is_local_minilm(configure_ai):
    configure_ai(profiles={"embed": {"candidates": ["local/minilm"]}})

    assert embedding_model_identity() == ("local", "all-MiniLM-L6-v2", 384)
    assert ai_config().profile("embed").candidates == ("local/minilm",)


def test_backoff_grows_exponentially_with_jitter_under_a_ceiling(configure_ai):
    configure_ai(
        profiles={
            "embed": {
                "candidates": ["local/hash-embed"],
                "retry_base_delay_s": 1.0,
                "retry_max_delay_s": 5.0,
            }
        }
    )
    profile = ai_config().profile("embed")

    delays = {attempt: [_delay(attempt, profile) for _ in range(200)] for attempt in range(5)}

    assert all(0 <= delay <= 1.0 for delay in delays[0])
    assert all(0 <= delay <= 4.0 for delay in delays[2])
    assert all(0 <= delay <= 5.0 for delay in delays[4])
    assert max(delays[4]) > 4.0  # the ceiling, not 16 s, bounds attempt 4
    assert len(set(delays[2])) > 100  # jittered
    assert _delay(0, profile, retry_after_s=3.0) >= 3.0
    assert _delay(0, profile, retry_after_s=60.0) <= 5.0


def _delay(attempt, profile, *, retry_after_s=None):
    return backoff_delay(
        attempt=attempt,
        base_s=profile.retry_base_delay_s,
        cap_s=profile.retry_max_delay_s,
        retry_after_s=retry_after_s,
    )
