"""Price book versions: created, copied, and their entries set."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from billing.errors import (
    PriceBookInvalid,
    PriceBookLocked,
)
from billing.models import (
    PriceBook,
    PriceBookEntry,
)

logger = logging.getLogger(__name__)


# --- Price books ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PriceInput:
    """One entry of a new price book version (rates per million tokens, micro-USD)."""

    provider: str
    model: str
    input_micro_usd_per_million: int = 0
    cached_input_micro_usd_per_million: int = 0
    output_micro_usd_per_million: int = 0
    embedding_micro_usd_per_million: int = 0
    step_reserve_micro_usd: int = 0

    def __post_init__(self) -> None:
        if not self.provider or not self.model:
            raise PriceBookInvalid(message="Each price needs a provider and a model.")
        amounts = (
            self.input_micro_usd_per_million,
            self.cached_input_micro_usd_per_million,
            self.output_micro_usd_per_million,
            self.embedding_micro_usd_per_million,
            self.step_reserve_micro_usd,
        )
        if any(type(value) is not int or value < 0 for value in amounts):
            raise PriceBookInvalid(
                message=f"Prices of {self.provider}/{self.model} must be whole, non-negative "
                "micro-USD amounts.",
            )


def price_book_create(
    *,
    entries: Iterable[PriceInput],
    effective_from: datetime,
    note: str = "",
    inherit_from: PriceBook | None = None,
) -> PriceBook:
    """A new version holding ``entries`` (on top of ``inherit_from``'s entries, if given).

    Versions are numbered in creation order. ``effective_from`` may be in the future (the
    version waits) but not in the past: a version must not reprice time already served."""
    new_entries = {(entry.provider, entry.model): entry for entry in entries}
    if timezone.is_naive(effective_from):
        raise PriceBookInvalid(message="effective_from needs a timezone.")
    if effective_from < timezone.now() - timedelta(minutes=1):
        raise PriceBookInvalid(message="A new price book cannot take effect in the past.")
    merged: dict[tuple[str, str], PriceInput] = {}
    if inherit_from is not None:
        for row in inherit_from.entries.all():
            merged[(row.provider, row.model)] = PriceInput(
                provider=row.provider,
                model=row.model,
                input_micro_usd_per_million=row.input_micro_usd_per_million,
                cached_input_micro_usd_per_million=row.cached_input_micro_usd_per_million,
                output_micro_usd_per_million=row.output_micro_usd_per_million,
                embedding_micro_usd_per_million=row.embedding_micro_usd_per_million,
                step_reserve_micro_usd=row.step_reserve_micro_usd,
            )
    merged.update(new_entries)
    if not merged:
        raise PriceBookInvalid(message="A price book needs at least one entry.")
    try:
        with transaction.atomic():
            version = (PriceBook.objects.aggregate(top=Max("version"))["top"] or 0) + 1
            book = PriceBook.objects.create(
                version=version, effective_from=effective_from, note=note[:255]
            )
            PriceBookEntry.objects.bulk_create(
                [
                    PriceBookEntry(
                        price_book=book,
                        provider=item.provider,
                        model=item.model,
                        input_micro_usd_per_million=item.input_micro_usd_per_million,
                        cached_input_micro_usd_per_million=item.cached_input_micro_usd_per_million,
                        output_micro_usd_per_million=item.output_micro_usd_per_million,
                        embedding_micro_usd_per_million=item.embedding_micro_usd_per_million,
                        step_reserve_micro_usd=item.step_reserve_micro_usd,
                    )
                    for item in merged.values()
                ]
            )
    except IntegrityError:
        # The unique version number was taken by a version created at the same moment.
        raise PriceBookInvalid(
            code="price_book_version_taken",
            message="Another price book version was created at the same time; try again.",
        ) from None
    logger.info(
        "billing.price_book_created",
        extra={
            "version": book.version,
            "effective_from": effective_from.isoformat(),
            "entries": len(merged),
            "inherited_from": inherit_from.version if inherit_from else None,
        },
    )
    return book


def price_book_copy(*, source: PriceBook, effective_from: datetime, note: str = "") -> PriceBook:
    """A new, unlocked version with the same entries as ``source``, to edit before it takes
    effect."""
    return price_book_create(
        entries=(),
        effective_from=effective_from,
        note=note or f"Copy of v{source.version}",
        inherit_from=source,
    )


def price_book_entry_set(*, book: PriceBook, price: PriceInput) -> PriceBookEntry:
    """Add or change one entry of an unused version; ``PriceBookLocked`` once it is used."""
    with transaction.atomic():
        locked_book = PriceBook.objects.select_for_update().get(pk=book.pk)
        if locked_book.is_locked:
            raise PriceBookLocked(details={"version": locked_book.version})
        entry, _ = PriceBookEntry.objects.update_or_create(
            price_book=locked_book,
            provider=price.provider,
            model=price.model,
            defaults={
                "input_micro_usd_per_million": price.input_micro_usd_per_million,
                "cached_input_micro_usd_per_million": price.cached_input_micro_usd_per_million,
                "output_micro_usd_per_million": price.output_micro_usd_per_million,
                "embedding_micro_usd_per_million": price.embedding_micro_usd_per_million,
                "step_reserve_micro_usd": price.step_reserve_micro_usd,
            },
        )
    return entry
