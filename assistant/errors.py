"""Stable error codes of the answer endpoints.

Errors found before the stream opens are ordinary API errors (``claire.api.errors`` shape, a
4xx/5xx status). Errors after it opened travel inside the stream as ``data-error`` with one of
the ``StreamFailure`` codes below and ``retryable``; their ``message`` is written here, never
taken from a provider or an exception.
"""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus

from claire.errors import CodedError


class RequestInProgress(CodedError):
    status_code = HTTPStatus.CONFLICT
    default_code = "request_in_progress"
    default_detail = "This request is still being answered."


class RequestIdReused(CodedError):
    status_code = HTTPStatus.UNPROCESSABLE_ENTITY
    default_code = "request_id_reused"
    default_detail = "This requestId was already used for a different request."


class TurnNotRetryable(CodedError):
    status_code = HTTPStatus.CONFLICT
    default_code = "turn_not_retryable"
    default_detail = "Only a failed, partial or cancelled answer can be retried."


class RetryInProgress(CodedError):
    status_code = HTTPStatus.CONFLICT
    default_code = "retry_in_progress"
    default_detail = "This answer is already being retried; details.turnId is the retry."


class TurnAlreadyRetried(CodedError):
    status_code = HTTPStatus.CONFLICT
    default_code = "turn_already_retried"
    default_detail = "This answer was already retried; details.turnId is the new answer."


class TooManyStreams(CodedError):
    status_code = HTTPStatus.TOO_MANY_REQUESTS
    default_code = "too_many_streams"
    default_detail = "You already have the most answers streaming at once; wait for one to end."
    retry_after_s = 2


class NotAcceptable(CodedError):
    status_code = HTTPStatus.NOT_ACCEPTABLE
    default_code = "not_acceptable"
    default_detail = "Accept text/event-stream (streamed answer) or application/json."


@dataclass(frozen=True)
class StreamFailure:
    code: str
    message: str
    retryable: bool


PROVIDER_UNAVAILABLE = StreamFailure(
    code="provider_unavailable",
    message="No model is available to answer right now. Please try again.",
    retryable=True,
)
STREAM_INTERRUPTED = StreamFailure(
    code="stream_interrupted",
    message="The answer stopped before it was complete. Please try again.",
    retryable=True,
)
RETRIEVAL_FAILED = StreamFailure(
    code="retrieval_failed",
    message="Your conversations could not be searched right now. Please try again.",
    retryable=True,
)
INTERNAL_ERROR = StreamFailure(
    code="internal_error",
    message="Something went wrong while answering. Please try again.",
    retryable=True,
)


def stream_failure_for_api_error(error: CodedError) -> StreamFailure:
    """An API error raised after the stream opened (budget at reservation time, a model
    without a price) keeps its stable code; its message is the class's own safe default."""
    return StreamFailure(
        code=error.code,
        message=str(type(error).default_detail),
        retryable=error.status_code >= 500,
    )


_RUNTIME_FAILURES = {
    "rate_limited": "The AI provider is busy right now. Please try again.",
    "timeout": "The AI provider took too long to answer. Please try again.",
    "context_too_long": "The question and its sources were too long for the model.",
    "content_filtered": "The AI provider declined to answer this request.",
    "no_eligible_model": "No AI model allowed by your settings can answer right now.",
    "provider_authentication_failed": "The AI provider is not configured correctly.",
    "invalid_request": "The AI provider rejected the request.",
    "invalid_output": "The model's answer could not be read. Please try again.",
    "stream_abandoned": "The answer was interrupted by a server restart. Please try again.",
    "interrupted": "The answer was interrupted by a server restart. Please try again.",
}
_RETRYABLE_RUNTIME_CODES = frozenset(
    {"rate_limited", "timeout", "invalid_output", "stream_abandoned", "interrupted"}
)
_KNOWN = {
    failure.code: failure
    for failure in (PROVIDER_UNAVAILABLE, STREAM_INTERRUPTED, RETRIEVAL_FAILED, INTERNAL_ERROR)
}

# Every code a failure after the stream opened can carry (``failure_for_code``'s range).
STREAM_FAILURE_CODES: frozenset[str] = frozenset({*_KNOWN, *_RUNTIME_FAILURES})


def failure_for_code(code: str) -> StreamFailure:
    """The safe failure for a stored or runtime error code (unknown codes are internal)."""
    if code in _KNOWN:
        return _KNOWN[code]
    if code in _RUNTIME_FAILURES:
        return StreamFailure(
            code=code, message=_RUNTIME_FAILURES[code], retryable=code in _RETRYABLE_RUNTIME_CODES
        )
    return INTERNAL_ERROR
