"""Timing retrieval end to end and measuring the vector leg's recall against exact search."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from datetime import datetime

from claire.accounts.models import User
from claire.ai.embeddings import embed_many
from claire.stats import percentile
from indexing.models import IndexVersion
from indexing.selectors import SearchPlan, VectorHit, vector_search
from retrieval.evidence import EvidenceLimits
from retrieval.pipeline import Retrieval, retrieve
from retrieval.search import SearchLimits
from retrieval.types import Scope

DISTANCE_TOLERANCE = 1e-6


@dataclass(frozen=True)
class LatencyRun:
    p50_ms: float
    p95_ms: float
    mean_ms: float
    max_ms: float
    compile_p50_ms: float
    search_p50_ms: float
    windows_p50_ms: float
    pack_p50_ms: float
    lexical_p50_ms: float
    embedding_p50_ms: float
    vector_p50_ms: float
    no_evidence: int
    routes: dict[str, int]
    # Every question's wall time, in question order (to pool runs of separate processes).
    totals_ms: tuple[float, ...] = ()


def latency_run(
    *,
    user: User,
    questions: list[str],
    now: datetime,
    evidence_limits: EvidenceLimits,
    search_limits: SearchLimits,
) -> LatencyRun:
    return latency_runs(
        user=user,
        questions=questions,
        now=now,
        evidence_limits=evidence_limits,
        variants={"run": search_limits},
    )["run"]


def latency_runs(
    *,
    user: User,
    questions: list[str],
    now: datetime,
    evidence_limits: EvidenceLimits,
    variants: dict[str, SearchLimits],
) -> dict[str, LatencyRun]:
    """One run per variant, interleaved question by question (the variants' order rotating),
    so that every variant sees the same load on a shared machine."""
    samples: dict[str, list[Retrieval]] = {name: [] for name in variants}
    totals: dict[str, list[float]] = {name: [] for name in variants}
    names = list(variants)
    for number, question in enumerate(questions):
        shift = number % len(names)
        for name in names[shift:] + names[:shift]:
            started = time.perf_counter()
            result = retrieve(
                user=user,
                question=question,
                now=now,
                scope=Scope.everywhere(),
                evidence_limits=evidence_limits,
                search_limits=variants[name],
            )
            totals[name].append((time.perf_counter() - started) * 1000)
            samples[name].append(result)
    return {name: _summary(totals[name], samples[name]) for name in names}


def _summary(totals: list[float], results: list[Retrieval]) -> LatencyRun:
    parts: dict[str, list[float]] = {
        key: []
        for key in ("compile", "search", "windows", "pack", "lexical", "embedding", "vector")
    }
    routes: dict[str, int] = {}
    no_evidence = 0
    for result in results:
        parts["compile"].append(result.timings.compile_ms)
        parts["search"].append(result.timings.search_ms)
        parts["windows"].append(result.timings.windows_ms)
        parts["pack"].append(result.timings.pack_ms)
        parts["lexical"].append(result.search.timings.lexical_ms)
        parts["embedding"].append(result.search.timings.embedding_ms)
        parts["vector"].append(result.search.timings.vector_ms)
        routes[str(result.route)] = routes.get(str(result.route), 0) + 1
        no_evidence += int(result.is_no_evidence)
    return LatencyRun(
        p50_ms=percentile(totals, 0.50),
        p95_ms=percentile(totals, 0.95),
        mean_ms=statistics.fmean(totals),
        max_ms=max(totals),
        compile_p50_ms=percentile(parts["compile"], 0.5),
        search_p50_ms=percentile(parts["search"], 0.5),
        windows_p50_ms=percentile(parts["windows"], 0.5),
        pack_p50_ms=percentile(parts["pack"], 0.5),
        lexical_p50_ms=percentile(parts["lexical"], 0.5),
        embedding_p50_ms=percentile(parts["embedding"], 0.5),
        vector_p50_ms=percentile(parts["vector"], 0.5),
        no_evidence=no_evidence,
        routes=routes,
        totals_ms=tuple(round(total, 3) for total in totals),
    )


@dataclass(frozen=True)
class VectorRecall:
    plan: str
    questions: int
    recall_at_10: float
    minimum: float
    hnsw_p50_ms: float
    exact_p50_ms: float
    hnsw_p95_ms: float = 0.0


def vector_recall(
    *,
    user: User,
    questions: list[str],
    index_version: IndexVersion,
    k: int = 10,
    plan: SearchPlan = SearchPlan.HNSW,
    exact_cache: dict[int, list[VectorHit]] | None = None,
) -> VectorRecall:
    """Recall@k of an approximate plan (the version's graph, or the user's own) against an
    exact scan, for the same user. ``exact_cache`` keeps the exact results between calls (by
    question number), so a sweep over search settings scans exactly once."""
    result = embed_many(questions, profile=index_version.profile)
    recalls: list[float] = []
    hnsw_ms: list[float] = []
    exact_ms: list[float] = []
    for number, vector in enumerate(result.vectors):
        if vector is None:
            continue
        started = time.perf_counter()
        approximate = vector_search(
            user=user,
            query_vector=vector,
            limit=k,
            index_version=index_version,
            plan=plan,
        )
        hnsw_ms.append((time.perf_counter() - started) * 1000)
        if exact_cache is not None and number in exact_cache:
            exact = exact_cache[number]
        else:
            started = time.perf_counter()
            exact = vector_search(
                user=user,
                query_vector=vector,
                limit=k,
                index_version=index_version,
                plan=SearchPlan.EXACT,
            )
            exact_ms.append((time.perf_counter() - started) * 1000)
            if exact_cache is not None:
                exact_cache[number] = exact
        if exact:
            # Identical texts have identical vectors, so the exact top k often ends in a tie;
            # an approximate hit counts when it is as near as the exact k-th neighbour.
            kth_distance = exact[-1].distance + DISTANCE_TOLERANCE
            found = sum(1 for hit in approximate if hit.distance <= kth_distance)
            recalls.append(min(found, len(exact)) / len(exact))
    return VectorRecall(
        plan=str(plan),
        questions=len(recalls),
        recall_at_10=statistics.fmean(recalls) if recalls else 0.0,
        minimum=min(recalls) if recalls else 0.0,
        hnsw_p50_ms=percentile(hnsw_ms, 0.5) if hnsw_ms else 0.0,
        exact_p50_ms=percentile(exact_ms, 0.5) if exact_ms else 0.0,
        hnsw_p95_ms=percentile(hnsw_ms, 0.95) if hnsw_ms else 0.0,
    )
