"""Every ``/api/`` route, read from the URL conf (plus the ASGI answer endpoint), so tests that
must cover every route pick up a new one without anyone listing it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver

ASSISTANT_MESSAGES_PATH = "/api/assistant/messages"
# Public, user-free routes: the contract itself.
PUBLIC_ROUTE_NAMES = frozenset({"api-schema", "api-docs"})
HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class Route:
    name: str
    path: str  # OpenAPI style: /api/chats/{chat_id}
    methods: tuple[str, ...]
    parameters: tuple[str, ...]

    def url(self, **values: object) -> str:
        url = self.path
        for name in self.parameters:
            url = url.replace("{" + name + "}", str(values[name]))
        return url


def _walk(patterns: list, prefix: str) -> list[tuple[str, URLPattern]]:
    found = []
    for pattern in patterns:
        text = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found += _walk(pattern.url_patterns, text)
        else:
            found.append((text, pattern))
    return found


def _methods(pattern: URLPattern) -> tuple[str, ...]:
    view_class = getattr(pattern.callback, "view_class", None) or getattr(
        pattern.callback, "cls", None
    )
    if view_class is None:
        return ("GET",)
    return tuple(method for method in HTTP_METHODS if hasattr(view_class, method.lower()))


def api_routes(*, include_public: bool = False) -> list[Route]:
    """Every route under ``/api/`` with the methods its view answers, and the answer endpoint."""
    routes = [
        Route(
            name="assistant-messages",
            path=ASSISTANT_MESSAGES_PATH,
            methods=("POST",),
            parameters=(),
        )
    ]
    for text, pattern in _walk(get_resolver().url_patterns, "/"):
        if not text.startswith("/api/"):
            continue
        if pattern.name in PUBLIC_ROUTE_NAMES and not include_public:
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", text)
        routes.append(
            Route(
                name=pattern.name or path,
                path=path,
                methods=_methods(pattern),
                parameters=tuple(re.findall(r"\{(\w+)\}", path)),
            )
        )
    return routes
