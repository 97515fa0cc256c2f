"""Throughput and agreement of the local embedder's backends on short chat messages.

Used by ``python manage.py bench_embeddings``; figures are recorded in docs/AI_RUNTIME.md.
Messages are synthetic but shaped like chat: 2 to 24 words, mixed casing, punctuation,
numbers and the odd emoji, drawn from a fixed seed so every run embeds the same text.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from claire.ai.local.embedder import Backend, minilm_embedder
from claire.stats import percentile

_OPENERS = ("", "", "", "hey ", "ok ", "lol ", "so ", "btw ", "yes! ", "haha ", "omg ")
_VOCABULARY = (
    "dinner friday tomorrow tonight flight lands lisbon porto coffee cupping meeting call "
    "later book table booked restaurant taberna sunday brunch train airport hotel flat "
    "agency contact invoice deck pricing cohort launch deadline review draft slides kids "
    "school pickup doctor gym run beach weekend trip mexico city roastery beans address "
    "birthday party gift cake wine beer sorry late running minutes traffic metro bus "
    "thanks great idea sounds good works for me can't make it maybe next week let's "
    "see you there where when what time who is coming bring anything photos pics link"
)
_WORDS = _VOCABULARY.split()
_ENDINGS = ("", "", "?", "!", "!!", " 🙂", " 😂", " 👍", "...", " at 8", " 13:40", " €950")


def chat_messages(count: int, *, seed: int = 8) -> list[str]:
    generator = random.Random(seed)
    messages = []
    for _ in range(count):
        words = generator.choices(_WORDS, k=generator.randint(2, 24))
        text = generator.choice(_OPENERS) + " ".join(words) + generator.choice(_ENDINGS)
        if generator.random() < 0.4:
            text = text[0].upper() + text[1:]
        messages.append(text)
    return messages


@dataclass(frozen=True)
class ThroughputResult:
    backend: str
    batch_size: int
    runs: int
    median_per_second: float
    p95_per_second: float
    worst_per_second: float
    best_per_second: float
    # Messages per second of this process's own CPU time spread over its threads: what the
    # wall-clock rate would be with the cores to itself (the machine is shared).
    cpu_normalized_per_second: float


@dataclass(frozen=True)
class AgreementResult:
    backend: str
    min_cosine: float
    mean_cosine: float
    top1_neighbour_agreement: float
    top5_overlap: float


def throughput(
    *, backend: Backend, threads: int, messages: Sequence[str], batch_size: int, runs: int
) -> ThroughputResult:
    """Messages per second over ``runs`` timed passes after one warm-up pass.

    The p95 is of the per-run durations (the slow tail), reported as a rate: 95% of runs were
    at least this fast.
    """
    embedder = minilm_embedder(backend=backend, threads=threads)
    embedder.embed_texts(messages[: batch_size * 2], batch_size=batch_size)
    durations = []
    cpu_seconds = []
    for _ in range(runs):
        started, cpu_started = time.perf_counter(), time.process_time()
        embedder.embed_texts(messages, batch_size=batch_size)
        durations.append(time.perf_counter() - started)
        cpu_seconds.append(time.process_time() - cpu_started)
    return ThroughputResult(
        backend=backend,
        batch_size=batch_size,
        runs=runs,
        median_per_second=len(messages) / statistics.median(durations),
        p95_per_second=len(messages) / percentile(durations, 0.95),
        worst_per_second=len(messages) / max(durations),
        best_per_second=len(messages) / min(durations),
        cpu_normalized_per_second=len(messages) / (statistics.median(cpu_seconds) / threads),
    )


def agreement(
    *, backend: Backend, threads: int, messages: Sequence[str], queries: int = 200
) -> AgreementResult:
    """How closely ``backend`` reproduces the torch model: per-vector cosine, and whether the
    nearest neighbours of sample messages stay the same (what retrieval depends on)."""
    import numpy

    reference = numpy.array(minilm_embedder(backend="torch", threads=threads).embed_texts(messages))
    candidate = numpy.array(minilm_embedder(backend=backend, threads=threads).embed_texts(messages))
    cosines = (reference * candidate).sum(axis=1)
    sample = list(range(0, len(messages), max(1, len(messages) // queries)))[:queries]
    same_top1 = 0
    overlap5 = 0.0
    for index in sample:
        reference_scores = reference @ reference[index]
        candidate_scores = candidate @ candidate[index]
        reference_scores[index] = candidate_scores[index] = -2.0
        reference_top = numpy.argsort(-reference_scores)[:5]
        candidate_top = numpy.argsort(-candidate_scores)[:5]
        same_top1 += int(reference_top[0] == candidate_top[0])
        overlap5 += len(set(reference_top) & set(candidate_top)) / 5
    return AgreementResult(
        backend=backend,
        min_cosine=float(cosines.min()),
        mean_cosine=float(cosines.mean()),
        top1_neighbour_agreement=same_top1 / len(sample),
        top5_overlap=overlap5 / len(sample),
    )
