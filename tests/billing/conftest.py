from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.apps import apps

from billing.models import PriceBook
from billing.types import CostPlan

# The AI runtime's fixtures (configuration, the fake OpenAI-compatible server) for the
# metered-path tests.
from tests.claire.ai.conftest import configure_ai, fake_openai, fake_openai_server  # noqa: F401
from tests.factories import AiPolicyFactory, PriceBookEntryFactory, PriceBookFactory

NOW = dt.datetime(2026, 3, 15, 12, 0, tzinfo=dt.UTC)

# Hand-computed against the PriceBookEntryFactory rates (per million tokens: input 2.5 USD,
# cached 1.25 USD, output 10 USD, embedding 0.02 USD; 3,000 micro-USD per extra step):
#   embedding 12 x 20,000 / 1e6 = 0.24 -> 1;  input 3,000 x 2,500,000 / 1e6 = 7,500
#   cached 1,000 x 1,250,000 / 1e6 = 1,250;   output 500 x 10,000,000 / 1e6 = 5,000
#   steps 2 x 3,000 = 6,000;                  total 19,751
PLAN = CostPlan(
    query_embedding_tokens=12,
    uncached_input_tokens=3_000,
    cache_read_tokens=1_000,
    max_output_tokens=500,
    permitted_additional_steps=2,
)
PLAN_ESTIMATE = 19_751
# The plan's tokens without the step reserve: what an unreported attempt is charged.
PLAN_TOKENS_COST = 13_751


@pytest.fixture
def book(db):
    return PriceBookFactory()


@pytest.fixture
def entry(book):
    return PriceBookEntryFactory(price_book=book, provider="remote", model="model-x")


@pytest.fixture
def policy(user):
    return AiPolicyFactory(user=user)


def seed_local_prices() -> None:
    """Run the data migration that seeds version 1 (it is re-runnable). Tests that need it
    call this instead of trusting that no transactional test emptied the tables before."""
    migration = importlib.import_module("billing.migrations.0003_seed_local_price_book")
    migration.seed_local_prices(apps, None)


@pytest.fixture
def local_price_book(db):
    seed_local_prices()
    return PriceBook.objects.get(version=1)
