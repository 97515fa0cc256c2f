"""Production settings: ``base`` with ``DEBUG`` off whatever the environment says, so no
process starts with a development or short ``SECRET_KEY`` (unset, each machine generates its
own long key once). With ``CLAIRE_HTTPS=true`` and ``ALLOWED_HOSTS`` set, ``manage.py check
--deploy`` reports no issues (docs/SECURITY.md)."""

from __future__ import annotations

from claire.secret_key import secret_key_refuse_insecure
from claire.settings.base import *  # noqa: F403
from claire.settings.base import INSECURE_SECRET_KEYS, SECRET_KEY

DEBUG = False

secret_key_refuse_insecure(key=SECRET_KEY, is_debug=DEBUG, insecure_keys=INSECURE_SECRET_KEYS)
