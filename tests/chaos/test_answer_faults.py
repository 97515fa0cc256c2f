"""Faults during one answer, through the real ASGI application: the provider failing before and
after its first delta, the client disconnecting mid-stream, and PostgreSQL restarting while the
answer streams. Each ends the turn in its documented state (docs/RELIABILITY.md), closes the
budget reservation (settled, or released when nothing was used), and shows in the operator
usage report."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid

import pytest
from asgiref.testing import ApplicationCommunicator
from django.db import connection

from assistant.models import Turn, TurnStatus
from billing.models import ReservationState
from claire.ai.types import ErrorCode
from tests.assistant.conftest import ask, sse_chunks, token_for
from tests.assistant.test_cancellation import _scope
from tests.chaos.faults import (
    answer_outcome,
    embedded_postgres_restart,
    reconnect_after_restart,
    report_rates,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.chaos]

DELTAS = ("Dinner ", "is ", "on ", "Friday ", "[S1].")


def _data(chunks, kind):
    return next(chunk["data"] for chunk in chunks if chunk["type"] == kind)


def test_provider_failing_before_the_first_delta(user, dinner_chat, answer_models, settings):
    settings.AI_PROFILES = {**settings.AI_PROFILES, "answer": {"candidates": ["local/mock"]}}
    from claire.ai.config import ai_config_reset

    ai_config_reset()
    answer_models.script(fail_before_first=ErrorCode.PROVIDER_UNAVAILABLE)
    chunks = ask(user).chunks
    error = _data(chunks, "data-error")
    assert error == {"code": "provider_unavailable", "retryable": True, "status": "failed"}
    turn, reservations, event = answer_outcome(int(_data(chunks, "data-thread")["assistantTurnId"]))
    assert (turn.status, turn.text, turn.error_code) == (
        TurnStatus.FAILED,
        "",
        "provider_unavailable",
    )
    # Closed at what was used: nothing.
    assert [(r.state, r.settled_micro_usd) for r in reservations] == [(ReservationState.SETTLED, 0)]
    assert (event.ending, event.settled_micro_usd, event.output_tokens) == ("failed", 0, 0)
    assert report_rates(user) == {
        "events": 1,
        "stream_failure_rate": 1.0,
        "cancellation_rate": 0.0,
    }


def test_provider_failing_after_the_first_delta(user, dinner_chat, answer_models):
    answer_models.script(deltas=DELTAS, fail_after_deltas=2)
    chunks = ask(user).chunks
    assert _data(chunks, "data-error") == {
        "code": "stream_interrupted",
        "retryable": True,
        "status": "partial",
    }
    turn, reservations, event = answer_outcome(int(_data(chunks, "data-thread")["assistantTurnId"]))
    assert (turn.status, turn.text) == (TurnStatus.PARTIAL, "Dinner is ")
    assert [r.state for r in reservations] == [ReservationState.SETTLED]
    assert event.ending == "partial"
    assert event.output_tokens > 0
    assert report_rates(user)["stream_failure_rate"] == 1.0


def _open(token: str) -> ApplicationCommunicator:
    from claire.asgi import application

    return ApplicationCommunicator(application, _scope(token))


async def _stream_until(communicator, marker: bytes, received: bytes = b"") -> bytes:
    while marker not in received:
        message = await communicator.receive_output(timeout=60)
        received += message.get("body", b"")
    return received


def _thread_ids(received: bytes) -> dict[str, str]:
    chunks = [
        json.loads(event[len("data: ") :])
        for event in received.decode().split("\n\n")
        if event.startswith("data: {")
    ]
    return _data(chunks, "data-thread")


async def _begin(token: str):
    communicator = _open(token)
    body = {"requestId": str(uuid.uuid4()), "question": "When is the dinner with Ana?"}
    await communicator.send_input(
        {"type": "http.request", "body": json.dumps(body).encode(), "more_body": False}
    )
    start = await communicator.receive_output(timeout=60)
    assert start["status"] == 200
    return communicator, await _stream_until(communicator, b'"text-delta"')


def test_client_disconnecting_mid_stream(user, dinner_chat, answer_models):
    answer_models.script(deltas=DELTAS, delta_delay_s=5.0)
    token = token_for(user)

    async def scenario():
        communicator, received = await _begin(token)
        await communicator.send_input({"type": "http.disconnect"})
        await communicator.wait(timeout=10)
        return int(_thread_ids(received)["assistantTurnId"])

    turn, reservations, event = answer_outcome(asyncio.run(scenario()))
    assert (turn.status, turn.text) == (TurnStatus.CANCELLED, "Dinner")
    assert [r.state for r in reservations] == [ReservationState.SETTLED]
    assert event.ending == "cancelled"
    assert report_rates(user)["cancellation_rate"] == 1.0


def _postmaster_started():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_postmaster_start_time()")
        return cursor.fetchone()[0]


def test_postgres_restarting_mid_answer(user, dinner_chat, answer_models):
    """The stream holds no database connection while the model writes; the steps after the
    restart open new ones, and the answer completes."""
    answer_models.script(deltas=DELTAS, delta_delay_s=1.0)
    token = token_for(user)
    started_before = _postmaster_started()

    async def scenario():
        communicator, received = await _begin(token)
        restart = threading.Thread(target=embedded_postgres_restart)
        restart.start()
        await asyncio.to_thread(restart.join)
        received = await _stream_until(communicator, b"data: [DONE]\n\n", received)
        await communicator.wait(timeout=10)
        return received

    received = asyncio.run(scenario())
    reconnect_after_restart()
    assert _postmaster_started() > started_before
    chunks = sse_chunks(received)
    turn, reservations, event = answer_outcome(int(_data(chunks, "data-thread")["assistantTurnId"]))
    assert [chunk["type"] for chunk in chunks][-2:] == ["data-finish", "finish"]
    assert (turn.status, turn.text) == (TurnStatus.COMPLETED, "".join(DELTAS))
    assert [r.state for r in reservations] == [ReservationState.SETTLED]
    assert event.ending == "completed"


def test_the_first_answer_after_a_postgres_restart_completes(user, dinner_chat, answer_models):
    """Every worker thread that held a connection before the restart (the engine's pools and
    model routing) replaces it on its next step: the next answer completes, no step hangs."""
    answer_models.script(deltas=DELTAS)
    assert ask(user, accept="application/json").status == 200
    embedded_postgres_restart()
    reconnect_after_restart()

    answer_models.script(deltas=DELTAS)
    reply = ask(user, accept="application/json")
    assert reply.status == 200
    body = reply.json()
    assert (body["status"], body["answer"]) == ("completed", "".join(DELTAS))
    turn = Turn.objects.get(pk=int(body["assistantTurnId"]))
    assert turn.status == TurnStatus.COMPLETED
