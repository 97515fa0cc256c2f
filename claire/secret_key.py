"""The secret key, read by settings (so nothing here needs configured Django): the machine's own
key for installs that do not set ``SECRET_KEY``, and the refusal of a development key outside
DEBUG."""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

SECRET_KEY_MIN_CHARS = 32


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


def secret_key_refuse_insecure(*, key: str, is_debug: bool, insecure_keys: frozenset[str]) -> None:
    """Raise when ``key`` is a known development key (or too short to sign with) and DEBUG is
    off, so that no production process starts with a key anyone can read in the source."""
    if is_debug:
        return
    if key in insecure_keys or len(key) < SECRET_KEY_MIN_CHARS:
        raise ImproperlyConfigured(
            "SECRET_KEY is a development key (or shorter than "
            f"{SECRET_KEY_MIN_CHARS} characters) and DEBUG is off: set SECRET_KEY to a long "
            "random value, or unset it to use a generated key."
        )
