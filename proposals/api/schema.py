"""The published shapes of the proposal and outbox endpoints (the views build these bodies
with ``proposals.api.serializers``)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from proposals.api.serializers import MAX_DRAFT_EDIT_CHARS


class ProposalDisplaySerializer(serializers.Serializer[Any]):
    recipientName = serializers.CharField()
    chat = serializers.CharField()
    platform = serializers.CharField()
    draftText = serializers.CharField()


class ReceiptSerializer(serializers.Serializer[Any]):
    receiptId = serializers.CharField()
    proposalId = serializers.CharField()
    status = serializers.CharField()
    idempotencyKey = serializers.CharField()
    createdAt = serializers.DateTimeField()
    platformMessageId = serializers.CharField(required=False)
    errorCode = serializers.CharField(required=False)


class ProposalSerializer(serializers.Serializer[Any]):
    proposalId = serializers.CharField()
    capabilityId = serializers.CharField()
    requiresApproval = serializers.BooleanField()
    status = serializers.CharField()
    payloadHash = serializers.CharField(help_text="Send it back to approve or edit this card.")
    expiresAt = serializers.DateTimeField()
    display = ProposalDisplaySerializer()
    receipts = ReceiptSerializer(many=True, required=False, help_text="Detail only.")


class ProposalListSerializer(serializers.Serializer[Any]):
    proposals = ProposalSerializer(many=True)


class ProposalApproveSerializer(serializers.Serializer[Any]):
    payloadHash = serializers.CharField(min_length=64, max_length=64)


class ProposalEditSerializer(ProposalApproveSerializer):
    draftText = serializers.CharField(max_length=MAX_DRAFT_EDIT_CHARS)


class OutboxMessageSerializer(serializers.Serializer[Any]):
    outboxId = serializers.CharField()
    platform = serializers.CharField()
    chatId = serializers.CharField()
    text = serializers.CharField()
    idempotencyKey = serializers.CharField()
    createdAt = serializers.DateTimeField()


class OutboxSerializer(serializers.Serializer[Any]):
    messages = OutboxMessageSerializer(many=True)


ACK_STATUSES = ["sent", "failed"]


class OutboxAckSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=ACK_STATUSES, required=False, default="sent")
    platformMessageId = serializers.CharField(required=False, help_text="Required when sent.")
    errorCode = serializers.CharField(required=False)
