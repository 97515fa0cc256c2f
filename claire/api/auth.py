from __future__ import annotations

from django.http import HttpRequest
from rest_framework.request import Request

from claire.accounts.models import User


def request_user(request: Request | HttpRequest) -> User:
    """The signed-in user of a request that passed an ``IsAuthenticated`` check."""
    user = request.user
    if not isinstance(user, User):
        raise TypeError("request_user() needs an authenticated request")
    return user
