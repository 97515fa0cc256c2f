"""One question in, one bounded evidence pack out: compile, route, search, windows, pack.

``retrieve`` is what the answer engine calls (and what the evaluation and the speed bench
measure). It makes no model call other than the query embedding, writes nothing, and when no
candidate passes the relevance floor returns an empty pack with route ``no_evidence`` without
loading any window. Personal memory's messages (``memory.evidence``) come first and
each leads its own source; a question memory says nothing about whose searched evidence cannot
answer it (``retrieval.answerability``: a topic the history never mentions, named people with
nothing on it) gets ``no_evidence`` too.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from django.conf import settings

from claire.accounts.models import User
from claire.ai.local.answer_kinds import answer_types, asks_own_words, is_outcome_question
from claire.ai.local.extractive import (
    best_turn,
    turn_weights,
)
from claire.ai.suspicious import suspicious_text
from claire.ai.types import DataPolicy
from memory.evidence import MemoryHits, memory_message_ids, outcome_message_ids
from retrieval.answerability import Answerability, answerability_assess
from retrieval.compile import compile_question
from retrieval.evidence import (
    EvidenceLimits,
    EvidencePack,
    EvidenceSource,
    build_evidence_pack,
    pack_led_by,
)
from retrieval.search import SearchLimits, SearchResult, search
from retrieval.slots import DETAIL_SLOTS, asked_slot, asks_after_event
from retrieval.types import CompiledQuery, Intent, Route, Scope
from retrieval.windows import MessageWindow, windows_expand

logger = logging.getLogger(__name__)

# Hits expanded into windows per pack source allowed: merged and duplicate windows shrink the
# list, so a little more than one hit per source keeps a pack full without loading windows
# that could never be shown.
HITS_PER_SOURCE = 1.5


@dataclass(frozen=True)
class RetrievalTimings:
    compile_ms: float = 0.0
    search_ms: float = 0.0
    windows_ms: float = 0.0
    pack_ms: float = 0.0

    @property
    def total_ms(self) -> float:
        return self.compile_ms + self.search_ms + self.windows_ms + self.pack_ms


@dataclass(frozen=True)
class Retrieval:
    compiled: CompiledQuery
    search: SearchResult
    windows: tuple[MessageWindow, ...]
    pack: EvidencePack
    timings: RetrievalTimings = field(default_factory=RetrievalTimings)
    memory: MemoryHits | None = None
    # The answerability check's judgement of search's candidates (None when it did not run:
    # memory answered, a requested action, nothing found), and search's own result before
    # memory and that check (``search`` is the result the answer reads).
    answerability: Answerability | None = None
    searched: SearchResult | None = None
    is_answerability_checked: bool = False

    @property
    def unanswerable_rule(self) -> str | None:
        """Why the answerability check refused the candidates (None when it did not)."""
        return self.answerability.rule if self.answerability is not None else None

    @property
    def evidence_strength(self) -> float | None:
        """How well the searched evidence answers the question, 0 to 1
        (``retrieval.answerability``); None when it was not judged (memory answered, a
        requested action, the recent-window route, no evidence)."""
        if self.answerability is None or self.is_no_evidence:
            return None
        return self.answerability.strength

    @property
    def route(self) -> Route:
        return self.search.route

    @property
    def is_no_evidence(self) -> bool:
        return self.search.route == Route.NO_EVIDENCE or self.pack.is_empty

    @property
    def hit_message_ids(self) -> tuple[int, ...]:
        """The ranked hits the pack was built from: memory's messages first, then search's;
        empty when the route is ``no_evidence``."""
        if self.is_no_evidence:
            return ()
        memory_ids = self.memory.message_ids if self.memory is not None else ()
        return tuple(dict.fromkeys([*memory_ids, *self.search.message_ids]))

    @property
    def memory_sources(self) -> dict[str, str]:
        """Pack sources led by a message personal memory gave (an open loop, a plan step, a
        ranked person's message, a catch-up item), in pack order, with memory's note on that
        message ("" when none): an answer names and cites each of them."""
        if self.memory is None:
            return {}
        wanted = set(self.memory.message_ids)
        return {
            source.source_id: self.memory.notes.get(source.primary_message_id, "")
            for source in self.pack.sources
            if source.primary_message_id in wanted
        }

    @property
    def memory_findings(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """What memory states outright for this question, each with the pack sources that
        hold its messages (the source a message leads, else one whose window holds it)."""
        if self.memory is None or not self.memory.findings:
            return ()
        leading = {source.primary_message_id: source.source_id for source in self.pack.sources}
        holding: dict[int, str] = {}
        for source in self.pack.sources:
            for message_id in source.message_ids:
                holding.setdefault(message_id, source.source_id)
        return tuple(
            (
                finding.text,
                tuple(
                    dict.fromkeys(
                        leading.get(mid) or holding[mid]
                        for mid in finding.message_ids
                        if mid in leading or mid in holding
                    )
                ),
            )
            for finding in self.memory.findings
        )


# Questions about the history (not memory's own routes, not requested actions): searched
# evidence must be able to answer them (``retrieval.answerability``).
# Intents whose question is checked against the searched messages when memory holds nothing
# for it: "do I owe Sam any money?" with no loop with Sam is a question like any other.
_ANSWERABILITY_CHECKED = frozenset(
    {Intent.CONVERSATION_QA, Intent.IDENTITY_LOOKUP, Intent.PLAN_RECALL, Intent.UNRESOLVED}
)


def _asks_detail(question: str) -> bool:
    """Whether ``question`` asks for a detail memory never records (a flight's number, what
    was given, what someone said once an event was over): what memory knows of the topic (a
    plan, its steps) does not answer it, so the answerability check reads the messages."""
    slot = asked_slot(question)
    return (slot is not None and slot.name in DETAIL_SLOTS) or asks_after_event(question)


def _separate_ids(*, memory: MemoryHits | None, result: SearchResult) -> tuple[int, ...]:
    """Hits that lead a source of their own even when their windows overlap: each memory
    record (a loop, a plan step), or, without memory, each hit that contains the question's
    words (in a short chat every window merges, and a merged window is cited through one
    message only)."""
    if memory is not None:
        return memory.message_ids
    return tuple(
        candidate.message_id
        for candidate in result.candidates
        if candidate.lexical_rank is not None
    )


def _no_evidence(result: SearchResult) -> SearchResult:
    """``result`` with nothing to cite (what searching cost and how it went is kept)."""
    return replace(result, route=Route.NO_EVIDENCE, candidates=())


def _answering_message(
    question: str, memory_ids: Sequence[int]
) -> Callable[[EvidenceSource], int | None]:
    """For a source whose primary message (its best search hit) shares no word with
    ``question``, the message of its window that does and answers it best (the local answer's
    own scoring), so that a citation names the message that proves the claim, not a hit
    found by meaning alone. A hit that shares the question's words keeps its place unless it
    lacks the kind of answer asked (an amount for "how much", a cause for "why") and a
    message of its window gives it and answers better (the reply that names the cause, the
    later message with the final figure; for a question about how things came out, the later
    message that gives it even when the hit gives it too). For a question about what the user
    said ("where did I say I'd meet her?"), their own message of the window that answers best
    leads instead of the other person's it replied to. A suspicious hit (spam,
    instructions aimed at an assistant) gives way to its window's best trusted message: a
    citation names what can be believed. Sources memory leads keep their message."""
    kept = set(memory_ids)
    shapes = answer_types(question)
    own_words = asks_own_words(question)

    def primary_of(source: EvidenceSource) -> int | None:
        turns = [(m.sender_name, m.text) for m in source.messages]
        primary = source.message_ids.index(source.primary_message_id)
        if own_words and not source.messages[primary].is_from_self:
            # Even a message memory chose (the named person's) gives way to the user's own.
            own = best_turn(question, turns)
            if own is not None and source.messages[own].is_from_self:
                return source.messages[own].message_id
        if source.primary_message_id in kept:
            return None
        weights = turn_weights(question, turns)
        is_suspicious = suspicious_text(turns[primary][1]) or suspicious_text(turns[primary][0])
        index = best_turn(
            question, turns, preferred=_reaction(turns, weights, primary) if is_suspicious else None
        )
        if index is None or index == primary:
            return None
        if (
            weights[primary] > 0
            and not is_suspicious
            and not (
                shapes
                and weights[index] > weights[primary]
                and any(shape.search(turns[index][1]) for shape in shapes)
                and (
                    is_outcome_question(question)
                    or not any(shape.search(turns[primary][1]) for shape in shapes)
                )
            )
        ):
            return None
        return source.messages[index].message_id

    return primary_of


def _reaction(
    turns: Sequence[tuple[str, str]], weights: Sequence[float], suspicious: int
) -> int | None:
    """The first trusted message after a suspicious one in its window that shares the
    question's words: how the people involved reacted to it ("who is this? removing"), the
    message a citation should name among equally good ones."""
    for index in range(suspicious + 1, len(turns)):
        sender, text = turns[index]
        if weights[index] > 0 and not suspicious_text(text) and not suspicious_text(sender):
            return index
    return None


def retrieve(
    *,
    user: User,
    question: str,
    now: datetime,
    scope: Scope,
    evidence_limits: EvidenceLimits,
    search_limits: SearchLimits | None = None,
    data_policy: DataPolicy = DataPolicy.LOCAL_ONLY,
) -> Retrieval:
    """Compile ``question`` (asked at ``now``, inside the already ownership-checked ``scope``),
    search, expand windows and build the pack within ``evidence_limits``. ``data_policy`` is
    the user's consent, passed to the question's embedding."""
    started = time.perf_counter()
    compiled = compile_question(user=user, question=question, now=now, scope=scope)
    compiled_at = time.perf_counter()
    searched = result = search(
        user=user,
        compiled=compiled,
        now=now,
        limits=search_limits or SearchLimits.from_settings(),
        data_policy=data_policy,
    )
    # What memory says answers the question is cited first; search hits fill the rest. The
    # route records memory when it answered alone or read the route's own source (loops, ranking).
    memory = memory_message_ids(user=user, compiled=compiled, now=now)
    outcome = outcome_message_ids(user=user, compiled=compiled, now=now, hit_ids=result.message_ids)
    if outcome is not None and (memory is None or outcome.notes):
        # How an event turned out: the report after it leads, not the announcement before it
        # (a plan memory knows of still answers an event ahead or one nobody reported on).
        memory = outcome
    if memory is not None and (result.is_no_evidence or memory.route == compiled.route):
        result = replace(result, route=memory.route)
    answerability: Answerability | None = None
    is_checked = compiled.intent in _ANSWERABILITY_CHECKED and (
        memory is None or _asks_detail(compiled.read_as)
    )
    if is_checked:
        answerability = answerability_assess(user=user, compiled=compiled, result=result)
        if answerability is not None and answerability.is_refused:
            # A plan card on the topic does not give a detail no plan records.
            memory = None
            logger.info(
                "retrieval.unanswerable",
                extra={
                    "user_id": user.pk,
                    "rule": answerability.rule,
                    "strength": round(answerability.strength, 3),
                },
            )
            result = _no_evidence(result)
        elif memory is not None:
            # Memory answers; the check only looked for the detail it cannot hold.
            answerability = None
    hit_ids = list(dict.fromkeys([*(memory.message_ids if memory else ()), *result.message_ids]))
    searched_at = time.perf_counter()
    windows: list[MessageWindow] = []
    if not result.is_no_evidence:
        windows = windows_expand(
            user=user,
            message_ids=hit_ids[: math.ceil(evidence_limits.max_sources * HITS_PER_SOURCE)],
            before=settings.RETRIEVAL_WINDOW_BEFORE,
            after=settings.RETRIEVAL_WINDOW_AFTER,
            separate_ids=_separate_ids(memory=memory, result=result),
        )
    windowed_at = time.perf_counter()
    pack = build_evidence_pack(windows=windows, limits=evidence_limits)
    if compiled.intent == Intent.CONVERSATION_QA or (
        # A plan question memory knows nothing of is answered from the searched messages
        # like any other question: each source cites the message of its window that answers.
        compiled.intent == Intent.PLAN_RECALL and memory is None
    ):
        pack = pack_led_by(
            pack, primary_of=_answering_message(question, memory.message_ids if memory else ())
        )
    packed_at = time.perf_counter()
    if pack.is_empty and not result.is_no_evidence:
        # Every hit vanished between search and windows (deleted meanwhile): no evidence.
        result = _no_evidence(result)
    return Retrieval(
        compiled=compiled,
        search=result,
        windows=tuple(windows),
        pack=pack,
        memory=memory,
        answerability=answerability,
        searched=searched,
        is_answerability_checked=is_checked,
        timings=RetrievalTimings(
            compile_ms=(compiled_at - started) * 1000,
            search_ms=(searched_at - compiled_at) * 1000,
            windows_ms=(windowed_at - searched_at) * 1000,
            pack_ms=(packed_at - windowed_at) * 1000,
        ),
    )
