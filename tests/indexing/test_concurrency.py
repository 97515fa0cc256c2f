"""Provider slots bound in-flight provider requests across workers, in Redis and PostgreSQL."""

import threading
import time
import uuid

import pytest
from django.db import connection

from claire.ai.registry import models_overridden
from indexing.concurrency import (
    PostgresSlotPool,
    ProviderSlotUnavailable,
    RedisSlotPool,
    provider_slot_pool,
    slot_held,
)
from indexing.selectors import active_index_version
from tests.factories import UserFactory
from tests.indexing.embedders import AsyncSlowEmbedder, ConcurrencyCounter
from tests.indexing.support import counters, ingest, message, run_job


def _hammer(pool_factory, *, workers: int, hold_s: float) -> ConcurrencyCounter:
    counter = ConcurrencyCounter()
    errors: list[BaseException] = []

    def work() -> None:
        try:
            pool = pool_factory()
            with slot_held(pool, wait_seconds=10):
                counter.enter()
                time.sleep(hold_s)
                counter.leave()
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=work) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    return counter


@pytest.mark.redis
def test_redis_slots_bound_concurrent_holders(redis_url):
    url = redis_url
    prefix = f"test-indexing:{uuid.uuid4().hex}"
    counter = _hammer(
        lambda: RedisSlotPool(url=url, pool="p", limit=2, lease_seconds=30, prefix=prefix),
        workers=6,
        hold_s=0.1,
    )
    assert (counter.total, counter.maximum) == (6, 2)
    assert RedisSlotPool(url=url, pool="p", limit=2, lease_seconds=30, prefix=prefix).holders() == 0


@pytest.mark.redis
def test_redis_slot_of_a_dead_holder_is_reclaimed_when_its_lease_expires(redis_url):
    url = redis_url
    prefix = f"test-indexing:{uuid.uuid4().hex}"
    pool = RedisSlotPool(url=url, pool="p", limit=1, lease_seconds=1, prefix=prefix)
    assert pool.try_acquire() is not None  # never released: its holder "died"
    assert pool.try_acquire() is None
    with pytest.raises(ProviderSlotUnavailable), slot_held(pool, wait_seconds=0.2):
        pass
    time.sleep(1.1)
    lease = pool.try_acquire()
    assert lease is not None
    pool.release(lease)
    assert pool.holders() == 0


@pytest.mark.django_db(transaction=True)
def test_postgres_slots_bound_concurrent_holders():
    counter = _hammer(lambda: PostgresSlotPool(pool="pg-bound", limit=2), workers=6, hold_s=0.1)
    assert (counter.total, counter.maximum) == (6, 2)
    assert PostgresSlotPool(pool="pg-bound", limit=2).holders() == 0


@pytest.mark.django_db(transaction=True)
def test_postgres_slot_of_a_dead_holder_is_released_with_its_connection():
    pool = PostgresSlotPool(pool="pg-dead", limit=1)
    held = threading.Event()
    die = threading.Event()

    def holder() -> None:
        assert pool.try_acquire() is not None
        held.set()
        die.wait(5)
        connection.close()  # the process died: its session, and so its lock, are gone

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait(5)
    assert pool.try_acquire() is None
    assert pool.holders() == 1
    die.set()
    thread.join()
    # The server releases the lock when the closed session's backend exits, a moment later.
    deadline = time.monotonic() + 5
    lease = pool.try_acquire()
    while lease is None and time.monotonic() < deadline:
        time.sleep(0.05)
        lease = pool.try_acquire()
    assert lease is not None
    pool.release(lease)
    assert pool.holders() == 0


def test_the_configured_pool_follows_redis_url(settings):
    settings.REDIS_URL = ""
    assert isinstance(provider_slot_pool(pool="x"), PostgresSlotPool)
    settings.REDIS_URL = "redis://127.0.0.1:6379/15"
    assert isinstance(provider_slot_pool(pool="x"), RedisSlotPool)


def _parallel_backfill(settings, *, users: int, limit: int) -> ConcurrencyCounter:
    settings.INDEXING_MAX_CONCURRENT_PROVIDER_REQUESTS = limit
    settings.INDEXING_BATCH_MAX_INPUTS = 4
    people = [UserFactory() for _ in range(users)]
    for person in people:
        ingest(person, [message(n) for n in range(1, 13)])
    counter = ConcurrencyCounter()
    version = active_index_version()
    assert version is not None
    errors: list[BaseException] = []

    def backfill(person) -> None:
        try:
            run_job(person, version, worker_id=f"w-{person.pk}")
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    with models_overridden({"local/hash-embed": AsyncSlowEmbedder(0.2, counter)}):
        threads = [threading.Thread(target=backfill, args=(person,)) for person in people]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
    for person in people:
        assert counters(person, version) == (12, 12, 0)
    return counter


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_parallel_backfills_never_exceed_the_redis_bound(
    settings, redis_settings, version, sent_jobs
):
    settings.INDEXING_REDIS_KEY_PREFIX = f"test-indexing:{uuid.uuid4().hex}"
    counter = _parallel_backfill(settings, users=4, limit=2)
    assert (counter.total, counter.maximum) == (12, 2)


@pytest.mark.django_db(transaction=True)
def test_parallel_backfills_never_exceed_the_postgres_bound(settings, version, sent_jobs):
    settings.REDIS_URL = ""
    counter = _parallel_backfill(settings, users=4, limit=2)
    assert (counter.total, counter.maximum) == (12, 2)


@pytest.mark.django_db(transaction=True)
def test_a_wider_bound_lets_more_requests_run_at_once(settings, version, sent_jobs):
    # The control for the two tests above: the same load with room for four.
    settings.REDIS_URL = ""
    counter = _parallel_backfill(settings, users=4, limit=4)
    assert counter.total == 12
    assert counter.maximum > 2
