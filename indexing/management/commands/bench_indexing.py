"""Benchmarks of the indexing pipeline (figures recorded in docs/INDEXING.md).

Run on a scratch database, for example::

    CLAIRE_DATABASE_NAME=claire_bench .venv/bin/python manage.py migrate
    CLAIRE_DATABASE_NAME=claire_bench .venv/bin/python manage.py bench_indexing
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from claire.ai.embeddings import embed_many
from indexing import bench

PARTS = ("hash", "minilm", "ingest", "search")


class Command(BaseCommand):
    help = "Measure backfill throughput, ingestion latency during a backfill, vector search."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--parts", default=",".join(PARTS), help=f"Any of {PARTS}.")
        parser.add_argument("--users", type=int, default=4)
        parser.add_argument("--messages-per-user", type=int, default=5_000)
        parser.add_argument("--repetitions", type=int, default=5)
        parser.add_argument("--minilm-messages", type=int, default=2_000)
        parser.add_argument("--minilm-repetitions", type=int, default=3)
        parser.add_argument("--ingest-rounds", type=int, default=4)
        parser.add_argument("--ingest-batches", type=int, default=6)
        parser.add_argument(
            "--ingest-backfill-profile",
            default="bench_minilm",
            choices=["bench_minilm", "bench_hash_next"],
        )
        parser.add_argument(
            "--backfill-cpu-policy", choices=["idle", "nice", "normal"], default="idle"
        )
        parser.add_argument("--search-sizes", default="2000,10000,40000")
        parser.add_argument("--queries", type=int, default=30)
        parser.add_argument("--allow-any-database", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        parts = {part.strip() for part in options["parts"].split(",") if part.strip()}
        if unknown := parts - set(PARTS):
            raise CommandError(f"unknown parts: {sorted(unknown)}")
        try:
            database = bench.ensure_scratch_database(allow_any=options["allow_any_database"])
        except RuntimeError as error:
            raise CommandError(str(error)) from error
        log = self.stdout.write
        log(f"# bench_indexing on {database}: {bench.machine_description()}")
        with bench.bench_ai_config():
            self._run(parts, options, log)

    def _run(self, parts: set[str], options: dict[str, Any], log: Any) -> None:
        bench.reset()
        corpus = bench.Corpus()
        active = bench.version_create("bench_hash")
        users = [bench.bench_user(f"corpus-{n}") for n in range(options["users"])]
        for user in users:
            bench.ingest(user, corpus, messages=options["messages_per_user"])
        # Load the tokenizer and embedders once, outside every timed run.
        for profile in ("bench_hash", "bench_hash_next"):
            embed_many(["warm up"], profile=profile)
        corpus_run = bench.backfill(users, active)
        log(
            f"corpus: {corpus_run.embedded} messages embedded in the active version in "
            f"{corpus_run.seconds:.1f}s"
        )

        if "hash" in parts:
            result = bench.bench_backfill_throughput(
                label="hash-embed",
                profile="bench_hash_next",
                users=users,
                repetitions=options["repetitions"],
                log=log,
            )
            self._throughput_table(result)
        if "minilm" in parts:
            minilm_user = bench.bench_user("minilm")
            bench.ingest(minilm_user, corpus, messages=options["minilm_messages"])
            bench.backfill([minilm_user], active)
            # Load the model before timing.
            embed_many(["warm up"], profile="bench_minilm")
            result = bench.bench_backfill_throughput(
                label="MiniLM",
                profile="bench_minilm",
                users=[minilm_user],
                repetitions=options["minilm_repetitions"],
                log=log,
            )
            self._throughput_table(result)
        if "ingest" in parts:
            ingest_user = bench.bench_user("ingest")
            with tempfile.TemporaryDirectory() as log_dir:
                latency = bench.bench_ingest_latency(
                    ingest_user=ingest_user,
                    corpus=corpus,
                    backfill_profile=options["ingest_backfill_profile"],
                    rounds=options["ingest_rounds"],
                    batches_per_round=options["ingest_batches"],
                    backfill_user=users[0],
                    backfill_cpu_policy=options["backfill_cpu_policy"],
                    log_dir=Path(log_dir),
                    log=log,
                )
            log("")
            log("| 500-message ingest | p50 ms | p95 ms | batches |")
            log("|---|---|---|---|")
            rows = [
                ("active version only (alternating with the next row)", latency.one_version_ms),
                ("active + building version (alternating)", latency.two_versions_ms),
                ("active + building version, no backfill running", latency.baseline_ms),
                (
                    f"active + building version, another user's "
                    f"{options['ingest_backfill_profile']} backfill running "
                    f"(CPU policy {options['backfill_cpu_policy']})",
                    latency.during_backfill_ms,
                ),
            ]
            for label, summary in rows:
                log(f"| {label} | {summary.median:.0f} | {summary.p95:.0f} | {summary.runs} |")
            log(
                f"change while the backfill runs: p50 {latency.p50_change:+.1%}, "
                f"p95 {latency.p95_change:+.1%}; {latency.backfilled_during} messages "
                "backfilled meanwhile"
            )
        if "search" in parts:
            sizes = [int(size) for size in options["search_sizes"].split(",") if size]
            results = bench.bench_search(
                sizes=sizes,
                corpus=corpus,
                version=active,
                queries=options["queries"],
                limit=20,
                log=log,
            )
            log("")
            log(
                "| vectors (one user) | exact p50 / p95 ms | HNSW p50 / p95 ms "
                "| HNSW recall@20 | HNSW index used |"
            )
            log("|---|---|---|---|---|")
            for item in results:
                log(
                    f"| {item.vectors} | {item.exact_ms.median:.1f} / {item.exact_ms.p95:.1f} "
                    f"| {item.hnsw_ms.median:.1f} / {item.hnsw_ms.p95:.1f} "
                    f"| {item.hnsw_recall:.3f} | {'yes' if item.hnsw_plan_uses_index else 'no'} |"
                )
        bench.reset()

    def _throughput_table(self, result: bench.ThroughputResult) -> None:
        self.stdout.write("")
        self.stdout.write(
            f"| backfill ({result.label}) | median msg/s | p95 (slow tail) msg/s "
            "| runs | messages |"
        )
        self.stdout.write("|---|---|---|---|---|")
        self.stdout.write(
            f"| end to end (seed, embed, write) | {result.per_second.median:.0f} "
            f"| {result.per_second.p95:.0f} | {result.per_second.runs} | {result.messages} |"
        )
        self.stdout.write(
            f"| pipeline only (time in provider calls excluded) "
            f"| {result.pipeline_per_second.median:.0f} | {result.pipeline_per_second.p95:.0f} "
            f"| {result.pipeline_per_second.runs} | {result.messages} |"
        )
        self.stdout.write(
            f"| per CPU second (bench process + its database session) "
            f"| {result.per_cpu_second.median:.0f} | {result.per_cpu_second.p95:.0f} "
            f"| {result.per_cpu_second.runs} | {result.messages} |"
        )
        self.stdout.write(
            f"| retire (delete vectors) | {result.retire_per_second.median:.0f} "
            f"| {result.retire_per_second.p95:.0f} | {result.retire_per_second.runs} | |"
        )
