"""The legacy JSON answer: the same engine event sequence, collected into one response body.

Kept for clients that have not moved to the stream (``Accept: application/json``). It never
answers differently from the stream: it reads exactly the events the stream would write.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from assistant.transports.sse import error_data, finish_data
from assistant.types import (
    Citation,
    EngineEvent,
    ErrorEvent,
    FinishEvent,
    ProposalEvent,
    SourcesEvent,
    TextDeltaEvent,
    ThreadEvent,
)
from claire.api.errors import error_body

# HTTP statuses of failures that happen after the answer started.
LEGACY_ERROR_STATUSES = {
    "budget_exceeded": 402,
    "ai_disabled": 403,
    "provider_unavailable": 503,
    "retrieval_failed": 503,
    "price_unknown": 503,
    "stream_interrupted": 502,
}


@dataclass(frozen=True)
class LegacyResponse:
    status_code: int
    body: dict[str, Any]


async def legacy_collect(events: AsyncIterator[EngineEvent]) -> LegacyResponse:
    ids: dict[str, str] = {}
    sources: tuple[Citation, ...] = ()
    index_status: dict[str, object] = {}
    text: list[str] = []
    proposal: dict[str, Any] | None = None
    async for event in events:
        if isinstance(event, ThreadEvent):
            ids = {
                "threadId": str(event.thread_id),
                "userTurnId": str(event.user_turn_id),
                "assistantTurnId": str(event.assistant_turn_id),
            }
        elif isinstance(event, SourcesEvent):
            sources = event.citations
            index_status = event.index_status
        elif isinstance(event, TextDeltaEvent):
            text.append(event.delta)
        elif isinstance(event, ProposalEvent):
            proposal = event.proposal.as_wire()
        elif isinstance(event, FinishEvent):
            body = legacy_answer_body(ids, sources, index_status, text, event)
            return LegacyResponse(status_code=200, body={**body, "proposal": proposal})
        elif isinstance(event, ErrorEvent):
            details = {**error_data(event), **ids, "partialAnswer": "".join(text)}
            return LegacyResponse(
                status_code=LEGACY_ERROR_STATUSES.get(event.code, 500),
                body=error_body(code=event.code, message=event.message, details=details),
            )
    raise RuntimeError("the engine ended without a finish or an error event")


def legacy_answer_body(
    ids: dict[str, str],
    sources: tuple[Citation, ...],
    index_status: dict[str, object],
    text: list[str],
    finish: FinishEvent,
) -> dict[str, Any]:
    cited = set(finish.cited_source_ids)
    return {
        **ids,
        "answer": "".join(text),
        "citations": [source.as_wire() for source in sources if source.source_id in cited],
        "indexStatus": index_status,
        **finish_data(finish),
    }
