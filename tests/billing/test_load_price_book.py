import datetime as dt
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from billing.models import PriceBook

pytestmark = pytest.mark.django_db

EXAMPLE = Path(__file__).resolve().parents[2] / "billing" / "examples" / "prices.example.toml"


def _entries(book):
    return {
        (row.provider, row.model): (
            row.input_micro_usd_per_million,
            row.cached_input_micro_usd_per_million,
            row.output_micro_usd_per_million,
            row.embedding_micro_usd_per_million,
            row.step_reserve_micro_usd,
        )
        for row in book.entries.all()
    }


def test_the_example_file_loads_on_top_of_the_local_models(local_price_book):
    starts = (timezone.now() + dt.timedelta(days=1)).replace(microsecond=0)
    out = StringIO()

    call_command(
        "load_price_book", str(EXAMPLE), "--effective-from", starts.isoformat(), stdout=out
    )

    book = PriceBook.objects.order_by("-version").first()
    assert book.version == 2
    assert book.effective_from == starts
    assert book.is_locked is False
    assert book.note == "EXAMPLE prices -- verify against the provider before use"
    assert _entries(book) == {
        ("local", "extractive"): (0, 0, 0, 0, 0),
        ("local", "minilm"): (0, 0, 0, 0, 0),
        ("local", "hash-embed"): (0, 0, 0, 0, 0),
        ("local", "mock"): (0, 0, 0, 0, 0),
        ("openai", "gpt-4o-mini"): (150_000, 75_000, 600_000, 0, 2_000),
        ("openai", "text-embedding-3-small"): (0, 0, 0, 20_000, 0),
    }
    assert "Created price book v2 with 6 entries" in out.getvalue()
    assert "openai/gpt-4o-mini: input $0.150000/M" in out.getvalue()


def test_a_json_file_with_only_file_replaces_the_entries(local_price_book, tmp_path):
    path = tmp_path / "prices.json"
    path.write_text(
        json.dumps(
            {
                "note": "remote only",
                "entries": [
                    {"provider": "openai", "model": "m", "output_micro_usd_per_million": 7}
                ],
            }
        )
    )

    call_command("load_price_book", str(path), "--only-file", stdout=StringIO())

    book = PriceBook.objects.order_by("-version").first()
    assert _entries(book) == {("openai", "m"): (0, 0, 7, 0, 0)}
    assert book.note == "remote only"
    assert book.effective_from <= timezone.now()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"entries": []}', "non-empty 'entries'"),
        ('{"entries": [{"provider": "p", "model": "m", "output": 1}]}', "unknown fields"),
        (
            '{"entries": [{"provider": "p", "model": "m", "output_micro_usd_per_million": 0.5}]}',
            "whole, non-negative",
        ),
        (
            '{"entries": [{"provider": "p", "model": "m", "input_micro_usd_per_million": -1}]}',
            "whole, non-negative",
        ),
        (
            '{"entries": [{"provider": "p", "model": "m"}, {"provider": "p", "model": "m"}]}',
            "repeats p/m",
        ),
        ('{"entries": [{"model": "m"}]}', "provider and a model"),
        (
            '{"entries": [{"provider": "p", "model": "m"}],'
            ' "effective_from": "2020-01-01T00:00:00Z"}',
            "in the past",
        ),
        (
            '{"entries": [{"provider": "p", "model": "m"}], "effective_from": "2030-01-01T00:00"}',
            "UTC offset",
        ),
        ('{"prices": []}', "Unknown keys"),
        ("not json", "not valid"),
    ],
)
def test_an_invalid_file_creates_nothing(local_price_book, tmp_path, content, message):
    path = tmp_path / "prices.json"
    path.write_text(content)
    versions = PriceBook.objects.count()

    with pytest.raises(CommandError) as failed:
        call_command("load_price_book", str(path), stdout=StringIO())

    assert message in str(failed.value)
    assert PriceBook.objects.count() == versions
