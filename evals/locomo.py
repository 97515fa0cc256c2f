"""The LoCoMo retrieval evaluation: import, index, run every question through ``retrieve``.

LoCoMo (Maharana et al., ACL 2024) has ten long two-person conversations. As in the paper,
each conversation is searched on its own: each becomes one user (neither speaker is the user,
so both are people of that user) imported from the neutral JSONL with the product importer,
indexed with the product indexing job, and every question is asked (with its ``asked_at`` as
now, in UTC) through ``retrieval.pipeline.retrieve`` exactly as the answer engine calls it:
global scope, the answer profile's evidence limits, personal memory first, the answerability
check, the evidence pack. Nothing here knows any question.

The first five conversations in file order are the development half (constants are chosen
there), the last five the test half (reported, never tuned on): ``SPLITS``.

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
from typing import Any

from django.core.management import call_command
from django.db import transaction

from claire.accounts.consent import data_policy_for_user
from claire.accounts.models import User
from conversations.importing import import_file
from conversations.models import Message
from indexing.selectors import index_status_for_user
from retrieval.answerability import is_weak_strength
from retrieval.evidence import EvidenceLimits
from retrieval.pipeline import Retrieval, retrieve
from retrieval.types import Scope

logger = logging.getLogger(__name__)

# One line for every command that needs the benchmark files.
LOCOMO_DATA_HINT = (
    "LoCoMo is not part of this repository: convert snap-research/locomo's "
    'data/locomo10.json with locomo_to_jsonl.py (docs/EVALS.md, "Getting the data").'
)

EVAL_EMAIL_DOMAIN = "locomo.eval.askclaire.local"

Report = Callable[[str], None]

# The evidence-limits profile the answer engine builds its pack with (assistant.answering).
ANSWER_PROFILE = "answer"

# LoCoMo's categories: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop have evidence that
# answers them; 5 (adversarial) asks about something the conversation does not say.
ANSWERABLE_CATEGORIES = frozenset({1, 2, 3, 4})
UNANSWERABLE_CATEGORY = 5
CATEGORY_NAMES = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
RECALL_AT = (5, 10, 25)

# Conversations by position in the messages file (1-based): tune on dev, report test.
SPLITS: dict[str, range] = {"dev": range(1, 6), "test": range(6, 11), "all": range(1, 11)}


@dataclass(frozen=True)
class LocomoQuestion:
    question_id: str
    conversation_id: str
    question: str
    asked_at: datetime
    category: int
    # The annotated evidence that exists in the conversation (LoCoMo's missing dia_ids left out).
    evidence: tuple[str, ...] = ()


def recall(ranked: list[str], evidence: tuple[str, ...], k: int) -> float:
    """Share of ``evidence`` inside the first ``k`` of ``ranked`` (LoCoMo's recall accuracy,
    as ``retrieval_metrics.py`` computes it)."""
    return len(set(evidence) & set(ranked[:k])) / len(set(evidence))


@dataclass
class RunSummary:
    """Figures of one run: recall of the hits, of the pack, and of search alone (categories
    1-4, per category and together), and the no-evidence answers per kind of question."""

    questions: int = 0
    no_evidence: dict[str, int] = field(
        default_factory=lambda: {"answerable": 0, "unanswerable": 0}
    )
    asked: dict[str, int] = field(default_factory=lambda: {"answerable": 0, "unanswerable": 0})
    # Answered from evidence the check judged weak (the answer says it may not answer).
    weak: dict[str, int] = field(default_factory=lambda: {"answerable": 0, "unanswerable": 0})
    gate_rules: dict[str, int] = field(default_factory=dict)
    # (list, category) -> recall per question; list is "hits", "pack" or "search".
    recalls: dict[tuple[str, int, int], list[float]] = field(
        default_factory=lambda: defaultdict(list)
    )
    pack_messages: list[int] = field(default_factory=list)
    seconds: float = 0.0
    timings_ms: list[float] = field(default_factory=list)

    def add(self, question: LocomoQuestion, result: QuestionRun) -> None:
        self.questions += 1
        kind = "unanswerable" if question.category == UNANSWERABLE_CATEGORY else "answerable"
        self.asked[kind] += 1
        self.no_evidence[kind] += int(result.route == "no_evidence")
        self.weak[kind] += int(result.is_weak)
        if result.gate_rule is not None:
            self.gate_rules[result.gate_rule] = self.gate_rules.get(result.gate_rule, 0) + 1
        self.pack_messages.append(len(result.pack))
        if question.category not in ANSWERABLE_CATEGORIES or not question.evidence:
            return
        for name, ranked in (
            ("hits", result.hits),
            ("pack", result.pack),
            ("search", result.searched),
        ):
            for k in RECALL_AT:
                self.recalls[(name, question.category, k)].append(
                    recall(ranked, question.evidence, k)
                )

    def recall_at(
        self, name: str, k: int, categories: Iterable[int] = ANSWERABLE_CATEGORIES
    ) -> float:
        values = [v for c in categories for v in self.recalls.get((name, c, k), [])]
        return sum(values) / len(values) if values else 0.0

    def no_evidence_rate(self, kind: str) -> float:
        return self.rate(self.no_evidence, kind)

    def rate(self, counts: dict[str, int], kind: str) -> float:
        return counts[kind] / self.asked[kind] if self.asked[kind] else 0.0

    def lines(self) -> list[str]:
        """The summary as printed by ``eval_retrieval``."""
        header = "recall (cats 1-4)   " + " ".join(f"{'@' + str(k):>7}" for k in RECALL_AT)
        out = [header]
        for name, label in (
            ("hits", "retrieve hits"),
            ("pack", "retrieve pack"),
            ("search", "diagnostic: search"),
        ):
            out.append(
                f"{label:<20}"
                + " ".join(f"{100 * self.recall_at(name, k):7.1f}" for k in RECALL_AT)
            )
        out.append(
            "hits R@10 by category: "
            + ", ".join(
                f"{CATEGORY_NAMES[c]} {100 * self.recall_at('hits', 10, (c,)):.1f}"
                f" ({len(self.recalls.get(('hits', c, 10), []))})"
                for c in sorted(ANSWERABLE_CATEGORIES)
            )
        )
        out.append(
            f"no evidence: answerable {self.no_evidence['answerable']}/{self.asked['answerable']}"
            f" ({100 * self.no_evidence_rate('answerable'):.1f}%), unanswerable"
            f" {self.no_evidence['unanswerable']}/{self.asked['unanswerable']}"
            f" ({100 * self.no_evidence_rate('unanswerable'):.1f}%); answerability rules fired: "
            + (", ".join(f"{rule} {n}" for rule, n in sorted(self.gate_rules.items())) or "none")
        )
        out.append(
            "weak evidence (answered, saying it may not answer): answerable"
            f" {self.weak['answerable']}/{self.asked['answerable']}"
            f" ({100 * self.rate(self.weak, 'answerable'):.1f}%), unanswerable"
            f" {self.weak['unanswerable']}/{self.asked['unanswerable']}"
            f" ({100 * self.rate(self.weak, 'unanswerable'):.1f}%)"
        )
        return out


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
                    evidence=tuple(
                        e
                        for e in data.get("evidence", [])
                        if e not in data.get("evidence_missing", [])
                    ),
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


def conversations_index(*, users: dict[str, User], report: Report, cpu_policy: str) -> None:
    """Embed every imported message with the product backfill (inline indexing jobs; the
    first index version is created from the embed profile when none exists), at the CPU
    priority ``cpu_policy`` of ``backfill_embeddings``."""
    for conversation_id, user in users.items():
        started = time.perf_counter()
        call_command(
            "backfill_embeddings",
            user=user.email,
            no_progress=True,
            cpu_policy=cpu_policy,
            stdout=StringIO(),
        )
        status = index_status_for_user(user=user)
        if status is None or status.pending:
            raise RuntimeError(f"{conversation_id}: indexing did not finish ({status}).")
        report(
            f"{conversation_id}: {status.embedded} messages embedded with {status.model} "
            f"in {time.perf_counter() - started:.1f}s"
        )


@dataclass(frozen=True)
class QuestionRun:
    """One question through ``retrieve``, in LoCoMo's dia_ids."""

    question_id: str
    category: int
    hits: list[str]
    pack: list[str]
    searched: list[str]
    route: str
    gate_checked: bool
    gate_rule: str | None
    # The check's evidence strength (None when not judged) and whether it is weak.
    strength: float | None = None
    is_weak: bool = False

    def hits_line(self) -> dict[str, Any]:
        return {
            "question_id": self.question_id,
            "ranked": self.hits,
            "pack": self.pack,
            "route": self.route,
            "category": self.category,
            "gate": {
                "checked": self.gate_checked,
                "fired": self.gate_rule is not None,
                "rule": self.gate_rule,
                "strength": None if self.strength is None else round(self.strength, 4),
                "weak": self.is_weak,
            },
        }


def run(
    *,
    users: dict[str, User],
    questions: list[LocomoQuestion],
    out_path: Path,
    pack_out_path: Path,
    search_out_path: Path,
) -> RunSummary:
    """Every question of an imported conversation through ``retrieve`` as the answer engine
    calls it (``retrieval_for_answer``), written as three run files: the ranked hits with the
    pack, route and answerability decision (``out_path``), the pack's messages in pack order
    (``pack_out_path``), and, as a diagnostic, search's own ranking before memory and the
    answerability check (``search_out_path``)."""
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
        pack_out_path.open("w", encoding="utf-8") as pack_out,
        search_out_path.open("w", encoding="utf-8") as search_out,
    ):
        for question in questions:
            user = users.get(question.conversation_id)
            if user is None:
                continue
            asked = time.perf_counter()
            retrieval = retrieval_for_answer(
                user=user, question=question.question, now=question.asked_at
            )
            summary.timings_ms.append((time.perf_counter() - asked) * 1000)
            names = dia_ids[question.conversation_id]
            searched = retrieval.searched.message_ids if retrieval.searched else []
            result = QuestionRun(
                question_id=question.question_id,
                category=question.category,
                hits=[names[message_id] for message_id in retrieval.hit_message_ids],
                pack=list(
                    dict.fromkeys(
                        names[message.message_id]
                        for source in retrieval.pack.sources
                        for message in source.messages
                    )
                ),
                searched=[names[message_id] for message_id in searched],
                route=str(retrieval.route),
                gate_checked=retrieval.is_answerability_checked,
                gate_rule=retrieval.unanswerable_rule,
                strength=retrieval.evidence_strength,
                is_weak=is_weak_strength(retrieval.evidence_strength),
            )
            summary.add(question, result)
            out.write(json.dumps(result.hits_line()) + "\n")
            pack_out.write(
                json.dumps({"question_id": question.question_id, "ranked": result.pack}) + "\n"
            )
            search_out.write(
                json.dumps({"question_id": question.question_id, "ranked": result.searched}) + "\n"
            )
    summary.seconds = time.perf_counter() - started
    return summary


def split_conversation_ids(*, messages_path: Path, split: str) -> list[str]:
    """The conversations of ``split`` (``SPLITS``), by their position in the messages file."""
    ids = conversation_ids_in(messages_path)
    return [ids[position - 1] for position in SPLITS[split] if position <= len(ids)]


def retrieval_for_answer(*, user: User, question: str, now: datetime) -> Retrieval:
    """``retrieve`` with what the answer engine passes (``assistant.answering.retrieval_run``):
    the global scope a request without one gets, the answer profile's evidence limits, and the
    default data policy."""
    return retrieve(
        user=user,
        question=question,
        now=now,
        scope=Scope.everywhere(),
        evidence_limits=EvidenceLimits.for_profile(ANSWER_PROFILE),
        data_policy=data_policy_for_user(user=user),
    )
