"""Request bounds in the served process (``claire.server``), on a real daphne server: a body
over the route's limit is refused before it is read, slow requests are closed, and half-sent
requests cannot pile up."""

from __future__ import annotations

import contextlib
import json
import socket
import time

import pytest

from tests.assistant.conftest import token_for
from tests.assistant.test_server_processes import daphne_process

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

BOUNDS_ENV = {
    "SERVER_HEADER_TIMEOUT_SECONDS": "1",
    "SERVER_BODY_TIMEOUT_SECONDS": "1",
    "SERVER_MAX_INCOMPLETE_REQUESTS": "3",
    "SERVER_MAX_BODY_BYTES": "4096",
}


@pytest.fixture(scope="module")
def server_port(django_db_setup):
    with daphne_process(extra_env=BOUNDS_ENV) as (port, _):
        yield port


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def _response(stream: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Read until the server closes; the status, headers and body."""
    received = b""
    while True:
        try:
            chunk = stream.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


def _head(method: str, path: str, *headers: str) -> bytes:
    return (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "".join(f"{header}\r\n" for header in headers)
        + "\r\n"
    ).encode()


def test_an_announced_body_over_the_limit_is_413_before_it_is_sent(server_port):
    with _connect(server_port) as stream:
        # 2 GB announced, no byte of it sent: the answer comes anyway.
        stream.sendall(
            _head(
                "POST",
                "/api/ingest/batches",
                "Content-Length: 2000000000",
                "Content-Type: application/json",
            )
        )
        status, headers, body = _response(stream)
    assert status == 413
    assert headers["content-type"] == "application/json"
    assert json.loads(body)["error"]["code"] == "request_too_large"


def test_the_ask_endpoint_refuses_300_mb_at_its_own_64_kb_limit(server_port, user):
    with _connect(server_port) as stream:
        stream.sendall(
            _head(
                "POST",
                "/api/assistant/messages",
                f"Authorization: Token {token_for(user)}",
                "Content-Length: 300000000",
                "Accept: text/event-stream",
            )
        )
        status, _, body = _response(stream)
    assert status == 413
    assert json.loads(body)["error"]["message"] == ("The request body is larger than 65536 bytes.")


def test_pages_outside_the_api_get_a_plain_413(server_port):
    with _connect(server_port) as stream:
        stream.sendall(_head("POST", "/login/", "Content-Length: 5000"))
        status, headers, body = _response(stream)
    assert status == 413
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert body == b"The request body is larger than 4096 bytes."


def test_a_refused_body_sent_whole_in_one_write_is_not_served(server_port):
    with _connect(server_port) as stream:
        stream.sendall(_head("POST", "/login/", "Content-Length: 5000") + b"x" * 5000)
        status, _, body = _response(stream)
    assert status == 413
    assert body == b"The request body is larger than 4096 bytes."


def test_a_chunked_body_is_cut_at_the_limit(server_port):
    sent = 0
    with _connect(server_port) as stream:
        stream.sendall(
            _head("POST", "/api/me", "Transfer-Encoding: chunked", "Content-Type: application/json")
        )
        chunk = b"1000\r\n" + b"x" * 0x1000 + b"\r\n"
        try:
            for _ in range(10_000):  # 40 MB if nothing stopped it
                stream.sendall(chunk)
                sent += 0x1000
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass
        status, _, body = _response(stream)
    assert status == 413
    assert json.loads(body)["error"]["code"] == "request_too_large"
    # The server stopped reading at the limit; the socket buffers hold the rest of what was sent.
    assert sent < 8 * 1024 * 1024


def test_headers_trickling_in_are_cut_at_the_header_timeout(server_port):
    with _connect(server_port) as stream:
        stream.sendall(b"GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        started = time.monotonic()
        closed = False
        try:
            while time.monotonic() - started < 5:
                stream.sendall(b"X")  # a byte of a header, every 0.2 s
                time.sleep(0.2)
        except (BrokenPipeError, ConnectionResetError):
            closed = True
        if not closed:
            stream.settimeout(1)
            try:
                closed = stream.recv(1) == b""
            except ConnectionResetError:
                closed = True
        elapsed = time.monotonic() - started
    assert closed
    assert elapsed < 3


def test_a_body_that_stalls_gets_408_at_the_body_timeout(server_port):
    with _connect(server_port) as stream:
        stream.sendall(
            _head(
                "POST",
                "/api/ingest/batches",
                "Content-Length: 100",
                "Content-Type: application/json",
            )
            + b'{"platform"'
        )
        started = time.monotonic()
        status, _, body = _response(stream)
        elapsed = time.monotonic() - started
    assert status == 408
    assert json.loads(body)["error"]["code"] == "request_timeout"
    assert 0.8 < elapsed < 3


def test_half_sent_requests_are_capped_and_slots_come_back(server_port, user):
    half_sent = [_connect(server_port) for _ in range(3)]
    for stream in half_sent:
        stream.sendall(b"GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    time.sleep(0.2)
    with _connect(server_port) as refused:
        refused.sendall(_head("GET", "/api/me"))
        refused.settimeout(2)
        with contextlib.suppress(ConnectionResetError):
            assert refused.recv(100) == b""
    for stream in half_sent:
        stream.close()
    time.sleep(0.3)
    with _connect(server_port) as stream:
        stream.sendall(
            _head("GET", "/api/me", f"Authorization: Token {token_for(user)}", "Connection: close")
        )
        status, _, body = _response(stream)
    assert status == 200, body[:2000]
    assert json.loads(body)["email"] == user.email


def test_django_refuses_an_oversized_api_body_in_the_json_shape(api_client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"platform": "telegram", "messages": [], "pad": "x" * 2000})
    response = api_client.generic(
        "POST", "/api/ingest/batches", body, content_type="application/json"
    )
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "request_too_large"
