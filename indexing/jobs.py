"""Running one per-user indexing job: seed the entries of existing messages, then embed the
pending ones through the AI runtime, one provider batch at a time.

Each provider batch commits on its own (vectors, counters, cursor, lease), so a worker that
dies loses at most the batch in flight; the next claim resumes from the cursor. Provider calls
happen outside any transaction and inside a provider slot (``indexing.concurrency``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import OperationalError

from claire.ai.embeddings import (
    NoEligibleEmbeddingModel,
    embed_many,
    embedding_model_identity,
)
from claire.ai.profiles import eligible_candidates
from claire.ai.tokens import count_tokens
from claire.ai.types import DataPolicy, EmbeddingResult
from claire.backoff import backoff_delay
from claire.db.leases import LeaseLost
from indexing import services
from indexing.batching import batches_split
from indexing.concurrency import ProviderSlotUnavailable, provider_slot_pool, slot_held
from indexing.models import IndexJob, IndexVersion, JobPhase
from indexing.selectors import PendingEntry, has_pending_entries, pending_entries_for_job

logger = logging.getLogger(__name__)

# Passes over the pending entries within one slice; more means entries keep changing under
# the job, and the rest waits for the next slice.
_MAX_PASSES_PER_SLICE = 50


class JobOutcome(StrEnum):
    NOT_CLAIMED = "not_claimed"  # finished, missing, or held by a live worker
    DONE = "done"
    YIELDED = "yielded"  # time slice used up; send again
    RETRY = "retry"  # transient failure; send again after ``retry_in_seconds``
    FAILED = "failed"
    LEASE_LOST = "lease_lost"  # presumed dead and taken over by another worker


@dataclass(frozen=True)
class JobRun:
    job_id: int
    outcome: JobOutcome
    embedded: int = 0
    failed: int = 0
    retry_in_seconds: float = 0.0
    error_code: str = ""
    index_version_id: int = 0
    user_id: int = 0
    # Time spent waiting for provider slots and in provider calls (the rest is the pipeline).
    provider_seconds: float = 0.0
    # The job completed the active version's initial backfill: build its HNSW index now.
    search_index_due: bool = False
    # The job left the user with enough vectors for an index of their own, not built yet.
    user_search_index_due: bool = False


CONFIGURATION_ERROR = "configuration_error"


class TransientJobError(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class PermanentJobError(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def retry_delay_seconds(*, attempts: int) -> float:
    """Exponential backoff with equal jitter (at least half the ceiling), capped."""
    return backoff_delay(
        attempt=attempts - 1,
        base_s=settings.INDEXING_RETRY_BASE_SECONDS,
        cap_s=settings.INDEXING_RETRY_MAX_SECONDS,
        full_jitter=False,
    )


ProgressCallback = Callable[[int, int], None]  # (embedded, failed) of the batch just written


def index_job_run(
    *,
    job_id: int,
    worker_id: str,
    slice_seconds: float | None = None,
    on_batch: ProgressCallback | None = None,
) -> JobRun:
    """Claim and run the job for up to ``slice_seconds`` (``INDEXING_JOB_SLICE_SECONDS``;
    0 or less runs to the end). Never raises for job-level failures: the outcome says what the
    caller should do next."""
    job = services.index_job_claim(job_id=job_id, worker_id=worker_id)
    if job is None:
        return JobRun(job_id=job_id, outcome=JobOutcome.NOT_CLAIMED)
    if slice_seconds is None:
        slice_seconds = settings.INDEXING_JOB_SLICE_SECONDS
    runner = _JobRunner(
        job=job, worker_id=worker_id, slice_seconds=slice_seconds, on_batch=on_batch
    )
    try:
        outcome = runner.run()
        version = job.index_version
        if outcome == JobOutcome.DONE:
            version.refresh_from_db()
        return JobRun(
            job_id=job_id,
            outcome=outcome,
            embedded=runner.embedded,
            failed=runner.failed,
            index_version_id=version.pk,
            user_id=job.user_id,
            provider_seconds=runner.provider_seconds,
            search_index_due=outcome == JobOutcome.DONE
            and services.search_index_due(index_version=version),
            user_search_index_due=outcome == JobOutcome.DONE
            and services.user_search_index_due(user_id=job.user_id, index_version=version),
        )
    except LeaseLost:
        logger.warning("indexing.job_lease_lost", extra={"job_id": job_id, "worker": worker_id})
        return JobRun(job_id=job_id, outcome=JobOutcome.LEASE_LOST, embedded=runner.embedded)
    except (TransientJobError, ProviderSlotUnavailable, OperationalError) as error:
        code = error.code if isinstance(error, TransientJobError) else _transient_code(error)
        return _after_transient(job=job, worker_id=worker_id, code=code, runner=runner)
    except ImproperlyConfigured as error:
        # This worker's AI configuration does not know the version's profile or model: every
        # retry would fail alike until the worker runs with the configuration the version was
        # created with. Fail the job and keep the cause where status, admin and --check show it.
        code = f"{CONFIGURATION_ERROR}: {error}"
        services.index_job_fail(job=job, worker_id=worker_id, error_code=code)
        return JobRun(
            job_id=job_id,
            outcome=JobOutcome.FAILED,
            embedded=runner.embedded,
            failed=runner.failed,
            error_code=code,
        )
    except (PermanentJobError, services.IndexingError) as error:
        services.index_job_fail(job=job, worker_id=worker_id, error_code=error.code)
        return JobRun(
            job_id=job_id,
            outcome=JobOutcome.FAILED,
            embedded=runner.embedded,
            failed=runner.failed,
            error_code=error.code,
        )


def _transient_code(error: Exception) -> str:
    if isinstance(error, ProviderSlotUnavailable):
        return "provider_slots_busy"
    return "database_unavailable"


def _after_transient(*, job: IndexJob, worker_id: str, code: str, runner: _JobRunner) -> JobRun:
    attempts = job.attempts + 1
    if attempts >= settings.INDEXING_JOB_MAX_ATTEMPTS:
        services.index_job_fail(job=job, worker_id=worker_id, error_code=f"{code}:gave_up")
        return JobRun(
            job_id=job.pk,
            outcome=JobOutcome.FAILED,
            embedded=runner.embedded,
            failed=runner.failed,
            error_code=code,
        )
    try:
        services.index_job_release(
            job=job, worker_id=worker_id, error_code=code, count_attempt=True
        )
    except LeaseLost:
        return JobRun(job_id=job.pk, outcome=JobOutcome.LEASE_LOST, embedded=runner.embedded)
    delay = retry_delay_seconds(attempts=attempts)
    logger.warning(
        "indexing.job_retry",
        extra={"job_id": job.pk, "error_code": code, "attempts": attempts, "delay_s": delay},
    )
    return JobRun(
        job_id=job.pk,
        outcome=JobOutcome.RETRY,
        embedded=runner.embedded,
        failed=runner.failed,
        retry_in_seconds=delay,
        error_code=code,
    )


def embed_data_policy() -> DataPolicy:
    """One data policy for the whole index: every user's vectors come from the same model."""
    return DataPolicy(settings.INDEXING_EMBED_DATA_POLICY)


def current_model_identity(*, profile: str) -> services.ModelIdentity:
    """The model ``profile`` resolves to now, for creating an index version."""
    provider, model, dimensions = embedding_model_identity(profile, data_policy=embed_data_policy())
    return services.ModelIdentity(provider=provider, model=model, dimensions=dimensions)


@dataclass(frozen=True)
class BatchLimits:
    max_inputs: int
    max_tokens: int
    max_input_tokens: int
    max_input_chars: int


def batch_limits(*, version: IndexVersion) -> BatchLimits:
    """The smaller of the model's own request limits and the configured ones. A batch within
    the model's limits is exactly one provider request, so one provider slot bounds one
    in-flight request."""
    candidates = eligible_candidates(profile=version.profile, data_policy=embed_data_policy())
    if not candidates:
        raise PermanentJobError("no_eligible_model")
    model = candidates[0].model
    max_inputs = settings.INDEXING_BATCH_MAX_INPUTS
    max_tokens = settings.INDEXING_BATCH_MAX_TOKENS
    if model.max_inputs_per_request:
        max_inputs = min(max_inputs, model.max_inputs_per_request)
    if model.max_tokens_per_request:
        max_tokens = min(max_tokens, model.max_tokens_per_request)
    return BatchLimits(
        max_inputs=max(1, max_inputs),
        max_tokens=max(1, max_tokens),
        max_input_tokens=model.max_input_tokens,
        max_input_chars=settings.INDEXING_MAX_INPUT_CHARS,
    )


class _JobRunner:
    def __init__(
        self,
        *,
        job: IndexJob,
        worker_id: str,
        slice_seconds: float,
        on_batch: ProgressCallback | None,
    ) -> None:
        self.job = job
        self.version = job.index_version
        self.worker_id = worker_id
        self.deadline = time.monotonic() + slice_seconds if slice_seconds > 0 else None
        self.on_batch = on_batch
        self.embedded = 0
        self.failed = 0
        self.retrying_in_pass = 0
        self.lease_renewed_at = time.monotonic()
        self.provider_seconds = 0.0

    def run(self) -> JobOutcome:
        if not self.version.is_maintained:
            services.index_job_fail(
                job=self.job, worker_id=self.worker_id, error_code="version_not_maintained"
            )
            return JobOutcome.DONE
        self._identity_check()
        self.limits = batch_limits(version=self.version)
        self.pool = provider_slot_pool(pool=f"{self.version.provider}/{self.version.model}")
        passes = 0
        while True:
            if self.job.phase == JobPhase.SEED:
                services.entries_seed_batch(
                    job=self.job,
                    worker_id=self.worker_id,
                    batch_size=settings.INDEXING_SEED_BATCH_SIZE,
                )
            else:
                entries = pending_entries_for_job(
                    user_id=self.job.user_id,
                    index_version_id=self.version.pk,
                    after_message_id=self.job.cursor,
                    limit=settings.INDEXING_FETCH_SIZE,
                )
                if entries:
                    self._embed(entries)
                elif self.retrying_in_pass:
                    # Some inputs were refused transiently: try them again after a backoff
                    # rather than spinning on them now.
                    raise TransientJobError("inputs_retrying")
                elif self.job.cursor and has_pending_entries(
                    user_id=self.job.user_id, index_version_id=self.version.pk
                ):
                    # Entries behind the cursor became pending during the pass (edits).
                    passes += 1
                    if passes >= _MAX_PASSES_PER_SLICE:
                        return self._yield()
                    self.job.cursor = 0
                elif services.index_job_finish(job=self.job, worker_id=self.worker_id):
                    return JobOutcome.DONE
            if self.deadline is not None and time.monotonic() >= self.deadline:
                return self._yield()

    def _yield(self) -> JobOutcome:
        services.index_job_release(job=self.job, worker_id=self.worker_id)
        return JobOutcome.YIELDED

    def _identity_check(self) -> None:
        """Vectors of one version come from one model: if the version's profile now resolves to
        another model or size, stop instead of mixing spaces (create a new version)."""
        try:
            identity = embedding_model_identity(
                self.version.profile, data_policy=embed_data_policy()
            )
        except NoEligibleEmbeddingModel as error:
            raise PermanentJobError("no_eligible_model") from error
        if tuple(identity) != (
            self.version.provider,
            self.version.model,
            self.version.dimensions,
        ):
            raise PermanentJobError("profile_model_changed")

    def _embed(self, entries: Sequence[PendingEntry]) -> None:
        limits = self.limits
        texts = {entry.entry_id: entry.text[: limits.max_input_chars] for entry in entries}

        def tokens_of(entry: PendingEntry) -> int:
            # The runtime truncates longer inputs to the model's limit before counting.
            tokens = count_tokens(texts[entry.entry_id])
            return min(tokens, limits.max_input_tokens) if limits.max_input_tokens else tokens

        batches = batches_split(
            entries, max_inputs=limits.max_inputs, max_tokens=limits.max_tokens, tokens_of=tokens_of
        )
        for batch in batches:
            if time.monotonic() - self.lease_renewed_at > settings.INDEXING_JOB_LEASE_SECONDS / 3:
                services.index_job_heartbeat(job=self.job, worker_id=self.worker_id)
                self.lease_renewed_at = time.monotonic()
            outcomes = self._provider_embed(batch, [texts[entry.entry_id] for entry in batch])
            written = services.entries_results_write(
                job=self.job,
                worker_id=self.worker_id,
                outcomes=outcomes,
                cursor=batch[-1].message_id,
            )
            self.lease_renewed_at = time.monotonic()
            self.embedded += written.embedded
            self.failed += written.failed
            self.retrying_in_pass += written.retrying
            if self.on_batch is not None:
                self.on_batch(written.embedded, written.failed)

    def _provider_embed(
        self, batch: Sequence[PendingEntry], texts: list[str]
    ) -> list[services.EntryOutcome]:
        started = time.monotonic()
        with slot_held(self.pool, wait_seconds=settings.INDEXING_PROVIDER_SLOT_WAIT_SECONDS):
            result = embed_many(
                texts, profile=self.version.profile, data_policy=embed_data_policy()
            )
        self.provider_seconds += time.monotonic() - started
        _whole_batch_check(result, size=len(texts))
        if (result.provider, result.model, result.dimensions) != (
            self.version.provider,
            self.version.model,
            self.version.dimensions,
        ):
            raise PermanentJobError("profile_model_changed")
        failures = {failure.index: failure for failure in result.failures}
        outcomes: list[services.EntryOutcome] = []
        for index, entry in enumerate(batch):
            vector = result.vectors[index]
            failure = failures.get(index)
            if failure is None and (vector is None or len(vector) != self.version.dimensions):
                # Every stored vector has its version's size; anything else is not this model.
                raise PermanentJobError("provider_dimension_mismatch")
            outcomes.append(
                services.EntryOutcome(
                    entry_id=entry.entry_id,
                    message_id=entry.message_id,
                    expected_hash=entry.entry_hash,
                    content_hash=entry.message_hash,
                    vector=vector if failure is None else None,
                    error_code=str(failure.code) if failure is not None else "",
                    is_transient=failure.retryable if failure is not None else False,
                )
            )
        return outcomes


def _whole_batch_check(result: EmbeddingResult, *, size: int) -> None:
    """A request that failed as a whole says nothing about its inputs: a transient outage is a
    job-level retry (no input is charged an attempt), a configuration problem stops the job."""
    if size == 0 or len(result.failures) < size:
        return
    codes = {failure.code for failure in result.failures}
    if all(failure.retryable for failure in result.failures):
        raise TransientJobError(str(sorted(codes)[0]))
    if len(codes) == 1 and result.dimensions == 0:
        raise PermanentJobError(str(next(iter(codes))))
