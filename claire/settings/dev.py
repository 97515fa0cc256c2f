"""Development and test settings: ``base`` as the environment sets it (the default module of
``manage.py``, ``claire.asgi``, ``claire.celery`` and pytest). A development or short
``SECRET_KEY`` is refused unless ``DEBUG`` is on."""

from __future__ import annotations

from claire.secret_key import secret_key_refuse_insecure
from claire.settings.base import *  # noqa: F403
from claire.settings.base import DEBUG, INSECURE_SECRET_KEYS, SECRET_KEY

secret_key_refuse_insecure(key=SECRET_KEY, is_debug=DEBUG, insecure_keys=INSECURE_SECRET_KEYS)
