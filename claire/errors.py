"""Errors with a stable code, raised by domain code (services, selectors, engines).

A ``CodedError`` carries what a client may branch on -- a stable ``code`` (listed in
``claire.api.errors.API_ERROR_CODES``), a message for people, optional ``details`` and the HTTP
status it answers with -- and nothing of the web framework: the API's exception handler and the
streaming endpoint turn it into the error shape (``claire.api.errors``), a management command
into one line. In the spirit of Zulip's ``JsonableError``.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any


class CodedError(Exception):
    status_code: int = HTTPStatus.BAD_REQUEST
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
        self.code: str = code or self.default_code
        self.detail: str = message or self.default_detail
        super().__init__(self.detail)
        if status_code is not None:
            self.status_code = status_code
        self.details = details


class NotFound(CodedError):
    """Raised for missing objects and for objects owned by someone else alike."""

    status_code = HTTPStatus.NOT_FOUND
    default_code = "not_found"
    default_detail = "Not found."
