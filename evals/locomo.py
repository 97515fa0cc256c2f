"""The LoCoMo retrieval evaluation: import, index, run every question through the pipeline.

LoCoMo (Maharana et al., ACL 2024) has ten long two-person conversations. As in the paper,
each conversation is searched on its own: each becomes one user (neither speaker is the user,
so both are people of that user) imported from the neutral JSONL with the product importer,
indexed with the product indexing job, and every question runs through the same path as an
answer — ``compile_question`` (with the question's ``asked_at`` as now, in UTC) and ``search``
— and, for the second run file, ``windows_expand``. Nothing here knows any question.

Run files are what ``shared/benchmarks/locomo/retrieval_metrics.py`` scores: one JSON line per
question, ``{"question_id": ..., "ranked": [message_id, ...]}`` with LoCoMo's dia_ids.
"""

from __future__ import annotations

import json
import logging
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from io import StringIO
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.db import transaction

from claire.accounts.models import User
from conversations.importing import import_file
from conversations.models import Message
from indexing.selectors import index_status_for_user
from retrieval.compile import compile_question
from retrieval.search import SearchLimits, search
from retrieval.types import Scope
from retrieval.windows import windows_expand

logger = logging.getLogger(__name__)

# One line for every command that needs the benchmark files.
LOCOMO_DATA_HINT = (
    "LoCoMo is not part of this repository: convert snap-research/locomo's "
    'data/locomo10.json with locomo_to_jsonl.py (docs/EVALS.md, "Getting the data").'
)

EVAL_EMAIL_DOMAIN = "locomo.eval.askclaire.local"

Report = Callable[[str], None]


@dataclass(frozen=True)
class LocomoQuestion:
    question_id: str
    conversation_id: str
    question: str
    asked_at: datetime
    category: int


@dataclass
class RunSummary:
    questions: int = 0
    no_evidence: int = 0
    seconds: float = 0.0
    window_messages: list[int] = field(default_factory=list)
    timings_ms: list[float] = field(default_factory=list)


def eval_email(conversation_id: str) -> str:
    return f"{conversation_id.lower()}@{EVAL_EMAIL_DOMAIN}"


def questions_read(path: Path) -> list[LocomoQuestion]:
    questions = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            data = json.loads(line)
            questions.append(
                LocomoQuestion(
                    question_id=data["question_id"],
                    conversation_id=data["conversation_id"],
                    question=data["question"],
                    asked_at=datetime.fromisoformat(data["asked_at"]),
                    category=int(data["category"]),
                )
            )
    return questions


def conversations_existing(*, conversation_ids: Iterable[str]) -> dict[str, User]:
    """Evaluation users kept by an earlier run (``--keep``), by conversation id."""
    emails = {eval_email(conversation_id): conversation_id for conversation_id in conversation_ids}
    return {emails[user.email]: user for user in User.objects.filter(email__in=list(emails))}


def conversation_ids_in(path: Path) -> list[str]:
    ids: dict[str, None] = {}
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                ids[json.loads(line)["conversation_id"]] = None
    return list(ids)


def conversations_import(
    *, messages_path: Path, conversation_ids: Iterable[str] | None, report: Report
) -> dict[str, User]:
    """One fresh user per conversation (an earlier evaluation user is deleted first), each
    imported with the product JSONL importer in UTC."""
    wanted = set(conversation_ids) if conversation_ids is not None else None
    lines_by_conversation: dict[str, list[str]] = defaultdict(list)
    with messages_path.open(encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            conversation_id = json.loads(line)["conversation_id"]
            if wanted is None or conversation_id in wanted:
                lines_by_conversation[conversation_id].append(line)
    users: dict[str, User] = {}
    with tempfile.TemporaryDirectory(prefix="locomo-") as directory:
        for conversation_id, conversation_lines in lines_by_conversation.items():
            path = Path(directory) / f"{conversation_id}.jsonl"
            path.write_text("".join(conversation_lines), encoding="utf-8")
            with transaction.atomic():
                User.objects.filter(email=eval_email(conversation_id)).delete()
                user = User.objects.create_user(email=eval_email(conversation_id), password=None)
                user.timezone = "UTC"
                user.save(update_fields=["timezone"])
            summary = import_file(user=user, format="jsonl", path=path, timezone="UTC")
            report(f"{conversation_id}: {summary.messages_created} messages imported")
            users[conversation_id] = user
    return users


def conversations_index(*, users: dict[str, User], report: Report) -> None:
    """Embed every imported message with the product backfill (inline indexing jobs; the
    first index version is created from the embed profile when none exists)."""
    for conversation_id, user in users.items():
        started = time.perf_counter()
        call_command("backfill_embeddings", user=user.email, no_progress=True, stdout=StringIO())
        status = index_status_for_user(user=user)
        if status is None or status.pending:
            raise RuntimeError(f"{conversation_id}: indexing did not finish ({status}).")
        report(
            f"{conversation_id}: {status.embedded} messages embedded with {status.model} "
            f"in {time.perf_counter() - started:.1f}s"
        )


def run(
    *,
    users: dict[str, User],
    questions: list[LocomoQuestion],
    out_path: Path,
    windows_out_path: Path,
    limits: SearchLimits,
    window_before: int,
    window_after: int,
) -> RunSummary:
    """Every question of an imported conversation through compile + search (+ windows), written
    as two run files: ranked hits, and ranked hits after window expansion."""
    summary = RunSummary()
    started = time.perf_counter()
    dia_ids: dict[str, dict[int, str]] = {
        conversation_id: dict(
            Message.objects.filter(user=user).values_list("pk", "platform_message_id")
        )
        for conversation_id, user in users.items()
    }
    with (
        out_path.open("w", encoding="utf-8") as out,
        windows_out_path.open("w", encoding="utf-8") as windows_out,
    ):
        for question in questions:
            user = users.get(question.conversation_id)
            if user is None:
                continue
            asked = time.perf_counter()
            compiled = compile_question(
                user=user,
                question=question.question,
                now=question.asked_at,
                scope=Scope.everywhere(),
            )
            result = search(user=user, compiled=compiled, now=question.asked_at, limits=limits)
            summary.timings_ms.append((time.perf_counter() - asked) * 1000)
            names = dia_ids[question.conversation_id]
            ranked = [names[message_id] for message_id in result.message_ids]
            windows = windows_expand(
                user=user, message_ids=result.message_ids, before=window_before, after=window_after
            )
            expanded = list(
                dict.fromkeys(
                    names[message_id]
                    for window in windows
                    for message_id in window.ranked_message_ids()
                )
            )
            summary.questions += 1
            summary.no_evidence += int(result.is_no_evidence)
            summary.window_messages.append(len(expanded))
            out.write(json.dumps({"question_id": question.question_id, "ranked": ranked}) + "\n")
            windows_out.write(
                json.dumps({"question_id": question.question_id, "ranked": expanded}) + "\n"
            )
    summary.seconds = time.perf_counter() - started
    return summary


def default_windows() -> tuple[int, int]:
    return settings.RETRIEVAL_WINDOW_BEFORE, settings.RETRIEVAL_WINDOW_AFTER
