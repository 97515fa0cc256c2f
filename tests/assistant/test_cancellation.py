"""Disconnect and Stop, through the real ASGI application (in process)."""

import asyncio
import json
import time
import uuid

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator

from assistant import services
from assistant.models import Turn, TurnStatus
from billing.models import UsageEvent
from tests.assistant.conftest import MESSAGES_PATH, sse_chunks, token_for

pytestmark = pytest.mark.django_db(transaction=True)


def _scope(token):
    return {
        "type": "http",
        "http_version": "1.1",
        "method": "POST",
        "path": MESSAGES_PATH,
        "raw_path": MESSAGES_PATH.encode(),
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 50000),
        "headers": [
            (b"authorization", f"Token {token}".encode()),
            (b"accept", b"text/event-stream"),
            (b"content-type", b"application/json"),
        ],
    }


async def _open_until_text(token):
    from claire.asgi import application

    communicator = ApplicationCommunicator(application, _scope(token))
    body = {
        "requestId": str(uuid.uuid4()),
        "question": "When is the dinner with Ana?",
        "scope": {"mode": "global"},
    }
    await communicator.send_input(
        {"type": "http.request", "body": json.dumps(body).encode(), "more_body": False}
    )
    start = await communicator.receive_output(timeout=20)
    assert start["status"] == 200
    received = b""
    while b'"text-delta"' not in received:
        message = await communicator.receive_output(timeout=20)
        received += message["body"]
    thread = next(c for c in _chunks(received) if c["type"] == "data-thread")["data"]
    return communicator, received, int(thread["assistantTurnId"])


def _chunks(partial_body):
    return [
        json.loads(event[len("data: ") :])
        for event in partial_body.decode().split("\n\n")
        if event.startswith("data: {")
    ]


def test_disconnect_cancels_the_model_call_and_keeps_the_partial_text(
    user, dinner_chat, answer_models
):
    model = answer_models.script(
        deltas=("Dinner ", "is ", "on ", "Friday ", "[S1]."), delta_delay_s=5.0
    )

    token = token_for(user)

    async def scenario():
        communicator, _, turn_id = await _open_until_text(token)
        disconnected_at = time.monotonic()
        await communicator.send_input({"type": "http.disconnect"})
        await communicator.wait(timeout=5)
        return turn_id, time.monotonic() - disconnected_at

    turn_id, elapsed = asyncio.run(scenario())
    assert model.stream_outcomes == ["cancelled"]
    assert elapsed < 1.0
    turn = Turn.objects.get(pk=turn_id)
    assert (turn.status, turn.text) == (TurnStatus.CANCELLED, "Dinner")
    event = UsageEvent.objects.get(user=user)
    assert event.ending == "cancelled"
    assert event.output_tokens > 0


def test_stop_ends_the_stream_as_cancelled_for_a_listening_client(user, dinner_chat, answer_models):
    model = answer_models.script(
        deltas=("Dinner ", "is ", "on ", "Friday ", "[S1]."), delta_delay_s=5.0
    )

    token = token_for(user)

    async def scenario():
        communicator, received, turn_id = await _open_until_text(token)
        stopped = await sync_to_async(services.turn_stop)(user=user, turn_id=turn_id)
        assert stopped.status == TurnStatus.STREAMING
        while True:
            message = await communicator.receive_output(timeout=5)
            received += message["body"]
            if not message.get("more_body"):
                break
        return received, turn_id

    received, turn_id = asyncio.run(scenario())
    chunks = sse_chunks(received)
    assert [c["type"] for c in chunks][-3:] == ["text-end", "data-finish", "finish"]
    finish = chunks[-2]["data"]
    assert (finish["status"], finish["finishReason"]) == ("cancelled", "other")
    assert chunks[-1] == {"type": "finish", "finishReason": "other"}
    assert model.stream_outcomes == ["cancelled"]
    turn = Turn.objects.get(pk=turn_id)
    assert (turn.status, turn.text) == (TurnStatus.CANCELLED, "Dinner ")


def test_cancel_endpoint_is_scoped_and_idempotent(user, other_user, api_client):
    from tests.factories import AssistantTurnFactory

    own = AssistantTurnFactory(user_turn__thread__user=user)
    foreign = AssistantTurnFactory(user_turn__thread__user=other_user, status=TurnStatus.STREAMING)
    done = api_client.post(f"/api/assistant/turns/{own.pk}/cancel")
    assert done.status_code == 200
    assert done.json() == {"turnId": str(own.pk), "status": "completed", "stopRequested": False}
    missing = api_client.post(f"/api/assistant/turns/{foreign.pk}/cancel")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
    assert Turn.objects.get(pk=foreign.pk).status == TurnStatus.STREAMING
