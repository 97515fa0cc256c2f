"""Percentiles for benches and reports (imports nothing from Django, so a bench's pooling
script runs without settings)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

# Cut points per unit: percentiles are resolved to a tenth of a percent (p99.9).
_RESOLUTION = 1000


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` (0..1) of the samples fall, interpolated between the
    two nearest samples (``statistics.quantiles``, inclusive method); 0.0 for no samples."""
    if not values:
        return 0.0
    if len(values) == 1 or fraction <= 0:
        return min(values)
    if fraction >= 1:
        return max(values)
    cut = round(fraction * _RESOLUTION)
    if cut <= 0:
        return min(values)
    if cut >= _RESOLUTION:
        return max(values)
    return statistics.quantiles(values, n=_RESOLUTION, method="inclusive")[cut - 1]
