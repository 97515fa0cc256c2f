"""Evaluation tests answer through the real engine, which reserves against the local price
book. Transactional tests elsewhere flush the tables the migrations seeded, so put the local
prices back first, with the seeding migration's own function."""

from __future__ import annotations

import importlib

import pytest


@pytest.fixture(autouse=True)
def local_price_book(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("django_db") is None:
        return
    from django.apps import apps

    request.getfixturevalue("db")
    seeding = importlib.import_module("billing.migrations.0003_seed_local_price_book")
    seeding.seed_local_prices(apps, None)
