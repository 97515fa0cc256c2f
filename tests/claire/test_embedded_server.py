"""The embedded PostgreSQL stops when its last live user exits, even after users were killed."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psutil
import pytest
from django.conf import settings

from claire.db.embedded import handles_prune_dead

ROOT = Path(__file__).resolve().parents[2]

ATTACH_AND_WAIT = """
import sys, time
from pathlib import Path
from claire.db.embedded import embedded_server_ensure
embedded_server_ensure(data_dir=Path(sys.argv[1]), database="postgres")
print("attached", flush=True)
if sys.argv[2] == "wait":
    time.sleep(120)
"""


ATTACH_THEN_RESTART_AND_EXIT = """
import sys, time
import psutil
from pathlib import Path
import pgserver
from pgserver import _commands
from claire.db.embedded import embedded_server_ensure
data_dir = Path(sys.argv[1])
embedded_server_ensure(data_dir=data_dir, database="postgres")
print("attached", flush=True)
sys.stdin.readline()
server = pgserver.get_server(data_dir, cleanup_mode="stop")
before = int(open(data_dir / "postmaster.pid").read().splitlines()[0])
_commands.pg_ctl(
    ["-w", "-t", "60", "-m", "fast", "-l", str(data_dir / "log"), "restart"],
    pgdata=data_dir, user=server.system_user, timeout=90,
)
# Exit only once the old postmaster is gone for good, as after a restart long before exit.
deadline = time.monotonic() + 30
while psutil.pid_exists(before) and time.monotonic() < deadline:
    time.sleep(0.05)
print(open(data_dir / "postmaster.pid").read().splitlines()[0], flush=True)
"""


def _dead_pid() -> int:
    finished = subprocess.Popen(["true"])
    finished.wait()
    return finished.pid


def test_pruning_keeps_live_processes_and_drops_dead_ones(tmp_path):
    handle_list = tmp_path / ".handle_pids.json"
    dead = _dead_pid()
    handle_list.write_text(json.dumps([dead, os.getpid()]))

    assert handles_prune_dead(data_dir=tmp_path) == [os.getpid()]
    assert json.loads(handle_list.read_text()) == [os.getpid()]


def test_pruning_without_a_handle_list_writes_nothing(tmp_path):
    assert handles_prune_dead(data_dir=tmp_path) == []
    assert list(tmp_path.iterdir()) == []


def _attach(data_dir: Path, *, wait: bool) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", ATTACH_AND_WAIT, str(data_dir), "wait" if wait else "exit"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def _postmaster_pid(data_dir: Path) -> int | None:
    pid_file = data_dir / "postmaster.pid"
    if not pid_file.exists():
        return None
    return int(pid_file.read_text().splitlines()[0])


@pytest.mark.slow
def test_the_server_stops_when_the_last_live_user_exits_after_one_was_killed():
    data_dir = Path(settings.DATA_DIR) / f"test-embedded-{uuid.uuid4().hex[:8]}" / "postgres"
    killed = _attach(data_dir, wait=True)
    try:
        assert killed.stdout is not None
        assert killed.stdout.readline().strip() == "attached"
        postmaster = _postmaster_pid(data_dir)
        assert postmaster is not None and psutil.pid_exists(postmaster)
        killed.send_signal(signal.SIGKILL)
        killed.wait(timeout=10)
        assert killed.pid in json.loads((data_dir / ".handle_pids.json").read_text())

        last_user = _attach(data_dir, wait=False)
        output, _ = last_user.communicate(timeout=120)
        assert output.strip() == "attached"
        assert last_user.returncode == 0

        deadline = time.monotonic() + 10
        while psutil.pid_exists(postmaster) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not psutil.pid_exists(postmaster)
        assert _postmaster_pid(data_dir) is None
        assert json.loads((data_dir / ".handle_pids.json").read_text()) == []
    finally:
        if killed.poll() is None:
            killed.kill()
        leftover = _postmaster_pid(data_dir)
        if leftover is not None and psutil.pid_exists(leftover):
            psutil.Process(leftover).kill()
        shutil.rmtree(data_dir.parent, ignore_errors=True)


def test_an_empty_or_torn_handle_list_reads_as_no_handles_and_is_rewritten_whole(tmp_path):
    from claire.db.embedded import _pgserver_import, handle_list_read

    pgserver = _pgserver_import()
    handle_list = tmp_path / ".handle_pids.json"
    disk_list = pgserver.utils.DiskList(handle_list)
    for torn in ("", "[12, 3", "{}"):
        handle_list.write_text(torn)
        assert disk_list.get() == []
    disk_list.get_and_add(41)
    disk_list.get_and_add(42)
    assert handle_list_read(handle_list) == [41, 42]
    disk_list.get_and_remove(41)
    assert handle_list.read_text() == "[42]"
    assert list(tmp_path.iterdir()) == [handle_list]


@pytest.mark.slow
def test_the_server_stops_when_its_last_user_exits_after_restarting_it():
    # The first user starts the server and is killed; the second restarts the server (its
    # new postmaster is no child of anyone who attached) and exits as the last user.
    data_dir = Path(settings.DATA_DIR) / f"test-embedded-{uuid.uuid4().hex[:8]}" / "postgres"
    first = _attach(data_dir, wait=True)
    second: subprocess.Popen[str] | None = None
    restarted: int | None = None
    try:
        assert first.stdout is not None
        assert first.stdout.readline().strip() == "attached"
        second = subprocess.Popen(
            [sys.executable, "-c", ATTACH_THEN_RESTART_AND_EXIT, str(data_dir)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert second.stdout is not None and second.stdin is not None
        assert second.stdout.readline().strip() == "attached"
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        output, _ = second.communicate("go\n", timeout=180)
        assert second.returncode == 0
        restarted = int(output.strip().splitlines()[-1])

        deadline = time.monotonic() + 10
        while psutil.pid_exists(restarted) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not psutil.pid_exists(restarted)
        assert _postmaster_pid(data_dir) is None
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
        leftover = _postmaster_pid(data_dir)
        for pid in {leftover, restarted} - {None}:
            if pid is not None and psutil.pid_exists(pid):
                psutil.Process(pid).kill()
        shutil.rmtree(data_dir.parent, ignore_errors=True)
