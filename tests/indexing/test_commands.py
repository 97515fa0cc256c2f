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


def _check(version) -> tuple[str, str | None]:
    """``index_cutover --check``: its output, and its error when it exits non-zero."""
    out = StringIO()
    try:
        call_command("index_cutover", "--to-version", str(version.version), "--check", stdout=out)
    except CommandError as error:
        return out.getvalue(), str(error)
    return out.getvalue(), None


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
    check, error = _check(new)
    assert check == f"user {user.pk}: not seeded yet\n"
    assert error == "1 user(s) incomplete. Workers are building it; check again later."
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
    assert _check(new) == (f"Ready for cutover to version {new.version}.\n", None)

    output = _call("index_cutover", "--to-version", str(new.version), "--retire-old")
    assert f"Version {new.version} is active." in output
    assert f"Version {version.version} is retired." in output
    assert MessageEmbedding.objects.filter(index_version=version).count() == 0
    assert MessageEmbedding.objects.filter(index_version=new).count() == 2
    new.refresh_from_db()
    assert _check(new) == (f"Version {new.version} is already active: nothing to do.\n", None)
    version.refresh_from_db()
    assert _check(version) == (
        "",
        f"Version {version.version} is retired: only a building version can become active.",
    )


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


def test_version_create_names_the_missing_kind_of_a_profile(version, settings):
    from django.test import override_settings

    from claire.ai.config import ai_config_reset

    profiles = {**settings.AI_PROFILES, "embed_next": {"candidates": ["local/hash-embed"]}}
    with override_settings(AI_PROFILES=profiles):
        ai_config_reset()
        with pytest.raises(CommandError) as raised:
            _call("index_version_create", "--profile", "embed_next")
    ai_config_reset()

    assert str(raised.value) == (
        "CLAIRE_AI_CONFIG: profile 'embed_next': \"kind\" is missing "
        '(set "kind": "embedding" or "generation")'
    )
    assert IndexVersion.objects.count() == 1


def test_a_job_on_a_worker_without_the_profile_fails_once_and_shows_why(
    user, version, sent_jobs, api_client, admin_client
):
    ingest(user, [message(1), message(2)])
    # A version created where the configuration had a profile this worker's lacks.
    new = services.index_version_create(
        profile="embed_large",
        identity=services.ModelIdentity(provider="local", model="hash-embed-384-b", dimensions=384),
    )

    result = run_job(user, new)

    cause = "configuration_error: unknown AI profile 'embed_large'"
    assert (result.outcome, result.error_code) == ("failed", cause)
    job = IndexJob.objects.get(index_version=new)
    assert (job.state, job.last_error) == ("failed", cause)
    assert sent_jobs == []  # nothing sends it again

    status = api_client.get("/api/index/status").json()
    building = next(item for item in status["versions"] if item["version"] == new.version)
    assert (building["state"], building["jobError"]) == ("not_started", cause)
    assert status["active"]["jobError"] is None

    output, error = _check(new)
    assert output == f"user {user.pk}: not seeded yet; job failed: {cause}\n"
    assert error == (
        "1 user(s) incomplete. 1 stalled on a failed job: fix its cause (a worker must run "
        "with the CLAIRE_AI_CONFIG the version was created with), then "
        f"backfill_embeddings --index-version {new.version} --enqueue."
    )

    page = admin_client.get("/admin/indexing/indexjob/")
    assert page.status_code == 200
    assert cause.replace("'", "&#x27;") in page.content.decode()
