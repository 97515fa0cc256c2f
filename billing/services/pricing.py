"""Pricing: the cost of usage and of a plan's worst case, and the price entry in force.

Rounding rule: every cost component is ``ceil(rate x tokens / 1,000,000)`` in integer
micro-USD (see ``billing.money``)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from billing.errors import (
    PriceUnknown,
)
from billing.models import (
    PriceBook,
    PriceBookEntry,
)
from billing.money import micro_usd_for_tokens
from billing.types import CostBreakdown, CostPlan, UsageInput, UsageLike

logger = logging.getLogger(__name__)


# --- Pricing --------------------------------------------------------------------------------


def cost_of_usage(
    *, entry: PriceBookEntry, usage: UsageLike, embedding_entry: PriceBookEntry | None = None
) -> CostBreakdown:
    """The cost of reported (or estimated) usage; each component rounded up separately.

    Input tokens not read from the cache are priced at the input rate, cached ones at the
    cache-read rate. Embedding tokens are priced with ``embedding_entry`` when the query was
    embedded by another model than the one that generated, else with ``entry``."""
    embedding_rate = (embedding_entry or entry).embedding_micro_usd_per_million
    return CostBreakdown(
        embedding_micro_usd=micro_usd_for_tokens(
            rate_micro_usd_per_million=embedding_rate, tokens=usage.embedding_tokens
        ),
        input_micro_usd=micro_usd_for_tokens(
            rate_micro_usd_per_million=entry.input_micro_usd_per_million,
            tokens=usage.uncached_input_tokens,
        ),
        cached_input_micro_usd=micro_usd_for_tokens(
            rate_micro_usd_per_million=entry.cached_input_micro_usd_per_million,
            tokens=usage.cached_input_tokens,
        ),
        output_micro_usd=micro_usd_for_tokens(
            rate_micro_usd_per_million=entry.output_micro_usd_per_million,
            tokens=usage.output_tokens,
        ),
    )


def estimated_max_cost(
    *,
    entry: PriceBookEntry,
    query_embedding_tokens: int,
    uncached_input_tokens: int,
    cache_read_tokens: int,
    max_output_tokens: int,
    permitted_additional_steps: int,
    embedding_entry: PriceBookEntry | None = None,
) -> int:
    """The spec's formula, in micro-USD::

        query_embedding_tokens x embedding_rate + uncached_input_tokens x input_rate
        + cache_read_tokens x cache_read_rate + max_output_tokens x output_rate
        + permitted_additional_steps x step_reserve

    with each token term rounded up to a whole micro-USD (rates are per million tokens)."""
    plan = CostPlan(
        query_embedding_tokens=query_embedding_tokens,
        uncached_input_tokens=uncached_input_tokens,
        cache_read_tokens=cache_read_tokens,
        max_output_tokens=max_output_tokens,
        permitted_additional_steps=permitted_additional_steps,
    )
    return plan_cost(entry=entry, plan=plan, embedding_entry=embedding_entry).total_micro_usd


def plan_usage(plan: CostPlan) -> UsageInput:
    """The usage a plan allows at most: what an attempt is assumed to have used when the
    provider reported nothing."""
    return UsageInput(
        uncached_input_tokens=plan.uncached_input_tokens,
        cached_input_tokens=plan.cache_read_tokens,
        output_tokens=plan.max_output_tokens,
        embedding_tokens=plan.query_embedding_tokens,
        is_estimated=True,
    )


def plan_cost(
    *, entry: PriceBookEntry, plan: CostPlan, embedding_entry: PriceBookEntry | None
) -> CostBreakdown:
    tokens = cost_of_usage(entry=entry, usage=plan_usage(plan), embedding_entry=embedding_entry)
    return CostBreakdown(
        embedding_micro_usd=tokens.embedding_micro_usd,
        input_micro_usd=tokens.input_micro_usd,
        cached_input_micro_usd=tokens.cached_input_micro_usd,
        output_micro_usd=tokens.output_micro_usd,
        steps_micro_usd=plan.permitted_additional_steps * entry.step_reserve_micro_usd,
    )


def model_key_parts(model_key: str) -> tuple[str, str]:
    """The (provider, model) a price book entry is keyed by, from an AI runtime model key:
    ``"local/extractive"`` -> ``("local", "extractive")``, ``"openai/gpt-4o-mini"`` ->
    ``("openai", "gpt-4o-mini")``. Only the first slash separates."""
    provider, separator, model = model_key.partition("/")
    if not separator or not provider or not model:
        raise ValueError(f"not a provider/model key: {model_key!r}")
    return provider, model


def costliest_model(
    *,
    price_keys: Sequence[tuple[str, str]],
    plan: CostPlan,
    at: datetime,
    embedding_key: tuple[str, str] | None = None,
) -> tuple[str, str]:
    """Of the models an answer may fail over between, the one whose maximum cost for ``plan``
    is highest in the book in force at ``at``: reserving against it covers whichever ends up
    answering. Models the book does not price are passed over (the first key is returned
    when none is priced, so that ``budget_reserve`` reports ``price_unknown``)."""
    if not price_keys:
        raise ValueError("no models to choose from")
    book = price_book_in_force(at=at)
    if book is None:
        return price_keys[0]
    entries = {
        (entry.provider, entry.model): entry
        for entry in PriceBookEntry.objects.filter(price_book=book)
    }
    embedding_entry = entries.get(embedding_key) if embedding_key else None
    priced = [key for key in price_keys if key in entries]
    if not priced:
        return price_keys[0]
    return max(
        priced,
        key=lambda key: (
            plan_cost(
                entry=entries[key], plan=plan, embedding_entry=embedding_entry
            ).total_micro_usd
        ),
    )


def price_book_in_force(*, at: datetime) -> PriceBook | None:
    return (
        PriceBook.objects.filter(effective_from__lte=at).order_by("-effective_from", "-version")
    ).first()


def price_entry_for(*, provider: str, model: str, at: datetime) -> PriceBookEntry:
    """The entry for ``provider``/``model`` in the price book in force at ``at``.

    Raises ``PriceUnknown`` (``price_unknown``) when there is none: a model without a price
    must not run. Price books are complete snapshots, so an older version is never consulted
    for a model the version in force lacks."""
    book = price_book_in_force(at=at)
    if book is None:
        raise PriceUnknown(details={"provider": provider, "model": model})
    return entry_in_book(book=book, provider=provider, model=model)


def entry_in_book(*, book: PriceBook, provider: str, model: str) -> PriceBookEntry:
    try:
        entry = PriceBookEntry.objects.get(price_book=book, provider=provider, model=model)
    except PriceBookEntry.DoesNotExist:
        raise PriceUnknown(
            details={"provider": provider, "model": model, "priceBookVersion": book.version}
        ) from None
    entry.price_book = book
    return entry


def price_book_lock_for_use(*, book: PriceBook, now: datetime) -> bool:
    """Mark ``book`` as used (immutable from now on); True when this call locked it.

    The conditional update waits for any in-flight edit of the book's entries (the
    immutability trigger holds a share lock on the book row while it edits)."""
    if book.is_locked:
        return False
    locked = PriceBook.objects.filter(pk=book.pk, is_locked=False).update(
        is_locked=True, locked_at=now
    )
    book.is_locked = True
    return locked == 1
