"""ASGI entry point served by daphne: HTTP through Django (and, for streaming endpoints,
Channels consumers), WebSockets through Channels."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claire.settings")

django_asgi_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402

application = ProtocolTypeRouter({"http": django_asgi_application})
