"""Stable error codes of the proposal and outbox endpoints."""

from __future__ import annotations

from http import HTTPStatus

from claire.errors import CodedError


class ProposalChanged(CodedError):
    status_code = HTTPStatus.CONFLICT
    default_code = "proposal_changed"
    default_detail = "The proposal changed since it was shown; review it again."


class ProposalNotPending(CodedError):
    status_code = HTTPStatus.CONFLICT
    default_code = "proposal_not_pending"
    default_detail = "The proposal was already decided."


class ProposalExpired(CodedError):
    status_code = HTTPStatus.CONFLICT
    default_code = "proposal_expired"
    default_detail = "The proposal expired; ask again for a new draft."


class DestinationInvalid(CodedError):
    status_code = HTTPStatus.CONFLICT
    default_code = "destination_invalid"
    default_detail = "The proposal's destination is no longer one of your chats with this person."


class CapabilityNotGranted(CodedError):
    status_code = HTTPStatus.FORBIDDEN
    default_code = "capability_not_granted"
    default_detail = "This capability is not granted."


class OutboxAckConflict(CodedError):
    status_code = HTTPStatus.CONFLICT
    default_code = "outbox_already_acknowledged"
    default_detail = "This message was already acknowledged with another outcome."
