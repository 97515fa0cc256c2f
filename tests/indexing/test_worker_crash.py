"""A worker killed in the middle of a batch loses nothing: another worker resumes the job.

Runs real Celery worker processes against Redis and the test database, kills the first one
with SIGKILL while a provider request is in flight, and checks that the second finishes the
job with no duplicate vectors and exact counters.
"""

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone

from claire.celery import app as celery_app
from indexing.models import IndexJob, IndexProgress, MessageEmbedding
from tests.indexing.support import counters, ingest, message, recount

pytestmark = [
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.chaos,
    pytest.mark.django_db(transaction=True),
]

PROJECT_ROOT = Path(__file__).resolve().parents[2]
LEASE_SECONDS = 3


def _worker_env(*, queue: str, key_prefix: str, delay_s: float) -> dict[str, str]:
    env = dict(os.environ)
    database = connection.settings_dict["NAME"]
    if env.get("DATABASE_URL"):
        parts = urlsplit(env["DATABASE_URL"])
        env["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{database}"))
    else:
        env["CLAIRE_DATABASE_NAME"] = database
    env.update(
        {
            "REDIS_URL": settings.REDIS_URL,
            "INDEXING_CELERY_QUEUE": queue,
            "INDEXING_REDIS_KEY_PREFIX": key_prefix,
            "INDEXING_JOB_LEASE_SECONDS": str(LEASE_SECONDS),
            "INDEXING_BATCH_MAX_INPUTS": "4",
            "INDEXING_FETCH_SIZE": "8",
            "CLAIRE_AI_CONFIG": json.dumps(
                {"profiles": {"embed": {"candidates": ["local/hash-embed"]}}}
            ),
            "TEST_EMBED_DELAY_S": str(delay_s),
            "PYTHONPATH": str(PROJECT_ROOT),
        }
    )
    return env


def _start_worker(*, queue: str, node: str, env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.indexing.slow_worker", queue, node],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: the kill takes the pool children too
    )


def _kill(worker: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(worker.pid, signal.SIGKILL)
    worker.wait(timeout=10)


def _wait_for(predicate, *, timeout: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}; worker log:\n{log.read_text()[-4000:]}")


def _embedded(user, version) -> int:
    row = IndexProgress.objects.filter(user=user, index_version=version).first()
    return row.embedded if row else 0


def test_a_worker_killed_mid_batch_is_resumed_by_another(
    user, version, settings, redis_settings, tmp_path
):
    client = redis.Redis.from_url(redis_settings)
    client.ping()  # fails loudly when Redis is unreachable
    assert celery_app.conf.broker_url.startswith("redis://")
    run_id = uuid.uuid4().hex[:12]
    queue = f"test-indexing-{run_id}"
    settings.INDEXING_CELERY_QUEUE = queue
    settings.INDEXING_JOB_LEASE_SECONDS = LEASE_SECONDS
    env = _worker_env(queue=queue, key_prefix=f"test-indexing:{run_id}", delay_s=0.4)
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    first = second = None
    try:
        # Ingestion commits and, after commit, queues the user's job on the test queue.
        ingest(user, [message(n) for n in range(1, 41)])
        job = IndexJob.objects.get(user=user)
        assert job.state == "queued"

        first = _start_worker(queue=queue, node=f"first-{run_id}@test", env=env, log=first_log)
        _wait_for(lambda: _embedded(user, version) >= 8, timeout=90, what="progress", log=first_log)
        _kill(first)
        at_kill = _embedded(user, version)
        job.refresh_from_db()
        assert job.state == "running"
        assert 8 <= at_kill < 40
        assert job.embedded_count == at_kill
        assert MessageEmbedding.objects.filter(user=user, state="embedded").count() == at_kill

        # The second worker recovers the job once the dead worker's lease has run out.
        time.sleep(max(0.0, (job.lease_expires_at - timezone.now()).total_seconds()) + 0.5)
        second = _start_worker(queue=queue, node=f"second-{run_id}@test", env=env, log=second_log)
        _wait_for(
            lambda: IndexJob.objects.get(pk=job.pk).state == "done",
            timeout=120,
            what="the job to finish",
            log=second_log,
        )
        job.refresh_from_db()
        assert (job.embedded_count, job.failed_count, job.attempts) == (40, 0, 1)
        assert MessageEmbedding.objects.filter(user=user).count() == 40
        assert set(MessageEmbedding.objects.filter(user=user).values_list("state", flat=True)) == {
            "embedded"
        }
        assert counters(user, version) == recount(user, version) == (40, 40, 0)
        assert "indexing.jobs_recovered" in second_log.read_text()
    finally:
        for worker in (first, second):
            if worker is not None and worker.poll() is None:
                _kill(worker)
        _redis_cleanup(client, queue=queue, key_prefix=f"test-indexing:{run_id}")


def _redis_cleanup(client: redis.Redis, *, queue: str, key_prefix: str) -> None:
    """Remove this run's own keys only: its queue, its slot keys, and the unacknowledged
    message the killed worker left behind."""
    client.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
    for key in client.scan_iter(match=f"{key_prefix}:*"):
        client.delete(key)
    for tag, payload in client.hscan_iter("unacked"):
        if queue.encode() in payload:
            client.hdel("unacked", tag)
            client.zrem("unacked_index", tag)
