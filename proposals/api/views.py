"""Proposal decisions (approve, edit, reject) and the messaging bridge's outbox."""

from __future__ import annotations

from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from claire.api.auth import request_user
from proposals import selectors, services
from proposals.api.serializers import (
    ack_from,
    draft_text_from,
    outbox_wire,
    proposal_wire,
    receipt_wire,
    seen_hash_from,
)


class ProposalListView(APIView):
    def get(self, request: Request) -> Response:
        proposals = selectors.proposals_for_user(user=request_user(request))
        return Response({"proposals": [proposal_wire(proposal) for proposal in proposals]})


class ProposalDetailView(APIView):
    def get(self, request: Request, proposal_id: int) -> Response:
        user = request_user(request)
        proposal = selectors.proposal_get_for_user(user=user, proposal_id=proposal_id)
        receipts = list(selectors.receipts_for_proposal(user=user, proposal=proposal))
        return Response(proposal_wire(proposal, receipts))


class ProposalApproveView(APIView):
    def post(self, request: Request, proposal_id: int) -> Response:
        receipt = services.proposal_approve(
            user=request_user(request),
            proposal_id=proposal_id,
            seen_hash=seen_hash_from(request.data),
        )
        return Response(receipt_wire(receipt), status=status.HTTP_202_ACCEPTED)


class ProposalRejectView(APIView):
    def post(self, request: Request, proposal_id: int) -> Response:
        proposal = services.proposal_reject(user=request_user(request), proposal_id=proposal_id)
        return Response(proposal_wire(proposal))


class ProposalEditView(APIView):
    def post(self, request: Request, proposal_id: int) -> Response:
        proposal = services.proposal_edit(
            user=request_user(request),
            proposal_id=proposal_id,
            seen_hash=seen_hash_from(request.data),
            text=draft_text_from(request.data),
        )
        return Response(proposal_wire(proposal))


class OutboxView(APIView):
    """``GET /api/bridge/outbox``: the approved messages the bridge should deliver."""

    def get(self, request: Request) -> Response:
        messages = selectors.outbox_pending_for_user(user=request_user(request))
        return Response({"messages": [outbox_wire(message) for message in messages]})


class OutboxAckView(APIView):
    def post(self, request: Request, outbox_id: int) -> Response:
        is_delivered, platform_message_id, error_code = ack_from(request.data)
        receipt = services.outbox_acknowledge(
            user=request_user(request),
            outbox_id=outbox_id,
            is_delivered=is_delivered,
            platform_message_id=platform_message_id,
            error_code=error_code,
        )
        return Response(receipt_wire(receipt))
