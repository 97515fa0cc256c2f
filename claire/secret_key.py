"""The machine's own secret key, for installs that do not set ``SECRET_KEY`` (read by settings,
so it imports nothing from Django)."""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path


def local_secret_key(path: Path) -> str:
    """A random key created once (mode 0600) by the first process to ask; the others read it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(100):
            key = path.read_text().strip()
            if key:
                return key
            time.sleep(0.01)  # another process created the file and is writing its key
        raise RuntimeError(f"{path} is empty: delete it or set SECRET_KEY.") from None
    key = secrets.token_urlsafe(50)
    with os.fdopen(descriptor, "w") as stream:
        stream.write(key)
    return key
