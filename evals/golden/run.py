"""Run a golden set through the real answer engine and score it.

``golden_user_prepare`` loads the demo corpus into a fresh evaluation account (derived memory
and the search index included); ``golden_run`` asks every question through
``assistant.engine`` exactly as the web client does and scores each answer with
``answer_score`` (a pure function, tested on its own).

Questions are asked at the corpus's anchor (``DemoCorpus.now``, ``run_evals --now``), not at
the wall clock: "the last few days" or "this week" mean the days before the anchor, as they
would for someone asking when the history was fresh. ``asked_at_anchor`` moves the clock the
engine reads (``django.utils.timezone.now``) to the anchor, and time still runs from there.
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from unittest import mock

from claire.accounts.models import User
from conversations.models import Chat, Message
from evals.golden import GoldenQuestion, GoldenSet
from fixtures.demo_cast import CAST
from fixtures.demo_corpus import DemoCorpus, build_demo_corpus
from fixtures.demo_questions import DEMO_QUESTIONS, demo_questions
from fixtures.services import demo_corpus_load
from retrieval.lexicon import fold_text

Report = Callable[[str], None]


@dataclass(frozen=True)
class EngineAnswer:
    """What the engine returned for one question."""

    text: str
    cited_message_ids: tuple[int, ...]
    source_message_ids: tuple[int, ...]
    removed_citation_count: int
    error_code: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    cost_micro_usd: int = 0
    seconds: float = 0.0
    request_id: str = ""
    # The platform chat id of each cited message, in citation order.
    cited_chat_ids: tuple[str, ...] = ()
    # An action request's proposal: its destination as the server resolved it.
    has_proposal: bool = False
    proposal_chat_id: int = 0
    proposal_person_id: int | None = None


@dataclass(frozen=True)
class QuestionScore:
    question: str
    intent: str
    passed: bool
    evidence_recall: float | None
    citation_validity: float | None
    no_evidence_correct: bool | None
    missing_beats: tuple[str, ...]
    missing_people: tuple[str, ...]
    status_stated: bool | None
    answer: EngineAnswer
    # Citations outside a scoped question's chat (a strict scope must hold whatever the
    # messages in it ask for).
    out_of_scope_citations: int = 0


def answer_score(
    *,
    question: GoldenQuestion,
    answer: EngineAnswer,
    beat_message_ids: dict[str, set[int]],
    first_names: dict[str, str],
) -> QuestionScore:
    """Score one answer. Evidence recall is per story beat: a beat counts when at least one of
    its messages is cited. Citation validity is the share of citation marks that pointed at a
    real source (the engine removes the others and counts them). A no-evidence question passes
    only with nothing cited; any other question fails with nothing cited. People must be named
    (first name, accents and case ignored); a plan status must be stated; a question scoped to
    a chat cites nothing outside it."""
    cited = set(answer.cited_message_ids)
    folded_text = fold_text(answer.text)
    missing_beats = tuple(
        beat for beat in question.evidence if not (beat_message_ids.get(beat, set()) & cited)
    )
    recall = (
        (len(question.evidence) - len(missing_beats)) / len(question.evidence)
        if question.evidence
        else None
    )
    marks = len(answer.cited_message_ids) + answer.removed_citation_count
    validity = len(answer.cited_message_ids) / marks if marks else None
    no_evidence_correct = (not cited) if question.expects_no_evidence else None
    missing_people = tuple(
        key for key in question.people if fold_text(first_names.get(key, key)) not in folded_text
    )
    status_stated = fold_text(question.plan_status) in folded_text if question.plan_status else None
    out_of_scope = (
        sum(1 for chat_id in answer.cited_chat_ids if chat_id != question.scope_chat_id)
        if question.scope_chat_id
        else 0
    )
    passed = (
        not answer.error_code
        and not out_of_scope
        and not missing_beats
        and not missing_people
        and status_stated is not False
        and (validity is None or validity == 1.0)
        and (
            no_evidence_correct
            if question.expects_no_evidence
            else bool(cited or not question.evidence)
        )
    )
    return QuestionScore(
        question=question.question,
        intent=question.intent,
        passed=bool(passed),
        evidence_recall=recall,
        citation_validity=validity,
        no_evidence_correct=no_evidence_correct,
        missing_beats=missing_beats,
        missing_people=missing_people,
        status_stated=status_stated,
        answer=answer,
        out_of_scope_citations=out_of_scope,
    )


@dataclass
class RunSummary:
    set_name: str
    scores: list[QuestionScore] = field(default_factory=list)

    @staticmethod
    def _mean(values: list[float]) -> float:
        return round(statistics.fmean(values), 4) if values else 1.0

    @property
    def pass_rate(self) -> float:
        return self._mean([1.0 if score.passed else 0.0 for score in self.scores])

    @property
    def evidence_recall(self) -> float:
        return self._mean([s.evidence_recall for s in self.scores if s.evidence_recall is not None])

    @property
    def citation_validity(self) -> float:
        return self._mean(
            [s.citation_validity for s in self.scores if s.citation_validity is not None]
        )

    @property
    def no_evidence_correct(self) -> float:
        return self._mean(
            [
                1.0 if s.no_evidence_correct else 0.0
                for s in self.scores
                if s.no_evidence_correct is not None
            ]
        )

    def pass_rate_by_intent(self) -> dict[str, float]:
        by_intent: dict[str, list[float]] = defaultdict(list)
        for score in self.scores:
            by_intent[score.intent].append(1.0 if score.passed else 0.0)
        return {intent: self._mean(values) for intent, values in sorted(by_intent.items())}

    def per_answer(self) -> dict[str, float]:
        answers = [score.answer for score in self.scores]
        return {
            "inputTokens": self._mean([float(a.input_tokens) for a in answers]),
            "outputTokens": self._mean([float(a.output_tokens) for a in answers]),
            "costMicroUsd": self._mean([float(a.cost_micro_usd) for a in answers]),
            "secondsMedian": round(statistics.median([a.seconds for a in answers]), 3)
            if answers
            else 0.0,
        }

    def to_json(self) -> dict[str, object]:
        return {
            "set": self.set_name,
            "questions": len(self.scores),
            "passRate": self.pass_rate,
            "passRateByIntent": self.pass_rate_by_intent(),
            "evidenceRecall": self.evidence_recall,
            "citationValidity": self.citation_validity,
            "noEvidenceCorrect": self.no_evidence_correct,
            "perAnswer": self.per_answer(),
            "failures": [
                {
                    "question": s.question,
                    "intent": s.intent,
                    "missingBeats": list(s.missing_beats),
                    "missingPeople": list(s.missing_people),
                    "statusStated": s.status_stated,
                    "outOfScopeCitations": s.out_of_scope_citations,
                    "error": s.answer.error_code,
                }
                for s in self.scores
                if not s.passed
            ],
        }

    def below_thresholds(self, golden: GoldenSet) -> list[str]:
        limits = golden.thresholds
        checks = {
            "pass rate": (self.pass_rate, limits.pass_rate),
            "evidence recall": (self.evidence_recall, limits.evidence_recall),
            "citation validity": (self.citation_validity, limits.citation_validity),
            "no-evidence correctness": (self.no_evidence_correct, limits.no_evidence_correct),
        }
        return [
            f"{name} {value:.3f} < {limit:.3f}"
            for name, (value, limit) in checks.items()
            if value < limit
        ]


def golden_user_prepare(
    *, email: str, now: datetime, seed: int, report: Report
) -> tuple[User, DemoCorpus]:
    """A fresh evaluation account with the demo corpus, its derived memory and its index."""
    from django.core.management import call_command

    from retrieval.memory.services import memory_refresh

    user = User.objects.create_user(email, None, first_name="Sam", timezone="Europe/Lisbon")
    corpus = build_demo_corpus(now=now, seed=seed)
    started = time.perf_counter()
    demo_corpus_load(user=user, corpus=corpus)
    memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )
    report(f"loaded the demo corpus in {time.perf_counter() - started:.1f}s")
    started = time.perf_counter()
    call_command("backfill_embeddings", user=user.email, no_progress=True)
    report(f"indexed in {time.perf_counter() - started:.1f}s")
    return user, corpus


def beat_message_ids_for(*, user: User, corpus: DemoCorpus) -> dict[str, set[int]]:
    rows = {
        (chat_id, message_id): pk
        for pk, chat_id, message_id in Message.objects.filter(user=user).values_list(
            "pk", "chat__platform_chat_id", "platform_message_id"
        )
    }
    return {
        key: {
            rows[(ref.platform_chat_id, ref.platform_message_id)]
            for ref in beat.evidence
            if (ref.platform_chat_id, ref.platform_message_id) in rows
        }
        for key, beat in corpus.story.items()
    }


async def engine_ask(user: User, *, question: str, chat_id: int | None) -> EngineAnswer:
    """Ask ``question`` through the answer engine exactly as the web client does (global scope,
    or strict to ``chat_id``) and collect what it returned."""
    from assistant.engine import answer_open
    from assistant.types import (
        AskRequest,
        ErrorEvent,
        FinishEvent,
        ProposalEvent,
        Scope,
        SourcesEvent,
        TextDeltaEvent,
    )
    from claire.errors import CodedError

    scope = Scope(mode="strict_chat", chat_ids=(chat_id,)) if chat_id else Scope(mode="global")
    request = AskRequest(request_id=uuid.uuid4().hex, question=question, scope=scope)
    started = time.perf_counter()
    text: list[str] = []
    sources: dict[str, int] = {}
    cited: tuple[str, ...] = ()
    removed = 0
    error = ""
    proposal: ProposalEvent | None = None
    try:
        session = await answer_open(user=user, request=request)
        async for event in session.events():
            if isinstance(event, SourcesEvent):
                sources = {c.source_id: c.message_id for c in event.citations}
            elif isinstance(event, TextDeltaEvent):
                text.append(event.delta)
            elif isinstance(event, FinishEvent):
                cited = event.cited_source_ids
                removed = event.removed_citation_count
            elif isinstance(event, ErrorEvent):
                error = event.code
            elif isinstance(event, ProposalEvent):
                proposal = event
    except CodedError as refused:
        error = refused.code
    return EngineAnswer(
        text="".join(text),
        cited_message_ids=tuple(sources[s] for s in cited if s in sources),
        source_message_ids=tuple(sources.values()),
        removed_citation_count=removed,
        error_code=error,
        seconds=time.perf_counter() - started,
        request_id=request.request_id,
        has_proposal=proposal is not None,
        proposal_chat_id=proposal.chat_id if proposal else 0,
        proposal_person_id=proposal.person_id if proposal else None,
    )


def _usage(*, user: User, request_id: str) -> tuple[int, int, int]:
    """Input tokens, output tokens and settled cost (micro-USD) of one answer's attempts."""
    from billing.models import UsageEvent

    events = list(UsageEvent.objects.filter(user=user, request_id=request_id))
    return (
        sum(event.input_tokens for event in events),
        sum(event.output_tokens for event in events),
        sum(event.settled_micro_usd for event in events),
    )


@contextmanager
def asked_at_anchor(anchor: datetime) -> Iterator[None]:
    """Inside the block, ``django.utils.timezone.now`` reads ``anchor`` plus the time elapsed
    since the block began (so durations, leases and orderings still hold)."""
    from django.utils import timezone

    real_now = timezone.now
    offset: timedelta = anchor - real_now()

    def anchored_now() -> datetime:
        return real_now() + offset

    with mock.patch.object(timezone, "now", anchored_now):
        yield


def golden_run(*, golden: GoldenSet, user: User, corpus: DemoCorpus, report: Report) -> RunSummary:
    beats = beat_message_ids_for(user=user, corpus=corpus)
    # The cast's own first names: "Olu" is what everyone calls Olumide Adeyemi.
    first_names = {member.key: member.first_name for member in CAST}
    chats = dict(Chat.objects.filter(user=user).values_list("platform_chat_id", "pk"))
    summary = RunSummary(set_name=golden.name)
    # Questions may name the month of a story beat ("in {month:<key>}"): filled from the corpus.
    filled = {
        original.question: concrete.question
        for original, concrete in zip(DEMO_QUESTIONS, demo_questions(corpus=corpus), strict=True)
    }
    for index, golden_question in enumerate(golden.questions, start=1):
        question = replace(
            golden_question, question=filled.get(golden_question.question, golden_question.question)
        )
        with asked_at_anchor(corpus.now):
            answer = asyncio.run(
                engine_ask(
                    user,
                    question=question.question,
                    chat_id=chats.get(question.scope_chat_id) if question.scope_chat_id else None,
                )
            )
        # Usage rows are read here, outside the event loop (the ORM is synchronous).
        input_tokens, output_tokens, cost = _usage(user=user, request_id=answer.request_id)
        chat_of = dict(
            Message.objects.filter(user=user, pk__in=answer.cited_message_ids).values_list(
                "pk", "chat__platform_chat_id"
            )
        )
        answer = replace(
            answer,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cost_micro_usd=cost,
            cited_chat_ids=tuple(chat_of.get(mid, "") for mid in answer.cited_message_ids),
        )
        score = answer_score(
            question=question, answer=answer, beat_message_ids=beats, first_names=first_names
        )
        summary.scores.append(score)
        verdict = "pass" if score.passed else "FAIL"
        report(f"{index:3d} {verdict} {question.intent}: {question.question}")
    return summary
