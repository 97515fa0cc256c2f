"""Django's PostgreSQL backend, pointed at the embedded server that it starts on first use.

Settings name the data folder in ``OPTIONS["embedded_data_dir"]``; host and port are filled in
from the running server, so the rest of Django (and pytest-django's test database) sees an
ordinary PostgreSQL connection over a Unix socket.

The server's log must never hold message or question text: ``SERVER_LOG_SETTINGS`` are applied
once (``ALTER SYSTEM``) before the first connection of a process. An external PostgreSQL needs
the same two settings from its operator (docs/SECURITY.md).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from django.db.backends.postgresql import base

from claire.db.embedded import EmbeddedServer, embedded_server_ensure

# A failed statement is logged without its text (it may carry a question or a message), and
# without DETAIL/CONTEXT lines ("Failing row contains (...)" quotes the row).
SERVER_LOG_SETTINGS = {"log_min_error_statement": "panic", "log_error_verbosity": "terse"}

_configured: set[Path] = set()
_configure_lock = threading.Lock()


def server_log_settings_apply(server: EmbeddedServer) -> None:
    """Make the embedded server's log content-free; idempotent, once per process."""
    import psycopg
    from psycopg import sql

    with _configure_lock:
        if server.data_dir in _configured:
            return
        with psycopg.connect(
            host=server.socket_dir,
            port=server.port,
            user="postgres",
            dbname="postgres",
            autocommit=True,
        ) as connection:
            changed = False
            for name, value in SERVER_LOG_SETTINGS.items():
                row = connection.execute("SELECT current_setting(%s)", [name]).fetchone()
                if row is None or row[0] != value:
                    connection.execute(
                        sql.SQL("ALTER SYSTEM SET {} = {}").format(
                            sql.Identifier(name), sql.Literal(value)
                        )
                    )
                    changed = True
            if changed:
                connection.execute("SELECT pg_reload_conf()")
        _configured.add(server.data_dir)


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        options = self.settings_dict["OPTIONS"]
        data_dir = Path(options["embedded_data_dir"])
        server = embedded_server_ensure(
            data_dir=data_dir, database=self.settings_dict["NAME"] or "postgres"
        )
        server_log_settings_apply(server)
        self.settings_dict["HOST"] = server.socket_dir
        self.settings_dict["PORT"] = str(server.port)
        params = super().get_connection_params()
        params.pop("embedded_data_dir", None)
        return params
