"""One exponential backoff for everything that retries (embedding batches, indexing jobs, the
Stop listener's channel-layer subscription)."""

from __future__ import annotations

import random


def backoff_delay(
    *,
    attempt: int,
    base_s: float,
    cap_s: float,
    full_jitter: bool = True,
    retry_after_s: float | None = None,
) -> float:
    """Seconds to wait before try ``attempt + 1`` (``attempt`` counts from 0): exponential from
    ``base_s``, capped at ``cap_s``, jittered so that retries of many clients spread out.

    Full jitter draws from ``[0, ceiling]``; equal jitter from ``[ceiling / 2, ceiling]``, for a
    caller that must wait at least half the ceiling. A server's ``Retry-After`` is a floor,
    itself capped at ``cap_s``."""
    ceiling = min(cap_s, base_s * (2 ** max(attempt, 0)))
    delay = random.uniform(0.0 if full_jitter else ceiling / 2, ceiling)
    if retry_after_s is not None:
        delay = max(delay, min(retry_after_s, cap_s))
    return delay
