"""Observability in the admin: baselines and gate runs (read-only), rollouts with their audit
log, alert rules with their firings, and the staff dashboard."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.forms import ModelForm
from django.http import HttpRequest

from observability.models import (
    AlertFiring,
    AlertRule,
    GateRun,
    ReleaseBaseline,
    Rollout,
    RolloutEvent,
)
from observability.rollouts import rollout_change_record


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ReleaseBaseline)
class ReleaseBaselineAdmin(ReadOnlyAdmin):
    list_display = (
        "pk",
        "label",
        "profile",
        "answers",
        "ttft_p95_ms",
        "duration_p95_ms",
        "settled_micro_usd",
        "stream_failure_rate",
        "grounding_pass_rate",
        "created_at",
    )


@admin.register(GateRun)
class GateRunAdmin(ReadOnlyAdmin):
    list_display = ("pk", "scope", "is_passed", "baseline", "created_at")
    list_filter = ("is_passed", "scope")


class RolloutEventInline(admin.TabularInline[RolloutEvent, Rollout]):
    model = RolloutEvent
    extra = 0
    fields = ("created_at", "action", "cohort", "actor", "gate_run", "detail")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Rollout)
class RolloutAdmin(admin.ModelAdmin[Rollout]):
    list_display = ("feature", "profile", "previous_profile", "status", "percentage", "updated_at")
    list_filter = ("status",)
    filter_horizontal = ("accounts",)
    inlines = (RolloutEventInline,)

    def save_model(
        self, request: HttpRequest, obj: Rollout, form: ModelForm[Any], change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        changes: dict[str, object] = {
            name: str(form.cleaned_data.get(name)) for name in form.changed_data
        }
        changes.pop("accounts", None)
        rollout_change_record(
            rollout=obj,
            actor=request.user if request.user.is_authenticated else None,
            changes={"created": True, **changes} if not change else changes,
        )

    def save_related(
        self, request: HttpRequest, form: ModelForm[Any], formsets: Any, change: bool
    ) -> None:
        super().save_related(request, form, formsets, change)
        if "accounts" in form.changed_data:
            rollout_change_record(
                rollout=form.instance,
                actor=request.user if request.user.is_authenticated else None,
                changes={"accounts": sorted(form.instance.accounts.values_list("pk", flat=True))},
            )


@admin.register(RolloutEvent)
class RolloutEventAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "rollout", "action", "cohort", "actor", "gate_run")
    list_filter = ("action", "rollout")


@admin.register(AlertRule)
class AlertRuleAdmin(admin.ModelAdmin[AlertRule]):
    list_display = (
        "name",
        "metric",
        "profile",
        "threshold",
        "window_minutes",
        "is_enabled",
        "is_firing",
        "last_value",
        "last_evaluated_at",
    )
    list_filter = ("is_firing", "is_enabled", "metric")
    readonly_fields = ("is_firing", "last_value", "last_evaluated_at")


@admin.register(AlertFiring)
class AlertFiringAdmin(ReadOnlyAdmin):
    list_display = (
        "created_at",
        "rule",
        "state",
        "value",
        "threshold",
        "answers",
        "webhook_status",
    )
    list_filter = ("state", "rule")
