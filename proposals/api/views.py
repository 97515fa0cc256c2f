"""Proposal decisions (approve, edit, reject) and the messaging bridge's outbox."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from claire.api.auth import request_user
from claire.api.schema import NOT_FOUND, error_response
from proposals import selectors, services
from proposals.api.schema import (
    OutboxAckSerializer,
    OutboxSerializer,
    ProposalApproveSerializer,
    ProposalEditSerializer,
    ProposalListSerializer,
    ProposalSerializer,
    ReceiptSerializer,
)
from proposals.api.serializers import (
    ack_from,
    draft_text_from,
    outbox_wire,
    proposal_wire,
    receipt_wire,
    seen_hash_from,
)

PROPOSAL_CONFLICTS = error_response(
    "`proposal_changed`, `proposal_not_pending`, `proposal_expired` or `destination_invalid`."
)


class ProposalListView(APIView):
    @extend_schema(operation_id="proposals_list", responses={200: ProposalListSerializer})
    def get(self, request: Request) -> Response:
        proposals = selectors.proposals_for_user(user=request_user(request))
        return Response({"proposals": [proposal_wire(proposal) for proposal in proposals]})


class ProposalDetailView(APIView):
    @extend_schema(operation_id="proposal_get", responses={200: ProposalSerializer, 404: NOT_FOUND})
    def get(self, request: Request, proposal_id: int) -> Response:
        user = request_user(request)
        proposal = selectors.proposal_get_for_user(user=user, proposal_id=proposal_id)
        receipts = list(selectors.receipts_for_proposal(user=user, proposal=proposal))
        return Response(proposal_wire(proposal, receipts))


class ProposalApproveView(APIView):
    @extend_schema(
        operation_id="proposal_approve",
        request=ProposalApproveSerializer,
        responses={
            202: ReceiptSerializer,
            403: error_response("`capability_not_granted`, or a session write without CSRF."),
            404: NOT_FOUND,
            409: PROPOSAL_CONFLICTS,
        },
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        receipt = services.proposal_approve(
            user=request_user(request),
            proposal_id=proposal_id,
            seen_hash=seen_hash_from(request.data),
        )
        return Response(receipt_wire(receipt), status=status.HTTP_202_ACCEPTED)


class ProposalRejectView(APIView):
    @extend_schema(
        operation_id="proposal_reject",
        request=None,
        responses={200: ProposalSerializer, 404: NOT_FOUND, 409: PROPOSAL_CONFLICTS},
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        proposal = services.proposal_reject(user=request_user(request), proposal_id=proposal_id)
        return Response(proposal_wire(proposal))


class ProposalEditView(APIView):
    @extend_schema(
        operation_id="proposal_edit",
        request=ProposalEditSerializer,
        responses={200: ProposalSerializer, 404: NOT_FOUND, 409: PROPOSAL_CONFLICTS},
    )
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

    @extend_schema(operation_id="bridge_outbox", responses={200: OutboxSerializer})
    def get(self, request: Request) -> Response:
        messages = selectors.outbox_pending_for_user(user=request_user(request))
        return Response({"messages": [outbox_wire(message) for message in messages]})


class OutboxAckView(APIView):
    @extend_schema(
        operation_id="bridge_outbox_ack",
        request=OutboxAckSerializer,
        responses={
            200: ReceiptSerializer,
            404: NOT_FOUND,
            409: error_response("`outbox_already_acknowledged`."),
        },
    )
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
