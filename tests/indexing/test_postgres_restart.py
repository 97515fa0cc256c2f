"""PostgreSQL restarting in the middle of an indexing job run by a real Celery worker: the task
is sent again after the job's lease, the job resumes from its cursor and ends done, with every
message embedded exactly once and exact counters."""

from __future__ import annotations

import uuid

import pytest
import redis

from claire.celery import app as celery_app
from indexing.models import IndexJob, MessageEmbedding
from tests.chaos.faults import embedded_postgres_restart, reconnect_after_restart
from tests.indexing.support import counters, ingest, message, recount
from tests.indexing.test_worker_crash import (
    LEASE_SECONDS,
    _embedded,
    _kill,
    _redis_cleanup,
    _start_worker,
    _wait_for,
    _worker_env,
)

pytestmark = [
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.chaos,
    pytest.mark.django_db(transaction=True),
]


def test_postgres_restarting_mid_backfill(user, version, settings, redis_settings, tmp_path):
    client = redis.Redis.from_url(redis_settings)
    client.ping()
    assert celery_app.conf.broker_url.startswith("redis://")
    run_id = uuid.uuid4().hex[:12]
    queue = f"test-indexing-{run_id}"
    settings.INDEXING_CELERY_QUEUE = queue
    settings.INDEXING_JOB_LEASE_SECONDS = LEASE_SECONDS
    env = _worker_env(queue=queue, key_prefix=f"test-indexing:{run_id}", delay_s=0.4)
    log = tmp_path / "worker.log"
    worker = None
    try:
        ingest(user, [message(n) for n in range(1, 41)])
        job = IndexJob.objects.get(user=user)
        worker = _start_worker(queue=queue, node=f"pg-{run_id}@test", env=env, log=log)
        _wait_for(lambda: _embedded(user, version) >= 8, timeout=90, what="progress", log=log)
        embedded_postgres_restart()
        reconnect_after_restart()
        assert _embedded(user, version) < 40, "the job ended before the restart"
        _wait_for(
            lambda: IndexJob.objects.get(pk=job.pk).state == "done",
            timeout=120,
            what="the job to finish after the restart",
            log=log,
        )
        job.refresh_from_db()
        assert (job.embedded_count, job.failed_count) == (40, 0)
        # The admin's job row shows the interruption: one more attempt, resumed after its
        # worker lost the database.
        assert job.attempts == 1
        assert "indexing.job_database_unavailable" in log.read_text()
        assert MessageEmbedding.objects.filter(user=user).count() == 40
        assert set(MessageEmbedding.objects.filter(user=user).values_list("state", flat=True)) == {
            "embedded"
        }
        assert counters(user, version) == recount(user, version) == (40, 40, 0)
    finally:
        if worker is not None and worker.poll() is None:
            _kill(worker)
        _redis_cleanup(client, queue=queue, key_prefix=f"test-indexing:{run_id}")
