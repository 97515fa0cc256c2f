"""Admission never waits on the engine's worker pool: with every retrieval thread busy, a new
question still gets its status and its first event; and while questions wait to be admitted,
the engine's steps wait for them (``ASSISTANT_ADMISSION_PRIORITY_MS``)."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid

import pytest
from channels.testing import HttpCommunicator

from assistant.db import _executor, run_admission, run_db
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


def _admission_then_step(*, release_after_step: bool) -> list[str]:
    """An admission that holds until released and an engine step asked for meanwhile; the
    order in which they ran. ``release_after_step`` waits for the step before releasing."""
    order: list[str] = []
    release = threading.Event()

    def admit() -> None:
        release.wait(30)
        order.append("admitted")

    async def scenario() -> None:
        admission = asyncio.ensure_future(run_admission(admit))
        await asyncio.sleep(0)
        step = asyncio.ensure_future(run_db(order.append, "engine step"))
        if release_after_step:
            await step
            release.set()
        else:
            for _ in range(20):
                await asyncio.sleep(0)
            assert not step.done()
            release.set()
            await step
        await admission

    try:
        asyncio.run(scenario())
    finally:
        release.set()
    return order


def test_an_engine_step_waits_for_the_admissions_in_flight(settings):
    settings.ASSISTANT_ADMISSION_PRIORITY_MS = 60_000
    assert _admission_then_step(release_after_step=False) == ["admitted", "engine step"]


def test_an_engine_step_waits_no_longer_than_the_admission_priority(settings):
    settings.ASSISTANT_ADMISSION_PRIORITY_MS = 1
    assert _admission_then_step(release_after_step=True) == ["engine step", "admitted"]


def test_without_admission_priority_an_engine_step_does_not_wait(settings):
    settings.ASSISTANT_ADMISSION_PRIORITY_MS = 0
    assert _admission_then_step(release_after_step=True) == ["engine step", "admitted"]


def test_an_engine_step_does_not_wait_for_admissions_that_came_after_it(settings):
    settings.ASSISTANT_ADMISSION_PRIORITY_MS = 60_000
    order: list[str] = []
    release_first, release_later = threading.Event(), threading.Event()

    def admit(name: str, release: threading.Event) -> None:
        release.wait(30)
        order.append(name)

    async def scenario() -> None:
        first = asyncio.ensure_future(run_admission(admit, "first admitted", release_first))
        await asyncio.sleep(0)
        step = asyncio.ensure_future(run_db(order.append, "engine step"))
        await asyncio.sleep(0)
        later = asyncio.ensure_future(run_admission(admit, "later admitted", release_later))
        release_first.set()
        await step
        release_later.set()
        await asyncio.gather(first, later)

    try:
        asyncio.run(scenario())
    finally:
        release_first.set()
        release_later.set()
    assert order == ["first admitted", "engine step", "later admitted"]
