"""Retrieval speed bench on a large synthetic corpus (docs/RETRIEVAL_BENCH.md).

    CLAIRE_DATABASE_NAME=claire_bench \\
    CLAIRE_AI_CONFIG='{"profiles": {"embed": {"candidates": ["local/hash-embed"]}}}' \\
    python manage.py bench_retrieval [--messages 1000000] [--largest 100000] [--users 11]
                                     [--questions 200] [--repeats 3] [--compare-plans]
                                     [--cleanup]

Builds the corpus on first use (users, people, chats and messages with COPY, hashed-word
embeddings, the version's HNSW index and each large user's own), then times
``retrieval.pipeline.retrieve`` (compile, both search legs, fusion, windows, pack) for the
largest user over the questions, ``--repeats`` times, and measures the vector leg's recall@10
against exact search for that user, through the user's own index and through the version's.
``--compare-plans`` times both plans interleaved. ``--cleanup`` drops the bench database.
Runs only on a database whose name contains "bench".
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

from claire.ai.embeddings import embed_many
from claire.ai.local.mock import HashEmbedder
from evals.bench.build import bench_users, corpus_build
from evals.bench.questions import bench_questions
from evals.bench.run import latency_run, latency_runs, vector_recall
from indexing.selectors import SearchPlan, active_index_version
from indexing.services import ModelIdentity, index_version_create
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
        version = active_index_version()
        users = bench_users()
        if not users:
            version = version or self._version()
            if version.model != HashEmbedder().model_name:
                raise CommandError(
                    f"The embed profile resolves to {version.model}; run with "
                    "CLAIRE_AI_CONFIG naming local/hash-embed (see the module docstring)."
                )
            hasher = HashEmbedder(dimensions=version.dimensions, model_name=version.model)
            corpus_build(
                total=options["messages"],
                largest=options["largest"],
                users=options["users"],
                seed=options["seed"],
                index_version=version,
                embed=hasher.embed_texts,
                report=self.stdout.write,
            )
            users = bench_users()
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
        recalls = [
            vector_recall(user=largest, questions=questions, index_version=version, plan=plan)
            for plan in (SearchPlan.USER_HNSW, SearchPlan.HNSW)
        ]
        figures = {
            "database_messages": self._message_estimate(),
            "largest_user_messages": self._user_messages(largest.pk),
            "questions": len(questions),
            "repeats": options["repeats"],
            "overlap_embedding": limits.overlap_embedding,
            "load_average": list(os.getloadavg()),
            "runs": [{name: asdict(run) for name, run in repeat.items()} for repeat in repeats],
            "vector_recall": [asdict(recall) for recall in recalls],
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
        self.stdout.write(
            f"corpus: ~{figures['database_messages']} messages, "
            f"largest user {figures['largest_user_messages']}; "
            f"load average {' '.join(f'{value:.2f}' for value in os.getloadavg())}"
        )
        if options["json_path"]:
            with Path(options["json_path"]).open("w", encoding="utf-8") as handle:
                json.dump(figures, handle, indent=2, default=str)

    def _version(self) -> Any:
        result = embed_many(["bench"], profile="embed")
        return index_version_create(
            profile="embed",
            identity=ModelIdentity(
                provider=result.provider, model=result.model, dimensions=result.dimensions
            ),
        )

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
