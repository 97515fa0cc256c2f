from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from claire.accounts.models import User


def request_user(request: Request | HttpRequest) -> User:
    """The signed-in user of a request that passed an ``IsAuthenticated`` check."""
    user = request.user
    if not isinstance(user, User):
        raise TypeError("request_user() needs an authenticated request")
    return user


class TokenOrBearerAuthentication(TokenAuthentication):
    """DRF's token authentication, also under the ``Bearer`` scheme most HTTP clients send:
    ``Authorization: Token <key>`` and ``Authorization: Bearer <key>`` are the same."""

    schemes = (b"token", b"bearer")

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        header = get_authorization_header(request).split()
        if not header or header[0].lower() not in self.schemes:
            return None
        if len(header) != 2:
            raise AuthenticationFailed(
                "Invalid Authorization header: send 'Token <key>' (or 'Bearer <key>')."
            )
        try:
            key = header[1].decode()
        except UnicodeError:
            raise AuthenticationFailed("Invalid token: it must be plain text.") from None
        return self.authenticate_credentials(key)
