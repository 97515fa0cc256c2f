"""One path rule for everything under ``/api/``: no trailing slash, and JSON errors.

A path is served the same with or without a trailing slash (``/api/chats/`` is
``/api/chats``): never a redirect, which would drop a POST's body. A path that names no
endpoint answers a JSON ``404`` in the API's error shape instead of Django's HTML page;
a wrong method is already a JSON ``405`` from the API views.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, get_resolver

from claire.api.errors import error_body

API_PREFIX = "/api/"


class ApiPathMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if not path.startswith(API_PREFIX):
            return self.get_response(request)
        if path.endswith("/") and len(path) > len(API_PREFIX):
            path = path.rstrip("/")
            request.path_info = path
            request.path = request.path.rstrip("/")
        try:
            get_resolver().resolve(path)
        except Resolver404:
            return JsonResponse(
                error_body(code="not_found", message="No API endpoint at this path."), status=404
            )
        return self.get_response(request)
