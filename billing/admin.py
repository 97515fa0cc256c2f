"""Billing in the Django admin: price book versions, AI policies (the AI switch, limits), budget
counters, usage events with totals, and reservations still holding budget.

Counters, reservations and usage events are read-only here: they move only through
``billing.services``. A used price book version is read-only too (the database refuses
changes anyway; see the ``price_book_immutability`` migration)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import admin, messages
from django.db import IntegrityError
from django.db.models import Count, QuerySet, Sum
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone

from billing.errors import PriceBookInvalid
from billing.models import (
    AiPolicy,
    BudgetPeriod,
    OpenReservation,
    PriceBook,
    PriceBookEntry,
    Reservation,
    ReservationState,
    UsageEvent,
)
from billing.money import format_micro_usd
from billing.services.price_books import price_book_copy

# A copied version waits this long before it takes effect, so the operator can edit its
# prices (and move the time) before any request uses and thereby locks it.
NEW_VERSION_DELAY = timedelta(hours=1)


class PriceBookEntryInline(admin.TabularInline[PriceBookEntry, PriceBook]):
    model = PriceBookEntry
    extra = 0
    fields = (
        "provider",
        "model",
        "input_micro_usd_per_million",
        "cached_input_micro_usd_per_million",
        "output_micro_usd_per_million",
        "embedding_micro_usd_per_million",
        "step_reserve_micro_usd",
    )

    def _is_editable(self, obj: PriceBook | None) -> bool:
        return obj is None or not obj.is_locked

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._is_editable(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._is_editable(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._is_editable(obj) and super().has_delete_permission(request, obj)


@admin.register(PriceBook)
class PriceBookAdmin(admin.ModelAdmin[PriceBook]):
    list_display = ("version", "effective_from", "is_locked", "entry_count", "note", "created_at")
    list_filter = ("is_locked",)
    inlines = [PriceBookEntryInline]
    actions = ["version_create_from"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[PriceBook]:
        return super().get_queryset(request).annotate(entries_total=Count("entries"))

    @admin.display(description="entries", ordering="entries_total")
    def entry_count(self, book: PriceBook) -> int:
        return int(getattr(book, "entries_total", 0))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        fields: tuple[str, ...] = ("version", "is_locked", "locked_at", "created_at")
        if obj is not None and obj.is_locked:
            fields += ("effective_from",)
        return fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        # New versions come from "Create a new version from this one" or load_price_book,
        # which number them and copy the entries.
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.is_locked:
            return False
        return super().has_delete_permission(request, obj)

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except IntegrityError:
            # The version was used (and locked) while the form was open.
            self.message_user(
                request,
                "This version was used in the meantime and can no longer change. "
                "Create a new version from it instead.",
                messages.ERROR,
            )
            return HttpResponseRedirect(request.get_full_path())

    @admin.action(description="Create a new version from this one")
    def version_create_from(
        self, request: HttpRequest, queryset: QuerySet[PriceBook]
    ) -> HttpResponse | None:
        sources = list(queryset[:2])
        if len(sources) != 1:
            self.message_user(request, "Select exactly one version to copy.", messages.ERROR)
            return None
        try:
            book = price_book_copy(
                source=sources[0], effective_from=timezone.now() + NEW_VERSION_DELAY
            )
        except PriceBookInvalid as error:
            self.message_user(request, str(error.detail), messages.ERROR)
            return None
        self.message_user(
            request,
            f"Created version {book.version}, effective from "
            f"{book.effective_from:%Y-%m-%d %H:%M %Z}. "
            "Edit its prices and effective time before then.",
            messages.SUCCESS,
        )
        return HttpResponseRedirect(reverse("admin:billing_pricebook_change", args=[book.pk]))


@admin.register(AiPolicy)
class AiPolicyAdmin(admin.ModelAdmin[AiPolicy]):
    list_display = ("user", "is_ai_enabled", "daily_limit", "monthly_limit")
    list_filter = ("is_ai_enabled",)
    search_fields = ("user__email",)
    raw_id_fields = ("user",)
    list_select_related = ("user",)

    @admin.display(description="daily limit", ordering="daily_limit_micro_usd")
    def daily_limit(self, policy: AiPolicy) -> str:
        return format_micro_usd(policy.daily_limit_micro_usd)

    @admin.display(description="monthly limit", ordering="monthly_limit_micro_usd")
    def monthly_limit(self, policy: AiPolicy) -> str:
        return format_micro_usd(policy.monthly_limit_micro_usd)


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(BudgetPeriod)
class BudgetPeriodAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "starts_on", "spent", "reserved", "updated_at")
    list_filter = ("kind",)
    search_fields = ("user__email",)
    date_hierarchy = "starts_on"
    list_select_related = ("user",)

    @admin.display(description="spent", ordering="spent_micro_usd")
    def spent(self, period: BudgetPeriod) -> str:
        return format_micro_usd(period.spent_micro_usd)

    @admin.display(description="reserved", ordering="reserved_micro_usd")
    def reserved(self, period: BudgetPeriod) -> str:
        return format_micro_usd(period.reserved_micro_usd)


@admin.register(UsageEvent)
class UsageEventAdmin(ReadOnlyAdmin):
    list_display = (
        "created_at",
        "user",
        "ending",
        "route",
        "profile",
        "provider",
        "model",
        "price_book_version",
        "input_tokens",
        "cached_input_tokens",
        "output_tokens",
        "embedding_tokens",
        "is_usage_estimated",
        "estimated",
        "settled",
        "time_to_first_token_ms",
        "duration_ms",
    )
    list_filter = (
        ("user", admin.RelatedOnlyFieldListFilter),
        "model",
        "provider",
        "ending",
        "is_usage_estimated",
        ("created_at", admin.DateFieldListFilter),
    )
    search_fields = ("request_id", "user__email")
    date_hierarchy = "created_at"
    list_select_related = ("user",)
    show_full_result_count = False

    @admin.display(description="estimated", ordering="estimated_micro_usd")
    def estimated(self, event: UsageEvent) -> str:
        return format_micro_usd(event.estimated_micro_usd)

    @admin.display(description="settled", ordering="settled_micro_usd")
    def settled(self, event: UsageEvent) -> str:
        return format_micro_usd(event.settled_micro_usd)

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        response = super().changelist_view(request, extra_context)
        if not isinstance(response, TemplateResponse) or response.context_data is None:
            return response
        changelist = response.context_data.get("cl")
        if changelist is None:
            return response
        # Totals of exactly the rows the current filters, search and date drill-down select.
        totals = changelist.queryset.order_by().aggregate(
            events=Count("id"),
            settled=Sum("settled_micro_usd"),
            estimated=Sum("estimated_micro_usd"),
            input_tokens=Sum("input_tokens"),
            cached_input_tokens=Sum("cached_input_tokens"),
            output_tokens=Sum("output_tokens"),
        )
        response.context_data["usage_totals"] = {
            "events": totals["events"],
            "settled": format_micro_usd(totals["settled"] or 0),
            "estimated": format_micro_usd(totals["estimated"] or 0),
            "input_tokens": totals["input_tokens"] or 0,
            "cached_input_tokens": totals["cached_input_tokens"] or 0,
            "output_tokens": totals["output_tokens"] or 0,
        }
        return response


class ReservationAdminBase(ReadOnlyAdmin):
    list_display = (
        "created_at",
        "user",
        "request_id",
        "attempt",
        "provider",
        "model",
        "state",
        "estimated",
        "settled",
        "expires_at",
        "is_expired",
    )
    search_fields = ("request_id", "user__email")
    list_select_related = ("user",)

    @admin.display(description="estimated", ordering="estimated_micro_usd")
    def estimated(self, reservation: Reservation) -> str:
        return format_micro_usd(reservation.estimated_micro_usd)

    @admin.display(description="settled", ordering="settled_micro_usd")
    def settled(self, reservation: Reservation) -> str:
        if reservation.settled_micro_usd is None:
            return "-"
        return format_micro_usd(reservation.settled_micro_usd)

    @admin.display(description="lease over", boolean=True)
    def is_expired(self, reservation: Reservation) -> bool:
        return reservation.state == ReservationState.OPEN and reservation.expires_at <= (
            timezone.now()
        )


@admin.register(Reservation)
class ReservationAdmin(ReservationAdminBase):
    list_filter = ("state", "provider", "model")
    date_hierarchy = "created_at"


@admin.register(OpenReservation)
class OpenReservationAdmin(ReservationAdminBase):
    """Reservations still holding budget; ones past their lease await the sweeper."""

    list_filter = ("provider", "model")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Reservation]:
        return super().get_queryset(request).filter(state=ReservationState.OPEN)
