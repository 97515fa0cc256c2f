"""Stable, safe error codes for every API response.

Every error body has the same shape::

    {"error": {"code": "invalid_request", "message": "...", "details": {...}}}

``code`` is a stable identifier clients may branch on; ``message`` is for people; ``details``
is optional and never contains another user's data or a raw provider error.
"""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class ApiError(exceptions.APIException):
    """An error with a stable code, raised by views or services."""

    status_code: int = status.HTTP_400_BAD_REQUEST
    default_code = "invalid_request"
    default_detail = "The request is invalid."

    def __init__(
        self,
        *,
        code: str | None = None,
        message: str | None = None,
        status_code: int | None = None,
        details: Any = None,
    ) -> None:
        super().__init__(detail=message or self.default_detail, code=code or self.default_code)
        self.code = code or self.default_code
        if status_code is not None:
            self.status_code = status_code
        self.details = details


class NotFound(ApiError):
    """Raised for missing objects and for objects owned by someone else alike."""

    status_code: int = status.HTTP_404_NOT_FOUND
    default_code = "not_found"
    default_detail = "Not found."


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
        return max(1, math.ceil(wait))
    retry_after = getattr(exc, "retry_after_s", None)
    return retry_after if isinstance(retry_after, int) else None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RequestDataTooBig):
        exc = ApiError(
            code="request_too_large",
            message="The request body is too large.",
            status_code=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    elif isinstance(exc, Http404):
        exc = NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()

    if isinstance(exc, ApiError):
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
