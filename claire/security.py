"""Security headers on every response, and sign-in throttling.

``SecurityHeadersMiddleware`` adds a Content-Security-Policy with a fresh nonce per request
(templates mark their own ``<script>`` and ``<style>`` with ``request.csp_nonce``) and a
Permissions-Policy; Django's ``SecurityMiddleware`` and ``XFrameOptionsMiddleware`` add the
rest (nosniff, referrer policy, cross-origin opener policy, frame denial, HSTS over HTTPS).

``ThrottledLoginView`` counts sign-in attempts per account and per client address
(``login_account``, ``login_address`` in ``RATE_LIMITS``) and answers 429 past either limit.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse

from claire.ratelimit import rate_limit_hit

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; "
    "script-src 'self' 'nonce-{nonce}'; "
    "style-src 'self' 'nonce-{nonce}'; "
    "style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; "
    "connect-src 'self'; "
    "object-src 'none'; "
    "base-uri 'none'; "
    "form-action 'self'; "
    "frame-ancestors 'none'"
)
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        nonce = secrets.token_urlsafe(16)
        request.csp_nonce = nonce  # type: ignore[attr-defined]
        response = self.get_response(request)
        response.headers.setdefault(
            "Content-Security-Policy", CONTENT_SECURITY_POLICY.format(nonce=nonce)
        )
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


class ThrottledLoginView(auth_views.LoginView):
    template_name = "login.html"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        account = str(request.POST.get("username", "")).strip().lower()
        address = str(request.META.get("REMOTE_ADDR", ""))
        decisions = [rate_limit_hit(scope="login_address", key=address)]
        if account:
            decisions.append(rate_limit_hit(scope="login_account", key=account))
        refused = [decision for decision in decisions if not decision.is_allowed]
        if refused:
            response = self.render_to_response(
                {**self.get_context_data(), "is_throttled": True}, status=429
            )
            response["Retry-After"] = str(max(d.retry_after_s for d in refused))
            return response
        return super().post(request, *args, **kwargs)
