"""No message or question text reaches the PostgreSQL server log: the request-id race, the
retry race and the ingest race run without failing statements, and a statement that does fail
is logged without its text or the row it carried.

The log is the embedded server's (``<embedded_data_dir>/log``); the test reads what the server
wrote while it ran and looks for marker words planted in every question and message."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from pathlib import Path

import pytest
from channels.testing import HttpCommunicator
from django.conf import settings
from django.db import IntegrityError, connection, connections, transaction
from rest_framework.test import APIClient

from assistant.models import Turn, TurnRole, TurnStatus
from tests.assistant.conftest import MESSAGES_PATH, token_for

pytestmark = pytest.mark.django_db(transaction=True)

MARKER = f"quokkazebra{uuid.uuid4().hex[:10]}"


def _server_log() -> Path:
    if settings.DATABASES["default"]["ENGINE"] != "claire.db.backends.embedded_postgresql":
        pytest.skip("reads the embedded server's log; an external server's log is its own")
    return Path(settings.DATABASES["default"]["OPTIONS"]["embedded_data_dir"]) / "log"


async def _ask_many(token: str, body: dict[str, object], count: int) -> list[int]:
    from claire.asgi import application

    payload = json.dumps(body).encode()
    headers = [
        (b"authorization", f"Token {token}".encode()),
        (b"accept", b"application/json"),
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
    ]

    async def one() -> int:
        communicator = HttpCommunicator(application, "POST", MESSAGES_PATH, payload, headers)
        return (await communicator.get_response(timeout=30))["status"]

    return await asyncio.gather(*(one() for _ in range(count)))


def _ingest_concurrently(token: str, count: int) -> list[int]:
    batch = {
        "platform": "telegram",
        "chats": [{"chatId": "race", "title": "Race"}],
        "messages": [
            {
                "chatId": "race",
                "messageId": f"m{n}",
                "sentAt": "2026-03-01T10:00:00+01:00",
                "text": f"{MARKER} message {n}",
                "sender": {"userId": "u1", "displayName": "Ana"},
            }
            for n in range(20)
        ],
    }
    statuses: list[int] = []

    def post() -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        statuses.append(client.post("/api/ingest/batches", batch, format="json").status_code)
        connections.close_all()

    threads = [threading.Thread(target=post) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def test_races_and_failed_statements_leave_no_content_in_the_server_log(
    user, dinner_chat, answer_models
):
    log = _server_log()
    start = log.stat().st_size
    with connection.cursor() as cursor:
        cursor.execute("SHOW log_min_error_statement")
        assert cursor.fetchone() == ("panic",)
        cursor.execute("SHOW log_error_verbosity")
        assert cursor.fetchone() == ("terse",)
    answer_models.script(deltas=("Friday at 8 [S1].",), delta_delay_s=0.2)
    token = token_for(user)

    # 20 concurrent identical requests: one answer, no failed INSERT.
    body = {"requestId": str(uuid.uuid4()), "question": f"When is {MARKER} dinner?"}
    statuses = asyncio.run(_ask_many(token, body, 20))
    assert statuses.count(200) >= 1
    assert set(statuses) <= {200, 409}
    assert Turn.objects.filter(user=user, role=TurnRole.USER).count() == 1

    # 10 concurrent retries of one failed answer.
    failed = Turn.objects.get(user=user, role=TurnRole.ASSISTANT)
    Turn.objects.filter(pk=failed.pk).update(status=TurnStatus.FAILED)
    retry = {**body, "retryOfTurnId": str(failed.pk)}

    async def retry_all() -> list[list[int]]:
        return await asyncio.gather(
            *(_ask_many(token, {**retry, "requestId": str(uuid.uuid4())}, 1) for _ in range(10))
        )

    retries = asyncio.run(retry_all())
    assert sorted(status for [status] in retries).count(200) == 1

    # Concurrent ingests of one batch.
    assert _ingest_concurrently(token, 4) == [200] * 4

    # A statement that fails on a constraint, carrying the marker in its row.
    with pytest.raises(IntegrityError), transaction.atomic():
        Turn.objects.create(
            thread=failed.thread,
            user=user,
            role=TurnRole.USER,
            request_id="",
            status=TurnStatus.COMPLETED,
            text=f"{MARKER} in a row that breaks a check constraint",
        )

    deadline = time.monotonic() + 10
    while True:
        with log.open("rb") as stream:
            stream.seek(start)
            written = stream.read().decode("utf-8", errors="replace")
        if "assistant_turn_role_shape" in written or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    # The scan reads the right file: the failed statement's error is there, without content.
    assert "violates check constraint" in written
    assert MARKER not in written
    assert "STATEMENT:" not in written
    assert "Failing row contains" not in written
