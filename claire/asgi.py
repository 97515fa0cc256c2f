"""ASGI entry point served by daphne: HTTP through Django, except the streaming answer
endpoint, which is its own ASGI application so that it sees client disconnects while it
streams (``assistant.consumers``)."""

from __future__ import annotations

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claire.settings.dev")

django_asgi_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402

from assistant import consumers  # noqa: E402
from assistant.tasks import sweep_orphaned_turns_at_start  # noqa: E402
from claire.server import request_bounds_install  # noqa: E402

ASSISTANT_MESSAGES_PATH = "/api/assistant/messages"


async def http_application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    # The /api/ path rule (claire.api.middleware): a trailing slash names the same endpoint.
    if scope["path"].rstrip("/") == ASSISTANT_MESSAGES_PATH:
        await consumers.application(scope, receive, send)
    else:
        await django_asgi_application(scope, receive, send)


application = ProtocolTypeRouter({"http": http_application})
request_bounds_install()

sweep_orphaned_turns_at_start()
