"""The Ask Claire web page. It uses the same streaming endpoint as every other client."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from claire.api.auth import request_user
from conversations import selectors as conversation_selectors


@login_required
@ensure_csrf_cookie
def ask_page(request: HttpRequest) -> HttpResponse:
    chats = (
        conversation_selectors.chats_for_user(user=request_user(request))
        .filter(is_excluded_from_ai=False)
        .order_by("-last_message_at", "-id")[:200]
    )
    return render(request, "assistant/ask.html", {"chats": chats})
