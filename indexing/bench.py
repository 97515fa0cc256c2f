"""Measurements behind docs/INDEXING.md: backfill throughput, ingestion latency while a
backfill runs, and vector search latency/recall by index size.

Runs against a scratch database (its name must contain ``bench``): it deletes every index
version and every ``@bench.local`` user it finds there before starting.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.test import override_settings

from claire.accounts.models import User
from claire.ai.config import ai_config_reset
from claire.ai.embeddings import embed_many
from claire.stats import percentile
from conversations.identities import IncomingIdentity
from conversations.services import IncomingChat, IncomingMessage, messages_ingest
from indexing import jobs, services
from indexing.models import IndexJob, IndexProgress, IndexVersion, MessageEmbedding
from indexing.search_indexes import search_index_drop
from indexing.selectors import SearchPlan, open_index_job, vector_search

BENCH_DOMAIN = "bench.local"
PROJECT_ROOT = Path(__file__).resolve().parent.parent

_EMBEDDING_PROFILE = {"kind": "embedding", "requires": ["embeddings"]}
# Three embed profiles: the hash embedder (instant, deterministic), a second hash model (a
# "model change" to build in parallel), and the local MiniLM.
BENCH_AI_CONFIG: dict[str, dict[str, object]] = {
    "models": {
        "local/hash-embed-bench": {
            "provider": "local",
            "model": "hash-embed-384-bench",
            "data_policy": "local",
            "capabilities": {"embedding_dimensions": 384, "usage_reporting": True},
            "max_inputs_per_request": 2048,
            "max_tokens_per_request": 1_000_000,
            "max_input_tokens": 8192,
        }
    },
    "profiles": {
        "bench_hash": {**_EMBEDDING_PROFILE, "candidates": ["local/hash-embed"]},
        "bench_hash_next": {**_EMBEDDING_PROFILE, "candidates": ["local/hash-embed-bench"]},
        "bench_minilm": {**_EMBEDDING_PROFILE, "candidates": ["local/minilm"]},
    },
}

_VOCABULARY = [
    "dinner",
    "friday",
    "lisbon",
    "flight",
    "train",
    "tickets",
    "tomorrow",
    "tonight",
    "meeting",
    "project",
    "deadline",
    "birthday",
    "party",
    "gift",
    "mom",
    "dad",
    "kids",
    "school",
    "pickup",
    "doctor",
    "appointment",
    "invoice",
    "payment",
    "bank",
    "weekend",
    "beach",
    "hiking",
    "coffee",
    "lunch",
    "office",
    "remote",
    "call",
    "zoom",
    "slides",
    "review",
    "budget",
    "hotel",
    "booking",
    "passport",
    "visa",
    "wedding",
    "photos",
    "recipe",
    "groceries",
    "milk",
    "bread",
    "movie",
    "concert",
    "band",
    "football",
    "match",
    "score",
    "running",
    "late",
    "sorry",
    "thanks",
    "great",
    "idea",
    "sounds",
    "good",
    "see",
    "you",
    "soon",
]


@dataclass(frozen=True)
class Summary:
    median: float
    p95: float
    runs: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Summary:
        """Latencies: the p95 is the slow tail, above the median."""
        return cls(median=statistics.median(values), p95=percentile(values, 0.95), runs=len(values))

    @classmethod
    def of_rates(cls, values: Sequence[float]) -> Summary:
        """Throughputs: the p95 is still the slow tail, so here the rate 95% of runs beat."""
        return cls(median=statistics.median(values), p95=percentile(values, 0.05), runs=len(values))


@contextmanager
def bench_ai_config() -> Iterator[None]:
    with override_settings(AI_CONFIG=json.dumps(BENCH_AI_CONFIG)):
        ai_config_reset()
        try:
            yield
        finally:
            ai_config_reset()
    ai_config_reset()


def ensure_scratch_database(*, allow_any: bool) -> str:
    name = str(connection.settings_dict["NAME"])
    if not allow_any and "bench" not in name:
        raise RuntimeError(
            f"bench_indexing deletes index data; run it on a scratch database whose name "
            f"contains 'bench' (CLAIRE_DATABASE_NAME=claire_bench), not {name!r}"
        )
    return name


def reset() -> None:
    """Start from nothing: no versions, no bench users."""
    for version in IndexVersion.objects.all():
        search_index_drop(index_version=version)
    MessageEmbedding.objects.all().delete()
    IndexJob.objects.all().delete()
    IndexProgress.objects.all().delete()
    IndexVersion.objects.all().delete()
    User.objects.filter(email__endswith=f"@{BENCH_DOMAIN}").delete()


def version_create(profile: str) -> IndexVersion:
    return services.index_version_create(
        profile=profile, identity=jobs.current_model_identity(profile=profile)
    )


def version_retire(version: IndexVersion) -> float:
    started = time.perf_counter()
    for _ in services.index_version_retire(index_version=version):
        pass
    return time.perf_counter() - started


def bench_user(label: str) -> User:
    return User.objects.create_user(email=f"{label}@{BENCH_DOMAIN}")


class Corpus:
    """Deterministic synthetic messages: 4-30 words, a few chats per user."""

    def __init__(self, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        self.start = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
        self.counter = 0

    def text(self) -> str:
        return " ".join(self.rng.choice(_VOCABULARY) for _ in range(self.rng.randint(4, 30)))

    def batch(self, size: int) -> list[tuple[str, IncomingMessage]]:
        items = []
        for _ in range(size):
            self.counter += 1
            items.append(
                (
                    f"chat-{self.counter % 7}",
                    IncomingMessage(
                        platform_message_id=f"m{self.counter}",
                        sent_at=self.start + dt.timedelta(minutes=self.counter),
                        text=self.text(),
                        sender=IncomingIdentity(
                            platform="whatsapp", platform_user_id=f"p{self.counter % 13}"
                        ),
                    ),
                )
            )
        return items


CHATS = [IncomingChat(platform="whatsapp", platform_chat_id=f"chat-{n}") for n in range(7)]


def ingest(user: User, corpus: Corpus, *, messages: int, batch_size: int = 500) -> list[float]:
    """Ingest in batches; returns each batch's latency in seconds."""
    latencies = []
    remaining = messages
    while remaining > 0:
        size = min(batch_size, remaining)
        batch = corpus.batch(size)
        started = time.perf_counter()
        messages_ingest(user=user, chats=CHATS, messages=batch)
        latencies.append(time.perf_counter() - started)
        remaining -= size
    return latencies


@dataclass(frozen=True)
class BackfillRun:
    embedded: int
    seconds: float
    provider_seconds: float
    # CPU time of this process (all threads) plus its database session's server process,
    # when that runs on this machine (the embedded server does).
    cpu_seconds: float


def _session_cpu_seconds() -> float:
    """CPU time of this connection's PostgreSQL backend process, 0 if it is not local."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        row = cursor.fetchone()
    try:
        fields = Path(f"/proc/{int(row[0]) if row else 0}/stat").read_text().rsplit(")", 1)[1]
    except OSError:
        return 0.0
    user_ticks, system_ticks = fields.split()[11:13]
    return (int(user_ticks) + int(system_ticks)) / os.sysconf("SC_CLK_TCK")


def backfill(users: Sequence[User], version: IndexVersion) -> BackfillRun:
    """Run every user's job for ``version`` inline, one after the other."""
    embedded = 0
    provider_seconds = 0.0
    started = time.perf_counter()
    cpu_started = time.process_time() + _session_cpu_seconds()
    for user in users:
        services.index_jobs_request(user_id=user.pk, version_ids=[version.pk])
        job = open_index_job(user_id=user.pk, index_version_id=version.pk)
        if job is None:
            continue
        run = jobs.index_job_run(job_id=job.pk, worker_id="bench", slice_seconds=0)
        if run.outcome != jobs.JobOutcome.DONE:
            raise RuntimeError(f"backfill ended {run.outcome} ({run.error_code})")
        embedded += run.embedded
        provider_seconds += run.provider_seconds
    return BackfillRun(
        embedded=embedded,
        seconds=time.perf_counter() - started,
        provider_seconds=provider_seconds,
        cpu_seconds=time.process_time() + _session_cpu_seconds() - cpu_started,
    )


@dataclass(frozen=True)
class ThroughputResult:
    label: str
    messages: int
    per_second: Summary
    pipeline_per_second: Summary  # excluding time in provider calls
    # Messages per CPU second of this process and its database session: how much work a
    # message costs, whatever else the machine is doing.
    per_cpu_second: Summary
    retire_per_second: Summary


def bench_backfill_throughput(
    *, label: str, profile: str, users: Sequence[User], repetitions: int, log: Callable[[str], None]
) -> ThroughputResult:
    """A model-change backfill, repeated: a new version per run (seeding and embedding every
    message of ``users``), then retired."""
    rates: list[float] = []
    pipeline_rates: list[float] = []
    cpu_rates: list[float] = []
    retire_rates: list[float] = []
    messages = 0
    for number in range(repetitions):
        version = version_create(profile)
        run = backfill(users, version)
        messages = run.embedded
        rates.append(messages / run.seconds)
        pipeline_rates.append(messages / max(run.seconds - run.provider_seconds, 1e-9))
        cpu_rates.append(messages / max(run.cpu_seconds, 1e-9))
        retire_seconds = version_retire(version)
        retire_rates.append(messages / retire_seconds)
        log(
            f"  {label} run {number + 1}: {messages} messages in {run.seconds:.1f}s "
            f"({run.provider_seconds:.1f}s in provider calls, {run.cpu_seconds:.1f}s CPU, "
            f"load average {os.getloadavg()[0]:.1f})"
        )
    return ThroughputResult(
        label=label,
        messages=messages,
        per_second=Summary.of_rates(rates),
        pipeline_per_second=Summary.of_rates(pipeline_rates),
        per_cpu_second=Summary.of_rates(cpu_rates),
        retire_per_second=Summary.of_rates(retire_rates),
    )


@dataclass(frozen=True)
class IngestLatencyResult:
    one_version_ms: Summary  # only the active version maintained
    two_versions_ms: Summary  # active + a building version, alternating with the above
    baseline_ms: Summary  # active + the building version, no backfill running
    during_backfill_ms: Summary  # the same, while another user's backfill runs
    backfilled_during: int

    @property
    def p50_change(self) -> float:
        return self.during_backfill_ms.median / self.baseline_ms.median - 1

    @property
    def p95_change(self) -> float:
        return self.during_backfill_ms.p95 / self.baseline_ms.p95 - 1


def _backfill_process(
    version: IndexVersion, *, user: User, log_path: Path, cpu_policy: str
) -> subprocess.Popen[bytes]:
    """``backfill_embeddings`` for ``version`` in its own process, as a worker would run it."""
    env = dict(os.environ)
    env["CLAIRE_AI_CONFIG"] = json.dumps(BENCH_AI_CONFIG)
    if not env.get("DATABASE_URL"):
        env["CLAIRE_DATABASE_NAME"] = str(connection.settings_dict["NAME"])
    # Our own interpreter and manage.py with fixed arguments: no untrusted input.
    return subprocess.Popen(  # noqa: S603
        [
            sys.executable,
            "manage.py",
            "backfill_embeddings",
            "--index-version",
            str(version.version),
            "--user",
            user.email,
            "--no-progress",
            "--cpu-policy",
            cpu_policy,
        ],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=log_path.open("w"),
        stderr=subprocess.STDOUT,
    )


def _embedded_total(version: IndexVersion) -> int:
    return sum(
        IndexProgress.objects.filter(index_version=version).values_list("embedded", flat=True)
    )


def bench_ingest_latency(
    *,
    ingest_user: User,
    backfill_user: User,
    corpus: Corpus,
    backfill_profile: str,
    rounds: int,
    batches_per_round: int,
    backfill_cpu_policy: str,
    log_dir: Path,
    log: Callable[[str], None],
) -> IngestLatencyResult:
    """500-message ingest batches for one user during a model change, with and without
    another user's backfill running in a separate process (the cores are shared).

    First, batches alternate between one and two maintained versions: what maintaining the
    building version costs by itself. Then each round creates the new version, ingests once
    without and once with the backfill running (the order alternates between rounds, so drift
    in the background load and the growing tables falls on both sides), and retires it.
    """
    messages = 500 * batches_per_round
    # What maintaining a second version costs: one batch with it, one without, alternating
    # (and creating/retiring the version in between, untimed).
    one_version: list[float] = []
    two_versions: list[float] = []
    for number in range(rounds * batches_per_round):
        version = version_create(backfill_profile)
        order = (True, False) if number % 2 == 0 else (False, True)
        for with_second in order:
            if not with_second:
                version_retire(version)
            (two_versions if with_second else one_version).extend(
                ingest(ingest_user, corpus, messages=500)
            )
        if version.state != "retired":
            version_retire(version)
    baseline: list[float] = []
    during: list[float] = []
    backfilled = 0
    for number in range(rounds):
        version = version_create(backfill_profile)
        for running in (False, True) if number % 2 == 0 else (True, False):
            if not running:
                baseline += ingest(ingest_user, corpus, messages=messages)
                continue
            process = _backfill_process(
                version,
                user=backfill_user,
                log_path=log_dir / f"backfill-{number}.log",
                cpu_policy=backfill_cpu_policy,
            )
            try:
                # Let it load its model, seed, and start embedding before timing.
                deadline = time.monotonic() + 600
                while _embedded_total(version) == 0 and time.monotonic() < deadline:
                    if process.poll() is not None:
                        raise RuntimeError("the backfill ended before embedding anything")
                    time.sleep(0.5)
                before = _embedded_total(version)
                during += ingest(ingest_user, corpus, messages=messages)
                if process.poll() is not None:
                    raise RuntimeError("the backfill finished during the round; use more data")
                backfilled += _embedded_total(version) - before
            finally:
                process.terminate()
                process.wait(timeout=60)
        version_retire(version)
        log(
            f"  round {number + 1}: p50 {statistics.median(baseline) * 1000:.0f} ms without, "
            f"{statistics.median(during) * 1000:.0f} ms with the backfill running "
            f"(load average {os.getloadavg()[0]:.1f})"
        )
    return IngestLatencyResult(
        one_version_ms=Summary.of([value * 1000 for value in one_version]),
        two_versions_ms=Summary.of([value * 1000 for value in two_versions]),
        baseline_ms=Summary.of([value * 1000 for value in baseline]),
        during_backfill_ms=Summary.of([value * 1000 for value in during]),
        backfilled_during=backfilled,
    )


@dataclass(frozen=True)
class SearchResult:
    vectors: int
    exact_ms: Summary
    hnsw_ms: Summary
    hnsw_recall: float
    hnsw_plan_uses_index: bool


def _search_timings(
    user: User, queries: Sequence[list[float]], plan: SearchPlan, limit: int
) -> tuple[list[float], list[list[int]]]:
    timings, results = [], []
    for query in queries:
        started = time.perf_counter()
        hits = vector_search(user=user, query_vector=query, limit=limit, plan=plan)
        timings.append((time.perf_counter() - started) * 1000)
        results.append([hit.message_id for hit in hits])
    return timings, results


def _hnsw_uses_index(user: User, query: list[float], version: IndexVersion) -> bool:
    from django.test.utils import CaptureQueriesContext

    from indexing.search_indexes import search_index_name

    with CaptureQueriesContext(connection) as captured:
        vector_search(user=user, query_vector=query, limit=20, plan=SearchPlan.HNSW)
    statement = next(q["sql"] for q in captured.captured_queries if "WITH nearest" in q["sql"])
    from django.db import transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        cursor.execute("EXPLAIN " + statement)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    return search_index_name(index_version=version) in plan


def bench_search(
    *,
    sizes: Sequence[int],
    corpus: Corpus,
    version: IndexVersion,
    queries: int,
    limit: int,
    log: Callable[[str], None],
) -> list[SearchResult]:
    """One user per size, every message embedded in ``version`` (its HNSW index built once,
    after all of them, as after a backfill); exact vs HNSW for the same queries."""
    texts = [corpus.text() for _ in range(queries)]
    query_vectors = [
        [float(value) for value in vector or []]
        for vector in embed_many(texts, profile=version.profile).vectors
    ]
    users = []
    for size in sizes:
        user = bench_user(f"search-{size}")
        ingest(user, corpus, messages=size)
        backfill([user], version)
        users.append((size, user))
    started = time.perf_counter()
    search_index_drop(index_version=version)
    IndexVersion.objects.filter(pk=version.pk).update(search_index_built_at=None)
    version.search_index_built_at = None
    services.index_version_search_index_build(index_version=version)
    total = MessageEmbedding.objects.filter(index_version=version).count()
    log(f"  HNSW index over {total} vectors built in {time.perf_counter() - started:.1f}s")
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {MessageEmbedding._meta.db_table}")
    results = []
    for size, user in users:
        exact_ms, exact = _search_timings(user, query_vectors, SearchPlan.EXACT, limit)
        hnsw_ms, approximate = _search_timings(user, query_vectors, SearchPlan.HNSW, limit)
        found = sum(len(set(a) & set(e)) for a, e in zip(approximate, exact, strict=True))
        wanted = sum(len(e) for e in exact)
        result = SearchResult(
            vectors=size,
            exact_ms=Summary.of(exact_ms),
            hnsw_ms=Summary.of(hnsw_ms),
            hnsw_recall=found / wanted if wanted else 1.0,
            hnsw_plan_uses_index=_hnsw_uses_index(user, query_vectors[0], version),
        )
        log(
            f"  {size} vectors: exact p50 {result.exact_ms.median:.1f} ms, "
            f"hnsw p50 {result.hnsw_ms.median:.1f} ms, recall {result.hnsw_recall:.3f}"
        )
        results.append(result)
    return results


def machine_description() -> str:
    return (
        f"{os.cpu_count()} CPU(s), load average {os.getloadavg()[0]:.1f}, "
        f"Python {sys.version.split()[0]}, {settings.DATABASES['default']['ENGINE']}"
    )
