"""Times the factories share: a fixed, timezone-aware anchor so rows sort predictably."""

from __future__ import annotations

import datetime as dt

ANCHOR = dt.datetime(2026, 1, 1, 9, 0, tzinfo=dt.UTC)


def minutes_after_anchor(n: int) -> dt.datetime:
    return ANCHOR + dt.timedelta(minutes=n)
