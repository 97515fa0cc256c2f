"""Drive the real ASGI application (``claire.asgi.application``) in process.

The answer runs its database steps on worker threads, so these tests use transactional
database tests (committed rows). The ``answer`` profile is pointed at a scripted
``MockLanguageModel`` behind the runtime's own test seam (``models_overridden``); routing,
failover, usage and billing all run for real.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.db import connections
from rest_framework.authtoken.models import Token

from assistant.db import db_connections_close
from claire.ai.config import ai_config_reset
from claire.ai.local.mock import MockLanguageModel
from claire.ai.registry import models_overridden
from tests.factories import ChatFactory, MessageFactory, PersonFactory

MESSAGES_PATH = "/api/assistant/messages"


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def chunks(self) -> list[dict[str, Any]]:
        return sse_chunks(self.body)


def sse_chunks(body: bytes) -> list[dict[str, Any]]:
    """The JSON chunks of an SSE body; asserts the framing real clients need."""
    text = body.decode()
    assert text.endswith("data: [DONE]\n\n"), text[-200:]
    events = text.split("\n\n")
    assert events[-1] == ""
    chunks = []
    for event in events[:-2]:
        assert event.startswith("data: "), event
        assert "\n" not in event
        chunks.append(json.loads(event[len("data: ") :]))
    return chunks


def token_for(user) -> str:
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def ask(
    user,
    *,
    question: str = "When is the dinner with Ana?",
    accept: str = "text/event-stream",
    request_id: str | None = None,
    body: dict[str, Any] | None = None,
    headers: list[tuple[bytes, bytes]] | None = None,
    method: str = "POST",
) -> Reply:
    payload = body or {
        "requestId": request_id or str(uuid.uuid4()),
        "question": question,
        "scope": {"mode": "global"},
    }
    request_headers = headers
    if request_headers is None:
        request_headers = [
            (b"authorization", f"Token {token_for(user)}".encode()),
            (b"accept", accept.encode()),
            (b"content-type", b"application/json"),
        ]
    return asyncio.run(_call(method, payload, request_headers))


async def _call(method: str, payload: dict[str, Any], headers: list[tuple[bytes, bytes]]) -> Reply:
    from claire.asgi import application

    body = json.dumps(payload).encode()
    if not any(name == b"content-length" for name, _ in headers):
        # Real clients send it; Django's request parsing depends on it.
        headers = [*headers, (b"content-length", str(len(body)).encode())]
    communicator = HttpCommunicator(application, method, MESSAGES_PATH, body=body, headers=headers)
    # A safety net for a hung answer, not a speed check: generous for a loaded machine.
    response = await communicator.get_response(timeout=60)
    return Reply(
        status=response["status"],
        headers={key.decode().lower(): value.decode() for key, value in response["headers"]},
        body=response["body"],
    )


@dataclass
class AnswerModels:
    """Scripted models behind the ``answer`` profile's candidates, in order."""

    stack: ExitStack
    scripts: dict[str, MockLanguageModel] = field(default_factory=dict)

    def script(self, key: str = "local/mock", **script: Any) -> MockLanguageModel:
        model = MockLanguageModel(**script)
        self.scripts[key] = model
        self.stack.enter_context(models_overridden({key: model}))
        return model


@pytest.fixture
def answer_models(settings) -> Iterator[AnswerModels]:
    settings.AI_PROFILES = {
        **settings.AI_PROFILES,
        "answer": {"candidates": ["local/mock", "local/extractive"]},
    }
    ai_config_reset()
    with ExitStack() as stack:
        yield AnswerModels(stack=stack)
    ai_config_reset()


@pytest.fixture
def dinner_chat(user):
    """A chat whose messages answer "When is the dinner with Ana?"."""
    chat = ChatFactory(user=user, title="Weekend plans")
    ana = PersonFactory(user=user, display_name="Ana")
    first = MessageFactory(
        chat=chat, sender_person=ana, text="Dinner on Friday at 8 at Casa Lisboa?"
    )
    MessageFactory(chat=chat, sender_person=None, is_from_self=True, sender_name="", text="Yes!")
    return chat, first


@pytest.fixture(autouse=True)
def local_price_book(db):
    """Transactional tests flush what migrations seeded; put the local price book back with
    the seeding migration's own function (the local models cost nothing)."""
    import importlib

    from django.apps import apps

    seeding = importlib.import_module("billing.migrations.0003_seed_local_price_book")
    seeding.seed_local_prices(apps, None)
    yield
    # The engine's worker threads and asgiref's thread for thread-sensitive calls keep their
    # connections; the test database must stay droppable.
    db_connections_close()
    asyncio.run(sync_to_async(connections.close_all)())
