"""Price book version 1: the local models, at explicit zero prices.

Remote prices are never written in code; operators add them as a new version in the admin
or with ``manage.py load_price_book FILE``. Re-running this migration changes nothing.
"""

import datetime

from django.db import migrations

LOCAL_PROVIDER = "local"
LOCAL_MODELS = ("extractive", "minilm", "hash-embed", "mock")
# In force since before any usage could exist.
VERSION_1_EFFECTIVE_FROM = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)


def seed_local_prices(apps, schema_editor):
    PriceBook = apps.get_model("billing", "PriceBook")
    PriceBookEntry = apps.get_model("billing", "PriceBookEntry")
    book, _ = PriceBook.objects.get_or_create(
        version=1,
        defaults={
            "effective_from": VERSION_1_EFFECTIVE_FROM,
            "note": "Local models: no charge",
        },
    )
    for model in LOCAL_MODELS:
        PriceBookEntry.objects.get_or_create(
            price_book=book,
            provider=LOCAL_PROVIDER,
            model=model,
            defaults={
                "input_micro_usd_per_million": 0,
                "cached_input_micro_usd_per_million": 0,
                "output_micro_usd_per_million": 0,
                "embedding_micro_usd_per_million": 0,
                "step_reserve_micro_usd": 0,
            },
        )


class Migration(migrations.Migration):
    dependencies = [("billing", "0002_price_book_and_usage_immutability")]

    operations = [migrations.RunPython(seed_local_prices, migrations.RunPython.noop)]
