"""The AI SDK UI message stream over server-sent events.

Each engine event becomes one or two chunks; each chunk is one ``data: {json}`` line closed by
a blank line (the SDK's parser drops a last event that lacks it), and the stream ends with
``data: [DONE]``. Rules that clients of AI SDK 5, 6 and 7 enforce alike: optional keys are
omitted, never ``null``; ``finishReason`` is one of ``types.FINISH_REASONS``; a text delta only
follows the ``text-start`` of its id; after an ``error`` chunk the client stops reading, so it
is the last chunk before ``[DONE]``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from json.encoder import encode_basestring
from typing import Any

from assistant.types import (
    FINISH_REASONS,
    EngineEvent,
    ErrorEvent,
    FinishEvent,
    ProposalEvent,
    SourcesEvent,
    StartEvent,
    StatusEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThreadEvent,
)

CONTENT_TYPE = "text/event-stream"
# No Content-Encoding and no Connection header: compression would buffer the stream, and
# connection management belongs to the server (HTTP/2 forbids the header).
RESPONSE_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache, no-transform"),
    (b"x-vercel-ai-ui-message-stream", b"v1"),
    # nginx and compatible proxies pass each event through immediately.
    (b"x-accel-buffering", b"no"),
)
DONE = b"data: [DONE]\n\n"


# One encoder for every event (``json.dumps`` with options builds a new one per call).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def sse_event(chunk: dict[str, Any]) -> bytes:
    """One server-sent event. JSON escapes newlines, so the payload is one line."""
    return f"data: {_ENCODER.encode(chunk)}\n\n".encode()


def sse_chunks(event: EngineEvent) -> list[dict[str, Any]]:
    """The UI message stream chunks of one engine event."""
    match event:
        case StartEvent(message_id=message_id):
            return [{"type": "start", "messageId": message_id}]
        case StatusEvent(phase=phase):
            # One status part per message, updated in place by id.
            return [{"type": "data-status", "id": "status", "data": {"phase": phase}}]
        case ThreadEvent():
            return [
                {
                    "type": "data-thread",
                    "data": {
                        "threadId": str(event.thread_id),
                        "userTurnId": str(event.user_turn_id),
                        "assistantTurnId": str(event.assistant_turn_id),
                    },
                }
            ]
        case SourcesEvent():
            return [{"type": "data-sources", "data": sources_data(event)}]
        case TextStartEvent(text_id=text_id):
            return [{"type": "text-start", "id": text_id}]
        case TextDeltaEvent(text_id=text_id, delta=delta):
            return [{"type": "text-delta", "id": text_id, "delta": delta}]
        case TextEndEvent(text_id=text_id):
            return [{"type": "text-end", "id": text_id}]
        case ProposalEvent(proposal=proposal):
            return [
                {
                    "type": "data-proposal",
                    "id": f"proposal-{proposal.proposal_id}",
                    "data": proposal.as_wire(),
                }
            ]
        case FinishEvent():
            finish_reason = (
                event.finish_reason if event.finish_reason in FINISH_REASONS else "other"
            )
            return [
                {"type": "data-finish", "data": finish_data(event)},
                {"type": "finish", "finishReason": finish_reason},
            ]
        case ErrorEvent():
            return [
                {"type": "data-error", "data": error_data(event)},
                {"type": "error", "errorText": event.message},
            ]
    raise TypeError(f"not an engine event: {type(event).__name__}")


def sse_encode(event: EngineEvent) -> bytes:
    if type(event) is TextDeltaEvent:
        # The one event sent per word: its frame around the delta is built once per text id.
        prefix, suffix = _text_delta_frame(event.text_id)
        return prefix + encode_basestring(event.delta).encode() + suffix
    return b"".join(sse_event(chunk) for chunk in sse_chunks(event))


@lru_cache(maxsize=64)
def _text_delta_frame(text_id: str) -> tuple[bytes, bytes]:
    """The bytes of a ``text-delta`` event before and after its JSON-encoded delta: the same
    bytes ``sse_event`` writes (compact separators, keys in order, non-ASCII kept as is, which
    is what ``encode_basestring`` does to a string)."""
    marker = "\x00delta\x00"
    framed = sse_event({"type": "text-delta", "id": text_id, "delta": marker}).decode()
    before, after = framed.split(encode_basestring(marker))
    return before.encode(), after.encode()


def sources_data(event: SourcesEvent) -> dict[str, Any]:
    return {
        "citations": [citation.as_wire() for citation in event.citations],
        "indexStatus": event.index_status,
    }


def finish_data(event: FinishEvent) -> dict[str, Any]:
    data: dict[str, Any] = {
        "finishReason": event.finish_reason,
        "provider": event.provider,
        "model": event.model,
        "status": event.status,
        "thread": event.thread.as_wire(),
        "citedSourceIds": list(event.cited_source_ids),
        "actions": [action.as_wire() for action in event.actions],
        "removedCitationCount": event.removed_citation_count,
    }
    if event.cost_micro_usd is not None:
        data["costMicroUsd"] = event.cost_micro_usd
    return data


def error_data(event: ErrorEvent) -> dict[str, Any]:
    return {"code": event.code, "retryable": event.retryable, "status": event.status}
