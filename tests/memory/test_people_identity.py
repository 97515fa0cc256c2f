"""People across identities and platforms, asked about through the real retrieval path and
the local answerer: "who is X?", "how do I know X?", "what's X's number / email?", "who's the
landlord?", "Sam from work", a sister saved under a nickname, a friend writing from a new
number. The history is ``tests/memory/people_history.py``."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from claire.ai.local.extractive import compose_answer
from claire.ai.types import EvidenceSource, MemoryFinding
from conversations.models import Person
from retrieval.evidence import EvidenceLimits
from retrieval.pipeline import Retrieval, retrieve
from retrieval.types import Scope
from tests.memory.people_history import NOW, message_pk, people_history_load

pytestmark = pytest.mark.django_db

LIMITS = EvidenceLimits(max_sources=8, max_tokens=6000)


@dataclass(frozen=True)
class Case:
    question: str
    # Words the answer's own first paragraph must say (accent- and case-insensitive).
    says: tuple[str, ...]
    # (platform chat id, platform message id) of a message the answer must cite.
    cites: tuple[str, str] | None = None
    # Display names of the people the question must resolve to (all of them, nobody else).
    resolves_to: tuple[str, ...] = ()


CASES = (
    Case("who is Dana?", ("flatmate",), ("wa-partner", "p3"), ("Dana Whitfield", "+44 7911 555018")),
    Case("how do I know Dana?", ("flatmate",), ("wa-partner", "p3")),
    Case("what's Dana's number?", ("7911",), ("wa-dana-new", "dn1")),
    Case("what's Dana's new number?", ("7911",), ("wa-dana-new", "dn1")),
    Case("who's Leo?", ("cousin",), ("wa-family", "f1")),
    Case("how do I know Leo?", ("cousin",), ("wa-family", "f1")),
    Case("what's Leo's email?", ("leo.marsh@fernmail.test",), ("email-leo", "e1")),
    Case("who's the landlord?", ("Park",), ("wa-dana", "d2")),
    Case("what's our landlord's number?", ("7946",), ("sms-park", "k1")),
    Case("who is Mr Park?", ("landlord",), ("wa-dana", "d2")),
    Case("who is Sam from work?", ("boss",), ("wa-partner", "p1"), ("Sam Ortiz",)),
    Case("what's climbing Sam's last name?", ("Lee",), None, ("Sam Lee",)),
    Case("who's my boss?", ("Sam",), ("wa-partner", "p1")),
    Case("who is Maya?", ("sister",), ("wa-dana", "d3")),
    Case("what's Priya's number?", ("7400",), ("wa-priya-new", "r2")),
    Case("what's Tom's new number?", ("936",), ("sig-tom-new", "t2")),
    Case("what's Sam Lee's number?", ("900555",), None, ("Sam Lee",)),
)


def _answer(retrieval: Retrieval) -> str:
    """The local answer, built from the retrieval as the answer engine builds it."""
    if retrieval.is_no_evidence:
        return "I couldn't find anything about this."
    evidence = tuple(
        EvidenceSource(
            label=source.source_id,
            text=" / ".join(f"{m.sender_name}: {m.text}" for m in source.messages),
            sender=source.sender_name,
            sent_at=source.sent_at,
            chat_title=source.chat_title,
            primary_text=source.primary.text,
            must_cite=source.source_id in retrieval.memory_sources,
            note=retrieval.memory_sources.get(source.source_id, ""),
            turns=tuple((m.sender_name, m.text) for m in source.messages),
        )
        for source in retrieval.pack.sources
    )
    findings = tuple(
        MemoryFinding(text=text, labels=labels) for text, labels in retrieval.memory_findings
    )
    return compose_answer(
        retrieval.compiled.question,
        evidence,
        "Europe/London",
        intent=str(retrieval.compiled.intent),
        findings=findings,
    )


def case_outcome(user, case: Case) -> list[str]:
    """What is wrong with the answer to ``case`` (empty: right)."""
    retrieval = retrieve(
        user=user, question=case.question, now=NOW, scope=Scope.everywhere(), evidence_limits=LIMITS
    )
    answer = _answer(retrieval)
    lead = answer.split("\n\n")[0].casefold()
    problems = [f"does not say {word!r}" for word in case.says if word.casefold() not in lead]
    if case.cites is not None:
        expected = message_pk(user, *case.cites)
        cited = {mid for source in retrieval.pack.sources for mid in source.message_ids}
        if expected not in cited:
            problems.append(f"does not cite {case.cites}")
    if case.resolves_to:
        ids = {pid for person in retrieval.compiled.people for pid in person.person_ids}
        names = set(Person.objects.filter(pk__in=ids).values_list("display_name", flat=True))
        if names != set(case.resolves_to):
            problems.append(f"resolves to {sorted(names)}")
    return problems


@pytest.mark.parametrize("case", CASES, ids=[case.question for case in CASES])
def test_people_questions_resolve_and_answer(user, case):
    people_history_load(user)
    assert case_outcome(user, case) == []
