"""Pools the ``ABJSON`` lines of ``evals/bench/memory_ab.sh`` into a median and p95 per
version and measure: ``python -m evals.bench.memory_ab_pool OUT``."""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from claire.stats import percentile

MEASURES = ("ingest", "job", "rank5", "neglected", "wa90")


def pooled(lines: list[str]) -> dict[str, dict[str, list[float]]]:
    """Every sample of every round, by version then measure."""
    pool: dict[str, dict[str, list[float]]] = {}
    for line in lines:
        if line.startswith("ABJSON "):
            round_ = json.loads(line.removeprefix("ABJSON "))
            version = pool.setdefault(round_["label"], {})
            for measure in (*MEASURES, "load"):
                value = round_[measure]
                version.setdefault(measure, []).extend(
                    value if isinstance(value, list) else [value]
                )
    return pool


def main(path: str) -> None:
    for label, measures in pooled(Path(path).read_text(encoding="utf-8").splitlines()).items():
        for measure in MEASURES:
            values = measures[measure]
            print(
                f"{label:6s} {measure:10s} n={len(values):3d} "
                f"median {statistics.median(values):9.1f} ms  "
                f"p95 {percentile(values, 0.95):9.1f} ms"
            )
        print(f"{label:6s} load average at the end of each round: {measures['load']}")


if __name__ == "__main__":
    main(sys.argv[1])
