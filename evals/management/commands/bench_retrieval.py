"""Retrieval speed bench on a large synthetic corpus (docs/RETRIEVAL_BENCH.md).

    CLAIRE_DATABASE_NAME=claire_bench \\
    python manage.py bench_retrieval [--messages 1000000] [--largest 100000] [--users 11]
                                     [--embedded-users N] [--questions 200] [--repeats 3]
                                     [--compare-plans] [--skip-recall] [--recall-ef 100,400]
                                     [--cleanup]

Builds the corpus on first use (users, people, chats and messages with COPY, embeddings from
the configured embed profile -- set CLAIRE_AI_CONFIG to name ``local/hash-embed`` for hashed
vectors -- the version's HNSW index and each large user's own). ``--embedded-users N`` embeds
only the N largest users with the configured model and the rest with hashed-word vectors (a
real model takes hours for a million messages on a small machine). Then times
``retrieval.pipeline.retrieve`` (compile, both search legs, fusion, windows, pack) for the
largest user over the questions, ``--repeats`` times, and measures the vector leg's recall@10
against exact search for that user, through the user's own index and through the version's
(``--recall-ef`` also sweeps the user index's ``hnsw.ef_search``). ``--compare-plans`` times
both plans interleaved. ``--cleanup`` drops the bench database. Runs only on a database whose
name contains "bench".
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.test.utils import override_settings

from evals.bench.build import corpus_ensure
from evals.bench.questions import bench_questions
from evals.bench.run import latency_run, latency_runs, vector_recall
from indexing.selectors import SearchPlan, VectorHit
from retrieval.evidence import EvidenceLimits
from retrieval.search import SearchLimits

BENCH_NOW = datetime(2026, 1, 1, tzinfo=UTC)


class Command(BaseCommand):
    help = "Build a large synthetic corpus and time retrieval end to end on it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--messages", type=int, default=1_000_000)
        parser.add_argument("--largest", type=int, default=100_000)
        parser.add_argument("--users", type=int, default=11)
        parser.add_argument("--questions", type=int, default=200)
        parser.add_argument("--repeats", type=int, default=3)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument(
            "--sequential",
            action="store_true",
            help="embed the question before the lexical query instead of alongside it",
        )
        parser.add_argument(
            "--compare-plans",
            action="store_true",
            help="time the largest user's own vector index against the version's shared one, "
            "interleaved question by question",
        )
        parser.add_argument(
            "--embedded-users",
            type=int,
            default=0,
            help="embed only the N largest users with the configured model and the others with "
            "hashed-word vectors (0: all with the configured model)",
        )
        parser.add_argument(
            "--skip-recall",
            action="store_true",
            help="time retrieval only (no recall measurement against exact search)",
        )
        parser.add_argument(
            "--recall-ef",
            default="",
            help="comma-separated hnsw.ef_search values: measure the user's own index's "
            "recall@10 and latency at each (INDEXING_USER_HNSW_EF_SEARCH overridden)",
        )
        parser.add_argument("--json", dest="json_path", default="", help="also write figures here")
        parser.add_argument("--cleanup", action="store_true", help="drop the bench database")

    def handle(self, *args: Any, **options: Any) -> None:
        database = connection.settings_dict["NAME"]
        if "bench" not in database:
            raise CommandError(
                f"Refusing to run on database {database!r}: set CLAIRE_DATABASE_NAME (or "
                "DATABASE_URL) to a throw-away database whose name contains 'bench'."
            )
        if options["cleanup"]:
            self._drop(database)
            return
        call_command("migrate", verbosity=0)
        users, version = corpus_ensure(
            total=options["messages"],
            largest=options["largest"],
            users=options["users"],
            seed=options["seed"],
            embedded_users=options["embedded_users"],
            report=self.stdout.write,
        )
        if version is None:
            raise CommandError("The bench database has users but no active index version.")
        largest = users[0]
        questions = bench_questions(count=options["questions"], seed=options["seed"])
        limits = SearchLimits.from_settings()
        if options["sequential"]:
            limits = replace(limits, overlap_embedding=False)
        evidence_limits = EvidenceLimits.for_profile("answer")

        # Warm caches and the embedder the way a running server would be.
        latency_run(
            user=largest,
            questions=questions[:20],
            now=BENCH_NOW,
            evidence_limits=evidence_limits,
            search_limits=limits,
        )
        variants = {"auto": limits}
        if options["compare_plans"]:
            variants = {
                "user_index": replace(limits, vector_plan=SearchPlan.USER_HNSW),
                "shared_index": replace(limits, vector_plan=SearchPlan.HNSW),
            }
        repeats = [
            latency_runs(
                user=largest,
                questions=questions,
                now=BENCH_NOW,
                evidence_limits=evidence_limits,
                variants=variants,
            )
            for _ in range(options["repeats"])
        ]
        recalls = []
        if not options["skip_recall"]:
            recalls = [
                vector_recall(user=largest, questions=questions, index_version=version, plan=plan)
                for plan in (SearchPlan.USER_HNSW, SearchPlan.HNSW)
            ]
        ef_recalls = {}
        exact_cache: dict[int, list[VectorHit]] = {}
        for ef_search in [int(value) for value in options["recall_ef"].split(",") if value]:
            with override_settings(INDEXING_USER_HNSW_EF_SEARCH=ef_search):
                ef_recalls[ef_search] = vector_recall(
                    user=largest,
                    questions=questions,
                    index_version=version,
                    plan=SearchPlan.USER_HNSW,
                    exact_cache=exact_cache,
                )
        figures = {
            "database_messages": self._message_estimate(),
            "largest_user_messages": self._user_messages(largest.pk),
            "questions": len(questions),
            "repeats": options["repeats"],
            "overlap_embedding": limits.overlap_embedding,
            "load_average": list(os.getloadavg()),
            "runs": [{name: asdict(run) for name, run in repeat.items()} for repeat in repeats],
            "vector_recall": [asdict(recall) for recall in recalls],
            "user_index_recall_by_ef_search": {
                ef: asdict(recall) for ef, recall in ef_recalls.items()
            },
        }
        for number, repeat in enumerate(repeats, start=1):
            for name, run in repeat.items():
                self.stdout.write(
                    f"run {number} {name}: p50 {run.p50_ms:.1f} ms, p95 {run.p95_ms:.1f} ms "
                    f"(compile {run.compile_p50_ms:.1f}, search {run.search_p50_ms:.1f} "
                    f"[lexical {run.lexical_p50_ms:.1f}, embedding {run.embedding_p50_ms:.1f}, "
                    f"vector {run.vector_p50_ms:.1f}], windows {run.windows_p50_ms:.1f}, "
                    f"pack {run.pack_p50_ms:.1f}); routes {run.routes}"
                )
        for recall in recalls:
            self.stdout.write(
                f"vector recall@10 vs exact, {recall.plan}: {recall.recall_at_10:.3f} "
                f"(min {recall.minimum:.2f}, {recall.questions} questions; "
                f"approximate p50 {recall.hnsw_p50_ms:.1f} ms, exact p50 "
                f"{recall.exact_p50_ms:.1f} ms)"
            )
        for ef_search, recall in ef_recalls.items():
            self.stdout.write(
                f"user index, ef_search {ef_search}: recall@10 {recall.recall_at_10:.3f} "
                f"(min {recall.minimum:.2f}); approximate p50 {recall.hnsw_p50_ms:.1f} ms, "
                f"p95 {recall.hnsw_p95_ms:.1f} ms, "
                f"exact p50 {recall.exact_p50_ms:.1f} ms"
            )
        self.stdout.write(
            f"corpus: ~{figures['database_messages']} messages, "
            f"largest user {figures['largest_user_messages']}; "
            f"load average {' '.join(f'{value:.2f}' for value in os.getloadavg())}"
        )
        if options["json_path"]:
            with Path(options["json_path"]).open("w", encoding="utf-8") as handle:
                json.dump(figures, handle, indent=2, default=str)

    def _message_estimate(self) -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM conversations_message")
            return int(cursor.fetchone()[0])

    def _user_messages(self, user_id: int) -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM conversations_message WHERE user_id = %s", [user_id]
            )
            return int(cursor.fetchone()[0])

    def _drop(self, database: str) -> None:
        connection.close()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")  # starts the embedded server if needed
        params = connection.get_connection_params()
        connection.close()
        import psycopg

        params = {**params, "dbname": "postgres", "autocommit": True}
        with psycopg.connect(**params) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        self.stdout.write(f"Dropped {database}.")
