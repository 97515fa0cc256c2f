"""LoCoMo retrieval evaluation (docs/EVALS.md).

    python manage.py eval_retrieval --messages PATH --questions PATH --out RUN.jsonl
                                    [--windows-out RUN.windows.jsonl] [--conversations conv-26,...]
                                    [--keep] [--reuse]

Imports each conversation as its own user, indexes it with the product indexing job, runs
every question through compile + search, and writes two run files for
``shared/benchmarks/locomo/retrieval_metrics.py``: the ranked hits, and the ranked hits after
window expansion (default: ``RUN.windows.jsonl``). The evaluation users are deleted afterwards
unless ``--keep``. ``--conversations`` runs a subset (score it against the same subset of the
questions file: the scorer divides by every question it reads).

The data is not in this repository: LoCoMo (snap-research/locomo) converted with
``locomo_to_jsonl.py``; docs/EVALS.md, "Getting the data".
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from claire.accounts.models import User
from evals.locomo import (
    LOCOMO_DATA_HINT,
    conversation_ids_in,
    conversations_existing,
    conversations_import,
    conversations_index,
    default_windows,
    questions_read,
    run,
)
from retrieval.search import SearchLimits


class Command(BaseCommand):
    help = "Run the LoCoMo questions through retrieval and write run files for scoring."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--messages", required=True, type=Path)
        parser.add_argument("--questions", required=True, type=Path)
        parser.add_argument("--out", required=True, type=Path)
        parser.add_argument("--windows-out", type=Path, default=None)
        parser.add_argument(
            "--conversations", default="", help="comma-separated conversation ids (default: all)"
        )
        parser.add_argument("--keep", action="store_true", help="keep the evaluation users")
        parser.add_argument(
            "--reuse",
            action="store_true",
            help="run on the users a --keep run left (no import, no indexing); implies --keep",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        for name in ("messages", "questions"):
            if not options[name].is_file():
                raise CommandError(f"--{name}: {options[name]} is not a file. {LOCOMO_DATA_HINT}")
        out: Path = options["out"]
        windows_out: Path = options["windows_out"] or out.with_suffix(".windows.jsonl")
        wanted = [c for c in options["conversations"].split(",") if c] or None
        users = {}
        if options["reuse"]:
            users = conversations_existing(
                conversation_ids=wanted or conversation_ids_in(options["messages"])
            )
            self.stdout.write(f"reusing {len(users)} imported and indexed conversations")
        if not users:
            users = conversations_import(
                messages_path=options["messages"], conversation_ids=wanted, report=self.stdout.write
            )
        try:
            if not options["reuse"]:
                conversations_index(users=users, report=self.stdout.write)
            before, after = default_windows()
            summary = run(
                users=users,
                questions=questions_read(options["questions"]),
                out_path=out,
                windows_out_path=windows_out,
                limits=SearchLimits.from_settings(),
                window_before=before,
                window_after=after,
            )
        finally:
            if not (options["keep"] or options["reuse"]):
                User.objects.filter(pk__in=[user.pk for user in users.values()]).delete()
        self.stdout.write(
            f"{summary.questions} questions in {summary.seconds:.1f}s "
            f"(compile + search p50 {statistics.median(summary.timings_ms):.1f} ms); "
            f"{summary.no_evidence} routed to no_evidence; "
            f"median {statistics.median(summary.window_messages):.0f} messages after windows"
        )
        self.stdout.write(f"wrote {out} and {windows_out}")
