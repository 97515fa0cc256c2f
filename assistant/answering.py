"""The steps of an answer that call other apps: billing checks, retrieval, the deterministic
no-evidence answer and navigation actions (the model call with its reservation:
``assistant.generation``).

Each step takes and returns typed values; ``assistant.engine`` orders them and turns them into
events. The synchronous steps touch the database and run on worker threads.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db import DatabaseError
from django.utils import timezone

from assistant import selectors, services
from assistant.citations import cited_source_ids
from assistant.models import Thread
from assistant.services import TurnPair
from assistant.types import AskRequest, Citation, NavigationAction
from billing.models import UsageEvent as UsageRecord
from billing.selectors import ai_access_check
from billing.services.reservations import usage_record_no_call
from billing.types import UsageTelemetry
from claire.accounts.consent import data_policy_for_user
from claire.accounts.models import User
from claire.errors import CodedError
from conversations.models import Chat
from conversations.selectors import user_has_messages
from indexing.selectors import index_status_for_user
from indexing.wire import index_status_wire
from retrieval.answerability import is_weak_strength, refusal_note
from retrieval.evidence import EvidenceLimits, EvidenceSource
from retrieval.pipeline import retrieve
from retrieval.suspicion import pack_suspicions
from retrieval.types import Route, ScopeMode
from retrieval.types import Scope as RetrievalScope

if TYPE_CHECKING:
    from assistant.generation import Generation

logger = logging.getLogger(__name__)

PROFILE = "answer"
SNIPPET_MAX_CHARS = 280


def answer_begin(*, user: User, request: AskRequest) -> TurnPair:
    """Policy and budget, scope ownership, then the idempotent insert. A request seen before
    is looked up first: replaying a stored answer costs nothing, so it needs no budget."""
    existing = services.turn_pair_for_request(user=user, request=request)
    if existing is not None:
        return existing
    ai_access_check(user=user)
    return services.turn_begin(user=user, request=request, is_request_unseen=True)


def answers_begin(*, entries: list[tuple[User, AskRequest]]) -> list[TurnPair | Exception]:
    """``answer_begin`` for a batch of requests, each result (its pair or the error that
    refuses it) in the order of ``entries``, with the same outcome each would have alone.

    New requests are inserted together (``services.turns_begin``); a request seen before, a
    second use of one request id in the batch, and a retry go through ``answer_begin`` one at
    a time, after the batch committed."""
    outcomes: list[TurnPair | Exception | None] = [None] * len(entries)
    seen = selectors.requests_seen(
        keys=[(user.pk, request.request_id) for user, request in entries]
    )
    batch: list[tuple[int, services.TurnEntry]] = []
    alone: list[int] = []
    claimed: set[tuple[int, str]] = set()
    allowed_users: set[int] = set()
    for index, (user, request) in enumerate(entries):
        key = (user.pk, request.request_id)
        if key in seen or key in claimed or request.retry_of_turn_id is not None:
            alone.append(index)
            continue
        try:
            if user.pk not in allowed_users:
                ai_access_check(user=user)
                allowed_users.add(user.pk)
            thread = services.turn_entry_thread(user=user, request=request)
        except CodedError as error:
            outcomes[index] = error
            continue
        claimed.add(key)
        batch.append((index, services.TurnEntry(user=user, request=request, thread=thread)))
    begun = services.turns_begin(entries=[entry for _, entry in batch])
    for (index, _), result in zip(batch, begun, strict=True):
        if result is None:
            alone.append(index)
        else:
            outcomes[index] = result
    for index in sorted(alone):
        user, request = entries[index]
        try:
            outcomes[index] = answer_begin(user=user, request=request)
        except DatabaseError:
            raise
        except Exception as error:
            outcomes[index] = error
    decided = [outcome for outcome in outcomes if outcome is not None]
    assert len(decided) == len(entries), "every request of the batch is decided"
    return decided


# --- retrieval -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Retrieval:
    """What retrieval found for one question, as the engine needs it."""

    citations: tuple[Citation, ...]
    route: str
    compiled_query: dict[str, object]
    index_status: dict[str, object]
    scope_label: str
    time_label: str
    sources: tuple[EvidenceSource, ...] = ()
    query_embedding_tokens: int = 0
    # Sources led by a personal-memory record (loops, plan steps, ...) with memory's note on
    # each: the answer names and cites every one of them.
    memory_notes: Mapping[str, str] = field(default_factory=dict)
    query_embedding_model_key: str = ""
    # What memory states outright, with the sources that prove each statement.
    memory_findings: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # Stage timings in ms (compile, lexical, embedding, vector, windows, pack), for the trace.
    timings: Mapping[str, float] = field(default_factory=dict)
    # The user has no messages at all: nothing was searched, nothing embedded.
    is_account_empty: bool = False
    # How well the searched evidence answers the question, 0 to 1 (None when not judged:
    # memory answered, a requested action, no evidence); see ``is_evidence_weak``.
    evidence_strength: float | None = None
    # Suspicious sources by id, with their kind (``retrieval.suspicion``).
    suspicions: Mapping[str, str] = field(default_factory=dict)
    # Why the evidence found cannot answer, when the answerability check can say more than
    # "nothing found" (``retrieval.answerability.refusal_note``).
    no_evidence_note: str = ""

    @property
    def is_evidence_weak(self) -> bool:
        """The evidence matches the question only weakly: the answer still quotes it, and
        says so (``retrieval.answerability.WEAK_STRENGTH``)."""
        return bool(self.citations) and is_weak_strength(self.evidence_strength)

    @property
    def is_empty(self) -> bool:
        return not self.citations

    @property
    def source_ids(self) -> tuple[str, ...]:
        return tuple(citation.source_id for citation in self.citations)

    @property
    def intent(self) -> str:
        return str(self.compiled_query.get("intent", ""))

    @property
    def time_range_start(self) -> str:
        time_range = self.compiled_query.get("timeRange")
        if isinstance(time_range, dict):
            return str(time_range.get("start", ""))
        return ""


def scope_label_for(*, user: User, mode: str, chat_ids: tuple[int, ...]) -> str:
    if mode == "global":
        return "all your chats"
    titles = list(
        Chat.objects.filter(user=user, pk__in=chat_ids)
        .order_by("pk")
        .values_list("title", flat=True)
    )
    named = ", ".join(f"“{title}”" if title else "an untitled chat" for title in titles)
    if mode == "strict_chat":
        return f"the chat {named}"
    return f"all your chats, starting with {named}"


def citation_from_source(source: EvidenceSource) -> Citation:
    snippet = " ".join(source.primary.text.split())
    if len(snippet) > SNIPPET_MAX_CHARS:
        snippet = snippet[: SNIPPET_MAX_CHARS - 1].rstrip() + "…"
    return Citation(
        source_id=source.source_id,
        message_id=source.primary_message_id,
        chat_id=source.chat_id,
        chat_title=source.chat_title,
        sender=source.sender_name,
        platform=source.platform,
        sent_at=source.sent_at,
        snippet=snippet,
    )


def retrieval_run(*, user: User, request: AskRequest, thread: Thread) -> Retrieval:
    """Compile the question, route, search and build the evidence pack (S1..Sn). The scope's
    chats were ownership-checked by ``turn_begin``. An account with no messages skips all of
    it (no query embedding is spent on searching nothing)."""
    if not user_has_messages(user=user):
        return Retrieval(
            citations=(),
            route=str(Route.NO_EVIDENCE),
            compiled_query={},
            index_status=index_status_wire(index_status_for_user(user=user)),
            scope_label=scope_label_for(
                user=user, mode=request.scope.mode, chat_ids=request.scope.chat_ids
            ),
            time_label="",
            is_account_empty=True,
        )
    retrieval = retrieve(
        user=user,
        question=request.question,
        now=timezone.now(),
        scope=RetrievalScope(mode=ScopeMode(request.scope.mode), chat_ids=request.scope.chat_ids),
        evidence_limits=EvidenceLimits.for_profile(PROFILE),
        # The question is embedded by the index's model: remote only with the user's consent.
        data_policy=data_policy_for_user(user=user),
    )
    pack = retrieval.pack
    citations = (
        ()
        if retrieval.is_no_evidence
        else tuple(citation_from_source(source) for source in pack.sources)
    )
    time_range = retrieval.compiled.time_range
    return Retrieval(
        citations=citations,
        route=str(Route.NO_EVIDENCE if not citations else retrieval.route),
        compiled_query=retrieval.compiled.to_record(),
        index_status=index_status_wire(index_status_for_user(user=user)),
        scope_label=scope_label_for(
            user=user, mode=request.scope.mode, chat_ids=request.scope.chat_ids
        ),
        time_label=time_range.label if time_range is not None else "",
        sources=pack.sources if citations else (),
        query_embedding_tokens=retrieval.search.query_embedding_tokens,
        memory_notes=retrieval.memory_sources if citations else {},
        memory_findings=retrieval.memory_findings if citations else (),
        query_embedding_model_key=retrieval.search.query_embedding_model_key,
        evidence_strength=retrieval.evidence_strength if citations else None,
        suspicions=pack_suspicions(user=user, sources=pack.sources) if citations else {},
        no_evidence_note="" if citations else refusal_note(retrieval.answerability),
        timings={
            "compile": retrieval.timings.compile_ms,
            "lexical": retrieval.search.timings.lexical_ms,
            "embedding": retrieval.search.timings.embedding_ms,
            "vector": retrieval.search.timings.vector_ms,
            "search": retrieval.timings.search_ms,
            "windows": retrieval.timings.windows_ms,
            "pack": retrieval.timings.pack_ms,
        },
    )


EMPTY_ACCOUNT_ANSWER = "\n".join(
    [
        "There are no messages in your account yet, so there is nothing to search.",
        "",
        "Import your messages first: send them through the bridge API "
        "(`POST /api/ingest/batches`) or import an export with "
        "`manage.py import_messages` (WhatsApp, Telegram, Slack or JSON Lines), "
        "then ask again.",
    ]
)


def no_evidence_answer(retrieval: Retrieval) -> str:
    """The deterministic answer when nothing passed the relevance floor: it says what was
    searched, so the user can widen the question. No model is called."""
    if retrieval.is_account_empty:
        return EMPTY_ACCOUNT_ANSWER
    window = f" from {retrieval.time_label}" if retrieval.time_label else ""
    lines = [
        f"I couldn't find anything about this in {retrieval.scope_label}{window}.",
        *([retrieval.no_evidence_note] if retrieval.no_evidence_note else []),
        "",
        f"**Searched:** {retrieval.scope_label}"
        + (f", messages {retrieval.time_label}" if retrieval.time_label else ", any time"),
    ]
    state = retrieval.index_status.get("state")
    pending = retrieval.index_status.get("pending")
    if state in ("building", "not_started") and pending:
        lines.append(
            f"**Note:** {pending} messages are still being indexed for meaning-based search; "
            "exact words already work."
        )
    lines += ["", "Try other words, a wider time window, or all chats."]
    return "\n".join(lines)


def cited_in(text: str, retrieval: Retrieval) -> tuple[str, ...]:
    return tuple(cited_source_ids(text, retrieval.source_ids))


def actions_for(retrieval: Retrieval, cited: tuple[str, ...]) -> tuple[NavigationAction, ...]:
    """``open_conversation`` for each cited source (trusted navigation, to the message), and
    "Open calendar" for plan questions: it opens the calendar at the day, it creates nothing."""
    by_id = {citation.source_id: citation for citation in retrieval.citations}
    actions = [
        NavigationAction(
            kind="open_conversation",
            label=f"Open {by_id[source_id].chat_title or 'conversation'}",
            source_id=source_id,
            target=by_id[source_id].navigation,
        )
        for source_id in cited
        if source_id in by_id
    ]
    if retrieval.intent == "plan_recall":
        day = retrieval.time_range_start[:10]
        if not day and cited:
            day = by_id[cited[0]].sent_at.date().isoformat()
        actions.append(NavigationAction(kind="open_calendar", label="Open calendar", date=day))
    return tuple(actions)


def telemetry_for(
    *,
    retrieval: Retrieval | None,
    generation: Generation | None,
    duration_ms: int,
    error_class: str,
) -> UsageTelemetry:
    return UsageTelemetry(
        route=retrieval.route if retrieval else "",
        profile=generation.profile if generation else PROFILE,
        time_to_first_token_ms=generation.time_to_first_token_ms if generation else None,
        duration_ms=duration_ms,
        source_count=len(retrieval.citations) if retrieval else 0,
        error_class=error_class,
    )


def usage_record_without_model(
    *, user: User, request: AskRequest, telemetry: UsageTelemetry
) -> UsageRecord:
    """The zero-token usage event of an answer that called no model."""
    return usage_record_no_call(user=user, request_id=request.request_id, telemetry=telemetry)
