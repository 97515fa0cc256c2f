"""Fixed-window rate limits shared by every server process.

With ``REDIS_URL`` the counters live in Redis (``INCR`` + ``EXPIRE`` in one round trip), so
several daphne processes count together; without it (the single-process demo) they live in
this process. A Redis failure lets the request through and logs ``ratelimit.unavailable``:
an outage of the limiter must not become an outage of the product.

Limits are ``"<count>/<seconds>"`` strings in ``settings.RATE_LIMITS`` by scope (``ask``,
``stop``, ``ingest``, ``login_account``, ``login_address``); docs/SECURITY.md lists them.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
import time
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RateLimit:
    count: int
    window_s: int

    @classmethod
    def parse(cls, text: str) -> RateLimit:
        count, _, window = text.partition("/")
        return cls(count=int(count), window_s=int(window))


@dataclass(frozen=True)
class RateDecision:
    is_allowed: bool
    retry_after_s: int = 0


def rate_limit_for(scope: str) -> RateLimit:
    return RateLimit.parse(settings.RATE_LIMITS[scope])


def rate_limit_hit(*, scope: str, key: str) -> RateDecision:
    """Count one event of ``key`` (a user id, an address, an account) in ``scope``'s window.
    Keys are hashed: an account name or address never appears in Redis."""
    limit = rate_limit_for(scope)
    now = time.time()
    window_start = int(now // limit.window_s) * limit.window_s
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    counter_key = f"{settings.RATE_LIMIT_KEY_PREFIX}:{scope}:{digest}:{window_start}"
    count = _count(counter_key, limit.window_s)
    if count is None or count <= limit.count:
        return RateDecision(is_allowed=True)
    retry_after = max(1, math.ceil(window_start + limit.window_s - now))
    logger.info("ratelimit.exceeded", extra={"scope": scope, "retry_after_s": retry_after})
    return RateDecision(is_allowed=False, retry_after_s=retry_after)


def rate_limit_hits(*, scope: str, keys: list[str]) -> list[RateDecision]:
    """``rate_limit_hit`` for each of ``keys`` in order (a key may repeat: each occurrence is
    one event), counted in one Redis round trip with one increment per distinct key: the
    occurrences of a key get consecutive counts, as one increment each would give them."""
    limit = rate_limit_for(scope)
    now = time.time()
    window_start = int(now // limit.window_s) * limit.window_s
    occurrences = Counter(keys)
    counter_keys = {
        key: f"{settings.RATE_LIMIT_KEY_PREFIX}:{scope}:"
        f"{hashlib.sha256(key.encode()).hexdigest()[:24]}:{window_start}"
        for key in occurrences
    }
    totals = _counts(
        [(counter_keys[key], amount) for key, amount in occurrences.items()], limit.window_s
    )
    # The count each occurrence sees: the key's count before this batch, plus its place.
    next_count = {
        key: None if total is None else total - occurrences[key] + 1
        for key, total in zip(occurrences, totals, strict=True)
    }
    retry_after = max(1, math.ceil(window_start + limit.window_s - now))
    decisions = []
    for key in keys:
        count = next_count[key]
        if count is not None:
            next_count[key] = count + 1
        if count is None or count <= limit.count:
            decisions.append(RateDecision(is_allowed=True))
            continue
        logger.info("ratelimit.exceeded", extra={"scope": scope, "retry_after_s": retry_after})
        decisions.append(RateDecision(is_allowed=False, retry_after_s=retry_after))
    return decisions


def rate_limit_error(decision: RateDecision) -> exceptions.Throttled | None:
    """DRF's ``Throttled`` (429, ``rate_limited``, with ``Retry-After``) for a refusal."""
    if decision.is_allowed:
        return None
    return exceptions.Throttled(wait=decision.retry_after_s)


def rate_limit_check(*, scope: str, key: str) -> None:
    """``rate_limit_hit`` that raises DRF's ``Throttled`` (429, ``rate_limited``, with
    ``Retry-After``) when the limit is passed."""
    decision = rate_limit_hit(scope=scope, key=key)
    if not decision.is_allowed:
        raise exceptions.Throttled(wait=decision.retry_after_s)


def _count(key: str, window_s: int) -> int | None:
    if settings.REDIS_URL:
        try:
            pipeline = _redis().pipeline()
            pipeline.incr(key)
            pipeline.expire(key, window_s + 1)
            count, _ = pipeline.execute()
            return int(count)
        except Exception as error:
            logger.warning("ratelimit.unavailable", extra={"error_class": type(error).__name__})
            return None
    return _local.incr(key, window_s)


def _counts(increments: list[tuple[str, int]], window_s: int) -> list[int | None]:
    """Each counter's count after adding its amount (None: Redis is unavailable)."""
    if not increments:
        return []
    if settings.REDIS_URL:
        try:
            pipeline = _redis().pipeline()
            for key, amount in increments:
                pipeline.incrby(key, amount)
                pipeline.expire(key, window_s + 1)
            replies = pipeline.execute()
            return [int(count) for count in replies[::2]]
        except Exception as error:
            logger.warning("ratelimit.unavailable", extra={"error_class": type(error).__name__})
            return [None] * len(increments)
    return [_local.incr(key, window_s, amount) for key, amount in increments]


@lru_cache(maxsize=1)
def _redis() -> Any:
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1)


class _LocalCounters:
    """In-process counters for the single-process layout (no Redis)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, tuple[int, float]] = {}

    def incr(self, key: str, window_s: int, amount: int = 1) -> int:
        now = time.time()
        with self._lock:
            if len(self._counts) > 10_000:
                self._counts = {k: v for k, v in self._counts.items() if v[1] > now}
            count, expires_at = self._counts.get(key, (0, now + window_s + 1))
            self._counts[key] = (count + amount, expires_at)
            return count + amount

    def clear(self) -> None:
        with self._lock:
            self._counts.clear()


_local = _LocalCounters()


def rate_limits_reset() -> None:
    """Forget the in-process counters (tests)."""
    _local.clear()


class ScopedUserThrottle(BaseThrottle):
    """A DRF throttle counting each authenticated user's requests in ``scope``."""

    scope = ""

    def __init__(self) -> None:
        self._wait: int | None = None

    def allow_request(self, request: Request, view: APIView) -> bool:
        user = request.user
        if user is None or not user.is_authenticated:
            return True
        decision = rate_limit_hit(scope=self.scope, key=str(user.pk))
        self._wait = decision.retry_after_s or None
        return decision.is_allowed

    def wait(self) -> float | None:
        return self._wait


class StopThrottle(ScopedUserThrottle):
    scope = "stop"


class IngestThrottle(ScopedUserThrottle):
    scope = "ingest"
