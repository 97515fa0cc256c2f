from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from memory import services
from memory.models import (
    Loop,
    MemoryJob,
    MemoryPolicy,
    PersonFact,
    PersonFactRejection,
    PersonFactSource,
    PersonMerge,
    Plan,
    PlanStep,
)


class PlanStepInline(admin.TabularInline[PlanStep, Plan]):
    model = PlanStep
    extra = 0
    fields = ("status", "event_label", "sent_at", "message")
    raw_id_fields = ("message",)


@admin.register(Plan)
class PlanAdmin(admin.ModelAdmin[Plan]):
    list_display = ("activity", "place", "event_label", "status", "user", "last_sent_at")
    list_filter = ("status",)
    search_fields = ("user__email", "activity", "place")
    raw_id_fields = ("user",)
    inlines = [PlanStepInline]


@admin.register(Loop)
class LoopAdmin(admin.ModelAdmin[Loop]):
    list_display = ("kind", "status", "user", "person", "chat", "opened_at", "closed_at")
    list_filter = ("kind", "status")
    search_fields = ("user__email",)
    raw_id_fields = ("user", "chat", "person", "opened_by", "resolved_by")


class PersonFactSourceInline(admin.TabularInline[PersonFactSource, PersonFact]):
    model = PersonFactSource
    extra = 0
    raw_id_fields = ("message",)


@admin.register(PersonFact)
class PersonFactAdmin(admin.ModelAdmin[PersonFact]):
    list_display = (
        "person",
        "kind",
        "value",
        "valid_from",
        "superseded_by",
        "is_sensitive",
        "origin",
    )
    list_filter = ("kind", "is_sensitive", "origin")
    search_fields = ("user__email", "person__display_name", "value")
    raw_id_fields = ("user", "person", "related_person", "superseded_by")
    inlines = [PersonFactSourceInline]


@admin.register(MemoryPolicy)
class MemoryPolicyAdmin(admin.ModelAdmin[MemoryPolicy]):
    list_display = ("user", "persist_sensitive_facts", "sensitive_retention_days", "updated_at")
    raw_id_fields = ("user",)


@admin.register(PersonMerge)
class PersonMergeAdmin(admin.ModelAdmin[PersonMerge]):
    """Merges are created through ``services.person_merge`` (which refuses people of two
    users); the admin lists them and splits them."""

    list_display = ("merged_person", "kept_person", "user", "reason", "created_at", "split_at")
    list_filter = ("split_at",)
    search_fields = ("user__email", "kept_person__display_name", "merged_person__display_name")
    raw_id_fields = ("user", "kept_person", "merged_person")
    readonly_fields = ("user", "kept_person", "merged_person", "reason", "created_at", "split_at")
    actions = ["split_selected"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Split the selected merges")
    def split_selected(self, request: HttpRequest, queryset: QuerySet[PersonMerge]) -> None:
        for merge in queryset.select_related("user"):
            services.person_split(user=merge.user, merge_id=merge.pk, now=timezone.now())


@admin.register(PersonFactRejection)
class PersonFactRejectionAdmin(admin.ModelAdmin[PersonFactRejection]):
    list_display = ("person", "kind", "folded_value", "user", "created_at")
    list_filter = ("kind",)
    search_fields = ("user__email", "person__display_name", "folded_value")
    raw_id_fields = ("user", "person")


@admin.register(MemoryJob)
class MemoryJobAdmin(admin.ModelAdmin[MemoryJob]):
    list_display = (
        "user",
        "state",
        "pending_since",
        "runs_count",
        "last_run_chats",
        "last_run_ms",
        "attempts",
        "last_error",
        "updated_at",
    )
    list_filter = ("state",)
    search_fields = ("user__email",)
    raw_id_fields = ("user",)
    readonly_fields = (
        "pending_since",
        "pending_chat_ids",
        "pending_facts",
        "running_since",
        "running_chat_ids",
        "running_facts",
        "facts_inputs_signature",
        "lease_owner",
        "lease_expires_at",
        "runs_count",
        "last_run_chats",
        "last_run_ms",
        "started_at",
        "finished_at",
    )
