import datetime as dt

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from billing.errors import PriceBookInvalid, PriceBookLocked, PriceUnknown
from billing.models import PriceBook, PriceBookEntry
from billing.services.price_books import (
    PriceInput,
    price_book_copy,
    price_book_create,
    price_book_entry_set,
)
from billing.services.pricing import price_entry_for
from billing.services.reservations import budget_reserve
from tests.billing.conftest import NOW, PLAN, seed_local_prices
from tests.factories import PriceBookEntryFactory, PriceBookFactory

pytestmark = pytest.mark.django_db


def test_version_one_prices_the_local_models_at_zero(local_price_book):
    seed_local_prices()  # running the seed again changes nothing
    book = PriceBook.objects.get(version=1)
    assert book == local_price_book
    assert book.effective_from == dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
    entries = {
        entry.model: (
            entry.input_micro_usd_per_million,
            entry.cached_input_micro_usd_per_million,
            entry.output_micro_usd_per_million,
            entry.embedding_micro_usd_per_million,
            entry.step_reserve_micro_usd,
        )
        for entry in book.entries.filter(provider="local")
    }
    assert entries == {
        "extractive": (0, 0, 0, 0, 0),
        "minilm": (0, 0, 0, 0, 0),
        "hash-embed": (0, 0, 0, 0, 0),
        "mock": (0, 0, 0, 0, 0),
    }
    assert book.entries.exclude(provider="local").count() == 0


def test_price_entry_for_uses_the_version_in_force_at_the_time():
    march = PriceBookFactory(effective_from=dt.datetime(2026, 3, 1, tzinfo=dt.UTC))
    april = PriceBookFactory(effective_from=dt.datetime(2026, 4, 1, tzinfo=dt.UTC))
    PriceBookEntryFactory(price_book=march, model="m", output_micro_usd_per_million=1)
    PriceBookEntryFactory(price_book=april, model="m", output_micro_usd_per_million=2)

    def output_rate(at):
        return price_entry_for(provider="remote", model="m", at=at).output_micro_usd_per_million

    assert output_rate(dt.datetime(2026, 3, 31, 23, 59, tzinfo=dt.UTC)) == 1
    assert output_rate(dt.datetime(2026, 4, 1, tzinfo=dt.UTC)) == 2
    assert output_rate(dt.datetime(2027, 1, 1, tzinfo=dt.UTC)) == 2
    assert price_entry_for(provider="remote", model="m", at=NOW).price_book == march


def test_a_model_missing_from_the_version_in_force_has_no_price():
    march = PriceBookFactory(effective_from=dt.datetime(2026, 3, 1, tzinfo=dt.UTC))
    PriceBookEntryFactory(price_book=march, model="retired")
    PriceBookFactory(effective_from=dt.datetime(2026, 4, 1, tzinfo=dt.UTC))

    with pytest.raises(PriceUnknown) as unknown:
        price_entry_for(
            provider="remote", model="retired", at=dt.datetime(2026, 4, 2, tzinfo=dt.UTC)
        )

    assert unknown.value.code == "price_unknown"
    assert unknown.value.status_code == 503


def test_without_any_version_in_force_nothing_has_a_price():
    with pytest.raises(PriceUnknown):
        price_entry_for(provider="local", model="mock", at=dt.datetime(1999, 1, 1, tzinfo=dt.UTC))


def _lock_by_use(user, entry):
    budget_reserve(
        user=user, request_id="lock", provider=entry.provider, model=entry.model, plan=PLAN, now=NOW
    )
    entry.price_book.refresh_from_db()
    assert entry.price_book.is_locked is True


def test_entries_of_a_used_version_cannot_change(user, entry, policy):
    _lock_by_use(user, entry)

    with pytest.raises(IntegrityError), transaction.atomic():
        PriceBookEntry.objects.filter(pk=entry.pk).update(output_micro_usd_per_million=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        entry.input_micro_usd_per_million = 1
        entry.save()
    with pytest.raises(IntegrityError), transaction.atomic():
        PriceBookEntry.objects.filter(pk=entry.pk).delete()
    with pytest.raises(IntegrityError), transaction.atomic():
        PriceBookEntryFactory(price_book=entry.price_book, model="late-addition")

    stored = PriceBookEntry.objects.get(pk=entry.pk)
    assert stored.output_micro_usd_per_million == 10_000_000
    assert stored.input_micro_usd_per_million == 2_500_000
    assert entry.price_book.entries.count() == 1


def test_a_used_version_keeps_its_number_and_time_and_cannot_be_deleted(user, entry, policy):
    book = entry.price_book
    _lock_by_use(user, book.entries.get())

    for change in (
        {"version": 9_999},
        {"effective_from": dt.datetime(2026, 2, 1, tzinfo=dt.UTC)},
        {"is_locked": False},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            PriceBook.objects.filter(pk=book.pk).update(**change)
    with pytest.raises(IntegrityError), transaction.atomic():
        PriceBook.objects.filter(pk=book.pk)._raw_delete(PriceBook.objects.db)

    PriceBook.objects.filter(pk=book.pk).update(note="annotated after use")
    stored = PriceBook.objects.get(pk=book.pk)
    assert (stored.version, stored.effective_from, stored.is_locked) == (
        book.version,
        book.effective_from,
        True,
    )
    assert stored.note == "annotated after use"


def test_an_unused_version_can_still_be_edited(entry):
    PriceBookEntry.objects.filter(pk=entry.pk).update(output_micro_usd_per_million=1)
    price_book_entry_set(
        book=entry.price_book,
        price=PriceInput(provider="remote", model="new", input_micro_usd_per_million=5),
    )

    assert entry.price_book.entries.get(model="model-x").output_micro_usd_per_million == 1
    assert entry.price_book.entries.get(model="new").input_micro_usd_per_million == 5


def test_entry_set_on_a_used_version_is_refused(user, entry, policy):
    _lock_by_use(user, entry)

    with pytest.raises(PriceBookLocked):
        price_book_entry_set(
            book=entry.price_book, price=PriceInput(provider="remote", model="model-x")
        )

    assert PriceBookEntry.objects.get(pk=entry.pk).output_micro_usd_per_million == 10_000_000


def test_copy_creates_the_next_unlocked_version_with_the_same_entries(user, entry, policy):
    _lock_by_use(user, entry)
    starts = timezone.now() + dt.timedelta(hours=1)

    copy = price_book_copy(source=entry.price_book, effective_from=starts)

    assert copy.version == entry.price_book.version + 1
    assert copy.is_locked is False
    assert copy.effective_from == starts
    assert copy.note == f"Copy of v{entry.price_book.version}"
    assert [
        (row.provider, row.model, row.input_micro_usd_per_million, row.step_reserve_micro_usd)
        for row in copy.entries.all()
    ] == [("remote", "model-x", 2_500_000, 3_000)]
    # The copy is editable although its source is not.
    PriceBookEntry.objects.filter(price_book=copy).update(output_micro_usd_per_million=7)
    assert copy.entries.get().output_micro_usd_per_million == 7


def test_create_overlays_new_entries_on_the_inherited_ones(entry):
    book = price_book_create(
        entries=[
            PriceInput(provider="remote", model="model-x", output_micro_usd_per_million=1),
            PriceInput(provider="other", model="fresh", input_micro_usd_per_million=2),
        ],
        effective_from=timezone.now(),
        inherit_from=entry.price_book,
    )

    rows = {
        (row.provider, row.model): (
            row.input_micro_usd_per_million,
            row.output_micro_usd_per_million,
        )
        for row in book.entries.all()
    }
    assert rows == {("remote", "model-x"): (0, 1), ("other", "fresh"): (2, 0)}


def test_a_new_version_cannot_take_effect_in_the_past(entry):
    before = PriceBook.objects.count()

    with pytest.raises(PriceBookInvalid):
        price_book_create(
            entries=[PriceInput(provider="remote", model="m")],
            effective_from=timezone.now() - dt.timedelta(hours=1),
        )

    assert PriceBook.objects.count() == before


@pytest.mark.parametrize("amount", [-1, 1.5, "100"])
def test_prices_must_be_whole_non_negative_micro_usd(amount):
    with pytest.raises(PriceBookInvalid):
        PriceInput(provider="remote", model="m", output_micro_usd_per_million=amount)
