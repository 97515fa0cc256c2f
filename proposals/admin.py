"""Admin pages: plugins, capabilities, grants, proposals, receipts and the outbox.

Proposals, receipts and outbox messages are read-only here: decisions go through the
approval endpoints, which verify the payload hash, destination and grant.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from proposals.models import (
    Capability,
    CapabilityGrant,
    OutboxMessage,
    Plugin,
    Proposal,
    Receipt,
)


class CapabilityInline(admin.TabularInline[Capability, Plugin]):
    model = Capability
    extra = 0
    fields = ("key", "kind", "label", "requires_approval", "is_granted_by_default", "is_enabled")


@admin.register(Plugin)
class PluginAdmin(admin.ModelAdmin[Plugin]):
    list_display = ("key", "name", "version", "is_builtin", "is_enabled", "created_at")
    readonly_fields = ("manifest", "created_at")
    inlines = [CapabilityInline]


@admin.register(Capability)
class CapabilityAdmin(admin.ModelAdmin[Capability]):
    list_display = ("key", "plugin", "kind", "requires_approval", "is_granted_by_default")
    list_filter = ("kind", "plugin")


@admin.register(CapabilityGrant)
class CapabilityGrantAdmin(admin.ModelAdmin[CapabilityGrant]):
    list_display = ("user", "capability", "is_granted", "updated_at")
    list_filter = ("capability", "is_granted")
    raw_id_fields = ("user",)


class _ReadOnly(admin.ModelAdmin[Any]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Proposal)
class ProposalAdmin(_ReadOnly):
    list_display = ("id", "user", "capability", "status", "destination_chat", "expires_at")
    list_filter = ("status", "capability")
    # The draft is the user's own text: shown to operators only on the detail page.
    readonly_fields = [field.name for field in Proposal._meta.fields]


@admin.register(Receipt)
class ReceiptAdmin(_ReadOnly):
    list_display = ("id", "user", "proposal", "status", "platform_message_id", "updated_at")
    list_filter = ("status",)


@admin.register(OutboxMessage)
class OutboxMessageAdmin(_ReadOnly):
    list_display = ("id", "user", "platform", "status", "created_at", "acked_at")
    list_filter = ("status", "platform")
    exclude = ("text",)
