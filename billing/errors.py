"""Billing errors. Each has a stable ``code`` that the API and the answer stream pass on."""

from __future__ import annotations

from http import HTTPStatus

from claire.errors import CodedError


class BudgetExceeded(CodedError):
    """The request's maximum cost does not fit in the user's remaining day or month budget.

    402 rather than 429: retrying soon does not help (``details.resetsAt`` says when the
    period ends), and 429 stays reserved for request-rate limits (``rate_limited``)."""

    status_code = HTTPStatus.PAYMENT_REQUIRED
    default_code = "budget_exceeded"
    default_detail = "This request would exceed your AI budget."


class AiDisabled(CodedError):
    status_code = HTTPStatus.FORBIDDEN
    default_code = "ai_disabled"
    default_detail = "AI answers are turned off for this account."


class PriceUnknown(CodedError):
    """A model without a price in the price book in force must not run."""

    status_code = HTTPStatus.SERVICE_UNAVAILABLE
    default_code = "price_unknown"
    default_detail = "The selected model has no price; it cannot be used."


class ReservationClosed(CodedError):
    status_code = HTTPStatus.CONFLICT
    default_code = "reservation_closed"
    default_detail = "This request's budget reservation is already closed."


class ReservationConflict(CodedError):
    status_code = HTTPStatus.CONFLICT
    default_code = "reservation_conflict"
    default_detail = "This request attempt already holds a reservation for another model."


class PriceBookLocked(CodedError):
    status_code = HTTPStatus.CONFLICT
    default_code = "price_book_locked"
    default_detail = "This price book version has been used and can no longer change."


class PriceBookInvalid(CodedError):
    default_code = "invalid_price_book"
    default_detail = "The price book is invalid."
