"""Operator commands: backfill, version creation, cutover, retire, reconcile."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from indexing import services
from indexing.models import IndexJob, IndexProgress, IndexVersion, MessageEmbedding
from tests.indexing.support import counters, ingest, message, recount, run_job

pytestmark = pytest.mark.django_db


def _call(*args) -> str:
    out = StringIO()
    if args[0] == "backfill_embeddings":
        # Keep the test process at its normal CPU priority.
        args = (*args, "--cpu-policy", "normal")
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_backfill_creates_the_first_version_and_embeds_everyone(user, other_user):
    ingest(user, [message(1), message(2)])
    ingest(other_user, [message(1)])
    output = _call("backfill_embeddings", "--no-progress")
    version = IndexVersion.objects.get()
    assert (version.version, version.state, version.model) == (1, "active", "hash-embed-384")
    assert "Created index version 1 (local/hash-embed-384)." in output
    assert "Embedded 3 message(s), 0 failed" in output
    assert "Building the vector index of version 1..." in output
    version.refresh_from_db()
    assert version.has_search_index
    assert counters(user, version) == (2, 2, 0)
    assert counters(other_user, version) == (1, 1, 0)


def test_backfill_of_one_user(user, other_user, version):
    ingest(user, [message(1)])
    ingest(other_user, [message(1)])
    output = _call("backfill_embeddings", "--user", user.email.upper(), "--no-progress")
    assert "Embedded 1 message(s)" in output
    assert counters(user, version) == (1, 1, 0)
    assert counters(other_user, version) == (1, 0, 0)


def test_backfill_enqueue_sends_jobs_instead(user, version, sent_jobs):
    ingest(user, [message(1)])
    output = _call("backfill_embeddings", "--enqueue")
    job = IndexJob.objects.get()
    assert sent_jobs == [job.pk]
    assert "Queued 1 job(s) for 1 user(s)." in output
    assert counters(user, version) == (1, 0, 0)


def test_backfill_refuses_an_unknown_user(version):
    with pytest.raises(CommandError, match="No user"):
        _call("backfill_embeddings", "--user", "nobody@example.com")


def test_version_create_command_builds_in_parallel(user, version, settings):
    from django.test import override_settings

    from claire.ai.config import ai_config_reset
    from tests.indexing.conftest import HASH_EMBED_PROFILE

    small = {
        "provider": "local",
        "model": "hash-embed-32",
        "data_policy": "local",
        "capabilities": {"embedding_dimensions": 32},
    }
    profiles = {
        **settings.AI_PROFILES,
        "embed": HASH_EMBED_PROFILE,
        "embed_next": {"kind": "embedding", "candidates": ["local/hash-embed-32"]},
    }
    ingest(user, [message(1)])
    with override_settings(AI_MODELS={"local/hash-embed-32": small}, AI_PROFILES=profiles):
        ai_config_reset()
        output = _call("index_version_create", "--profile", "embed_next")
        new = IndexVersion.objects.get(version=2)
        run_job(user, new)
    ai_config_reset()
    assert output == "Created index version 2: local/hash-embed-32, 32 dimensions, building.\n"
    assert (new.profile, new.dimensions, new.state) == ("embed_next", 32, "building")
    assert counters(user, new) == (1, 1, 0)


def test_version_create_refuses_the_current_model(version):
    with pytest.raises(CommandError, match="already indexes"):
        _call("index_version_create", "--profile", "embed")


def test_cutover_command_checks_switches_and_retires(user, version):
    ingest(user, [message(1), message(2)])
    run_job(user, version)
    new = services.index_version_create(
        profile="embed",
        identity=services.ModelIdentity(provider="local", model="hash-embed-384-b", dimensions=384),
    )
    check = _call("index_cutover", "--to-version", str(new.version), "--check")
    assert f"user {user.pk}: 0/0 done, seeded=False" in check
    with pytest.raises(CommandError, match="not complete"):
        _call("index_cutover", "--to-version", str(new.version))

    # Build the new version directly (its profile resolves to the old model, so mark it done
    # the way a job would).
    services.index_jobs_request(user_id=user.pk, version_ids=[new.pk])
    job = services.index_job_claim(job_id=IndexJob.objects.get(index_version=new).pk, worker_id="w")
    while services.entries_seed_batch(job=job, worker_id="w", batch_size=10) is not None:
        pass
    embedded = MessageEmbedding.objects.filter(index_version=new).update(
        state="embedded", embedding=[0.3] * 384
    )
    services.progress_apply(
        user_id=user.pk, deltas={new.pk: services.ProgressDelta(embedded=embedded)}
    )
    assert "Ready for cutover." in _call(
        "index_cutover", "--to-version", str(new.version), "--check"
    )

    output = _call("index_cutover", "--to-version", str(new.version), "--retire-old")
    assert f"Version {new.version} is active." in output
    assert f"Version {version.version} is retired." in output
    assert MessageEmbedding.objects.filter(index_version=version).count() == 0
    assert MessageEmbedding.objects.filter(index_version=new).count() == 2


def test_retire_command_refuses_the_active_version(version):
    with pytest.raises(CommandError, match="cut over first"):
        _call("index_version_retire", "--index-version", str(version.version))


def test_reconcile_reports_and_fixes_drift(user, version):
    ingest(user, [message(1), message(2), message(3)])
    run_job(user, version)
    assert "drift in 0" in _call("reconcile_index_progress")

    IndexProgress.objects.filter(user=user).update(embedded=7, eligible=1)
    MessageEmbedding.objects.filter(message__platform_message_id="m3").delete()
    report = _call("reconcile_index_progress")
    assert "stored 1/7/0 counted 2/2/0" in report
    assert "missing=1" in report
    assert "drift in 1" in report
    assert counters(user, version) == (1, 7, 0)

    fixed = _call("reconcile_index_progress", "--fix")
    assert "fixed: consistent=True" in fixed
    assert counters(user, version) == (3, 2, 0)
    run_job(user, version)
    assert counters(user, version) == recount(user, version) == (3, 3, 0)
