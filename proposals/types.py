"""What leaves this app: a proposal as the stream and the API show it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class ProposalView:
    """The ``data-proposal`` part: the proposal's id, capability and approval requirement,
    the payload hash the card shows (approval must name it), and display metadata. Never the
    destination's platform ids, never another message's text."""

    proposal_id: int
    capability_id: str
    requires_approval: bool
    status: str
    payload_hash: str
    recipient_name: str
    chat_title: str
    platform: str
    draft_text: str
    expires_at: datetime
    # Server-side only (never in ``as_wire``): where the payload would go.
    chat_id: int = 0
    person_id: int | None = None
    # A message to the whole group chat, not to one person in it.
    is_group: bool = False
    # Shown with the draft when the recipient was one of several contacts the name fits.
    note: str = ""

    def as_wire(self) -> dict[str, Any]:
        display: dict[str, Any] = {
            "recipientName": self.recipient_name,
            "chat": self.chat_title,
            "platform": self.platform,
            "draftText": self.draft_text,
        }
        if self.is_group:
            display["isGroup"] = True
        if self.note:
            display["note"] = self.note
        return {
            "proposalId": str(self.proposal_id),
            "capabilityId": self.capability_id,
            "requiresApproval": self.requires_approval,
            "status": self.status,
            "payloadHash": self.payload_hash,
            "expiresAt": self.expires_at.isoformat(),
            "display": display,
        }
