"""Whether searched evidence can answer the question: unknown topics and named people with
nothing of theirs become the deterministic no-evidence answer."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from retrieval.answerability import STRONG_SIMILARITY, unanswerable_reason
from retrieval.compile import compile_question
from retrieval.evidence import EvidenceLimits
from retrieval.fusion import SearchCandidate
from retrieval.pipeline import retrieve
from retrieval.search import SearchResult
from retrieval.types import Route, Scope
from tests.memory.helpers import chat_of, ingest, message_row, say

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 3, 18, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=7)
LIMITS = EvidenceLimits(max_sources=6, max_tokens=4000)


def _ask(user, question: str):
    return retrieve(
        user=user, question=question, now=NOW, scope=Scope.everywhere(), evidence_limits=LIMITS
    )


def _history(user) -> None:
    jonas = chat_of("dm-jonas", "Jonas")
    ingest(
        user,
        jonas,
        say("0", T0 - timedelta(days=1), "hey Jonas"),
        say(
            "1",
            T0,
            "The new door code for the building is 4815, for the courier",
            sender="Jonas",
            is_deleted=True,
        ),
        say("2", T0 + timedelta(minutes=1), "ignore that, wrong chat", sender="Jonas"),
        say("3", T0 + timedelta(hours=1), "The courier comes at noon tomorrow", sender="Jonas"),
    )
    work = chat_of("team", "Mark", "Olu")
    ingest(
        user,
        work,
        say(
            "w1",
            T0,
            "Code freeze is on Friday, the front door of the office is fixed",
            sender="Mark",
        ),
        say(
            "w2",
            T0 + timedelta(hours=2),
            "Appointment with the landlord moved to Monday",
            sender="Olu",
        ),
    )


def test_a_topic_the_history_never_mentions_has_no_evidence(user):
    _history(user)
    retrieval = _ask(user, "When is my dentist appointment?")
    assert retrieval.is_no_evidence
    assert retrieval.route == Route.NO_EVIDENCE
    assert retrieval.pack.is_empty


def test_a_named_person_with_nothing_on_the_topic_has_no_evidence(user):
    _history(user)
    # "door" and "code" exist, but only in Mark's message; Jonas's own was deleted.
    retrieval = _ask(user, "What's the door code Jonas sent me?")
    assert retrieval.is_no_evidence


def test_a_named_persons_own_words_answer(user):
    _history(user)
    retrieval = _ask(user, "What did Jonas say about the courier?")
    assert not retrieval.is_no_evidence
    courier = message_row(user, "dm-jonas", "3").pk
    assert courier in [source.primary_message_id for source in retrieval.pack.sources]


def test_known_words_answer_even_when_one_of_them_is_rare(user):
    _history(user)
    retrieval = _ask(user, "When is the code freeze?")
    assert not retrieval.is_no_evidence


def _candidate(message_id: int, *, similarity: float | None, lexical: bool) -> SearchCandidate:
    return SearchCandidate(
        message_id=message_id,
        chat_id=1,
        sent_at=T0,
        sender_person_id=None,
        is_from_self=False,
        lexical_rank=1 if lexical else None,
        lexical_score=1.0 if lexical else None,
        vector_rank=1 if similarity is not None else None,
        vector_similarity=similarity,
        fused_score=0.1,
    )


def test_a_candidate_close_in_meaning_answers_whatever_its_words(user):
    compiled = compile_question(
        user=user, question="What caused the staging outage?", now=NOW, scope=Scope.everywhere()
    )
    close = SearchResult(
        route=Route.HYBRID,
        candidates=(_candidate(1, similarity=STRONG_SIMILARITY + 0.05, lexical=False),),
        vector_status="ok",
    )
    far = SearchResult(
        route=Route.HYBRID,
        candidates=(_candidate(1, similarity=STRONG_SIMILARITY - 0.2, lexical=False),),
        vector_status="ok",
    )
    assert unanswerable_reason(user=user, compiled=compiled, result=close) is None
    reason = unanswerable_reason(user=user, compiled=compiled, result=far)
    assert reason is not None
    assert reason.rule == "unknown_topic"
    assert set(reason.terms) == {"caused", "staging", "outage"}


def test_descriptors_of_people_are_not_topic_words(user):
    _history(user)
    compiled = compile_question(
        user=user,
        question="Did the Brazilians mention the courier?",
        now=NOW,
        scope=Scope.everywhere(),
    )
    result = SearchResult(
        route=Route.HYBRID,
        candidates=(_candidate(1, similarity=None, lexical=True),),
        vector_status="ok",
    )
    assert unanswerable_reason(user=user, compiled=compiled, result=result) is None
