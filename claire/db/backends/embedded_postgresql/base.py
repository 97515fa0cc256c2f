"""Django's PostgreSQL backend, pointed at the embedded server that it starts on first use.

Settings name the data folder in ``OPTIONS["embedded_data_dir"]``; host and port are filled in
from the running server, so the rest of Django (and pytest-django's test database) sees an
ordinary PostgreSQL connection over a Unix socket.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db.backends.postgresql import base

from claire.db.embedded import embedded_server_ensure


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        options = self.settings_dict["OPTIONS"]
        data_dir = Path(options["embedded_data_dir"])
        server = embedded_server_ensure(
            data_dir=data_dir, database=self.settings_dict["NAME"] or "postgres"
        )
        self.settings_dict["HOST"] = server.socket_dir
        self.settings_dict["PORT"] = str(server.port)
        params = super().get_connection_params()
        params.pop("embedded_data_dir", None)
        return params
