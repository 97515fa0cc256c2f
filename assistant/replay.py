"""The events of an answer that is already stored: a request seen before (the same
``requestId``) replays its outcome through the same event shapes as a live answer."""

from __future__ import annotations

from assistant.errors import INTERNAL_ERROR, failure_for_code
from assistant.models import Thread, Turn, TurnStatus
from assistant.selectors import thread_summary_of
from assistant.services import TurnPair
from assistant.types import (
    Citation,
    EngineEvent,
    ErrorEvent,
    FinishEvent,
    FinishReason,
    NavigationAction,
    ProposalEvent,
    SourcesEvent,
    StartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThreadEvent,
)
from proposals.types import ProposalView

TEXT_ID = "t1"


def closing_events(
    turn: Turn, *, thread: Thread, cost_micro_usd: int | None = None
) -> list[EngineEvent]:
    """The last events of a stored turn: finish (completed, cancelled) or error."""
    if turn.status in (TurnStatus.COMPLETED, TurnStatus.CANCELLED):
        finish_reason: FinishReason = "stop" if turn.status == TurnStatus.COMPLETED else "other"
        if turn.finish_reason in ("stop", "length", "content-filter", "tool-calls", "other"):
            finish_reason = turn.finish_reason  # type: ignore[assignment]
        return [
            FinishEvent(
                finish_reason=finish_reason,
                provider=turn.provider,
                model=turn.model,
                status=turn.status,
                thread=thread_summary_of(thread),
                cited_source_ids=tuple(str(c["id"]) for c in turn.citations),
                actions=tuple(NavigationAction.from_wire(a) for a in turn.actions),
                removed_citation_count=turn.removed_citation_count,
                cost_micro_usd=cost_micro_usd,
            )
        ]
    failure = failure_for_code(turn.error_code or INTERNAL_ERROR.code)
    return [
        ErrorEvent(
            code=failure.code,
            message=failure.message,
            retryable=failure.retryable,
            status=turn.status,
        )
    ]


def replay_events(pair: TurnPair, *, proposal: ProposalView | None = None) -> list[EngineEvent]:
    """The events of an answer that is already stored, from the turn's record (and the
    proposal the request made, which lives in ``proposals``)."""
    turn = pair.assistant_turn
    events: list[EngineEvent] = [
        StartEvent(message_id=f"turn-{turn.pk}"),
        ThreadEvent(
            thread_id=pair.thread.pk, user_turn_id=pair.user_turn.pk, assistant_turn_id=turn.pk
        ),
        SourcesEvent(
            citations=tuple(Citation.from_wire(c) for c in turn.citations),
            index_status=turn.index_status or {},
        ),
    ]
    if turn.text:
        events += [
            TextStartEvent(text_id=TEXT_ID),
            TextDeltaEvent(text_id=TEXT_ID, delta=turn.text),
            TextEndEvent(text_id=TEXT_ID),
        ]
    if proposal is not None and turn.status == TurnStatus.COMPLETED:
        events.append(ProposalEvent.of(proposal))
    return events + closing_events(turn, thread=pair.thread)
