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
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from django.db import connection

from assistant.models import Turn, TurnStatus
from tests.assistant.conftest import token_for
from tests.redis_server import redis_server_running

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
SLOW_DELTAS = ["Dinner ", "is ", "on ", "Friday ", "at ", "8 ", "[S1]."]


def slow_model(deltas: list[str] = SLOW_DELTAS, delay_s: float = 1.0) -> dict[str, object]:
    """A scripted ``answer`` model that streams ``deltas`` one every ``delay_s`` seconds."""
    return {
        "models": {"local/mock": {"options": {"deltas": deltas, "delta_delay_s": delay_s}}},
        "profiles": {"answer": {"candidates": ["local/mock"]}},
    }


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def daphne_server(*, redis_url: str = "", model: dict[str, object] | None = None) -> Iterator[int]:
    with daphne_process(redis_url=redis_url, model=model) as (port, _):
        yield port


@contextmanager
def daphne_process(
    *,
    redis_url: str = "",
    model: dict[str, object] | None = None,
    extra_env: dict[str, str] | None = None,
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """A daphne server on a free port, and its process (a test may kill it)."""
    port = _free_port()
    test_database = connection.settings_dict["NAME"]
    env = {
        **os.environ,
        "CLAIRE_DATABASE_NAME": test_database,
        "CLAIRE_AI_CONFIG": json.dumps(model or slow_model()),
        "REDIS_URL": redis_url,
        **(extra_env or {}),
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
        yield port, process
    finally:
        if process.poll() is None:
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
def test_stop_reaches_the_stream_served_by_another_process(user, dinner_chat, redis_url):
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


def _stop_from(port: int, token: str, turn_id: int) -> dict[str, object]:
    cancel = subprocess.run(
        [
            "curl",
            "-s",
            "-X",
            "POST",
            "-H",
            f"Authorization: Token {token}",
            f"http://127.0.0.1:{port}/api/assistant/turns/{turn_id}/cancel",
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(cancel.stdout)


def private_redis(port: int) -> AbstractContextManager[subprocess.Popen[bytes]]:
    """A Redis server of this test's own on ``port`` (nothing kept on disk), so the test may
    stop and restart it without touching the Redis other tests share."""
    return redis_server_running(port)


LONG_DELTAS = [f"word{index} " for index in range(11)] + ["[S1]."]


@pytest.mark.redis
def test_an_answer_streaming_longer_than_the_redis_timeouts_completes(user, dinner_chat, redis_url):
    # Twelve deltas 0.7 s apart: the stream lasts about 8 s, past the Redis client's 5 s
    # socket timeout and channels_redis' 5 s blocking pop.
    token = token_for(user)
    with daphne_server(redis_url=redis_url, model=slow_model(LONG_DELTAS, 0.7)) as port:
        stream = _open_stream(port, token)
        received = _read_until(stream, b"data: [DONE]\n\n")
        stream.close()
    turn = Turn.objects.get(pk=_assistant_turn_id(received))
    assert turn.status == TurnStatus.COMPLETED
    assert turn.text == "".join(LONG_DELTAS)
    assert b'"status":"cancelled"' not in received


@pytest.mark.redis
def test_stop_after_eight_seconds_of_streaming_still_stops_the_answer(user, dinner_chat, redis_url):
    token = token_for(user)
    deltas = [f"word{index} " for index in range(30)]
    with (
        daphne_server(redis_url=redis_url, model=slow_model(deltas, 0.5)) as port,
        daphne_server(redis_url=redis_url) as other_port,
    ):
        stream = _open_stream(port, token)
        received = _read_until(stream, b'"text-delta"')
        turn_id = _assistant_turn_id(received)
        time.sleep(8)
        assert _stop_from(other_port, token, turn_id)["stopRequested"] is True
        stopped_at = datetime.now(UTC)
        received = _read_until(stream, b"data: [DONE]\n\n", received)
        stream.close()
    turn = Turn.objects.get(pk=turn_id)
    assert turn.status == TurnStatus.CANCELLED
    assert 0 < len(turn.text) < len("".join(deltas))
    assert (turn.finished_at - stopped_at).total_seconds() < 1.0


@pytest.mark.redis
def test_the_answer_completes_when_redis_restarts_mid_stream(user, dinner_chat):
    token = token_for(user)
    redis_port = _free_port()
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    with (
        private_redis(redis_port) as first_server,
        daphne_server(redis_url=redis_url, model=slow_model(LONG_DELTAS, 0.5)) as port,
    ):
        stream = _open_stream(port, token)
        received = _read_until(stream, b'"text-delta"')
        turn_id = _assistant_turn_id(received)
        first_server.terminate()
        first_server.wait(timeout=10)
        time.sleep(1.0)
        with private_redis(redis_port):
            received = _read_until(stream, b"data: [DONE]\n\n", received)
            stream.close()
    turn = Turn.objects.get(pk=turn_id)
    assert turn.status == TurnStatus.COMPLETED
    assert turn.text == "".join(LONG_DELTAS)
