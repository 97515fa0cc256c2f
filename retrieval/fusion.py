"""Reciprocal rank fusion of the lexical and vector legs, with the documented boosts.

For a message ``d`` with rank ``r_leg(d)`` (1 = best) in a leg it appears in::

    fused(d) = sum over legs of  w_leg / (k + r_leg(d))
             + (1 / (k + 1)) * (  people_boost    if d was sent by a person the question names
                                  + people_boost/2  if d's chat includes such a person (else)
                                  + preferred_boost if d's chat is in a "preferred" scope
                                  + recency_boost * 0.5 ** (age_days / recency_half_life_days) )

``k`` (``RETRIEVAL_RRF_K``, default 60, the value of Cormack et al. 2009) damps the difference
between neighbouring ranks so neither leg's score scale matters, only its order. A boost is
expressed as a fraction of what a rank-1 hit earns in one leg (``1 / (k + 1)``), so a
``people_boost`` of 0.5 is worth half a top rank; boosts reorder close candidates and never let
a message that no leg found into the list. Ties break on the newer message id, so the order is
deterministic.

Relevance floor: a candidate passes when the lexical leg matched it (it contains at least one
content word or phrase of the question — stop words never match) or when its cosine similarity
to the question is at least ``vector_min_similarity``. Candidates that pass neither are
dropped; when none pass, the route is ``no_evidence``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from retrieval.lexical import LexicalHit


@dataclass(frozen=True)
class VectorHit:
    message_id: int
    similarity: float


@dataclass(frozen=True)
class CandidateFacts:
    """What fusion needs to know about a message beyond its ranks."""

    message_id: int
    chat_id: int
    sent_at: datetime
    sender_person_id: int | None
    is_from_self: bool
    chat_has_named_person: bool


@dataclass(frozen=True)
class FusionWeights:
    rrf_k: int = 60
    lexical_weight: float = 1.0
    vector_weight: float = 1.0
    people_boost: float = 0.5
    preferred_boost: float = 0.5
    recency_boost: float = 0.0
    recency_half_life_days: float = 30.0
    vector_min_similarity: float = 0.25


@dataclass(frozen=True)
class SearchCandidate:
    message_id: int
    chat_id: int
    sent_at: datetime
    sender_person_id: int | None
    is_from_self: bool
    lexical_rank: int | None
    lexical_score: float | None
    vector_rank: int | None
    vector_similarity: float | None
    fused_score: float

    def passes_floor(self, *, vector_min_similarity: float) -> bool:
        if self.lexical_rank is not None:
            return True
        return self.vector_similarity is not None and (
            self.vector_similarity >= vector_min_similarity
        )


def fuse(
    *,
    lexical: Sequence[LexicalHit],
    vector: Sequence[VectorHit],
    facts: Mapping[int, CandidateFacts],
    weights: FusionWeights,
    now: datetime,
    person_ids: Collection[int] = (),
    preferred_chat_ids: Collection[int] = (),
    limit: int,
) -> list[SearchCandidate]:
    """Fused candidates that pass the relevance floor, best first, at most ``limit``.

    Hits missing from ``facts`` (filtered out when their metadata was loaded: deleted since,
    out of scope) are dropped.
    """
    lexical_ranks = {hit.message_id: (rank, hit) for rank, hit in enumerate(lexical, start=1)}
    vector_ranks = {hit.message_id: (rank, hit) for rank, hit in enumerate(vector, start=1)}
    top = 1.0 / (weights.rrf_k + 1)
    people = set(person_ids)
    preferred = set(preferred_chat_ids)
    candidates = []
    for message_id in lexical_ranks.keys() | vector_ranks.keys():
        fact = facts.get(message_id)
        if fact is None:
            continue
        score = 0.0
        lexical_rank = lexical_score = vector_rank = similarity = None
        if message_id in lexical_ranks:
            lexical_rank, lexical_hit = lexical_ranks[message_id]
            lexical_score = lexical_hit.score
            score += weights.lexical_weight / (weights.rrf_k + lexical_rank)
        if message_id in vector_ranks:
            vector_rank, vector_hit = vector_ranks[message_id]
            similarity = vector_hit.similarity
            score += weights.vector_weight / (weights.rrf_k + vector_rank)
        boost = 0.0
        if people:
            if fact.sender_person_id in people:
                boost += weights.people_boost
            elif fact.chat_has_named_person:
                boost += weights.people_boost / 2
        if fact.chat_id in preferred:
            boost += weights.preferred_boost
        if weights.recency_boost:
            age_days = max((now - fact.sent_at).total_seconds(), 0.0) / 86_400
            boost += weights.recency_boost * 0.5 ** (age_days / weights.recency_half_life_days)
        candidate = SearchCandidate(
            message_id=message_id,
            chat_id=fact.chat_id,
            sent_at=fact.sent_at,
            sender_person_id=fact.sender_person_id,
            is_from_self=fact.is_from_self,
            lexical_rank=lexical_rank,
            lexical_score=lexical_score,
            vector_rank=vector_rank,
            vector_similarity=similarity,
            fused_score=score + top * boost,
        )
        if candidate.passes_floor(vector_min_similarity=weights.vector_min_similarity):
            candidates.append(candidate)
    candidates.sort(key=lambda c: (-c.fused_score, -c.message_id))
    return candidates[:limit]
