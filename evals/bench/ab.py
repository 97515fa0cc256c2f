"""Pools the per-question latencies of ``bench_retrieval --json`` runs into one figure per
variant: ``python -m evals.bench.ab base=a1.json,a2.json new=b1.json,b2.json``.

For A/B comparisons of two code versions on a shared machine: run the two versions'
``bench_retrieval --skip-recall --json ...`` alternately (ABBA...), each against the same
corpus, then pool each version's runs here (interpolated p50/p95 over all questions).
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from claire.stats import percentile


def pooled(paths: list[str]) -> dict[str, float]:
    totals: list[float] = []
    stages: dict[str, list[float]] = {}
    for path in paths:
        figures = json.loads(Path(path).read_text(encoding="utf-8"))
        for repeat in figures["runs"]:
            for run in repeat.values():
                totals.extend(run["totals_ms"])
                for key, value in run.items():
                    if key.endswith("_p50_ms"):
                        stages.setdefault(key, []).append(value)
    return {
        "questions": len(totals),
        "p50_ms": percentile(totals, 0.5),
        "p95_ms": percentile(totals, 0.95),
        "mean_ms": statistics.fmean(totals),
        **{key: statistics.median(values) for key, values in stages.items()},
    }


def main(arguments: list[str]) -> None:
    for argument in arguments:
        name, _, paths = argument.partition("=")
        figures = pooled(paths.split(","))
        stages = ", ".join(
            f"{key.removesuffix('_p50_ms')} {value:.1f}"
            for key, value in figures.items()
            if key.endswith("_p50_ms") and key != "p50_ms"
        )
        print(
            f"{name}: {figures['questions']} questions, p50 {figures['p50_ms']:.1f} ms, "
            f"p95 {figures['p95_ms']:.1f} ms, mean {figures['mean_ms']:.1f} ms "
            f"(median of runs' stage p50s: {stages})"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
