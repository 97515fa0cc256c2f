"""Wire shapes of proposals, receipts and outbox messages, and request parsing."""

from __future__ import annotations

from typing import Any

from claire.errors import CodedError
from proposals.models import OutboxMessage, Proposal, Receipt
from proposals.selectors import proposal_view_of

MAX_DRAFT_EDIT_CHARS = 2000


def receipt_wire(receipt: Receipt) -> dict[str, Any]:
    wire: dict[str, Any] = {
        "receiptId": str(receipt.pk),
        "proposalId": str(receipt.proposal_id),
        "status": receipt.status,
        "idempotencyKey": receipt.idempotency_key,
        "createdAt": receipt.created_at.isoformat(),
    }
    if receipt.platform_message_id:
        wire["platformMessageId"] = receipt.platform_message_id
    if receipt.error_code:
        wire["errorCode"] = receipt.error_code
    return wire


def proposal_wire(proposal: Proposal, receipts: list[Receipt] | None = None) -> dict[str, Any]:
    wire = proposal_view_of(proposal).as_wire()
    if receipts is not None:
        wire["receipts"] = [receipt_wire(receipt) for receipt in receipts]
    return wire


def outbox_wire(message: OutboxMessage) -> dict[str, Any]:
    return {
        "outboxId": str(message.pk),
        "platform": message.platform,
        "chatId": message.platform_chat_id,
        "text": message.text,
        "idempotencyKey": f"outbox-{message.pk}",
        "createdAt": message.created_at.isoformat(),
    }


def _object(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise CodedError(code="invalid_request", message="The body must be a JSON object.")
    return data


def seen_hash_from(data: Any) -> str:
    value = _object(data).get("payloadHash")
    if not isinstance(value, str) or len(value) != 64:
        raise CodedError(
            code="invalid_request", message="payloadHash (the hash the card shows) is required."
        )
    return value


def draft_text_from(data: Any) -> str:
    value = _object(data).get("draftText")
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_DRAFT_EDIT_CHARS:
        raise CodedError(
            code="invalid_request",
            message=f"draftText must be 1 to {MAX_DRAFT_EDIT_CHARS} characters.",
        )
    return value


def ack_from(data: Any) -> tuple[bool, str, str]:
    """(is_delivered, platform message id, error code) of a bridge acknowledgement."""
    body = _object(data)
    status = body.get("status", "sent")
    if status not in ("sent", "failed"):
        raise CodedError(code="invalid_request", message="status is sent or failed.")
    message_id = body.get("platformMessageId", "")
    if status == "sent" and (not isinstance(message_id, str) or not message_id.strip()):
        raise CodedError(code="invalid_request", message="platformMessageId is required when sent.")
    error_code = body.get("errorCode", "")
    return (
        status == "sent",
        str(message_id or "")[:255],
        str(error_code or "")[:64],
    )
