"""Capabilities, grants and approval-gated proposals.

- ``Plugin``: an installed plugin (the built-in one is ``claire``) with its manifest's data
  policy: what it may read and where that data goes.
- ``Capability``: one thing a plugin offers, of kind ``read`` (a structured read tool),
  ``propose`` (prepares an action the user must approve) or ``execute`` (acts; only ever after
  an approval). Propose and execute capabilities always require approval (a database check).
- ``CapabilityGrant``: a user's grant (or revocation) of one capability. A capability that is
  granted by default needs no row; a row with ``is_granted=False`` revokes it.
- ``Proposal``: one action prepared for one user intent: the destination resolved from the
  user's own data, the payload and its hash, a status and an expiry. At most one per intent
  (``intent_key``); a rejected one stays rejected.
- ``Receipt``: one approved payload's execution, idempotent on ``proposal id + payload hash``.
- ``OutboxMessage``: what the messaging bridge must deliver; nothing leaves the server
  unless the bridge fetches and acknowledges it.

This app is the only writer of these tables (``proposals.services``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class CapabilityKind(models.TextChoices):
    READ = "read", "Read"
    PROPOSE = "propose", "Propose (needs approval)"
    EXECUTE = "execute", "Execute (after approval)"


class Plugin(models.Model):
    key = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    version = models.CharField(max_length=32, default="1")
    is_builtin = models.BooleanField(default=False)
    is_enabled = models.BooleanField(default=True)
    data_policy = models.JSONField(
        default=dict,
        blank=True,
        help_text=(
            "The manifest's data policy: messageText (none | selected_citations), "
            "processing (local | remote), retentionDays."
        ),
    )
    manifest = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Capability(models.Model):
    plugin = models.ForeignKey(Plugin, on_delete=models.CASCADE, related_name="capabilities")
    key = models.SlugField(max_length=64, unique=True)
    kind = models.CharField(max_length=8, choices=CapabilityKind.choices)
    label = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    requires_approval = models.BooleanField(default=True)
    is_granted_by_default = models.BooleanField(
        default=False, help_text="Granted to every user who has not revoked it."
    )
    is_enabled = models.BooleanField(default=True)

    class Meta:
        verbose_name_plural = "capabilities"
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="read") | Q(requires_approval=True),
                name="capability_actions_require_approval",
            )
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.kind})"


class CapabilityGrant(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="capability_grants"
    )
    capability = models.ForeignKey(Capability, on_delete=models.CASCADE, related_name="grants")
    is_granted = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "capability"], name="capability_grant_unique_user"
            )
        ]

    def __str__(self) -> str:
        return f"{self.capability_id} for {self.user_id}: {self.is_granted}"


class ProposalStatus(models.TextChoices):
    PROPOSED = "proposed", "Waiting for approval"
    APPROVED = "approved", "Approved, queued"
    SENT = "sent", "Sent"
    FAILED = "failed", "Delivery failed"
    REJECTED = "rejected", "Rejected"
    EXPIRED = "expired", "Expired"


class Proposal(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="proposals"
    )
    capability = models.ForeignKey(Capability, on_delete=models.PROTECT, related_name="proposals")
    request_id = models.CharField(
        max_length=64, help_text="The answer request that proposed it (replays show it again)."
    )
    intent_key = models.CharField(
        max_length=64, help_text="Hash of what the user asked for: one proposal per intent."
    )
    destination_chat = models.ForeignKey(
        "conversations.Chat", on_delete=models.CASCADE, related_name="proposals"
    )
    destination_person = models.ForeignKey(
        "conversations.Person",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="proposals",
    )
    payload = models.JSONField()
    payload_hash = models.CharField(max_length=64)
    revision = models.PositiveIntegerField(default=1)
    draft_source = models.CharField(
        max_length=200, blank=True, help_text="local drafter, or the model key that drafted it"
    )
    status = models.CharField(
        max_length=16, choices=ProposalStatus.choices, default=ProposalStatus.PROPOSED
    )
    expires_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "intent_key"], name="proposal_unique_intent"),
        ]
        indexes = [
            models.Index(fields=["user", "request_id"], name="proposal_user_request"),
            models.Index(fields=["user", "-created_at"], name="proposal_user_recent"),
        ]

    def __str__(self) -> str:
        return f"Proposal {self.pk} ({self.status})"


class ReceiptStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    OUTBOXED = "outboxed", "Waiting for the bridge"
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed"


class Receipt(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="proposal_receipts"
    )
    proposal = models.ForeignKey(Proposal, on_delete=models.CASCADE, related_name="receipts")
    idempotency_key = models.CharField(max_length=100, unique=True)
    payload_hash = models.CharField(max_length=64)
    status = models.CharField(
        max_length=16, choices=ReceiptStatus.choices, default=ReceiptStatus.QUEUED
    )
    platform_message_id = models.CharField(max_length=255, blank=True)
    error_code = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Receipt {self.pk} ({self.status})"


class OutboxStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Failed"


class OutboxMessage(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="outbox_messages"
    )
    receipt = models.OneToOneField(Receipt, on_delete=models.CASCADE, related_name="outbox")
    chat = models.ForeignKey(
        "conversations.Chat", on_delete=models.CASCADE, related_name="outbox_messages"
    )
    platform = models.CharField(max_length=16)
    platform_chat_id = models.CharField(max_length=255)
    text = models.TextField()
    status = models.CharField(
        max_length=16, choices=OutboxStatus.choices, default=OutboxStatus.PENDING
    )
    platform_message_id = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    acked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["user", "status", "id"], name="outbox_user_pending"),
        ]

    def __str__(self) -> str:
        return f"Outbox {self.pk} ({self.status})"
