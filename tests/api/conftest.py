"""The API tests run the real application on committed rows (the answer endpoint works on
worker threads), so every test here puts back what a flush removes and closes the threads'
connections afterwards."""

from __future__ import annotations

import asyncio
import importlib

import pytest
from asgiref.sync import sync_to_async
from django.apps import apps
from django.db import connections

from assistant.db import db_connections_close


@pytest.fixture(autouse=True)
def local_price_book(request):
    if "transactional_db" not in request.fixturenames and not any(
        marker.kwargs.get("transaction") for marker in request.node.iter_markers("django_db")
    ):
        yield
        return
    request.getfixturevalue("transactional_db")
    seeding = importlib.import_module("billing.migrations.0003_seed_local_price_book")
    seeding.seed_local_prices(apps, None)
    yield
    db_connections_close()
    asyncio.run(sync_to_async(connections.close_all)())
