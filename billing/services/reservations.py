"""Budget reservation and settlement, per generation attempt.

Locks are taken in one order everywhere -- price book row, then reservation row, then budget
period rows by primary key -- so concurrent requests queue instead of deadlocking."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from billing.errors import (
    AiDisabled,
    BudgetExceeded,
    PriceUnknown,
    ReservationClosed,
    ReservationConflict,
)
from billing.models import (
    BudgetPeriod,
    Ending,
    PriceBookEntry,
    Reservation,
    ReservationState,
    UsageEvent,
)
from billing.periods import PeriodKey, period_keys
from billing.services.policy import ai_policy_get_or_create
from billing.services.pricing import (
    cost_of_usage,
    entry_in_book,
    plan_cost,
    plan_usage,
    price_book_in_force,
    price_book_lock_for_use,
)
from billing.types import CostPlan, UsageLike, UsageTelemetry
from claire.accounts.models import User

logger = logging.getLogger(__name__)

# The error class recorded on usage events of reservations closed by the sweeper.
ORPHANED_ERROR_CLASS = "orphaned_reservation"


def budget_periods_lock(
    *, user: User, keys: tuple[PeriodKey, PeriodKey]
) -> tuple[BudgetPeriod, BudgetPeriod]:
    """The user's (day, month) period rows for ``keys``, created if missing and locked
    ``FOR UPDATE`` in primary-key order. Caller is inside a transaction."""
    day_key, month_key = keys
    match = Q(kind=day_key.kind, starts_on=day_key.starts_on) | Q(
        kind=month_key.kind, starts_on=month_key.starts_on
    )

    def select() -> list[BudgetPeriod]:
        return list(
            BudgetPeriod.objects.select_for_update().filter(match, user=user).order_by("pk")
        )

    rows = select()
    if len(rows) < 2:
        BudgetPeriod.objects.bulk_create(
            [BudgetPeriod(user=user, kind=key.kind, starts_on=key.starts_on) for key in keys],
            ignore_conflicts=True,
        )
        rows = select()
    by_kind = {row.kind: row for row in rows}
    return by_kind[day_key.kind], by_kind[month_key.kind]


def periods_lock_by_id(period_ids: Iterable[int]) -> list[BudgetPeriod]:
    return list(
        BudgetPeriod.objects.select_for_update().filter(pk__in=set(period_ids)).order_by("pk")
    )


# --- Reservation ----------------------------------------------------------------------------


def budget_reserve(
    *,
    user: User,
    request_id: str,
    provider: str,
    model: str,
    plan: CostPlan,
    attempt: int = 1,
    embedding_provider: str = "",
    embedding_model: str = "",
    now: datetime | None = None,
) -> Reservation:
    """Hold the maximum cost of one generation attempt against the user's budgets.

    The estimate is ``estimated_max_cost`` of ``plan`` with the prices of the book in force
    now; the book is locked (immutable) by its first use. The user's day and month rows are
    locked ``FOR UPDATE`` for the check-and-add, so concurrent requests never push
    ``spent + reserved`` above a limit.

    Raises ``AiDisabled`` (``ai_disabled``), ``PriceUnknown`` (``price_unknown``) or
    ``BudgetExceeded`` (``budget_exceeded``) having changed nothing. Idempotent on
    (user, request_id, attempt): the same open reservation is returned again; a closed one
    raises ``ReservationClosed``, one for another model ``ReservationConflict``."""
    now = now or timezone.now()
    with transaction.atomic():
        policy = ai_policy_get_or_create(user=user)
        if not policy.is_ai_enabled:
            raise AiDisabled()

        book = price_book_in_force(at=now)
        if book is None:
            raise PriceUnknown(details={"provider": provider, "model": model})
        entry = entry_in_book(book=book, provider=provider, model=model)
        embedding_entry = (
            entry_in_book(book=book, provider=embedding_provider, model=embedding_model)
            if embedding_model
            else None
        )
        if price_book_lock_for_use(book=book, now=now):
            # Read the prices again now that nobody can change them any more.
            entry = entry_in_book(book=book, provider=provider, model=model)
            if embedding_model:
                embedding_entry = entry_in_book(
                    book=book, provider=embedding_provider, model=embedding_model
                )
            logger.info("billing.price_book_locked", extra={"version": book.version})
        estimate = plan_cost(entry=entry, plan=plan, embedding_entry=embedding_entry)

        keys = period_keys(zone=user.zoneinfo, now=now)
        day, month = budget_periods_lock(user=user, keys=keys)

        existing = Reservation.objects.filter(
            user=user, request_id=request_id, attempt=attempt
        ).first()
        if existing is not None:
            return _reservation_existing(
                existing=existing,
                provider=provider,
                model=model,
                embedding_provider=embedding_provider,
                embedding_model=embedding_model,
            )

        amount = estimate.total_micro_usd
        limits = (
            (day, keys[0], policy.daily_limit_micro_usd),
            (month, keys[1], policy.monthly_limit_micro_usd),
        )
        for period, key, limit in limits:
            if period.spent_micro_usd + period.reserved_micro_usd + amount > limit:
                logger.info(
                    "billing.budget_exceeded",
                    extra={
                        "user_id": user.pk,
                        "request_id": request_id,
                        "period": period.kind,
                        "estimate_micro_usd": amount,
                    },
                )
                raise BudgetExceeded(
                    details={
                        "period": period.kind,
                        "limitMicroUsd": limit,
                        "spentMicroUsd": period.spent_micro_usd,
                        "reservedMicroUsd": period.reserved_micro_usd,
                        "requestedMicroUsd": amount,
                        "resetsAt": key.resets_at.isoformat(),
                    }
                )
        if amount:
            BudgetPeriod.objects.filter(pk__in=[day.pk, month.pk]).update(
                reserved_micro_usd=F("reserved_micro_usd") + amount, updated_at=now
            )
        reservation = Reservation.objects.create(
            user=user,
            request_id=request_id,
            attempt=attempt,
            price_book=book,
            provider=provider,
            model=model,
            embedding_provider=embedding_provider if embedding_model else "",
            embedding_model=embedding_model,
            day_period=day,
            month_period=month,
            query_embedding_tokens=plan.query_embedding_tokens,
            uncached_input_tokens=plan.uncached_input_tokens,
            cache_read_tokens=plan.cache_read_tokens,
            max_output_tokens=plan.max_output_tokens,
            permitted_additional_steps=plan.permitted_additional_steps,
            estimated_micro_usd=amount,
            created_at=now,
            expires_at=now + timedelta(seconds=settings.BILLING_RESERVATION_LEASE_SECONDS),
        )
    logger.info(
        "billing.reserved",
        extra={
            "user_id": user.pk,
            "request_id": request_id,
            "attempt": attempt,
            "provider": provider,
            "model": model,
            "price_book_version": book.version,
            "estimate_micro_usd": amount,
        },
    )
    return reservation


def _reservation_existing(
    *,
    existing: Reservation,
    provider: str,
    model: str,
    embedding_provider: str,
    embedding_model: str,
) -> Reservation:
    if (existing.provider, existing.model, existing.embedding_model) != (
        provider,
        model,
        embedding_model,
    ) or (embedding_model and existing.embedding_provider != embedding_provider):
        raise ReservationConflict(details={"requestId": existing.request_id})
    if existing.state != ReservationState.OPEN:
        raise ReservationClosed(details={"requestId": existing.request_id})
    return existing


def _reservation_plan(reservation: Reservation) -> CostPlan:
    return CostPlan(
        query_embedding_tokens=reservation.query_embedding_tokens,
        uncached_input_tokens=reservation.uncached_input_tokens,
        cache_read_tokens=reservation.cache_read_tokens,
        max_output_tokens=reservation.max_output_tokens,
        permitted_additional_steps=reservation.permitted_additional_steps,
    )


def reservation_lock(*, reservation_id: int) -> Reservation:
    return (
        Reservation.objects.select_for_update(of=("self",))
        .select_related("price_book")
        .get(pk=reservation_id)
    )


# --- Settlement -----------------------------------------------------------------------------


def reservation_settle(
    *,
    reservation: Reservation,
    usage: UsageLike | None,
    ending: str,
    telemetry: UsageTelemetry,
    answered_by: tuple[str, str] | None = None,
    now: datetime | None = None,
) -> UsageEvent:
    """Close an attempt: charge its cost, release the rest of the hold, write its usage event.

    ``answered_by`` is the (provider, model) price key of the model that actually ran, when a
    failover moved the call off the reserved one: the usage is priced at that model's rates in
    the reservation's price-book version, and the event names it. A model that version has no
    price for is charged at the reserved model's rates and logged (``billing.settle_unpriced``).

    ``ending`` is ``completed``, ``failed``, ``cancelled`` or ``partial``. The cost is
    ``usage`` priced with the price-book version the reservation was made with (never the
    version in force now). ``usage=None`` means the provider reported nothing: the attempt
    is assumed to have used its whole plan, and the event is flagged as estimated, as it is
    when ``usage.is_estimated``. A cost above the estimate is charged in full and logged.

    Idempotent: settling a settled reservation returns its usage event unchanged. Raises
    ``ReservationClosed`` for a released reservation."""
    if ending not in Ending.values or ending in (Ending.NO_CALL, Ending.ABANDONED):
        raise ValueError(f"not a settlement ending: {ending!r}")
    with transaction.atomic():
        locked = reservation_lock(reservation_id=reservation.pk)
        if locked.state != ReservationState.OPEN:
            event = UsageEvent.objects.filter(reservation=locked).first()
            if event is None:
                raise ReservationClosed(details={"requestId": locked.request_id})
            logger.info(
                "billing.settle_repeated",
                extra={"request_id": locked.request_id, "attempt": locked.attempt},
            )
            return event
        event = _reservation_settle_locked(
            reservation=locked,
            usage=usage,
            ending=ending,
            telemetry=telemetry,
            answered_by=answered_by,
            now=now or timezone.now(),
        )
    reservation.state = locked.state
    reservation.settled_micro_usd = locked.settled_micro_usd
    reservation.closed_at = locked.closed_at
    return event


def _reservation_settle_locked(
    *,
    reservation: Reservation,
    usage: UsageLike | None,
    ending: str,
    telemetry: UsageTelemetry,
    now: datetime,
    answered_by: tuple[str, str] | None = None,
) -> UsageEvent:
    """Caller holds the reservation row lock and checked that it is open."""
    book = reservation.price_book
    entry = _settlement_entry(reservation=reservation, answered_by=answered_by)
    embedding_entry = (
        entry_in_book(
            book=book, provider=reservation.embedding_provider, model=reservation.embedding_model
        )
        if reservation.embedding_model
        else None
    )
    counted: UsageLike = usage if usage is not None else plan_usage(_reservation_plan(reservation))
    cost = cost_of_usage(entry=entry, usage=counted, embedding_entry=embedding_entry)
    settled = cost.total_micro_usd

    periods_lock_by_id([reservation.day_period_id, reservation.month_period_id])
    BudgetPeriod.objects.filter(
        pk__in=[reservation.day_period_id, reservation.month_period_id]
    ).update(
        reserved_micro_usd=F("reserved_micro_usd") - reservation.estimated_micro_usd,
        spent_micro_usd=F("spent_micro_usd") + settled,
        updated_at=now,
    )
    reservation.state = ReservationState.SETTLED
    reservation.settled_micro_usd = settled
    reservation.closed_at = now
    reservation.save(update_fields=["state", "settled_micro_usd", "closed_at"])

    event = UsageEvent.objects.create(
        user_id=reservation.user_id,
        reservation=reservation,
        request_id=reservation.request_id,
        attempt=reservation.attempt,
        route=telemetry.route,
        profile=telemetry.profile,
        provider=entry.provider,
        model=entry.model,
        price_book=book,
        price_book_version=book.version,
        ending=ending,
        input_tokens=counted.uncached_input_tokens + counted.cached_input_tokens,
        cached_input_tokens=counted.cached_input_tokens,
        output_tokens=counted.output_tokens,
        embedding_tokens=counted.embedding_tokens,
        is_usage_estimated=counted.is_estimated,
        estimated_micro_usd=reservation.estimated_micro_usd,
        settled_micro_usd=settled,
        time_to_first_token_ms=telemetry.time_to_first_token_ms,
        duration_ms=telemetry.duration_ms,
        source_count=telemetry.source_count,
        cache_status=telemetry.cache_status,
        error_class=telemetry.error_class,
        created_at=now,
    )
    fields = {
        "user_id": reservation.user_id,
        "request_id": reservation.request_id,
        "attempt": reservation.attempt,
        "ending": ending,
        "provider": entry.provider,
        "model": entry.model,
        "reserved_model": f"{reservation.provider}/{reservation.model}",
        "price_book_version": book.version,
        "estimate_micro_usd": reservation.estimated_micro_usd,
        "settled_micro_usd": settled,
        "is_usage_estimated": counted.is_estimated,
    }
    logger.info("billing.settled", extra=fields)
    if settled > reservation.estimated_micro_usd:
        logger.warning("billing.settled_over_estimate", extra=fields)
    return event


def _settlement_entry(
    *, reservation: Reservation, answered_by: tuple[str, str] | None
) -> PriceBookEntry:
    """The price entry a settlement charges: the answering model's in the reservation's book
    version, or the reserved model's when none ran or that version has no price for it."""
    reserved = (reservation.provider, reservation.model)
    if answered_by is not None and answered_by != reserved:
        provider, model = answered_by
        entry = PriceBookEntry.objects.filter(
            price_book_id=reservation.price_book_id, provider=provider, model=model
        ).first()
        if entry is not None:
            return entry
        logger.warning(
            "billing.settle_unpriced",
            extra={
                "request_id": reservation.request_id,
                "provider": provider,
                "model": model,
                "price_book_version": reservation.price_book.version,
            },
        )
    return entry_in_book(
        book=reservation.price_book, provider=reservation.provider, model=reservation.model
    )


def reservation_release(*, reservation: Reservation, now: datetime | None = None) -> Reservation:
    """Give the whole hold back for an attempt that used nothing (it never reached a
    provider). Writes no usage event. Idempotent: a closed reservation is returned as is."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = reservation_lock(reservation_id=reservation.pk)
        if locked.state == ReservationState.OPEN:
            periods_lock_by_id([locked.day_period_id, locked.month_period_id])
            BudgetPeriod.objects.filter(
                pk__in=[locked.day_period_id, locked.month_period_id]
            ).update(
                reserved_micro_usd=F("reserved_micro_usd") - locked.estimated_micro_usd,
                updated_at=now,
            )
            locked.state = ReservationState.RELEASED
            locked.settled_micro_usd = 0
            locked.closed_at = now
            locked.save(update_fields=["state", "settled_micro_usd", "closed_at"])
            logger.info(
                "billing.released",
                extra={
                    "user_id": locked.user_id,
                    "request_id": locked.request_id,
                    "attempt": locked.attempt,
                    "estimate_micro_usd": locked.estimated_micro_usd,
                },
            )
    return locked


def reservations_sweep(*, expired_before: datetime, batch_size: int = 500) -> int:
    """Close open reservations whose lease ended at or before ``expired_before``: their
    process is gone. Each is settled as ``abandoned`` with estimated usage (its whole plan,
    since the provider may have billed for it), so the hold never stays open. Rows being
    settled by a live process are skipped and left to it. Returns how many were closed."""
    candidate_ids = list(
        Reservation.objects.filter(state=ReservationState.OPEN, expires_at__lte=expired_before)
        .order_by("expires_at")
        .values_list("pk", flat=True)[:batch_size]
    )
    swept = 0
    for reservation_id in candidate_ids:
        with transaction.atomic():
            locked = (
                Reservation.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("price_book")
                .filter(
                    pk=reservation_id,
                    state=ReservationState.OPEN,
                    expires_at__lte=expired_before,
                )
                .first()
            )
            if locked is None:
                continue
            _reservation_settle_locked(
                reservation=locked,
                usage=None,
                ending=Ending.ABANDONED,
                telemetry=UsageTelemetry(error_class=ORPHANED_ERROR_CLASS),
                now=timezone.now(),
            )
            swept += 1
    if swept:
        logger.warning("billing.reservations_swept", extra={"count": swept})
    return swept


def usage_record_no_call(
    *,
    user: User,
    request_id: str,
    telemetry: UsageTelemetry,
    attempt: int = 1,
    now: datetime | None = None,
) -> UsageEvent:
    """The usage event of an answer that called no model (e.g. the deterministic
    no-evidence answer): zero tokens, zero cost. Idempotent on (user, request_id, attempt)."""
    event, created = UsageEvent.objects.get_or_create(
        user=user,
        request_id=request_id,
        attempt=attempt,
        defaults={
            "ending": Ending.NO_CALL,
            "route": telemetry.route,
            "profile": telemetry.profile,
            "time_to_first_token_ms": telemetry.time_to_first_token_ms,
            "duration_ms": telemetry.duration_ms,
            "source_count": telemetry.source_count,
            "cache_status": telemetry.cache_status,
            "error_class": telemetry.error_class,
            "created_at": now or timezone.now(),
        },
    )
    if created:
        logger.info(
            "billing.usage_no_call",
            extra={"user_id": user.pk, "request_id": request_id, "route": telemetry.route},
        )
    return event
