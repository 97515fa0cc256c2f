"""Embeddings for a task profile: request splitting, bounded concurrency, retries, usage.

``embed_many`` uses the first eligible model of the profile and only that one: vectors of
different models are not comparable, so there is no failover between embedding models (a
model change is a new index version; ``embedding_model_identity`` names the model to record).

Each call is split into requests of at most the model's ``max_inputs_per_request`` inputs and
``max_tokens_per_request`` estimated tokens (OpenAI's text-embedding-3-small: 2,048 inputs and
300,000 tokens), inputs longer than ``max_input_tokens`` are truncated (and reported), and at
most ``max_concurrency`` requests run at once. Transient failures (timeouts, 429, 5xx) retry
with exponential backoff, full jitter and a ceiling, honouring Retry-After up to that ceiling.
A request that fails permanently is split in halves until the failing inputs are isolated, so
the result names exactly the inputs that failed.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from claire import backoff
from claire.ai.config import ModelConfig, ProfileConfig
from claire.ai.profiles import Candidate, eligible_candidates, profile_get
from claire.ai.providers.base import CallTimeouts, EmbeddingModel, ProviderFailure
from claire.ai.registry import embedding_model_for
from claire.ai.tokens import count_tokens, truncate_to_tokens
from claire.ai.types import (
    DataPolicy,
    EmbeddingFailure,
    EmbeddingResult,
    ErrorCode,
    Usage,
)
from claire.db.steps import run_checked

logger = logging.getLogger(__name__)

T = TypeVar("T")


class EmbeddingModelIdentity(NamedTuple):
    provider: str
    model: str
    dimensions: int


class NoEligibleEmbeddingModel(Exception):  # named for what the caller learns
    """No configured embedding model may serve this profile for this data policy."""


def _first_candidate(profile: str, data_policy: DataPolicy) -> Candidate | None:
    candidates = eligible_candidates(profile=profile, data_policy=data_policy)
    return candidates[0] if candidates else None


def embedding_model_identity(
    profile: str = "embed", *, data_policy: DataPolicy = DataPolicy.LOCAL_ONLY
) -> EmbeddingModelIdentity:
    """The model ``embed_many`` would use now: record it with every stored vector."""
    candidate = _first_candidate(profile, data_policy)
    if candidate is None:
        raise NoEligibleEmbeddingModel(profile)
    return EmbeddingModelIdentity(
        provider=candidate.model.provider,
        model=candidate.model.model,
        dimensions=candidate.capabilities.embedding_dimensions,
    )


def embed_many(
    texts: Sequence[str], *, profile: str = "embed", data_policy: DataPolicy = DataPolicy.LOCAL_ONLY
) -> EmbeddingResult:
    """Vectors for ``texts`` in input order (sync; for Celery tasks and commands)."""
    candidate = _first_candidate(profile, data_policy)
    return _run_on_background_loop(_embed(texts, profile_get(profile), candidate))


def embedding_candidate(
    profile: str = "embed", *, data_policy: DataPolicy = DataPolicy.LOCAL_ONLY
) -> Candidate | None:
    """The model ``embed_many`` would use now (one read of capability records), for callers
    that embed on a thread without a database connection (``embed_many_with``)."""
    return _first_candidate(profile, data_policy)


def embed_many_with(
    texts: Sequence[str], *, profile: str, candidate: Candidate | None
) -> EmbeddingResult:
    """``embed_many`` with the model already chosen by ``embedding_candidate``: no database."""
    return _run_on_background_loop(_embed(texts, profile_get(profile), candidate))


async def aembed_many(
    texts: Sequence[str], *, profile: str = "embed", data_policy: DataPolicy = DataPolicy.LOCAL_ONLY
) -> EmbeddingResult:
    """``embed_many`` for async callers."""
    candidate = await run_checked(_first_candidate, profile, data_policy)
    return await _embed(texts, profile_get(profile), candidate)


# Sync callers share one long-lived event loop: provider HTTP clients are cached per loop, and
# a fresh loop per call (asyncio.run) would strand them.
_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


def _run_on_background_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    global _loop
    with _loop_lock:
        if _loop is None or _loop.is_closed():
            _loop = asyncio.new_event_loop()
            threading.Thread(
                target=_loop.run_forever, name="claire-ai-embeddings", daemon=True
            ).start()
        loop = _loop
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result()


@dataclass
class _Progress:
    vectors: list[list[float] | None]
    failures: dict[int, EmbeddingFailure]
    usage: Usage


def split_requests(
    token_counts: Sequence[int], *, max_inputs: int, max_tokens: int
) -> list[list[int]]:
    """Consecutive index groups within both limits (an input over the token limit goes alone)."""
    groups: list[list[int]] = []
    current: list[int] = []
    current_tokens = 0
    for index, tokens in enumerate(token_counts):
        too_many = max_inputs and len(current) >= max_inputs
        too_big = max_tokens and current_tokens + tokens > max_tokens
        if current and (too_many or too_big):
            groups.append(current)
            current, current_tokens = [], 0
        current.append(index)
        current_tokens += tokens
    if current:
        groups.append(current)
    return groups


async def _embed(
    texts: Sequence[str], profile: ProfileConfig, candidate: Candidate | None
) -> EmbeddingResult:
    if profile.kind != "embedding":
        raise ValueError(f"profile {profile.name!r} is not an embedding profile")
    if candidate is None:
        logger.warning("ai.no_eligible_model", extra={"profile": profile.name})
        return EmbeddingResult(
            vectors=[None] * len(texts),
            usage=Usage(reported_by_provider=False),
            provider="",
            model="",
            model_key="",
            dimensions=0,
            failures=tuple(
                EmbeddingFailure(index, ErrorCode.NO_ELIGIBLE_MODEL, retryable=False)
                for index in range(len(texts))
            ),
        )
    model = candidate.model
    # Loading a local model takes a moment; keep it off the event loop.
    embedding_model = await asyncio.to_thread(embedding_model_for, model)
    warm_up = getattr(embedding_model, "warm_up", None)
    if warm_up is not None:
        await warm_up()
    prepared = list(texts)
    truncated: list[int] = []
    if model.max_input_tokens:
        for index, text in enumerate(prepared):
            shortened = truncate_to_tokens(text, model.max_input_tokens)
            if shortened != text:
                prepared[index] = shortened
                truncated.append(index)
    token_counts = [count_tokens(text) for text in prepared]
    groups = split_requests(
        token_counts,
        max_inputs=model.max_inputs_per_request,
        max_tokens=model.max_tokens_per_request,
    )
    progress = _Progress(vectors=[None] * len(prepared), failures={}, usage=Usage())
    limit = asyncio.Semaphore(max(model.max_concurrency, 1))
    runner = _BatchRunner(
        embedding_model=embedding_model,
        model=model,
        profile=profile,
        texts=prepared,
        token_counts=token_counts,
        limit=limit,
        progress=progress,
    )
    await asyncio.gather(*(runner.run(group) for group in groups))
    result = EmbeddingResult(
        vectors=progress.vectors,
        usage=progress.usage,
        provider=model.provider,
        model=model.model,
        model_key=model.key,
        dimensions=candidate.capabilities.embedding_dimensions,
        failures=tuple(progress.failures[index] for index in sorted(progress.failures)),
        truncated_indexes=tuple(truncated),
    )
    logger.info(
        "ai.embeddings_finished",
        extra={
            "profile": profile.name,
            "model_key": model.key,
            "inputs": len(prepared),
            "requests": len(groups),
            "failed": len(result.failures),
            "truncated": len(truncated),
            "embedding_tokens": result.usage.embedding_tokens,
            "usage_estimated": result.usage.is_estimated,
        },
    )
    return result


@dataclass
class _BatchRunner:
    embedding_model: EmbeddingModel
    model: ModelConfig
    profile: ProfileConfig
    texts: list[str]
    token_counts: list[int]
    limit: asyncio.Semaphore
    progress: _Progress

    async def run(self, indexes: list[int]) -> None:
        outcome = await self._with_retries(indexes)
        if isinstance(outcome, ProviderFailure):
            if not outcome.retryable and len(indexes) > 1:
                # One bad input should not sink its neighbours: halve until it is isolated.
                middle = len(indexes) // 2
                await asyncio.gather(self.run(indexes[:middle]), self.run(indexes[middle:]))
                return
            for index in indexes:
                self.progress.failures[index] = EmbeddingFailure(
                    index, outcome.code, retryable=outcome.retryable
                )
            return
        vectors, usage = outcome
        for index, vector in zip(indexes, vectors, strict=True):
            self.progress.vectors[index] = vector
        self.progress.usage = self.progress.usage.plus(usage)

    async def _with_retries(
        self, indexes: list[int]
    ) -> tuple[list[list[float]], Usage] | ProviderFailure:
        profile = self.profile
        timeouts = CallTimeouts(
            connect_s=profile.connect_timeout_s,
            first_token_s=profile.first_token_timeout_s,
            total_s=profile.total_timeout_s,
        )
        batch_texts = [self.texts[index] for index in indexes]
        failure: ProviderFailure | None = None
        for attempt in range(max(profile.retry_max_attempts, 1)):
            try:
                async with self.limit, asyncio.timeout(profile.total_timeout_s):
                    batch = await self.embedding_model.embed_batch(batch_texts, timeouts=timeouts)
                if batch.usage is not None:
                    usage = batch.usage
                else:
                    usage = Usage(
                        embedding_tokens=sum(self.token_counts[index] for index in indexes),
                        is_estimated=True,
                        reported_by_provider=False,
                    )
                return batch.vectors, usage
            except TimeoutError:
                failure = ProviderFailure(ErrorCode.TIMEOUT, error_class="Timeout")
            except ProviderFailure as error:
                failure = error
            logger.warning(
                "ai.embedding_request_failed",
                extra={
                    "model_key": self.model.key,
                    "inputs": len(indexes),
                    "attempt": attempt,
                    "code": failure.code.value,
                    "error_class": failure.error_class,
                    "status_code": failure.status_code,
                    "detail": failure.detail,
                },
            )
            if not failure.retryable or attempt + 1 >= profile.retry_max_attempts:
                break
            await asyncio.sleep(
                backoff.backoff_delay(
                    attempt=attempt,
                    base_s=profile.retry_base_delay_s,
                    cap_s=profile.retry_max_delay_s,
                    retry_after_s=failure.retry_after_s,
                )
            )
        assert failure is not None
        return failure
