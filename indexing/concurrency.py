"""A bound on in-flight embedding provider requests across every worker process.

Two real mechanisms, chosen by configuration:

* ``RedisSlotPool`` (``REDIS_URL`` set): a sorted set of slot holders scored by lease expiry.
  Acquiring drops expired holders first, so a worker killed while holding a slot gives it back
  when its lease runs out.
* ``PostgresSlotPool`` (no Redis): ``limit`` session advisory locks; a holder takes any free one.
  A dead worker's connection closes and PostgreSQL releases its lock at once.

Both wait with jittered polling up to a deadline and then raise ``ProviderSlotUnavailable``,
which the job treats as transient.
"""

from __future__ import annotations

import random
import time
import uuid
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from django.conf import settings
from django.db import connection


class ProviderSlotUnavailable(Exception):
    """No slot freed up before the deadline."""


@dataclass(frozen=True)
class SlotLease:
    pool: str
    token: str


class SlotPool(Protocol):
    limit: int

    def try_acquire(self) -> SlotLease | None: ...

    def release(self, lease: SlotLease) -> None: ...

    def holders(self) -> int: ...


# Redis: drop expired holders, then add this one if the pool has room. Runs atomically on the
# server, against the server's clock, so workers on different hosts agree on expiry.
_ACQUIRE_SCRIPT = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now_ms + tonumber(ARGV[2]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
  return 1
end
return 0
"""

_COUNT_SCRIPT = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
return redis.call('ZCARD', KEYS[1])
"""


class RedisSlotPool:
    def __init__(self, *, url: str, pool: str, limit: int, lease_seconds: int, prefix: str):
        import redis

        self.limit = limit
        self.pool = pool
        self.key = f"{prefix}:provider-slots:{pool}"
        self.lease_ms = lease_seconds * 1000
        self._client = redis.Redis.from_url(url)
        self._acquire = self._client.register_script(_ACQUIRE_SCRIPT)
        self._count = self._client.register_script(_COUNT_SCRIPT)

    def try_acquire(self) -> SlotLease | None:
        token = uuid.uuid4().hex
        acquired = self._acquire(keys=[self.key], args=[self.limit, self.lease_ms, token])
        return SlotLease(pool=self.pool, token=token) if acquired == 1 else None

    def release(self, lease: SlotLease) -> None:
        self._client.zrem(self.key, lease.token)

    def holders(self) -> int:
        return int(self._count(keys=[self.key]))


# Advisory locks in the two-int4 key space: (namespace, slot number). The single-bigint key
# space used elsewhere does not overlap with it.
_SLOT_NAMESPACE_BASE = 0x1D30_0000


class PostgresSlotPool:
    """Slots are session advisory locks on this process's database connection; the caller must
    not hand the connection to a pooler in transaction mode while holding one."""

    def __init__(self, *, pool: str, limit: int):
        self.limit = limit
        self.pool = pool
        self.namespace = (_SLOT_NAMESPACE_BASE + zlib.crc32(pool.encode()) % 0xFFFF) & 0x7FFFFFFF

    def try_acquire(self) -> SlotLease | None:
        start = random.randrange(self.limit)
        with connection.cursor() as cursor:
            for offset in range(self.limit):
                slot = (start + offset) % self.limit
                cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [self.namespace, slot])
                row = cursor.fetchone()
                if row is not None and row[0]:
                    return SlotLease(pool=self.pool, token=str(slot))
        return None

    def release(self, lease: SlotLease) -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [self.namespace, int(lease.token)])

    def holders(self) -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                "AND classid = %s::oid AND objsubid = 2 AND database = "
                "(SELECT oid FROM pg_database WHERE datname = current_database())",
                [self.namespace],
            )
            row = cursor.fetchone()
            return int(row[0]) if row else 0


@cache
def _redis_pool(url: str, pool: str, limit: int, lease_seconds: int, prefix: str) -> RedisSlotPool:
    return RedisSlotPool(
        url=url, pool=pool, limit=limit, lease_seconds=lease_seconds, prefix=prefix
    )


def provider_slot_pool(*, pool: str) -> SlotPool:
    """The configured pool: Redis when ``REDIS_URL`` is set, PostgreSQL otherwise."""
    limit = max(1, int(settings.INDEXING_MAX_CONCURRENT_PROVIDER_REQUESTS))
    if settings.REDIS_URL:
        return _redis_pool(
            settings.REDIS_URL,
            pool,
            limit,
            int(settings.INDEXING_PROVIDER_SLOT_LEASE_SECONDS),
            settings.INDEXING_REDIS_KEY_PREFIX,
        )
    return PostgresSlotPool(pool=pool, limit=limit)


@contextmanager
def slot_held(pool: SlotPool, *, wait_seconds: float) -> Iterator[SlotLease]:
    """Hold one slot of ``pool`` for the block; raises ``ProviderSlotUnavailable`` when none
    frees up within ``wait_seconds``."""
    deadline = time.monotonic() + wait_seconds
    delay = 0.02
    while True:
        lease = pool.try_acquire()
        if lease is not None:
            break
        if time.monotonic() >= deadline:
            raise ProviderSlotUnavailable(f"no provider slot in {wait_seconds:.0f}s")
        # Jitter keeps waiting workers from polling in lockstep.
        time.sleep(delay * (0.5 + random.random()))
        delay = min(delay * 2, 0.5)
    try:
        yield lease
    finally:
        pool.release(lease)
