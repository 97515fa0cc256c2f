"""Percentiles for the bench (no Django imports, so the A/B pooling runs without settings)."""

from __future__ import annotations

import math


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile (the value below which ``fraction`` of the samples fall)."""
    ordered = sorted(values)
    rank = max(math.ceil(fraction * len(ordered)) - 1, 0)
    return ordered[min(rank, len(ordered) - 1)]
