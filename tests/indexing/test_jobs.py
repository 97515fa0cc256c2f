"""Per-user jobs: seeding, embedding through the runtime, idempotency, failures, leases."""

import datetime as dt

import pytest
from django.utils import timezone

from claire.ai.registry import models_overridden
from claire.db.leases import LeaseLost
from indexing import jobs, services
from indexing.jobs import JobOutcome
from indexing.models import (
    EntryState,
    IndexJob,
    IndexProgress,
    JobPhase,
    JobState,
    MessageEmbedding,
)
from tests.indexing.embedders import ScriptedEmbedder, hash_vector
from tests.indexing.support import (
    counters,
    entry_states,
    ingest,
    message,
    message_row,
    recount,
    run_job,
)

pytestmark = pytest.mark.django_db


def _vector(user, key):
    entry = MessageEmbedding.objects.get(user=user, message__platform_message_id=f"m{key}")
    return [round(float(value), 5) for value in entry.embedding]


def _rounded(values):
    return [round(value, 5) for value in values]


def test_job_embeds_every_pending_entry_with_the_runtime_vectors(user, version):
    ingest(user, [message(n) for n in range(1, 11)])
    run = run_job(user, version)
    assert (run.outcome, run.embedded, run.failed) == (JobOutcome.DONE, 10, 0)
    assert set(entry_states(user, version).values()) == {"embedded"}
    assert _vector(user, 3) == _rounded(hash_vector(message_row(user, 3).text))
    assert counters(user, version) == (10, 10, 0)
    job = IndexJob.objects.get()
    assert (job.state, job.phase, job.embedded_count, job.lease_owner) == ("done", "embed", 10, "")
    assert job.cursor == message_row(user, 10).pk


def test_a_second_run_of_a_finished_job_does_nothing(user, version):
    ingest(user, [message(1), message(2)])
    first = run_job(user, version)
    again = jobs.index_job_run(job_id=first.job_id, worker_id="other-worker", slice_seconds=0)
    assert again.outcome == JobOutcome.NOT_CLAIMED
    assert MessageEmbedding.objects.filter(user=user).count() == 2
    assert counters(user, version) == (2, 2, 0)


def test_a_duplicate_job_over_the_same_messages_creates_no_duplicate_vectors(user, version):
    ingest(user, [message(1), message(2), message(3)])
    run_job(user, version)
    # A new job for the same user (e.g. a re-sent backfill) finds nothing pending.
    second = run_job(user, version)
    assert (second.outcome, second.embedded) == (JobOutcome.DONE, 0)
    assert MessageEmbedding.objects.filter(user=user).count() == 3
    assert IndexJob.objects.filter(state=JobState.DONE).count() == 2
    assert counters(user, version) == (3, 3, 0)


def test_writing_the_same_batch_twice_counts_it_once(user, version):
    ingest(user, [message(1), message(2)])
    services.index_jobs_request(user_id=user.pk, version_ids=[version.pk])
    job = services.index_job_claim(job_id=IndexJob.objects.get().pk, worker_id="w")
    job.phase = JobPhase.EMBED
    IndexJob.objects.filter(pk=job.pk).update(phase=JobPhase.EMBED)
    entries = MessageEmbedding.objects.filter(user=user).order_by("message_id")
    outcomes = [
        services.EntryOutcome(
            entry_id=entry.pk,
            message_id=entry.message_id,
            expected_hash=entry.content_hash,
            content_hash=entry.content_hash,
            vector=[0.5] * 384,
        )
        for entry in entries
    ]
    first = services.entries_results_write(job=job, worker_id="w", outcomes=outcomes, cursor=1)
    second = services.entries_results_write(job=job, worker_id="w", outcomes=outcomes, cursor=1)
    assert (first.embedded, first.skipped) == (2, 0)
    assert (second.embedded, second.skipped) == (0, 2)
    assert counters(user, version) == (2, 2, 0)


def test_an_edit_is_embedded_again_with_its_new_text(user, version):
    ingest(user, [message(1), message(2)])
    run_job(user, version)
    ingest(user, [message(1, "the party moved to the beach")])
    assert counters(user, version) == (2, 1, 0)
    run = run_job(user, version)
    assert run.embedded == 1
    assert _vector(user, 1) == _rounded(hash_vector("the party moved to the beach"))
    entry = MessageEmbedding.objects.get(user=user, message__platform_message_id="m1")
    assert entry.content_hash == message_row(user, 1).content_hash
    assert counters(user, version) == (2, 2, 0)


def test_an_entry_edited_while_it_was_being_embedded_is_skipped_then_redone(user, version):
    ingest(user, [message(1)])
    services.index_jobs_request(user_id=user.pk, version_ids=[version.pk])
    job = services.index_job_claim(job_id=IndexJob.objects.get().pk, worker_id="w")
    entry = MessageEmbedding.objects.get(user=user)
    stale = services.EntryOutcome(
        entry_id=entry.pk,
        message_id=entry.message_id,
        expected_hash=entry.content_hash,
        content_hash=entry.content_hash,
        vector=hash_vector("old text"),
    )
    ingest(user, [message(1, "new text arrived meanwhile")])
    written = services.entries_results_write(job=job, worker_id="w", outcomes=[stale], cursor=1)
    assert (written.embedded, written.skipped) == (0, 1)
    assert entry_states(user, version) == {"m1": "pending"}
    assert counters(user, version) == (1, 0, 0)


def test_existing_messages_are_seeded_when_a_version_appears(user):
    ingest(user, [message(n) for n in range(1, 6)] + [message(6, deleted=True)])
    ingest(user, [message(7)], chat="c2")
    version = services.index_version_create(
        profile="embed",
        identity=services.ModelIdentity(provider="local", model="hash-embed-384", dimensions=384),
    )
    assert MessageEmbedding.objects.count() == 0
    run = run_job(user, version)
    assert (run.outcome, run.embedded) == (JobOutcome.DONE, 6)
    progress = IndexProgress.objects.get(user=user, index_version=version)
    assert (progress.eligible, progress.embedded, progress.is_seeded) == (6, 6, True)
    assert IndexJob.objects.get().seeded_count == 6


def test_seeding_in_small_batches_resumes_from_its_keyset_cursor(user, settings):
    settings.INDEXING_SEED_BATCH_SIZE = 2
    # Same minute for several messages: the cursor must break ties on id.
    ingest(user, [message(n, minute=n // 3) for n in range(1, 8)])
    version = services.index_version_create(
        profile="embed",
        identity=services.ModelIdentity(provider="local", model="hash-embed-384", dimensions=384),
    )
    run = run_job(user, version)
    assert run.embedded == 7
    assert counters(user, version) == recount(user, version) == (7, 7, 0)


def test_permanent_failures_are_recorded_without_blocking_the_rest(user, version):
    ingest(user, [message(n) for n in range(1, 6)] + [message(6, "please REFUSE this one")])
    with models_overridden({"local/hash-embed": ScriptedEmbedder()}):
        run = run_job(user, version)
    assert (run.outcome, run.embedded, run.failed) == (JobOutcome.DONE, 5, 1)
    failed = MessageEmbedding.objects.get(user=user, state=EntryState.FAILED)
    assert failed.message.platform_message_id == "m6"
    assert failed.error_code == "content_filtered"
    assert failed.embedding is None
    assert counters(user, version) == (6, 5, 1)
    assert IndexJob.objects.get().state == JobState.DONE


def test_a_provider_outage_retries_the_job_without_charging_the_messages(user, version):
    ingest(user, [message(1), message(2)])
    embedder = ScriptedEmbedder(outage=True)
    with models_overridden({"local/hash-embed": embedder}):
        run = run_job(user, version)
    assert run.outcome == JobOutcome.RETRY
    assert run.error_code == "provider_unavailable"
    assert 0 < run.retry_in_seconds <= 5
    job = IndexJob.objects.get()
    assert (job.state, job.attempts, job.last_error, job.lease_owner) == (
        "queued",
        1,
        "provider_unavailable",
        "",
    )
    assert set(MessageEmbedding.objects.values_list("state", "attempts")) == {("pending", 0)}
    assert embedder.calls == 2  # the runtime's own retry, then the job gave the batch back

    embedder.outage = False
    with models_overridden({"local/hash-embed": embedder}):
        resumed = jobs.index_job_run(job_id=job.pk, worker_id="w2", slice_seconds=0)
    assert (resumed.outcome, resumed.embedded) == (JobOutcome.DONE, 2)
    assert counters(user, version) == (2, 2, 0)


def test_a_job_gives_up_after_its_attempt_ceiling(user, version, settings):
    settings.INDEXING_JOB_MAX_ATTEMPTS = 2
    ingest(user, [message(1)])
    with models_overridden({"local/hash-embed": ScriptedEmbedder(outage=True)}):
        first = run_job(user, version)
        second = jobs.index_job_run(job_id=first.job_id, worker_id="w", slice_seconds=0)
    assert (first.outcome, second.outcome) == (JobOutcome.RETRY, JobOutcome.FAILED)
    job = IndexJob.objects.get()
    assert (job.state, job.last_error) == ("failed", "provider_unavailable:gave_up")
    assert entry_states(user, version) == {"m1": "pending"}
    assert counters(user, version) == (1, 0, 0)


def test_transient_refusals_of_single_inputs_fail_them_past_the_ceiling(user, version, settings):
    settings.INDEXING_ENTRY_MAX_ATTEMPTS = 2
    ingest(user, [message(1), message(2)])
    services.index_jobs_request(user_id=user.pk, version_ids=[version.pk])
    job = services.index_job_claim(job_id=IndexJob.objects.get().pk, worker_id="w")
    entries = list(MessageEmbedding.objects.filter(user=user).order_by("message_id"))
    outcomes = [
        services.EntryOutcome(
            entry_id=entries[0].pk,
            message_id=entries[0].message_id,
            expected_hash=entries[0].content_hash,
            content_hash=entries[0].content_hash,
            vector=[0.1] * 384,
        ),
        services.EntryOutcome(
            entry_id=entries[1].pk,
            message_id=entries[1].message_id,
            expected_hash=entries[1].content_hash,
            content_hash=entries[1].content_hash,
            error_code="rate_limited",
            is_transient=True,
        ),
    ]
    first = services.entries_results_write(job=job, worker_id="w", outcomes=outcomes, cursor=2)
    assert (first.embedded, first.retrying, first.failed) == (1, 1, 0)
    assert entry_states(user, version) == {"m1": "embedded", "m2": "pending"}
    second = services.entries_results_write(job=job, worker_id="w", outcomes=outcomes[1:], cursor=2)
    assert (second.retrying, second.failed) == (0, 1)
    entry = MessageEmbedding.objects.get(pk=entries[1].pk)
    assert (entry.state, entry.error_code, entry.attempts) == ("failed", "retries_exhausted", 2)
    assert counters(user, version) == (2, 1, 1)


def test_a_worker_that_lost_its_lease_writes_nothing(user, version):
    ingest(user, [message(1)])
    services.index_jobs_request(user_id=user.pk, version_ids=[version.pk])
    job_id = IndexJob.objects.get().pk
    stalled = services.index_job_claim(job_id=job_id, worker_id="stalled")
    IndexJob.objects.filter(pk=job_id).update(
        lease_expires_at=timezone.now() - dt.timedelta(seconds=1)
    )
    taken = services.index_job_claim(job_id=job_id, worker_id="rescuer")
    assert taken is not None
    assert (taken.attempts, taken.last_error) == (1, "worker_lost")
    entry = MessageEmbedding.objects.get(user=user)
    outcome = services.EntryOutcome(
        entry_id=entry.pk,
        message_id=entry.message_id,
        expected_hash=entry.content_hash,
        content_hash=entry.content_hash,
        vector=[0.2] * 384,
    )
    with pytest.raises(LeaseLost):
        services.entries_results_write(
            job=stalled, worker_id="stalled", outcomes=[outcome], cursor=9
        )
    assert entry_states(user, version) == {"m1": "pending"}
    assert counters(user, version) == (1, 0, 0)
    assert IndexJob.objects.get().cursor == 0


def test_a_live_lease_is_not_taken_over(user, version):
    ingest(user, [message(1)])
    services.index_jobs_request(user_id=user.pk, version_ids=[version.pk])
    job_id = IndexJob.objects.get().pk
    assert services.index_job_claim(job_id=job_id, worker_id="first") is not None
    assert services.index_job_claim(job_id=job_id, worker_id="second") is None
    assert IndexJob.objects.get().lease_owner == "first"


def test_a_used_up_time_slice_gives_the_job_back_and_it_resumes(user, version, settings):
    settings.INDEXING_FETCH_SIZE = 2
    ingest(user, [message(n) for n in range(1, 6)])
    first = run_job(user, version, slice_seconds=0.000001)
    assert first.outcome == JobOutcome.YIELDED
    job = IndexJob.objects.get()
    assert job.state == "queued"
    done_before = counters(user, version)[1]
    assert done_before < 5
    second = jobs.index_job_run(job_id=job.pk, worker_id="w2", slice_seconds=0)
    assert second.outcome == JobOutcome.DONE
    assert done_before + second.embedded == 5
    assert counters(user, version) == (5, 5, 0)


def test_work_arriving_while_the_job_runs_is_picked_up_before_it_finishes(user, version):
    ingest(user, [message(1)])
    services.index_jobs_request(user_id=user.pk, version_ids=[version.pk])
    job = services.index_job_claim(job_id=IndexJob.objects.get().pk, worker_id="w")
    IndexJob.objects.filter(pk=job.pk).update(phase=JobPhase.EMBED)
    job.phase = JobPhase.EMBED
    ingest(user, [message(2)])
    assert services.index_jobs_request(user_id=user.pk, version_ids=[version.pk]) == []
    assert services.index_job_finish(job=job, worker_id="w") is False
    assert IndexJob.objects.get().state == "running"
    assert services.index_job_finish(job=job, worker_id="w") is True


def test_a_changed_profile_model_stops_the_job_instead_of_mixing_vectors(user, version, settings):
    from django.test import override_settings

    from claire.ai.config import ai_config_reset

    ingest(user, [message(1)])
    profiles = {**settings.AI_PROFILES, "embed": {"candidates": ["local/minilm"]}}
    with override_settings(AI_PROFILES=profiles):
        ai_config_reset()
        run = run_job(user, version)
    ai_config_reset()
    assert (run.outcome, run.error_code) == (JobOutcome.FAILED, "profile_model_changed")
    assert entry_states(user, version) == {"m1": "pending"}


def test_the_active_versions_index_is_due_once_every_user_is_complete(user, other_user, version):
    ingest(user, [message(1)])
    ingest(other_user, [message(1)])
    first = run_job(user, version)
    assert (first.outcome, first.search_index_due) == (JobOutcome.DONE, False)
    second = run_job(other_user, version)
    assert (second.outcome, second.search_index_due) == (JobOutcome.DONE, True)
    services.index_version_search_index_build(index_version=version)
    version.refresh_from_db()
    assert version.has_search_index
    ingest(user, [message(2)])
    assert run_job(user, version).search_index_due is False


def test_a_job_whose_workers_keep_dying_gives_up(user, version, settings):
    settings.INDEXING_JOB_MAX_ATTEMPTS = 2
    ingest(user, [message(1)])
    services.index_jobs_request(user_id=user.pk, version_ids=[version.pk])
    job_id = IndexJob.objects.get().pk
    expired = timezone.now() - dt.timedelta(seconds=1)
    assert services.index_job_claim(job_id=job_id, worker_id="a") is not None
    IndexJob.objects.filter(pk=job_id).update(lease_expires_at=expired)
    assert services.index_job_claim(job_id=job_id, worker_id="b") is not None
    IndexJob.objects.filter(pk=job_id).update(lease_expires_at=expired)
    assert services.index_job_claim(job_id=job_id, worker_id="c") is None
    job = IndexJob.objects.get()
    assert (job.state, job.attempts, job.last_error, job.lease_owner) == (
        "failed",
        2,
        "worker_lost:gave_up",
        "",
    )
    assert entry_states(user, version) == {"m1": "pending"}


def test_vectors_of_another_size_are_never_stored(user, version):
    from claire.ai.local.mock import HashEmbedder

    ingest(user, [message(1)])
    with models_overridden({"local/hash-embed": HashEmbedder(dimensions=8)}):
        run = run_job(user, version)
    assert (run.outcome, run.error_code) == (JobOutcome.FAILED, "provider_dimension_mismatch")
    assert entry_states(user, version) == {"m1": "pending"}
    assert counters(user, version) == (1, 0, 0)
