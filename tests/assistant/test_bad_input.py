"""Malformed input to the assistant, billing and indexing APIs answers 4xx with a stable code
and writes nothing."""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest
from channels.testing import HttpCommunicator

from assistant.models import Thread, Turn
from tests.assistant.conftest import MESSAGES_PATH, ask, token_for

pytestmark = pytest.mark.django_db(transaction=True)


def _post_raw(user, body: bytes) -> tuple[int, dict]:
    from claire.asgi import application

    headers = [
        (b"authorization", f"Token {token_for(user)}".encode()),
        (b"accept", b"text/event-stream"),
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]

    async def call():
        communicator = HttpCommunicator(application, "POST", MESSAGES_PATH, body, headers)
        return await communicator.get_response(timeout=20)

    response = asyncio.run(call())

    return response["status"], json.loads(response["body"])


def _nothing_written(user):
    assert Turn.objects.filter(user=user).count() == 0
    assert Thread.objects.filter(user=user).count() == 0


def test_deeply_nested_ask_body_is_json_too_deep(user, answer_models):
    status, body = _post_raw(user, b"[" * 30_000 + b"]" * 30_000)
    assert status == 400
    assert body["error"]["code"] == "json_too_deep"
    _nothing_written(user)


def test_ask_body_nested_within_the_parser_but_too_deep_is_refused(user, answer_models):
    scope: object = {"mode": "global"}
    for _ in range(100):
        scope = {"mode": scope}

    payload = {"requestId": str(uuid.uuid4()), "question": "hi", "scope": scope}
    status, body = _post_raw(user, json.dumps(payload).encode())
    assert status == 400
    assert body["error"]["code"] == "json_too_deep"
    _nothing_written(user)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("threadId", "²"),
        ("threadId", "99999999999999999999"),
        ("threadId", 99999999999999999999),
        ("retryOfTurnId", "³"),
        ("retryOfTurnId", 2**63),
    ],
)
def test_ids_that_are_not_database_ids_are_invalid_request(user, answer_models, field, value):
    body = {"requestId": str(uuid.uuid4()), "question": "When?", field: value}
    reply = ask(user, body=body)
    assert reply.status == 400, reply.body
    error = reply.json()["error"]
    assert error["code"] == "invalid_request"
    assert list(error["details"]) == [field]
    _nothing_written(user)


@pytest.mark.parametrize(
    "scope",
    [
        {"mode": "strict_chat", "chatId": "²"},
        {"mode": "strict_chat", "chatId": "99999999999999999999"},
        {"mode": "preferred", "chatIds": ["1", "⁵"]},
    ],
)
def test_scope_chat_ids_that_are_not_database_ids_are_invalid(user, answer_models, scope):
    body = {"requestId": str(uuid.uuid4()), "question": "When?", "scope": scope}
    reply = ask(user, body=body)
    assert reply.status == 400, reply.body
    assert reply.json()["error"]["code"] == "invalid_request"
    _nothing_written(user)


@pytest.mark.parametrize(
    "cursor",
    [
        "99999999999999999999999_1",  # past the last representable microsecond
        "²_1",
        "1000_²",
        "1000_99999999999999999999",
    ],
)
def test_bad_thread_cursor_is_invalid_cursor(api_client, cursor):
    response = api_client.get("/api/assistant/threads", {"before": cursor})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_cursor"


def test_deeply_nested_billing_body_is_json_too_deep(api_client, user):
    body = '{"remoteConsent": ' + "[" * 50_000 + "]" * 50_000 + "}"
    response = api_client.generic(
        "PATCH", "/api/billing/policy", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "json_too_deep"


@pytest.mark.parametrize("value", ["²", "99999999999999999999"])
def test_bad_embedding_failures_cursor_is_invalid_cursor(api_client, value):
    response = api_client.get("/api/index/failures", {"before": value})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_cursor"
