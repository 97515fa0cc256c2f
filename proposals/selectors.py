"""Reads of capabilities, proposals, receipts and the outbox, always scoped by the user."""

from __future__ import annotations

from django.db.models import QuerySet

from claire.accounts.models import User
from claire.errors import NotFound
from proposals.models import (
    Capability,
    CapabilityGrant,
    OutboxMessage,
    OutboxStatus,
    Proposal,
    Receipt,
)
from proposals.types import ProposalView

OUTBOX_PAGE = 100


def capability_is_granted(*, user: User, capability: Capability) -> bool:
    """Enabled (with its plugin) and granted: explicitly, or by default without a revocation."""
    if not capability.is_enabled or not capability.plugin.is_enabled:
        return False
    grant = CapabilityGrant.objects.filter(user=user, capability=capability).first()
    if grant is not None:
        return grant.is_granted
    return capability.is_granted_by_default


def capabilities_for_user(*, user: User) -> list[tuple[Capability, bool]]:
    capabilities = Capability.objects.select_related("plugin").order_by("plugin__key", "key")
    return [(c, capability_is_granted(user=user, capability=c)) for c in capabilities]


def proposal_get_for_user(*, user: User, proposal_id: int) -> Proposal:
    proposal = (
        Proposal.objects.filter(user=user, pk=proposal_id)
        .select_related("capability", "destination_chat", "destination_person")
        .first()
    )
    if proposal is None:
        raise NotFound()
    return proposal


def proposals_for_user(*, user: User, limit: int = 50) -> QuerySet[Proposal]:
    return (
        Proposal.objects.filter(user=user)
        .select_related("capability", "destination_chat", "destination_person")
        .order_by("-created_at", "-pk")[:limit]
    )


def proposal_view_of(proposal: Proposal) -> ProposalView:
    person = proposal.destination_person
    return ProposalView(
        proposal_id=proposal.pk,
        capability_id=proposal.capability.key,
        requires_approval=proposal.capability.requires_approval,
        status=str(proposal.status),
        payload_hash=proposal.payload_hash,
        recipient_name=person.display_name
        if person is not None
        else proposal.destination_chat.title,
        chat_title=proposal.destination_chat.title,
        platform=str(proposal.destination_chat.platform),
        draft_text=str(proposal.payload.get("text", "")),
        expires_at=proposal.expires_at,
        chat_id=proposal.destination_chat_id,
        person_id=proposal.destination_person_id,
        is_group=proposal.destination_person_id is None,
    )


def proposal_view_for_request(*, user: User, request_id: str) -> ProposalView | None:
    """The proposal an answer request made, for replays of that answer."""
    proposal = (
        Proposal.objects.filter(user=user, request_id=request_id)
        .select_related("capability", "destination_chat", "destination_person")
        .order_by("pk")
        .first()
    )
    return proposal_view_of(proposal) if proposal is not None else None


def receipts_for_proposal(*, user: User, proposal: Proposal) -> QuerySet[Receipt]:
    return Receipt.objects.filter(user=user, proposal=proposal).order_by("pk")


def outbox_pending_for_user(*, user: User) -> QuerySet[OutboxMessage]:
    return OutboxMessage.objects.filter(user=user, status=OutboxStatus.PENDING).order_by("pk")[
        :OUTBOX_PAGE
    ]


def outbox_message_get_for_user(*, user: User, outbox_id: int) -> OutboxMessage:
    message = OutboxMessage.objects.filter(user=user, pk=outbox_id).first()
    if message is None:
        raise NotFound()
    return message
