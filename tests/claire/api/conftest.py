"""The API tests run the real application on committed rows (the answer endpoint works on
worker threads); the threads' connections are closed afterwards so the test database can be
dropped."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from assistant.db import db_connections_close


@pytest.fixture(autouse=True)
def _worker_connections_closed(request):
    yield
    if "transactional_db" not in request.fixturenames and not any(
        marker.kwargs.get("transaction") for marker in request.node.iter_markers("django_db")
    ):
        return
    db_connections_close()
    asyncio.run(sync_to_async(connections.close_all)())
