"""Hybrid search: the lexical and vector legs, fused, floored, for one compiled question.

``search`` reads the route the compiler chose (``CompiledQuery.source_route``):

- ``hybrid`` (and any other route that reaches search: ``unresolved`` beside the open loops
  personal memory contributes, ``people_ranking`` looking for supporting messages): the lexical leg
  (``retrieval.lexical``) and the vector leg (the question embedded with the embedding profile
  -- beside its semantic text when it names someone, ``QUESTION_VECTOR_WEIGHT`` -- then
  ``indexing.selectors.vector_search`` over the user's active index version) each return
  ranked message ids; the union is checked against scope, deletion, exclusion (and a filtering
  time range) in one query (``_candidate_facts``) and fused (``retrieval.fusion``).
- ``recent_window``: the newest messages inside scope and time range, newest first.

Both legs apply the owner and scope inside their queries; a time range on message time is a
preference in hybrid search (fusion boosts messages sent inside it, ``hybrid_time_preference``)
and a filter for the recent window and for event-time ranges. The question is embedded
on a worker thread while the lexical query runs on the calling thread's connection; the
model is chosen (capability records read) on the calling thread first, so the embedding needs
no database and the two overlap without a second connection (docs/RETRIEVAL_SEARCH.md has the
measurements behind this choice). When the user has no usable index (no active version, the
embedding provider fails) search continues on the lexical leg alone and says so in
``vector_status``; a vector failure never fails a search.

The result's route is the source actually read — ``hybrid`` or ``recent_window`` — or
``no_evidence`` when no candidate passes the relevance floor, which the answer engine turns
into a deterministic answer without calling a model.
"""

from __future__ import annotations

import logging
import math
import re
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.postgres.search import SearchQuery
from django.db import connection

from claire.accounts.models import User
from claire.ai.embeddings import embed_many_with, embedding_candidate
from claire.ai.profiles import Candidate
from claire.ai.types import DataPolicy
from conversations.models import TEXT_SEARCH_CONFIG, Chat, Message
from indexing.selectors import SearchPlan, active_search_version, vector_search
from memory.chatnames import chats_named, title_stems, word_stem
from retrieval.compile import PERSON_PLACEHOLDER
from retrieval.crosslingual import translations
from retrieval.fusion import (
    CandidateFacts,
    FusionWeights,
    MessageFacts,
    SearchCandidate,
    VectorHit,
    fuse,
)
from retrieval.lexical import (
    LexicalHit,
    SearchFilters,
    filters_params,
    filters_sql,
    lexical_search,
)
from retrieval.types import CompiledQuery, Route, ScopeMode, TimeTarget

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SearchLimits:
    """How much each stage may read; defaults from settings (``RETRIEVAL_*``)."""

    lexical_term_cap: int = 500
    lexical_candidates: int = 100
    vector_candidates: int = 100
    fused_candidates: int = 50
    recent_messages: int = 30
    # Hits whose chat neighbours are loaded for context sharing (docs/RETRIEVAL_SEARCH.md).
    context_hits: int = 30
    # Embed the question on a worker thread while the lexical query runs (see docs).
    overlap_embedding: bool = True
    # Force a vector search plan (benchmarks compare plans); None lets the index decide.
    vector_plan: SearchPlan | None = None
    weights: FusionWeights = field(default_factory=FusionWeights)

    @classmethod
    def from_settings(cls) -> SearchLimits:
        return cls(
            lexical_term_cap=settings.RETRIEVAL_LEXICAL_TERM_CAP,
            lexical_candidates=settings.RETRIEVAL_LEXICAL_CANDIDATES,
            vector_candidates=settings.RETRIEVAL_VECTOR_CANDIDATES,
            fused_candidates=settings.RETRIEVAL_FUSED_CANDIDATES,
            weights=FusionWeights(
                rrf_k=settings.RETRIEVAL_RRF_K,
                vector_min_similarity=settings.RETRIEVAL_VECTOR_MIN_SIMILARITY,
            ),
        )


class VectorStatus:
    OK = "ok"
    NOT_NEEDED = "not_needed"
    NO_ACTIVE_INDEX = "no_active_index"
    EMBEDDING_FAILED = "embedding_failed"


@dataclass(frozen=True)
class SearchTimings:
    lexical_ms: float = 0.0
    embedding_ms: float = 0.0
    vector_ms: float = 0.0
    fusion_ms: float = 0.0


@dataclass(frozen=True)
class SearchResult:
    route: Route
    candidates: tuple[SearchCandidate, ...]
    vector_status: str
    # Tokens the query embedding consumed (0 for local embedders) and the configured key of
    # the model that embedded it, for billing.
    query_embedding_tokens: int = 0
    query_embedding_model_key: str = ""
    index_version: int | None = None
    timings: SearchTimings = field(default_factory=SearchTimings)

    @property
    def message_ids(self) -> list[int]:
        return [candidate.message_id for candidate in self.candidates]

    @property
    def is_no_evidence(self) -> bool:
        return self.route == Route.NO_EVIDENCE


def search_filters_for(compiled: CompiledQuery) -> SearchFilters:
    """Scope and time range as search filters. A ``preferred`` scope searches everywhere (its
    chats are boosted, not required). A window over *event* time keeps messages sent before
    its end: plans are discussed ahead of the day they happen."""
    scope = compiled.scope
    chat_ids = scope.chat_ids if scope.mode == ScopeMode.STRICT_CHAT else None
    time_range = compiled.time_range
    if time_range is None:
        return SearchFilters(chat_ids=chat_ids)
    if time_range.applies_to == TimeTarget.EVENT:
        return SearchFilters(chat_ids=chat_ids, end=time_range.end_utc)
    return SearchFilters(chat_ids=chat_ids, start=time_range.start_utc, end=time_range.end_utc)


# Verbs of communication: a question using one asks about messages, not about events.
_ABOUT_MESSAGES = re.compile(
    r"\b(?:say|says|said|tell|tells|told|text|texts|texted|send|sends|sent|message|messages"
    r"|messaged|mention|mentions|mentioned|write|writes|wrote|written|ask|asks|asked|talk"
    r"|talks|talked|chat|chats|chatted|reply|replies|replied)\b",
    re.IGNORECASE,
)


def is_about_messages(question: str) -> bool:
    """Whether ``question`` asks about messages themselves (what someone said, sent, wrote,
    asked or mentioned) rather than about events."""
    return _ABOUT_MESSAGES.search(question) is not None


# A question that asks for several things: a plural head after "what"/"which" ("what cities",
# "which books"), a perfect tense over the whole history ("what has Ana painted?", "where have
# they lived?"), or a word that asks for more than one ("both", "kinds of", "in what ways").
_PLURAL_HEAD = re.compile(r"\b(?:what|which)\s+(?:\w+\s+){0,2}?([a-z]+s)\b(?!')", re.IGNORECASE)
_NOT_PLURAL = frozenset(
    {"is", "was", "does", "has", "this", "his", "its", "yes", "us", "as", "plus", "bus"}
    | {"class", "less", "process", "business", "success", "address"}
)
_PERFECT = re.compile(
    r"\b(?:has|have)\s+(?:\w+\s+){1,3}?(?:been|done|made|seen|read|taken|gone|written|eaten"
    r"|\w+ed)\b",
    re.IGNORECASE,
)
_SEVERAL_ITEMS = re.compile(
    r"\b(?:both|in what ways|kinds of|types of|what are some|all the)\b", re.IGNORECASE
)
# One "kind of" / "type of" may ask for one thing ("what kind of dog does Ana have?"): fusion
# still counts it as several, the list-question exemption does not (``asks_for_items``).
_ONE_KIND = re.compile(r"\b(?:kind|type) of\b", re.IGNORECASE)


def asks_for_several(question: str) -> bool:
    """Whether ``question`` asks for several things (a list gathered across the history)
    rather than one fact: fusion then lets only the named people's own messages inherit a
    neighbour's score (``fuse(named_context_only=...)``)."""
    plural = _PLURAL_HEAD.search(question)
    if plural is not None and plural.group(1).casefold() not in _NOT_PLURAL:
        return True
    return bool(
        _PERFECT.search(question) or _SEVERAL_ITEMS.search(question) or _ONE_KIND.search(question)
    )


def asks_for_items(question: str, names: tuple[str, ...] = ()) -> bool:
    """Whether ``question`` asks for a list of items the history tells of in many messages
    ("which cities has Ana visited?", "what are some of Rui's hobbies?"): as
    ``asks_for_several``, less a single "kind of" or "type of" and less a name that ends in
    "s" ("what did Jonas say ...": a capitalised word, or one of ``names``). No one message
    holds the whole answer, so the answerability check does not judge such a question by who
    told its best candidates (``retrieval.answerability``)."""
    named = {word.casefold() for name in names for word in name.split()}
    for plural in _PLURAL_HEAD.finditer(question):
        word = plural.group(1)
        if word.casefold() in _NOT_PLURAL or word[0].isupper() or word.casefold() in named:
            continue
        return True
    return bool(_PERFECT.search(question) or _SEVERAL_ITEMS.search(question))


def hybrid_time_preference(
    compiled: CompiledQuery, filters: SearchFilters
) -> tuple[SearchFilters, tuple[datetime | None, datetime | None] | None]:
    """What the hybrid legs filter on, and the time range fusion prefers instead.

    A time range on *message* time ("in June", "four years ago", "last week") is a preference
    in hybrid search, not a filter: both legs search every time, and fusion boosts messages
    sent inside the range (``FusionWeights.time_range_boost``). A question's range is often the
    time of the event asked about, and people tell of events after they happen ("we moved here
    four years ago"); as a hard filter on send time it held the LoCoMo questions that have a
    range to a recall@10 of 50 against 73 for the others (docs/EVALS.md). An *event* range
    keeps its filter (messages sent before its end: plans are discussed ahead), and the
    recent-window route reads its range strictly.

    A question about the messages themselves -- what someone said, sent, wrote, asked or
    mentioned ("what did Ana say last week?") -- keeps the range as a filter: there the range
    is the send time asked about, and the answer says which window it read."""
    time_range = compiled.time_range
    if (
        time_range is None
        or time_range.applies_to == TimeTarget.EVENT
        or is_about_messages(compiled.read_as)
    ):
        return filters, None
    return SearchFilters(chat_ids=filters.chat_ids), (filters.start, filters.end)


def _person_ids(compiled: CompiledQuery) -> tuple[int, ...]:
    return tuple(sorted({pid for person in compiled.people for pid in person.person_ids}))


def search(
    *,
    user: User,
    compiled: CompiledQuery,
    now: datetime,
    limits: SearchLimits,
    data_policy: DataPolicy = DataPolicy.LOCAL_ONLY,
) -> SearchResult:
    """Ranked, floored candidates for ``compiled`` and the route actually taken.

    ``data_policy`` is the user's consent: a remote embedding model is used for the question
    only when it allows remote processing (otherwise search continues lexical-only).
    """
    route = compiled.source_route
    if route == Route.NO_EVIDENCE:
        return SearchResult(
            route=Route.NO_EVIDENCE, candidates=(), vector_status=VectorStatus.NOT_NEEDED
        )
    filters = search_filters_for(compiled)
    if route == Route.RECENT_WINDOW:
        candidates = recent_candidates(user=user, filters=filters, limit=limits.recent_messages)
        return SearchResult(
            route=Route.RECENT_WINDOW if candidates else Route.NO_EVIDENCE,
            candidates=tuple(candidates),
            vector_status=VectorStatus.NOT_NEEDED,
        )
    return _hybrid(
        user=user,
        compiled=compiled,
        filters=filters,
        now=now,
        limits=limits,
        data_policy=data_policy,
    )


_FACTS_SQL = """
SELECT m.id, m.chat_id, m.sent_at, m.sender_person_id, m.is_from_self,
       %(asks_when)s AND m.search_vector @@ to_tsquery(%(config)s::regconfig, %(time_words)s),
       EXISTS (
           SELECT 1 FROM conversations_chatparticipant cp
           WHERE cp.chat_id = m.chat_id AND cp.person_id = ANY(%(person_ids)s)
       ),
       pv.ids, pv.sent, pv.senders, pv.from_self, pv.times,
       nx.ids, nx.sent, nx.senders, nx.from_self, nx.times
FROM conversations_message m
JOIN conversations_chat c ON c.id = m.chat_id
LEFT JOIN LATERAL (
    SELECT array_agg(p.id ORDER BY p.sent_at DESC, p.id DESC) AS ids,
           array_agg(p.sent_at ORDER BY p.sent_at DESC, p.id DESC) AS sent,
           array_agg(p.sender_person_id ORDER BY p.sent_at DESC, p.id DESC) AS senders,
           array_agg(p.is_from_self ORDER BY p.sent_at DESC, p.id DESC) AS from_self,
           array_agg(
               %(asks_when)s
               AND p.search_vector @@ to_tsquery(%(config)s::regconfig, %(time_words)s)
               ORDER BY p.sent_at DESC, p.id DESC
           ) AS times
    FROM (
        SELECT p.id, p.sent_at, p.sender_person_id, p.is_from_self, p.search_vector
        FROM conversations_message p
        WHERE p.chat_id = m.chat_id AND p.user_id = %(user_id)s AND p.deleted_at IS NULL
          AND (p.sent_at, p.id) < (m.sent_at, m.id)
          AND m.id = ANY(%(context_ids)s)
        ORDER BY p.sent_at DESC, p.id DESC
        LIMIT %(context_depth)s
    ) p
) pv ON true
LEFT JOIN LATERAL (
    SELECT array_agg(n.id ORDER BY n.sent_at, n.id) AS ids,
           array_agg(n.sent_at ORDER BY n.sent_at, n.id) AS sent,
           array_agg(n.sender_person_id ORDER BY n.sent_at, n.id) AS senders,
           array_agg(n.is_from_self ORDER BY n.sent_at, n.id) AS from_self,
           array_agg(
               %(asks_when)s
               AND n.search_vector @@ to_tsquery(%(config)s::regconfig, %(time_words)s)
               ORDER BY n.sent_at, n.id
           ) AS times
    FROM (
        SELECT n.id, n.sent_at, n.sender_person_id, n.is_from_self, n.search_vector
        FROM conversations_message n
        WHERE n.chat_id = m.chat_id AND n.user_id = %(user_id)s AND n.deleted_at IS NULL
          AND (n.sent_at, n.id) > (m.sent_at, m.id)
          AND m.id = ANY(%(context_ids)s)
        ORDER BY n.sent_at, n.id
        LIMIT %(context_depth)s
    ) n
) nx ON true
WHERE m.id = ANY(%(message_ids)s)
  AND m.user_id = %(user_id)s
  AND m.deleted_at IS NULL
  AND NOT c.is_excluded_from_ai
  {filters}
"""

# Neighbours loaded on each side of a context hit (fusion shares a hit's score with the
# messages one and two places away).
CONTEXT_DEPTH = 2

# Words that say when something happened or will, as a text search query over the stored
# tsvector (the lexical leg's configuration, so the words are stemmed alike): a relative day,
# a weekday, a month, a year. "May" is left out: it is mostly the verb. A message that says
# when is what a "when" question looks for (``FusionWeights.time_answer_boost``).
TIME_WORDS_QUERY = " | ".join(
    [
        "yesterday | today | tonight | tomorrow | ago | recently | lately",
        "last <-> (night | week | weekend | month | year | summer | winter | spring | fall"
        " | autumn)",
        "(next | past) <-> (week | weekend | month | year) | weekend",
        "monday | tuesday | wednesday | thursday | friday | saturday | sunday",
        "january | february | march | april | june | july | august | september | october"
        " | november | december",
        *(str(year) for year in range(1950, 2050)),
    ]
)

# A question that asks when: "when did ...", "what year ...", "which week ...", "how long ago".
_ASKS_WHEN = re.compile(
    r"^\W*(?:when\b|how\s+long\s+ago\b|(?:in\s+)?(?:what|which)\s+(?:year|month|week|day|date)"
    r"(?:'s\s+\w+)?\s+(?:did|does|do|is|was|were|will|would|has|have|had|are)\b)",
    re.IGNORECASE,
)


def asks_when(question: str) -> bool:
    """Whether ``question`` asks when something happened (its answer is a message that says
    when: fusion prefers those, ``FusionWeights.time_answer_boost``)."""
    return _ASKS_WHEN.search(question) is not None


def _in_time(filters: SearchFilters, sent_at: datetime) -> bool:
    return (filters.start is None or sent_at >= filters.start) and (
        filters.end is None or sent_at < filters.end
    )


def _neighbours(
    values: tuple[Any, ...], chat_id: int, chat_has_named_person: bool, filters: SearchFilters
) -> list[MessageFacts | None]:
    """The neighbours on one side, nearest first (``CONTEXT_DEPTH`` entries, None where the
    chat ends or the neighbour is outside the time range)."""
    ids, sent, senders, from_self, times = values
    out: list[MessageFacts | None] = []
    for index in range(CONTEXT_DEPTH):
        if ids is None or index >= len(ids) or not _in_time(filters, sent[index]):
            out.append(None)
            continue
        out.append(
            MessageFacts(
                message_id=ids[index],
                chat_id=chat_id,
                sent_at=sent[index],
                sender_person_id=senders[index],
                is_from_self=from_self[index],
                chat_has_named_person=chat_has_named_person,
                states_time=bool(times[index]),
            )
        )
    return out


def _candidate_facts(
    *,
    user: User,
    message_ids: list[int],
    context_ids: list[int],
    filters: SearchFilters,
    person_ids: tuple[int, ...],
    asks_when: bool = False,
) -> dict[int, CandidateFacts]:
    """Facts about the union of both legs' hits and their chat neighbours, in one query. Every
    filter is applied again here, so a hit the vector index still holds after its message was
    deleted, excluded or moved out of scope never reaches the result. Neighbours are loaded for
    ``context_ids`` only (the best hits: a low-ranked hit shares too little to matter); a
    neighbour outside the time range is left out. Whether a message says when
    (``MessageFacts.states_time``) is read only for a question that ``asks_when``."""
    if not message_ids:
        return {}
    params: dict[str, Any] = {
        "message_ids": message_ids,
        "context_ids": context_ids,
        "user_id": user.pk,
        "person_ids": list(person_ids),
        "context_depth": CONTEXT_DEPTH,
        "time_words": TIME_WORDS_QUERY,
        "asks_when": asks_when,
        "config": TEXT_SEARCH_CONFIG,
        **filters_params(filters),
    }
    with connection.cursor() as cursor:
        cursor.execute(_FACTS_SQL.format(filters=filters_sql(filters, alias="m")), params)
        rows = cursor.fetchall()
    facts = {}
    for row in rows:
        chat_id, with_person = row[1], row[6]
        previous = _neighbours(row[7:12], chat_id, with_person, filters)
        following = _neighbours(row[12:17], chat_id, with_person, filters)
        facts[row[0]] = CandidateFacts(
            message_id=row[0],
            chat_id=chat_id,
            sent_at=row[2],
            sender_person_id=row[3],
            is_from_self=row[4],
            chat_has_named_person=with_person,
            states_time=bool(row[5]),
            previous=previous[0],
            next=following[0],
            second_previous=previous[1],
            second_next=following[1],
        )
    return facts


_RECENT_SQL = """
SELECT m.id, m.chat_id, m.sent_at, m.sender_person_id, m.is_from_self
FROM conversations_message m
JOIN conversations_chat c ON c.id = m.chat_id
WHERE m.user_id = %(user_id)s
  AND m.deleted_at IS NULL
  AND NOT c.is_excluded_from_ai
  {filters}
ORDER BY m.sent_at DESC, m.id DESC
LIMIT %(limit)s
"""


def recent_candidates(*, user: User, filters: SearchFilters, limit: int) -> list[SearchCandidate]:
    """The newest ``limit`` messages inside ``filters``, newest first (the recent-window
    route); each carries its recency rank as its only rank."""
    with connection.cursor() as cursor:
        cursor.execute(
            _RECENT_SQL.format(filters=filters_sql(filters, alias="m")),
            {"user_id": user.pk, "limit": limit, **filters_params(filters)},
        )
        rows = cursor.fetchall()
    return [
        SearchCandidate(
            message_id=row[0],
            chat_id=row[1],
            sent_at=row[2],
            sender_person_id=row[3],
            is_from_self=row[4],
            lexical_rank=None,
            lexical_score=None,
            vector_rank=None,
            vector_similarity=None,
            fused_score=1.0 / rank,
        )
        for rank, row in enumerate(rows, start=1)
    ]


@dataclass(frozen=True)
class _QueryEmbedding:
    vector: list[float] | None
    tokens: int
    elapsed_ms: float
    model_key: str = ""


# One long-lived worker: embedding the question overlaps the lexical query. It never touches
# the database, so it needs (and holds) no connection.
_embedding_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="query-embedding")


# The query vector of a question that names someone: the normalised sum of the unit vectors
# of the question (this weight) and of its semantic text (weight 1), embedded in one call. The
# semantic text keeps the names from pulling the search towards messages that address the
# person by name; the question keeps a name that is part of the topic (docs/RETRIEVAL_SEARCH.md).
QUESTION_VECTOR_WEIGHT = 2.0


# The weight of a question about one named person in that person's own voice
# (``own_voice_text``) in the query vector, beside the question's (``QUESTION_VECTOR_WEIGHT``)
# and the semantic text's (1); 0 leaves it out. LoCoMo dev half, R@10 cats 1-4: 0 -> 78.5,
# 1 -> 79.0, 2 -> 79.3. For every question it cost the story sets two answers (a question about
# someone's news, one about who a contact is): a question that asks what someone or a thing of
# theirs *is* has no own-voice text, and with that rule weight 2 gives LoCoMo dev 79.4 and
# keeps both answers (docs/EVALS.md, "Own voice only for what someone does").
OWN_VOICE_WEIGHT = 2.0

_WH_AUXILIARY = re.compile(
    r"^\s*(?:when|what|where|why|how|which|who|whom)\b((?:\s+[\w'-]+){0,3}?)\s+"
    r"(did|does|do|is|was|were|are|has|have|had|will|would|can|could|might|should)\s+(.+)$",
    re.IGNORECASE,
)
# "What's", "who's": the question word with "is" run into it.
_WH_IS = re.compile(r"^(\s*(?:when|what|where|why|how|which|who))['\u2019]s\b", re.IGNORECASE)
_COPULA = frozenset({"is", "was", "were", "are"})
# After a copula, the person tells of what they do only in a verb form: "is someone moving",
# "was someone married".
_TELLING_AFTER_COPULA = re.compile(rf"^{PERSON_PLACEHOLDER}\s+\w+(?:ing|ed)\b", re.IGNORECASE)
_VOICE_WORDS = (
    (re.compile(rf"\b{PERSON_PLACEHOLDER}['\u2019]s\b", re.IGNORECASE), "my"),
    (re.compile(rf"\b{PERSON_PLACEHOLDER}\b", re.IGNORECASE), "I"),
    (re.compile(r"\b(?:her|his)\b", re.IGNORECASE), "my"),
    (re.compile(r"\b(?:she|he)\b", re.IGNORECASE), "I"),
    (re.compile(r"\bhim\b", re.IGNORECASE), "me"),
    (re.compile(r"\b(?:herself|himself)\b", re.IGNORECASE), "myself"),
)


def own_voice_text(semantic_text: str) -> str:
    """A question about one named person as that person would tell it: the question word and
    its auxiliary dropped, the person ("someone" in the semantic text) and the pronouns that
    stand for them in the first person ("When did someone start her pottery class?" -> "I
    start my pottery class"). A person tells of their own life as "I" and "my", so their
    messages are nearer to this than to a question about them in the third person.

    Empty for a question that asks what someone or a thing of theirs is ("Who is someone on
    Signal?", "What is someone's big plan?"): after "is" / "was" without a verb of theirs the
    text would be a bare noun ("my big plan") near any speaker's talk of their own things, and
    the answer is rarely told in those words."""
    text = _WH_IS.sub(r"\1 is", semantic_text.strip().rstrip("?!. ").strip())
    asked = _WH_AUXILIARY.match(text)
    if asked is not None:
        head, auxiliary, rest = asked.group(1).strip(), asked.group(2), asked.group(3).strip()
        if auxiliary.lower() in _COPULA and not _TELLING_AFTER_COPULA.match(rest):
            return ""
        text = f"{rest} {head}".strip()
    for pattern, replacement in _VOICE_WORDS:
        text = pattern.sub(replacement, text)
    return text


def _unit(vector: list[float]) -> list[float]:
    norm = math.sqrt(sum(value * value for value in vector))
    return [value / norm for value in vector] if norm else vector


def _embed_question(
    question: str,
    semantic_text: str,
    profile: str,
    candidate: Candidate | None,
    voice_text: str = "",
) -> _QueryEmbedding:
    """The query vector from ``candidate`` (chosen on the caller's connection; this runs on
    the embedding thread and touches no database): the question's own, or, when its semantic
    text differs, the weighted sum of both (``QUESTION_VECTOR_WEIGHT``) and of ``voice_text``
    when given (``OWN_VOICE_WEIGHT``); one embedding call either way."""
    started = time.perf_counter()
    texts = [question] if semantic_text == question else [question, semantic_text]
    if len(texts) == 2 and voice_text:
        texts.append(voice_text)
    result = embed_many_with(texts, profile=profile, candidate=candidate)
    elapsed_ms = (time.perf_counter() - started) * 1000
    vectors = list(result.vectors)
    vector = vectors[0] if vectors else None
    if len(vectors) >= 2:
        own, semantic = vectors[:2]
        voice = vectors[2] if len(vectors) == 3 else None
        if own is not None and semantic is not None and len(own) == len(semantic):
            parts = [(QUESTION_VECTOR_WEIGHT, _unit(own)), (1.0, _unit(semantic))]
            if voice is not None and len(voice) == len(own):
                parts.append((OWN_VOICE_WEIGHT, _unit(voice)))
            vector = _unit(
                [sum(weight * part[i] for weight, part in parts) for i in range(len(own))]
            )
        else:
            # One of the two failed: the other still searches.
            vector = own if own is not None else semantic
    return _QueryEmbedding(
        vector=vector,
        tokens=result.usage.embedding_tokens,
        elapsed_ms=elapsed_ms,
        model_key=result.model_key,
    )


def _best_hits(
    lexical: list[LexicalHit], vector: list[VectorHit], *, weights: FusionWeights, count: int
) -> list[int]:
    """The ``count`` hits with the best fused leg scores (before floor and boosts)."""
    scores: dict[int, float] = {}
    for rank, lexical_hit in enumerate(lexical, start=1):
        scores[lexical_hit.message_id] = weights.lexical_weight / (weights.rrf_k + rank)
    for rank, vector_hit in enumerate(vector, start=1):
        scores[vector_hit.message_id] = scores.get(vector_hit.message_id, 0.0) + (
            weights.vector_weight / (weights.rrf_k + rank)
        )
    return sorted(scores, key=lambda message_id: (-scores[message_id], -message_id))[:count]


# People tell of an event after it happens ("last week we went ..."): the in-range legs read
# messages sent up to this many days after the question's range ends (docs/EVALS.md).
TOLD_AFTER_DAYS = 14
# Hits each in-range leg returns: the range holds few messages, so the leg's best few are
# the ones whose rank can lift them into the fused list.
RANGED_CANDIDATES = 10


def told_range(
    preferred_range: tuple[datetime | None, datetime | None],
) -> tuple[datetime | None, datetime | None]:
    """Where messages telling of an event inside ``preferred_range`` are sent: from its start
    to ``TOLD_AFTER_DAYS`` after its end."""
    start, end = preferred_range
    return start, (end + timedelta(days=TOLD_AFTER_DAYS) if end is not None else None)


def _ranged_legs(
    *,
    user: User,
    compiled: CompiledQuery,
    filters: SearchFilters,
    told_range: tuple[datetime | None, datetime | None],
    query_vector: list[float] | None,
    version: Any,
    plan: SearchPlan | None,
    limits: SearchLimits,
) -> tuple[list[LexicalHit], list[VectorHit]]:
    """The lexical and vector legs again, inside ``told_range`` only (the question's vector is
    reused: no second embedding)."""
    start, end = told_range
    ranged_filters = SearchFilters(chat_ids=filters.chat_ids, start=start, end=end)
    lexical = lexical_search(
        user=user,
        keywords=compiled.keywords,
        filters=ranged_filters,
        term_cap=limits.lexical_term_cap,
        limit=RANGED_CANDIDATES,
        translations=translations(compiled.keywords, compiled.read_as),
    )
    vector: list[VectorHit] = []
    if query_vector is not None and version is not None:
        vector = [
            VectorHit(message_id=hit.message_id, similarity=hit.similarity)
            for hit in vector_search(
                user=user,
                query_vector=query_vector,
                limit=RANGED_CANDIDATES,
                chat_ids=filters.chat_ids,
                time_range=told_range,
                index_version=version,
                plan=plan,
            )
        ]
    return lexical, vector


def _hybrid(
    *,
    user: User,
    compiled: CompiledQuery,
    filters: SearchFilters,
    now: datetime,
    limits: SearchLimits,
    data_policy: DataPolicy,
) -> SearchResult:
    filters, preferred_range = hybrid_time_preference(compiled, filters)
    searched = active_search_version(user=user)
    version = searched.version if searched is not None else None
    embedding: Future[_QueryEmbedding] | None = None
    # The question and its text with the people it names replaced (semantic_text), in its
    # canonical form ("who's" / "who is", a fronted topic put back: one meaning, one vector,
    # whatever the wording), and, for a question about one person, as that person would tell
    # it (``own_voice_text``).
    asked = compiled.read_as
    semantic_text = compiled.semantic_text or asked
    voice_text = (
        own_voice_text(semantic_text)
        if OWN_VOICE_WEIGHT and len(compiled.people) == 1 and semantic_text != asked
        else ""
    )
    if version is not None and asked.strip():
        # The model is chosen here, on this thread's connection, so the embedding thread needs
        # no connection of its own (opening one per question cost more than the read).
        try:
            candidate = embedding_candidate(version.profile, data_policy=data_policy)
        except Exception as error:
            embedding = Future()
            embedding.set_exception(error)
        else:
            if limits.overlap_embedding:
                embedding = _embedding_executor.submit(
                    _embed_question,
                    asked,
                    semantic_text,
                    version.profile,
                    candidate,
                    voice_text,
                )
            else:
                embedding = Future()
                try:
                    embedding.set_result(
                        _embed_question(
                            asked, semantic_text, version.profile, candidate, voice_text
                        )
                    )
                except Exception as error:
                    embedding.set_exception(error)

    started = time.perf_counter()
    # A question word's forms in the other languages people text in ("mooncakes" / "bánh
    # trung thu"): one more term each, weighted below the word (retrieval.crosslingual).
    lexical = lexical_search(
        user=user,
        keywords=compiled.keywords,
        filters=filters,
        term_cap=limits.lexical_term_cap,
        limit=limits.lexical_candidates,
        translations=translations(compiled.keywords, compiled.read_as),
    )
    lexical_ms = (time.perf_counter() - started) * 1000

    vector: list[VectorHit] = []
    vector_status = VectorStatus.NO_ACTIVE_INDEX
    tokens = 0
    embedding_model_key = ""
    embedding_ms = vector_ms = 0.0
    query_vector: list[float] | None = None
    if embedding is not None and version is not None:
        try:
            query = embedding.result()
        except Exception:
            # Any provider or runtime failure degrades to lexical-only; never fails the search.
            logger.warning(
                "retrieval.query_embedding_failed",
                extra={"user_id": user.pk, "index_version": version.version},
                exc_info=True,
            )
            query = _QueryEmbedding(vector=None, tokens=0, elapsed_ms=0.0)
        tokens, embedding_ms = query.tokens, query.elapsed_ms
        embedding_model_key = query.model_key
        if query.vector is None or len(query.vector) != version.dimensions:
            vector_status = VectorStatus.EMBEDDING_FAILED
        else:
            query_vector = query.vector
            started = time.perf_counter()
            vector = [
                VectorHit(message_id=hit.message_id, similarity=hit.similarity)
                for hit in vector_search(
                    user=user,
                    query_vector=query.vector,
                    limit=limits.vector_candidates,
                    chat_ids=filters.chat_ids,
                    time_range=(filters.start, filters.end),
                    index_version=version,
                    plan=limits.vector_plan or (searched.plan if searched else None),
                )
            ]
            vector_ms = (time.perf_counter() - started) * 1000
            vector_status = VectorStatus.OK

    ranged_lexical: list[LexicalHit] = []
    ranged_vector: list[VectorHit] = []
    if preferred_range is not None and limits.weights.range_leg_weight:
        started = time.perf_counter()
        ranged_lexical, ranged_vector = _ranged_legs(
            user=user,
            compiled=compiled,
            filters=filters,
            told_range=told_range(preferred_range),
            query_vector=query_vector,
            version=version,
            plan=limits.vector_plan or (searched.plan if searched else None),
            limits=limits,
        )
        lexical_ms += (time.perf_counter() - started) * 1000

    titled_lexical: list[LexicalHit] = []
    titled_vector: list[VectorHit] = []
    titled = _titled_chat_ids(user=user, compiled=compiled, filters=filters)
    if titled and limits.weights.titled_leg_weight:
        started = time.perf_counter()
        titled_lexical, titled_vector = _titled_legs(
            user=user,
            compiled=compiled,
            filters=filters,
            chat_ids=titled,
            query_vector=query_vector,
            version=version,
            plan=limits.vector_plan or (searched.plan if searched else None),
        )
        lexical_ms += (time.perf_counter() - started) * 1000

    started = time.perf_counter()
    person_ids = _person_ids(compiled)
    is_when = asks_when(compiled.read_as)
    union = list(
        dict.fromkeys(
            message_id
            for leg in (
                lexical,
                vector,
                ranged_lexical,
                ranged_vector,
                titled_lexical,
                titled_vector,
            )
            for message_id in (hit.message_id for hit in leg)
        )
    )
    facts = _candidate_facts(
        user=user,
        message_ids=union,
        context_ids=_best_hits(
            [*lexical, *ranged_lexical],
            [*vector, *ranged_vector],
            weights=limits.weights,
            count=limits.context_hits,
        ),
        filters=filters,
        person_ids=person_ids,
        asks_when=is_when,
    )
    preferred = compiled.scope.chat_ids if compiled.scope.mode == ScopeMode.PREFERRED else ()
    candidates = fuse(
        lexical=lexical,
        vector=vector,
        facts=facts,
        weights=limits.weights,
        now=now,
        person_ids=person_ids,
        preferred_chat_ids=preferred,
        preferred_range=preferred_range,
        ranged_lexical=ranged_lexical,
        ranged_vector=ranged_vector,
        titled_lexical=titled_lexical,
        titled_vector=titled_vector,
        named_context_only=asks_for_several(compiled.read_as),
        asks_when=is_when,
        limit=limits.fused_candidates,
    )
    fusion_ms = (time.perf_counter() - started) * 1000
    route = Route.HYBRID if candidates else Route.NO_EVIDENCE
    logger.info(
        "retrieval.search",
        extra={
            "user_id": user.pk,
            "route": str(route),
            "lexical_hits": len(lexical),
            "vector_hits": len(vector),
            "candidates": len(candidates),
            "vector_status": vector_status,
            "lexical_ms": round(lexical_ms, 2),
            "embedding_ms": round(embedding_ms, 2),
            "vector_ms": round(vector_ms, 2),
        },
    )
    return SearchResult(
        route=route,
        candidates=tuple(candidates),
        vector_status=vector_status,
        query_embedding_tokens=tokens,
        query_embedding_model_key=embedding_model_key,
        index_version=version.version if version is not None else None,
        timings=SearchTimings(
            lexical_ms=lexical_ms,
            embedding_ms=embedding_ms,
            vector_ms=vector_ms,
            fusion_ms=fusion_ms,
        ),
    )


# Hits each titled-chat leg returns (a group's few best matches; see ``_titled_legs``).
TITLED_CANDIDATES = 10


def _titled_chat_ids(
    *, user: User, compiled: CompiledQuery, filters: SearchFilters
) -> tuple[int, ...]:
    """The group chats a question names by their title or part of it ("what are we firing
    at the pottery circle?" names "Pottery Circle 🏺 Elmwood"; ``memory.chatnames.chats_named``),
    when its scope does not already pick the chats. A message rarely repeats its group's
    title ("kiln is free tuesday" in the pottery circle), so the title is where such a question's
    words are."""
    if filters.chat_ids is not None or not compiled.question.strip():
        return ()
    return tuple(chats_named(user=user, question=compiled.question, groups_only=True))


def _titled_legs(
    *,
    user: User,
    compiled: CompiledQuery,
    filters: SearchFilters,
    chat_ids: tuple[int, ...],
    query_vector: list[float] | None,
    version: Any,
    plan: SearchPlan | None,
) -> tuple[list[LexicalHit], list[VectorHit]]:
    """The lexical and vector legs again, inside the chats the question names by title whose
    messages never say the title's words the question uses (a chat whose messages say them is
    found by them already): the lexical leg with the question's other words, the vector leg
    with the question's vector (no second embedding)."""
    stems = set().union(
        *(
            title_stems(title or "")
            for title in Chat.objects.filter(user=user, pk__in=list(chat_ids)).values_list(
                "title", flat=True
            )
        )
    )
    titled: list[str] = []
    keywords: list[str] = []
    for keyword in compiled.keywords:
        is_title = all(word_stem(word) in stems for word in keyword.split())
        (titled if is_title else keywords).append(keyword)
    if not titled:
        return [], []
    said = SearchQuery(titled[0], search_type="websearch", config=TEXT_SEARCH_CONFIG)
    for keyword in titled[1:]:
        said |= SearchQuery(keyword, search_type="websearch", config=TEXT_SEARCH_CONFIG)
    saying = set(
        Message.objects.filter(
            user=user, chat_id__in=list(chat_ids), deleted_at__isnull=True, search_vector=said
        )
        .values_list("chat_id", flat=True)
        .distinct()
    )
    silent = tuple(pk for pk in chat_ids if pk not in saying)
    if not silent:
        return [], []
    lexical: list[LexicalHit] = []
    if keywords:
        lexical = lexical_search(
            user=user,
            keywords=keywords,
            filters=SearchFilters(chat_ids=silent, start=filters.start, end=filters.end),
            term_cap=TITLED_CANDIDATES * 10,
            limit=TITLED_CANDIDATES,
            translations=translations(keywords, compiled.read_as),
        )
    vector: list[VectorHit] = []
    if query_vector is not None and version is not None:
        vector = [
            VectorHit(message_id=hit.message_id, similarity=hit.similarity)
            for hit in vector_search(
                user=user,
                query_vector=query_vector,
                limit=TITLED_CANDIDATES,
                chat_ids=silent,
                time_range=(filters.start, filters.end),
                index_version=version,
                plan=plan,
            )
        ]
    return lexical, vector
