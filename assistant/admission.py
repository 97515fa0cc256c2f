"""Admission of ``POST /api/assistant/messages``: everything that decides the HTTP status
before the first byte (authentication, rate limit, content negotiation, validation, the AI
policy and budget check, the idempotent turn insert).

``admissions_decide`` admits the requests that arrived together in one go: one token lookup,
one Redis round trip for the rate limits, one probe of the request ids and one transaction
inserting every new pair, instead of a dozen round trips (and the interpreter time around
them) per request. Each request gets the outcome it would get alone; a request the batch
cannot take as it is (a session, an unusual Authorization header, a request id seen before,
a retry) goes through the one-request path, ``admission_decide``.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError
from django.utils.functional import SimpleLazyObject
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.settings import api_settings

from assistant import answering
from assistant.api.serializers import ask_request_from
from assistant.errors import NotAcceptable
from assistant.services import TurnPair
from assistant.types import AskRequest
from claire.accounts.models import User
from claire.api.auth import TokenOrBearerAuthentication
from claire.api.parsers import json_loads_bounded
from claire.db.steps import checked
from claire.ratelimit import rate_limit_check, rate_limit_error, rate_limit_hits

logger = logging.getLogger(__name__)

SSE_MEDIA_TYPE = "text/event-stream"
JSON_MEDIA_TYPE = "application/json"


@dataclass(frozen=True)
class Arrival:
    """One request as the ASGI application read it."""

    scope: Mapping[str, Any]
    body: bytes


@dataclass(frozen=True)
class Admitted:
    transport: str
    user: User
    request: AskRequest
    pair: TurnPair


# What a request's admission ends in: admitted, or the error that refuses it. Anything else
# (a bug) is raised by the ASGI application for that request alone.
Outcome = Admitted | BaseException


def negotiate(accept: str) -> str:
    """``sse`` or ``json`` from an Accept header; wildcards do not count (``NotAcceptable``).

    The highest quality wins; on a tie, the type listed first."""
    best: tuple[float, int, str] | None = None
    for position, item in enumerate(accept.split(",")):
        media_type, *parameters = (part.strip() for part in item.split(";"))
        quality = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        kind = {SSE_MEDIA_TYPE: "sse", JSON_MEDIA_TYPE: "json"}.get(media_type.lower())
        if kind is None or quality <= 0:
            continue
        if best is None or quality > best[0]:
            best = (quality, -position, kind)
    if best is None:
        raise NotAcceptable()
    return best[2]


def header_of(scope: Mapping[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return ""


def _authenticate(scope: Mapping[str, Any], body: bytes) -> User:
    """DRF's configured authenticators on a Django request built from the ASGI scope: token
    first, then the session (whose POSTs must pass the CSRF check)."""
    django_request = ASGIRequest(dict(scope), io.BytesIO(body))
    session_engine = import_module(settings.SESSION_ENGINE)
    django_request.session = session_engine.SessionStore(
        django_request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    )
    django_request.user = SimpleLazyObject(lambda: get_user(django_request))  # type: ignore[assignment]
    authenticator_classes: list[type[BaseAuthentication]] = list(
        api_settings.DEFAULT_AUTHENTICATION_CLASSES  # type: ignore[arg-type]
    )
    # The CSRF check reads request.POST, which DRF parses: JSON like the API views.
    request = Request(
        django_request,
        parsers=[JSONParser()],
        authenticators=[authenticator() for authenticator in authenticator_classes],
    )
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise exceptions.NotAuthenticated()
    return user


def admission_decide(scope: Mapping[str, Any], body: bytes) -> Admitted:
    """One request's admission, in the order its errors take precedence: authentication,
    rate limit, negotiation, validation, then ``answer_begin``."""
    user = _authenticate(scope, body)
    rate_limit_check(scope="ask", key=str(user.pk))
    transport, request = _parsed(scope, body)
    pair = answering.answer_begin(user=user, request=request)
    return Admitted(transport=transport, user=user, request=request, pair=pair)


def _parsed(scope: Mapping[str, Any], body: bytes) -> tuple[str, AskRequest]:
    transport = negotiate(header_of(scope, b"accept"))
    return transport, ask_request_from(json_loads_bounded(body or b"null"))


def admissions_decide(arrivals: list[Arrival]) -> list[Outcome]:
    """The outcome of each of ``arrivals``, in order, as ``admission_decide`` would decide it
    for that request alone. A database outage is waited out (``claire.db.steps.checked``);
    what was decided before it stays decided."""
    outcomes: list[Outcome | None] = [None] * len(arrivals)
    checked(_decide_remaining)(arrivals, outcomes)
    return [outcome for outcome in outcomes if outcome is not None]


def _decide_remaining(arrivals: list[Arrival], outcomes: list[Outcome | None]) -> None:
    undecided = [index for index, outcome in enumerate(outcomes) if outcome is None]
    users = _token_users([arrivals[index] for index in undecided])
    checked_in: list[tuple[int, User]] = []
    for index, user in zip(undecided, users, strict=True):
        arrival = arrivals[index]
        try:
            checked_in.append((index, user or _authenticate(arrival.scope, arrival.body)))
        except DatabaseError:
            raise
        except Exception as error:
            outcomes[index] = error
    decisions = rate_limit_hits(scope="ask", keys=[str(user.pk) for _, user in checked_in])
    entries: list[tuple[int, User, str, AskRequest]] = []
    for (index, user), decision in zip(checked_in, decisions, strict=True):
        arrival = arrivals[index]
        try:
            refusal = rate_limit_error(decision)
            if refusal is not None:
                raise refusal
            transport, request = _parsed(arrival.scope, arrival.body)
        except DatabaseError:
            raise
        except Exception as error:
            outcomes[index] = error
            continue
        entries.append((index, user, transport, request))
    begun = answering.answers_begin(entries=[(user, request) for _, user, _, request in entries])
    for (index, user, transport, request), pair in zip(entries, begun, strict=True):
        outcomes[index] = (
            pair
            if isinstance(pair, BaseException)
            else Admitted(transport=transport, user=user, request=request, pair=pair)
        )


def _token_key(scope: Mapping[str, Any]) -> str | None:
    """The key of a plain ``Authorization: Token <key>`` (or ``Bearer``) header; None for
    anything else, which DRF's authenticators judge one request at a time."""
    values = [value for key, value in scope.get("headers", []) if key.lower() == b"authorization"]
    if len(values) != 1:
        return None
    parts = bytes(values[0]).split()
    if len(parts) != 2 or parts[0].lower() not in TokenOrBearerAuthentication.schemes:
        return None
    try:
        return parts[1].decode("ascii")
    except UnicodeError:
        return None


def _token_users(arrivals: list[Arrival]) -> list[User | None]:
    """The active user of each arrival's token, in one query; None where the request has no
    plain token header or its token is not a live one (the one-request path then gives the
    exact error)."""
    keys = [_token_key(arrival.scope) for arrival in arrivals]
    wanted = {key for key in keys if key is not None}
    if not wanted:
        return [None] * len(arrivals)
    users = {
        token.key: token.user
        for token in Token.objects.select_related("user").filter(key__in=wanted)
        if token.user.is_active
    }
    return [users.get(key) if key is not None else None for key in keys]
