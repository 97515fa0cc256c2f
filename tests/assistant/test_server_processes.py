"""The streaming endpoint on real daphne servers: a dropped connection cancels the answer, and
a Stop sent to one server process stops the stream served by another (Redis channel layer).

The servers run the project's ASGI application against this test database with the
``answer`` profile pointed at a slow scripted model (``CLAIRE_AI_CONFIG``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from django.conf import settings
from django.db import connection

from assistant.models import Turn, TurnStatus
from tests.assistant.conftest import token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
SLOW_MODEL = {
    "models": {
        "local/mock": {
            "options": {
                "deltas": ["Dinner ", "is ", "on ", "Friday ", "at ", "8 ", "[S1]."],
                "delta_delay_s": 1.0,
            }
        }
    },
    "profiles": {"answer": {"candidates": ["local/mock"]}},
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def daphne_server(*, redis_url: str = "") -> Iterator[int]:
    port = _free_port()
    test_database = connection.settings_dict["NAME"]
    env = {
        **os.environ,
        "CLAIRE_DATABASE_NAME": test_database,
        "CLAIRE_AI_CONFIG": json.dumps(SLOW_MODEL),
        "REDIS_URL": redis_url,
    }
    if os.environ.get("DATABASE_URL"):
        # The servers must use this test database, not the one DATABASE_URL names.
        env["DATABASE_URL"] = (
            urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{test_database}").geturl()
        )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "claire.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, "daphne exited"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "daphne did not start"
                time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=20)


def _open_stream(port: int, token: str) -> socket.socket:
    body = json.dumps(
        {
            "requestId": str(uuid.uuid4()),
            "question": "When is the dinner with Ana?",
            "scope": {"mode": "global"},
        }
    ).encode()
    head = (
        f"POST /api/assistant/messages HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: Token {token}\r\nAccept: text/event-stream\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    stream = socket.create_connection(("127.0.0.1", port), timeout=30)
    stream.sendall(head + body)
    return stream


def _read_until(stream: socket.socket, marker: bytes, received: bytes = b"") -> bytes:
    while marker not in received:
        chunk = stream.recv(65536)
        assert chunk, received[-300:]
        received += chunk
    return received


def _assistant_turn_id(received: bytes) -> int:
    start = received.index(b'{"type":"data-thread"')
    payload = json.loads(received[start : received.index(b"\n", start)])
    return int(payload["data"]["assistantTurnId"])


def _wait_for_status(turn_id: int, timeout: float = 10.0) -> Turn:
    deadline = time.monotonic() + timeout
    while True:
        turn = Turn.objects.get(pk=turn_id)
        if turn.status != TurnStatus.STREAMING or time.monotonic() > deadline:
            return turn
        time.sleep(0.05)


def test_dropped_connection_cancels_the_answer_within_a_second(user, dinner_chat):
    token = token_for(user)
    with daphne_server() as port:
        stream = _open_stream(port, token)
        received = _read_until(stream, b'"text-delta"')
        turn_id = _assistant_turn_id(received)
        stream.close()
        closed_at = datetime.now(UTC)
        turn = _wait_for_status(turn_id)
    assert turn.status == TurnStatus.CANCELLED
    assert turn.text == "Dinner"
    assert (turn.finished_at - closed_at).total_seconds() < 1.0


@pytest.mark.redis
def test_stop_reaches_the_stream_served_by_another_process(user, dinner_chat):
    redis_url = settings.REDIS_URL or os.environ.get("REDIS_URL", "")
    assert redis_url, "REDIS_URL must name the test Redis server"
    assert redis.Redis.from_url(redis_url).ping()
    token = token_for(user)
    with (
        daphne_server(redis_url=redis_url) as streaming_port,
        daphne_server(redis_url=redis_url) as other_port,
    ):
        stream = _open_stream(streaming_port, token)
        received = _read_until(stream, b'"text-delta"')
        turn_id = _assistant_turn_id(received)
        cancel = subprocess.run(
            [
                "curl",
                "-s",
                "-X",
                "POST",
                "-H",
                f"Authorization: Token {token}",
                f"http://127.0.0.1:{other_port}/api/assistant/turns/{turn_id}/cancel",
            ],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        stopped_at = datetime.now(UTC)
        assert json.loads(cancel.stdout) == {
            "turnId": str(turn_id),
            "status": "streaming",
            "stopRequested": True,
        }
        received = _read_until(stream, b"data: [DONE]\n\n", received)
        stream.close()
    assert b'"status":"cancelled"' in received
    assert b'{"type":"finish","finishReason":"other"}' in received
    turn = Turn.objects.get(pk=turn_id)
    assert turn.status == TurnStatus.CANCELLED
    assert (turn.finished_at - stopped_at).total_seconds() < 1.0
