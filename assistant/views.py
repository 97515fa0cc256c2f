"""The Ask Claire web page and the client modules it loads. The page uses the same streaming
endpoint as every other client."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

from claire.api.auth import request_user
from conversations import selectors as conversation_selectors

CLIENT_DIR = Path(__file__).resolve().parent / "static" / "assistant"
# The ES modules of the web client, served as they are (no build step).
CLIENT_MODULES = frozenset(
    {"stream.js", "markdown.js", "conversation.js", "ask-page.js", "chat-ask.js"}
)


@login_required
@ensure_csrf_cookie
def ask_page(request: HttpRequest) -> HttpResponse:
    chats = (
        conversation_selectors.chats_for_user(user=request_user(request))
        .filter(is_excluded_from_ai=False)
        .order_by("-last_message_at", "-id")[:200]
    )
    return render(request, "assistant/ask.html", {"chats": chats})


@require_safe
def client_module(request: HttpRequest, name: str) -> HttpResponse:
    """One of the client's ES modules; revalidated on every load so a deploy shows at once."""
    if name not in CLIENT_MODULES:
        raise Http404
    response = HttpResponse(
        (CLIENT_DIR / name).read_bytes(), content_type="text/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Content-Type-Options"] = "nosniff"
    return response
