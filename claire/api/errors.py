"""Stable, safe error codes for every API response.

Every error body has the same shape::

    {"error": {"code": "invalid_request", "message": "...", "details": {...}}}

``code`` is a stable identifier clients may branch on; ``message`` is for people; ``details``
is optional and never contains another user's data or a raw provider error. Domain code raises
``claire.errors.CodedError`` (no web framework in it); ``exception_handler`` renders it, and
DRF's own exceptions, in this shape.
"""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from claire.errors import CodedError, NotFound

# Every stable ``code`` an API response can carry, with its meaning: the ``ErrorCode`` enum of
# the published schema. A code that is not listed here is not part of the contract.
API_ERROR_CODES: dict[str, str] = {
    "invalid_request": "A field is missing or invalid; details lists each field.",
    "malformed_json": "The body is not valid JSON.",
    "json_too_deep": "The JSON body nests deeper than the API allows.",
    "unsupported_media_type": "The body is not application/json.",
    "not_authenticated": "No credentials were sent.",
    "authentication_failed": "The credentials are invalid.",
    "permission_denied": "Not allowed, including a session write without a CSRF token.",
    "not_found": "No such object among yours (the same for another user's object).",
    "method_not_allowed": "The route does not accept this method.",
    "not_acceptable": "The Accept header names no media type the route can send.",
    "rate_limited": "Too many requests.",
    "request_too_large": "The request body is too large.",
    "invalid_limit": "limit is not a positive number.",
    "invalid_cursor": "The cursor is not one this route returned.",
    "batch_too_large": "An ingest batch holds too many messages.",
    "invalid_batch": "Some items of an ingest batch are invalid; details.errors lists each.",
    "invalid_scope": "The answer scope is malformed.",
    "chat_excluded_from_ai": "A chat of the scope is excluded from AI.",
    "invalid_merge": "These people cannot be merged.",
    "already_merged": "The person is merged into someone else; split that merge first.",
    "request_in_progress": "This requestId is still being answered.",
    "request_id_reused": "This requestId was used for a different request.",
    "turn_not_retryable": "Only a failed, partial or cancelled answer can be retried.",
    "retry_in_progress": "A retry of this answer is streaming; details.turnId names it.",
    "turn_already_retried": "This answer was already retried; details.turnId names the retry.",
    "too_many_streams": "Too many answers stream at once for this account; try again shortly.",
    "stop_unavailable": "The Stop could not be delivered (Redis is unreachable); send it again.",
    "budget_exceeded": "The request would exceed the AI budget; details.resetsAt says when.",
    "ai_disabled": "AI answers are turned off for this account.",
    "price_unknown": "The selected model has no price and cannot run.",
    "reservation_closed": "The request's budget reservation is already closed.",
    "reservation_conflict": "The request attempt already holds a reservation for another model.",
    "proposal_changed": "The proposal changed since it was shown (its payloadHash differs).",
    "proposal_not_pending": "The proposal was already decided.",
    "proposal_expired": "The proposal expired before it was decided.",
    "destination_invalid": "The proposal's destination is no longer valid.",
    "capability_not_granted": "The capability the proposal needs is not granted.",
    "outbox_already_acknowledged": "This outbox message was already acknowledged.",
}
API_ERROR_CODE_CHOICES: list[tuple[str, str]] = [(code, code) for code in API_ERROR_CODES]


_CODES_BY_EXCEPTION: list[tuple[type[Exception], str]] = [
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "permission_denied"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.ParseError, "malformed_json"),
    (exceptions.Throttled, "rate_limited"),
    (exceptions.ValidationError, "invalid_request"),
]


def error_body(*, code: str, message: str, details: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return {"error": body}


def retry_after_of(exc: Exception) -> int | None:
    """Seconds to wait before asking again (``Retry-After``) for a 429, else None."""
    wait = getattr(exc, "wait", None)
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        wait_s: float = wait
        return max(1, math.ceil(wait_s))
    retry_after = getattr(exc, "retry_after_s", None)
    return retry_after if isinstance(retry_after, int) else None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RequestDataTooBig):
        exc = CodedError(
            code="request_too_large",
            message="The request body is too large.",
            status_code=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    elif isinstance(exc, Http404):
        exc = NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()

    if isinstance(exc, CodedError):
        retry_after = retry_after_of(exc)
        return Response(
            error_body(code=exc.code, message=str(exc.detail), details=exc.details),
            status=exc.status_code,
            headers={"Retry-After": str(retry_after)} if retry_after is not None else None,
        )

    handled = drf_exception_handler(exc, context)
    if handled is None:
        return None
    response = handled
    code = next(
        (code for kind, code in _CODES_BY_EXCEPTION if isinstance(exc, kind)), "invalid_request"
    )
    if isinstance(exc, exceptions.ValidationError):
        response.data = error_body(code=code, message="The request is invalid.", details=exc.detail)
    elif isinstance(exc, exceptions.Throttled):
        retry_after = retry_after_of(exc)
        response.data = error_body(
            code=code,
            message="Too many requests; try again later.",
            details={"retryAfterSeconds": retry_after} if retry_after is not None else None,
        )
    else:
        detail = getattr(exc, "detail", "")
        response.data = error_body(code=code, message=str(detail))
    return response
