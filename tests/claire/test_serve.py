"""The production layout (``python -m claire.serve``): several daphne processes answer on one
port; one that dies is replaced; SIGTERM stops them all."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.assistant.test_server_processes import _free_port

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.redis]


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def _status(port: int) -> int:
    completed = subprocess.run(
        ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", f"http://127.0.0.1:{port}/login/"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return int(completed.stdout or 0)


def _wait_until(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


def test_two_processes_share_the_port_and_a_dead_one_is_replaced(redis_url):
    port = _free_port()
    launcher = subprocess.Popen(
        [sys.executable, "-m", "claire.serve", "--processes", "2", "--port", str(port)],
        cwd=settings.BASE_DIR,
        env={
            **os.environ,
            "REDIS_URL": redis_url,
            "CLAIRE_DATABASE_NAME": connection.settings_dict["NAME"],
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert _wait_until(lambda: _status(port) == 200, 60)
        servers = _children(launcher.pid)
        assert len(servers) == 2
        # Both take connections: the kernel spreads them over the processes' accept calls.
        assert all(_status(port) == 200 for _ in range(20))

        killed = min(servers)
        os.kill(killed, signal.SIGKILL)
        assert _wait_until(
            lambda: len(_children(launcher.pid)) == 2 and killed not in _children(launcher.pid), 30
        )
        assert _wait_until(lambda: _status(port) == 200, 30)
        replaced = _children(launcher.pid)
        launcher.send_signal(signal.SIGTERM)
        assert launcher.wait(timeout=60) == 0
        assert not any(Path(f"/proc/{pid}").exists() for pid in replaced)
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()


def test_several_processes_without_redis_are_refused():
    completed = subprocess.run(
        [sys.executable, "-m", "claire.serve", "--processes", "2", "--port", str(_free_port())],
        cwd=settings.BASE_DIR,
        env={**os.environ, "REDIS_URL": ""},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert "need REDIS_URL" in completed.stderr
