from __future__ import annotations

import datetime as dt

from tests.factories import UsageEventFactory

BASE_DAY = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)
RELEASE_DAY = dt.datetime(2026, 3, 20, 12, 0, tzinfo=dt.UTC)


def answers(count: int, *, at: dt.datetime, **fields: object) -> list:
    """``count`` answer usage events a minute apart from ``at``."""
    defaults: dict[str, object] = {
        "profile": "answer",
        "route": "hybrid",
        "time_to_first_token_ms": 200,
        "duration_ms": 900,
        "source_count": 3,
    }
    return [
        UsageEventFactory(created_at=at + dt.timedelta(minutes=n), **{**defaults, **fields})
        for n in range(count)
    ]
