"""Operators' view of the index: versions (cutover, retire), per-user progress with a bar,
jobs, and permanent failures with a retry action."""

from __future__ import annotations

from collections import defaultdict

from django.conf import settings
from django.contrib import admin, messages
from django.db.models import QuerySet, Sum
from django.http import HttpRequest
from django.utils.html import format_html

from claire.celery import task_send
from indexing import dispatch, services
from indexing.models import (
    OPEN_JOB_STATES,
    EmbeddingFailure,
    EntryState,
    IndexJob,
    IndexProgress,
    IndexVersion,
    IndexVersionState,
)


def _progress_bar(*, embedded: int, failed: int, eligible: int) -> str:
    """An HTML bar: green embedded, red failed, grey pending."""
    if eligible <= 0:
        return format_html('<span style="color:#888">{}</span>', "nothing to index")
    done = min(100.0, 100.0 * embedded / eligible)
    bad = min(100.0 - done, 100.0 * failed / eligible)
    return format_html(
        '<div style="width:160px;height:12px;background:#ddd;display:inline-block;'
        'vertical-align:middle;border-radius:2px;overflow:hidden" title="{} of {} embedded, {} '
        'failed"><div style="width:{}%;height:100%;background:#3a3;float:left"></div>'
        '<div style="width:{}%;height:100%;background:#c33;float:left"></div></div> {}%',
        embedded,
        eligible,
        failed,
        f"{done:.1f}",
        f"{bad:.1f}",
        f"{done:.1f}",
    )


@admin.register(IndexVersion)
class IndexVersionAdmin(admin.ModelAdmin[IndexVersion]):
    list_display = (
        "version",
        "state",
        "provider",
        "model",
        "dimensions",
        "overall_progress",
        "created_at",
        "activated_at",
    )
    list_filter = ("state",)
    readonly_fields = (
        "version",
        "profile",
        "provider",
        "model",
        "dimensions",
        "state",
        "created_at",
        "activated_at",
        "retired_at",
    )
    actions = ["cutover_action", "retire_action"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Versions come from the embed profile's model (index_version_create), not a form.
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[IndexVersion]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                total_eligible=Sum("progress__eligible"),
                total_embedded=Sum("progress__embedded"),
                total_failed=Sum("progress__failed"),
            )
        )

    @admin.display(description="progress (all users)")
    def overall_progress(self, version: IndexVersion) -> str:
        return _progress_bar(
            embedded=getattr(version, "total_embedded", 0) or 0,
            failed=getattr(version, "total_failed", 0) or 0,
            eligible=getattr(version, "total_eligible", 0) or 0,
        )

    @admin.action(description="Cut over to the selected (complete, building) version")
    def cutover_action(self, request: HttpRequest, queryset: QuerySet[IndexVersion]) -> None:
        if queryset.count() != 1:
            self.message_user(request, "Select exactly one version.", messages.ERROR)
            return
        version = queryset.get()
        try:
            previous = services.index_cutover(to_version=version)
        except services.IndexingError as error:
            self.message_user(request, str(error), messages.ERROR)
            return
        note = f" Version {previous.version} is now retiring." if previous else ""
        self.message_user(request, f"Version {version.version} is active.{note}", messages.SUCCESS)

    @admin.action(description="Retire the selected versions (delete their vectors)")
    def retire_action(self, request: HttpRequest, queryset: QuerySet[IndexVersion]) -> None:
        for version in queryset:
            if version.state in (IndexVersionState.ACTIVE, IndexVersionState.RETIRED):
                self.message_user(
                    request, f"Version {version.version} is {version.state}.", messages.ERROR
                )
                continue
            task_send(
                "indexing.retire_version", args=[version.pk], queue=settings.INDEXING_CELERY_QUEUE
            )
            self.message_user(
                request, f"Retiring version {version.version} in the background.", messages.INFO
            )


@admin.register(IndexProgress)
class IndexProgressAdmin(admin.ModelAdmin[IndexProgress]):
    list_display = (
        "user",
        "index_version",
        "bar",
        "eligible",
        "embedded",
        "failed",
        "pending_count",
        "is_seeded",
        "updated_at",
    )
    list_filter = ("index_version", "is_seeded")
    search_fields = ("user__email",)
    list_select_related = ("user", "index_version")
    readonly_fields = ("user", "index_version", "eligible", "embedded", "failed", "is_seeded")
    actions = ["reindex_action"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="progress")
    def bar(self, progress: IndexProgress) -> str:
        return _progress_bar(
            embedded=progress.embedded, failed=progress.failed, eligible=progress.eligible
        )

    @admin.display(description="pending")
    def pending_count(self, progress: IndexProgress) -> int:
        return progress.pending

    @admin.action(description="Run the indexing job for the selected users")
    def reindex_action(self, request: HttpRequest, queryset: QuerySet[IndexProgress]) -> None:
        sent = 0
        for progress in queryset:
            sent += len(
                dispatch.index_jobs_enqueue(
                    user_id=progress.user_id, version_ids=[progress.index_version_id]
                )
            )
        self.message_user(request, f"{sent} job(s) queued.", messages.SUCCESS)


@admin.register(IndexJob)
class IndexJobAdmin(admin.ModelAdmin[IndexJob]):
    list_display = (
        "pk",
        "user",
        "index_version",
        "state",
        "phase",
        "embedded_count",
        "failed_count",
        "attempts",
        "last_error",
        "lease_expires_at",
        "updated_at",
    )
    list_filter = ("state", "phase", "index_version")
    search_fields = ("user__email",)
    list_select_related = ("user", "index_version")
    readonly_fields = [field.name for field in IndexJob._meta.fields]
    actions = ["retry_action"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Run again (failed jobs, or stranded open ones)")
    def retry_action(self, request: HttpRequest, queryset: QuerySet[IndexJob]) -> None:
        sent = 0
        for job in queryset.exclude(state__in=OPEN_JOB_STATES):
            sent += len(
                dispatch.index_jobs_enqueue(user_id=job.user_id, version_ids=[job.index_version_id])
            )
        sent += len(dispatch.index_jobs_recover_and_send())
        self.message_user(request, f"{sent} job(s) queued.", messages.SUCCESS)


@admin.register(EmbeddingFailure)
class EmbeddingFailureAdmin(admin.ModelAdmin[EmbeddingFailure]):
    list_display = (
        "message",
        "user",
        "index_version",
        "error_code",
        "attempts",
        "last_attempt_at",
    )
    list_filter = ("error_code", "index_version")
    search_fields = ("user__email",)
    list_select_related = ("user", "index_version", "message")
    raw_id_fields = ("message", "user", "chat")
    exclude = ("embedding",)
    readonly_fields = (
        "message",
        "user",
        "chat",
        "index_version",
        "state",
        "content_hash",
        "error_code",
        "attempts",
        "last_attempt_at",
        "sent_at",
    )
    actions = ["retry_action"]
    show_full_result_count = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[EmbeddingFailure]:
        return super().get_queryset(request).filter(state=EntryState.FAILED)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Retry embedding the selected messages")
    def retry_action(self, request: HttpRequest, queryset: QuerySet[EmbeddingFailure]) -> None:
        retry = services.embedding_failures_retry(
            entry_ids=list(queryset.values_list("pk", flat=True))
        )
        versions_by_user: dict[int, set[int]] = defaultdict(set)
        for user_id, version_id in retry.jobs_needed:
            versions_by_user[user_id].add(version_id)
        for user_id, version_ids in versions_by_user.items():
            dispatch.index_jobs_enqueue(user_id=user_id, version_ids=version_ids)
        self.message_user(
            request, f"{retry.retried} message(s) queued for embedding again.", messages.SUCCESS
        )
