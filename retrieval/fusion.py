"""Reciprocal rank fusion of the lexical and vector legs, context sharing, and boosts.

For a message ``d`` with rank ``r_leg(d)`` (1 = best) in a leg it appears in::

    legs(d)  = sum over legs of  w_leg / (k + r_leg(d))
               (with a question's time range as a preference, the lexical and vector legs
               searched again inside it count as two more legs of weight range_leg_weight;
               with a group chat the question names by title, the legs searched again in
               it count as two more of weight titled_leg_weight)
    fused(d) = legs(d)
             + reply_share  * legs(previous(d))      # d answers a message that matched
             + prompt_share * legs(next(d))          # d is answered by a message that matched
             + second_reply_share  * legs(previous(previous(d)))   # two turns after a match
             + second_prompt_share * legs(next(next(d)))           # two turns before a match
             + (1 / (k + 1)) * (  people_boost    if d was sent by a person the question names
                                  + people_boost/2  if d's chat includes such a person (else)
                                  + preferred_boost if d's chat is in a "preferred" scope
                                  + time_range_boost if d was sent inside the question's
                                                     time range (when it is a preference)
                                  + time_answer_boost if the question asks when and d
                                                     says when (a day, a month, "last week")
                                  + recency_boost * 0.5 ** (age_days / recency_half_life_days) )

``k`` (``RETRIEVAL_RRF_K``) damps the difference between neighbouring ranks so neither leg's
score scale matters, only its order. Cormack et al. (2009) used 60; 20 weighs the top of each
leg more and measured better on LoCoMo (docs/RETRIEVAL_SEARCH.md).

Context sharing: in a conversation the answer is often the reply to the message that carries
the question's words ("How are the kids?" / "They were scared, but they're fine"), so a message
inherits ``reply_share`` of the leg score of the message before it in its chat, and
``prompt_share`` of the one after it. The answer to a question is often two turns away too
(the message that matched asks something, the next one acknowledges, the one after answers;
or a turn sets up what the following turn tells), so the messages two places away inherit the
smaller ``second_reply_share`` and ``second_prompt_share``. A neighbour brought in only this
way is a candidate too (it passes the floor through its neighbour).

A boost is expressed as a fraction of what a rank-1 hit earns in one leg (``1 / (k + 1)``), so
a ``people_boost`` of 1.5 is worth one and a half top ranks; boosts reorder candidates and never
bring in a message that neither a leg nor a neighbour found. Ties break on the newer message
id, so the order is deterministic. docs/RETRIEVAL_SEARCH.md has the measurements behind the
defaults.

Relevance floor: a leg hit passes when the lexical leg matched it (it contains at least one
content word or phrase of the question — stop words never match) or when its cosine similarity
to the question is at least ``vector_min_similarity``. Hits that pass neither are dropped (and
share nothing); when none pass, the route is ``no_evidence``.
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
class MessageFacts:
    message_id: int
    chat_id: int
    sent_at: datetime
    sender_person_id: int | None
    is_from_self: bool
    chat_has_named_person: bool
    # The text says when something happened: a relative day, a weekday, a month, a year.
    states_time: bool = False


@dataclass(frozen=True)
class CandidateFacts(MessageFacts):
    """What fusion needs to know about a hit beyond its ranks: the message itself and its live
    neighbours in the chat, one and two places away (None at a chat's edge or outside the
    search's time range)."""

    previous: MessageFacts | None = None
    next: MessageFacts | None = None
    second_previous: MessageFacts | None = None
    second_next: MessageFacts | None = None


@dataclass(frozen=True)
class FusionWeights:
    rrf_k: int = 20
    lexical_weight: float = 1.0
    vector_weight: float = 1.0
    people_boost: float = 1.5
    preferred_boost: float = 0.5
    reply_share: float = 0.4
    prompt_share: float = 0.3
    # The same for the messages two places after and before a hit.
    second_reply_share: float = 0.2
    second_prompt_share: float = 0.1
    recency_boost: float = 0.0
    recency_half_life_days: float = 30.0
    # Message sent inside the question's time range (a preference, not a filter; see search).
    # Half a top rank: the in-range legs already find what was sent then (docs/EVALS.md).
    time_range_boost: float = 0.5
    # Weight of each in-range leg: the lexical and vector legs searched again inside the
    # question's time range, widened by the days in which people tell of an event
    # (``retrieval.search``); 0 leaves them out.
    range_leg_weight: float = 0.5
    # Weight of each titled-chat leg: the legs searched again inside the group chats the
    # question names by title ("the book club"), whose messages rarely repeat the title
    # (``retrieval.search``); 0 leaves them out.
    titled_leg_weight: float = 0.5
    # A message that says when, for a question that asks when (docs/EVALS.md).
    time_answer_boost: float = 0.5
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
    # The part of ``fused_score`` shared by the neighbouring messages.
    context_score: float = 0.0

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
    preferred_range: tuple[datetime | None, datetime | None] | None = None,
    ranged_lexical: Sequence[LexicalHit] = (),
    ranged_vector: Sequence[VectorHit] = (),
    titled_lexical: Sequence[LexicalHit] = (),
    titled_vector: Sequence[VectorHit] = (),
    named_context_only: bool = False,
    asks_when: bool = False,
    limit: int,
) -> list[SearchCandidate]:
    """Fused candidates (hits that pass the relevance floor and their neighbours), best first,
    at most ``limit``.

    Hits missing from ``facts`` (filtered out when their metadata was loaded: deleted since,
    out of scope) are dropped. Messages sent inside ``preferred_range`` (``[start, end)``,
    either end open) get ``time_range_boost``. ``ranged_lexical`` and ``ranged_vector`` are the
    legs searched again inside that range: each adds ``range_leg_weight / (k + rank)`` for its
    hits, under the same relevance floor, so a message the whole-history legs ranked too low
    to keep can still be found among the few sent at the time asked about. ``titled_lexical``
    and ``titled_vector`` are the legs searched again inside the group chats the question
    names by title, each adding ``titled_leg_weight / (k + rank)`` the same way.

    ``named_context_only`` (a question that asks for several things a named person did or
    has, ``retrieval.search.asks_for_several``): only the named people's own messages inherit
    a neighbour's score. Each item of such an answer is told by the person, and the other
    speaker's replies around one match ("Wow, what inspired you?") would otherwise take the
    places the person's other items need.

    ``asks_when`` (a question that asks when, ``retrieval.search.asks_when``): a message that
    says when something happened ("last week", a weekday, a month) gets ``time_answer_boost``;
    the message that tells of an event with its day answers "when", a later mention of the
    same event does not.
    """
    lexical_ranks = {hit.message_id: (rank, hit) for rank, hit in enumerate(lexical, start=1)}
    vector_ranks = {hit.message_id: (rank, hit) for rank, hit in enumerate(vector, start=1)}
    leg_scores: dict[int, float] = {}
    for rank, hit in enumerate(ranged_lexical, start=1):
        if hit.message_id in facts:
            leg_scores[hit.message_id] = weights.range_leg_weight / (weights.rrf_k + rank)
    for rank, vector_hit in enumerate(ranged_vector, start=1):
        if vector_hit.message_id in facts and (
            vector_hit.similarity >= weights.vector_min_similarity
        ):
            leg_scores[vector_hit.message_id] = leg_scores.get(vector_hit.message_id, 0.0) + (
                weights.range_leg_weight / (weights.rrf_k + rank)
            )
    for rank, hit in enumerate(titled_lexical, start=1):
        if hit.message_id in facts:
            leg_scores[hit.message_id] = leg_scores.get(hit.message_id, 0.0) + (
                weights.titled_leg_weight / (weights.rrf_k + rank)
            )
    for rank, vector_hit in enumerate(titled_vector, start=1):
        if vector_hit.message_id in facts and (
            vector_hit.similarity >= weights.vector_min_similarity
        ):
            leg_scores[vector_hit.message_id] = leg_scores.get(vector_hit.message_id, 0.0) + (
                weights.titled_leg_weight / (weights.rrf_k + rank)
            )
    for message_id in lexical_ranks.keys() | vector_ranks.keys():
        if message_id not in facts:
            continue
        lexical_entry = lexical_ranks.get(message_id)
        vector_entry = vector_ranks.get(message_id)
        passes = lexical_entry is not None or (
            vector_entry is not None and vector_entry[1].similarity >= weights.vector_min_similarity
        )
        if not passes:
            continue
        score = leg_scores.get(message_id, 0.0)
        if lexical_entry is not None:
            score += weights.lexical_weight / (weights.rrf_k + lexical_entry[0])
        if vector_entry is not None:
            score += weights.vector_weight / (weights.rrf_k + vector_entry[0])
        leg_scores[message_id] = score

    people = set(person_ids)
    known: dict[int, MessageFacts] = {}
    context: dict[int, float] = {}
    for message_id, score in leg_scores.items():
        fact = facts[message_id]
        known[message_id] = fact
        for neighbour, share in (
            (fact.next, weights.reply_share),
            (fact.previous, weights.prompt_share),
            (fact.second_next, weights.second_reply_share),
            (fact.second_previous, weights.second_prompt_share),
        ):
            if neighbour is None or not share:
                continue
            if named_context_only and people and neighbour.sender_person_id not in people:
                continue
            known.setdefault(neighbour.message_id, neighbour)
            context[neighbour.message_id] = context.get(neighbour.message_id, 0.0) + share * score

    top = 1.0 / (weights.rrf_k + 1)
    preferred = set(preferred_chat_ids)
    candidates = []
    for message_id, known_fact in known.items():
        boost = 0.0
        if people:
            if known_fact.sender_person_id in people:
                boost += weights.people_boost
            elif known_fact.chat_has_named_person:
                boost += weights.people_boost / 2
        if known_fact.chat_id in preferred:
            boost += weights.preferred_boost
        if preferred_range is not None:
            start, end = preferred_range
            if (start is None or known_fact.sent_at >= start) and (
                end is None or known_fact.sent_at < end
            ):
                boost += weights.time_range_boost
        if asks_when and known_fact.states_time:
            boost += weights.time_answer_boost
        if weights.recency_boost:
            age_days = max((now - known_fact.sent_at).total_seconds(), 0.0) / 86_400
            boost += weights.recency_boost * 0.5 ** (age_days / weights.recency_half_life_days)
        lexical_entry = lexical_ranks.get(message_id) if message_id in leg_scores else None
        vector_entry = vector_ranks.get(message_id) if message_id in leg_scores else None
        context_score = context.get(message_id, 0.0)
        candidates.append(
            SearchCandidate(
                message_id=message_id,
                chat_id=known_fact.chat_id,
                sent_at=known_fact.sent_at,
                sender_person_id=known_fact.sender_person_id,
                is_from_self=known_fact.is_from_self,
                lexical_rank=lexical_entry[0] if lexical_entry else None,
                lexical_score=lexical_entry[1].score if lexical_entry else None,
                vector_rank=vector_entry[0] if vector_entry else None,
                vector_similarity=vector_entry[1].similarity if vector_entry else None,
                fused_score=leg_scores.get(message_id, 0.0) + context_score + top * boost,
                context_score=context_score,
            )
        )
    candidates.sort(key=lambda c: (-c.fused_score, -c.message_id))
    return candidates[:limit]
