"""Admission never waits on the engine's worker pool: with every retrieval thread busy, a new
question still gets its status and its first event."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid

import pytest
from channels.testing import HttpCommunicator

from assistant.db import _executor
from tests.assistant.conftest import MESSAGES_PATH, token_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_first_byte_arrives_while_the_engine_pool_is_saturated(
    user, dinner_chat, answer_models, settings
):
    from claire.asgi import application

    answer_models.script(deltas=("Friday at 8 [S1].",))
    token = token_for(user)
    pool = _executor()
    release = threading.Event()
    blockers = [pool.submit(release.wait, 30) for _ in range(pool._max_workers)]
    body = json.dumps({"requestId": str(uuid.uuid4()), "question": "When is dinner?"}).encode()
    headers = [
        (b"authorization", f"Token {token}".encode()),
        (b"accept", b"text/event-stream"),
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]

    async def first_events() -> tuple[dict, bytes]:
        communicator = HttpCommunicator(application, "POST", MESSAGES_PATH, body, headers)
        await communicator.send_input({"type": "http.request", "body": body})
        start = await communicator.receive_output(timeout=10)
        first = await communicator.receive_output(timeout=10)
        # Retrieval waits for the pool; free it and let the answer finish.
        release.set()
        while (await communicator.receive_output(timeout=20)).get("more_body", False):
            pass
        return start, first["body"]

    try:
        start, first = asyncio.run(first_events())
    finally:
        release.set()
        for blocker in blockers:
            blocker.result(timeout=30)
    assert start["status"] == 200
    assert first.startswith(b'data: {"type":"start"')
