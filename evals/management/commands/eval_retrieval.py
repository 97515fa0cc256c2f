"""LoCoMo retrieval evaluation through the answer's own path (docs/EVALS.md).

    python manage.py eval_retrieval --messages PATH --questions PATH --out RUN.jsonl
                                    [--split dev|test|all] [--conversations conv-26,...]
                                    [--keep] [--reuse]

Imports each conversation as its own user, indexes it with the product indexing job, asks
every question through ``retrieval.pipeline.retrieve`` as the answer engine calls it (memory
first, the answerability check, the evidence pack) and writes, for
``shared/benchmarks/locomo/retrieval_metrics.py``:

- ``RUN.jsonl``: per question the ranked hits (memory's, then search's; empty when the route
  is ``no_evidence``), the pack's messages in pack order, the route, and the answerability
  check (whether it ran, fired, and which rule);
- ``RUN.pack.jsonl``: the pack's messages as the ranked list;
- ``RUN.search.jsonl``: a diagnostic, search's own ranking (``compile_question`` + ``search``,
  before memory and the answerability check): what the answer would see without them;
- ``RUN.questions.jsonl``: the questions of the split, to score the run files against.

``--split dev`` runs the first five conversations of the messages file, ``test`` the last
five. The evaluation users are deleted afterwards unless ``--keep``.

The data is not in this repository: LoCoMo (snap-research/locomo) converted with
``locomo_to_jsonl.py``; docs/EVALS.md, "Getting the data".
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from claire.accounts.models import User
from evals.locomo import (
    LOCOMO_DATA_HINT,
    SPLITS,
    conversations_existing,
    conversations_import,
    conversations_index,
    questions_read,
    run,
    split_conversation_ids,
)


def _sibling(out: Path, name: str) -> Path:
    return out.with_name(f"{out.stem}.{name}{out.suffix or '.jsonl'}")


class Command(BaseCommand):
    help = "Run the LoCoMo questions through retrieve() and write run files for scoring."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--messages", required=True, type=Path)
        parser.add_argument("--questions", required=True, type=Path)
        parser.add_argument("--out", required=True, type=Path)
        parser.add_argument(
            "--split",
            choices=sorted(SPLITS),
            default="all",
            help="dev: conversations 1-5 of the messages file; test: 6-10; all (default)",
        )
        parser.add_argument(
            "--conversations",
            default="",
            help="comma-separated conversation ids, inside the split (default: the split's)",
        )
        parser.add_argument(
            "--cpu-policy",
            choices=["idle", "nice", "normal"],
            default=settings.INDEXING_WORKER_CPU_POLICY,
            help="CPU priority of the indexing (backfill_embeddings --cpu-policy)",
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
        wanted = split_conversation_ids(messages_path=options["messages"], split=options["split"])
        named = [c for c in options["conversations"].split(",") if c]
        if named:
            outside = sorted(set(named) - set(wanted))
            if outside:
                raise CommandError(
                    f"--conversations outside the {options['split']} split: {outside}"
                )
            wanted = named
        users: dict[str, User] = {}
        if options["reuse"]:
            users = conversations_existing(conversation_ids=wanted)
            self.stdout.write(f"reusing {len(users)} imported and indexed conversations")
        if not users:
            users = conversations_import(
                messages_path=options["messages"], conversation_ids=wanted, report=self.stdout.write
            )
        questions = [
            question
            for question in questions_read(options["questions"])
            if question.conversation_id in users
        ]
        paths = {
            "hits": out,
            "pack": _sibling(out, "pack"),
            "search": _sibling(out, "search"),
            "questions": _sibling(out, "questions"),
        }
        try:
            if not options["reuse"]:
                conversations_index(
                    users=users, report=self.stdout.write, cpu_policy=options["cpu_policy"]
                )
            summary = run(
                users=users,
                questions=questions,
                out_path=paths["hits"],
                pack_out_path=paths["pack"],
                search_out_path=paths["search"],
            )
        finally:
            if not (options["keep"] or options["reuse"]):
                User.objects.filter(pk__in=[user.pk for user in users.values()]).delete()
        _questions_write(source=options["questions"], users=users, path=paths["questions"])
        p50 = statistics.median(summary.timings_ms or [0.0])
        self.stdout.write(
            f"{summary.questions} questions ({options['split']}: {len(users)} conversations) in "
            f"{summary.seconds:.1f}s (retrieve p50 {p50:.1f} ms); median "
            f"{statistics.median(summary.pack_messages or [0]):.0f} messages per pack"
        )
        for line in summary.lines():
            self.stdout.write(line)
        self.stdout.write("wrote " + ", ".join(str(path) for path in paths.values()))


def _questions_write(*, source: Path, users: dict[str, User], path: Path) -> None:
    """The split's lines of the questions file, verbatim (what the scorer reads)."""
    with source.open(encoding="utf-8") as lines, path.open("w", encoding="utf-8") as out:
        for line in lines:
            if line.strip() and json.loads(line)["conversation_id"] in users:
                out.write(line if line.endswith("\n") else line + "\n")
