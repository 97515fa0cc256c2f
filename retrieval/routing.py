"""Context routing and scope: which deterministic source answers, and where it may look.

Routing needs no model: the compiled intent decides.

| intent          | route           | source                                                  |
|-----------------|-----------------|---------------------------------------------------------|
| catch_up        | recent_window   | the compiled window across the scope's chats            |
| unresolved      | unresolved      | open loops, then hybrid retrieval                       |
| people_ranking  | people_ranking  | per-person conversation statistics, then hybrid         |
| everything else | hybrid          | lexical + vector search                                 |

``no_evidence`` is recorded by search when nothing passes the relevance floor.

Scope ownership is checked here, server-side, before anything is read: a chat id that is not
the user's is refused with the same ``NotFound`` as a missing one (never silently dropped),
and a chat excluded from AI cannot be put in scope.
"""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from django.db.models import QuerySet

from claire.accounts.models import User
from claire.errors import CodedError
from claire.params import positive_id
from conversations.models import Chat
from conversations.selectors import chats_get_for_user
from retrieval.types import CompiledQuery, Intent, Route, Scope, ScopeMode

# "What is unresolved" reads the open loops personal memory derives
# (``retrieval.memory.evidence``); switched off, it reads hybrid retrieval instead.
LOOPS_AVAILABLE = True
MAX_PREFERRED_CHATS = 5

_ROUTES_BY_INTENT: dict[Intent, Route] = {
    Intent.CATCH_UP: Route.RECENT_WINDOW,
    Intent.UNRESOLVED: Route.UNRESOLVED,
    Intent.PEOPLE_RANKING: Route.PEOPLE_RANKING,
}


def route_for(compiled: CompiledQuery) -> Route:
    """The route of a compiled question (the table in the module docstring)."""
    return _ROUTES_BY_INTENT.get(compiled.intent, Route.HYBRID)


def route_fallback_for(route: Route) -> Route | None:
    """The route that reads instead of ``route`` while ``route``'s source is unavailable."""
    if route == Route.UNRESOLVED and not LOOPS_AVAILABLE:
        return Route.HYBRID
    return None


def _invalid(message: str, field: str) -> CodedError:
    return CodedError(code="invalid_scope", message=message, details={"field": field})


def _chat_id(value: Any, field: str) -> int:
    chat_id = positive_id(value)
    if chat_id is None:
        raise _invalid("Chat ids are positive integers.", field)
    return chat_id


def scope_resolve(*, user: User, raw_scope: Mapping[str, Any] | None) -> Scope:
    """A checked ``Scope`` from request input (``{"mode": "global"}``,
    ``{"mode": "preferred", "chatIds": [...]}`` with 1..5 distinct ids, or
    ``{"mode": "strict_chat", "chatId": ...}``).

    Raises ``CodedError(code="invalid_scope")`` for a malformed shape, ``NotFound`` when any chat
    id is not the user's (or does not exist), and ``CodedError(code="chat_excluded_from_ai",
    status 409)`` when a named chat is excluded from AI. Reads one query for a chat scope,
    none for a global one.
    """
    if not isinstance(raw_scope, Mapping):
        raise _invalid("A scope is an object with a mode.", "scope")
    mode = raw_scope.get("mode")
    allowed_keys = {
        ScopeMode.GLOBAL: {"mode"},
        ScopeMode.PREFERRED: {"mode", "chatIds"},
        ScopeMode.STRICT_CHAT: {"mode", "chatId"},
    }
    if mode not in allowed_keys:
        raise _invalid("Scope mode is one of global, preferred, strict_chat.", "scope.mode")
    scope_mode = ScopeMode(mode)
    unexpected = set(raw_scope) - allowed_keys[scope_mode]
    if unexpected:
        raise _invalid(
            f"Unexpected scope field for mode {scope_mode}: {', '.join(sorted(unexpected))}.",
            "scope",
        )
    if scope_mode == ScopeMode.GLOBAL:
        return Scope.everywhere()

    if scope_mode == ScopeMode.STRICT_CHAT:
        if "chatId" not in raw_scope:
            raise _invalid("A strict_chat scope names one chat in chatId.", "scope.chatId")
        chat_ids = [_chat_id(raw_scope["chatId"], "scope.chatId")]
    else:
        raw_ids = raw_scope.get("chatIds")
        if not isinstance(raw_ids, list) or not 1 <= len(raw_ids) <= MAX_PREFERRED_CHATS:
            raise _invalid(
                f"A preferred scope names 1 to {MAX_PREFERRED_CHATS} chats in chatIds.",
                "scope.chatIds",
            )
        chat_ids = [_chat_id(value, "scope.chatIds") for value in raw_ids]
        if len(set(chat_ids)) != len(chat_ids):
            raise _invalid("Each chat appears once in chatIds.", "scope.chatIds")

    chats = chats_get_for_user(user=user, chat_ids=chat_ids)
    excluded = sorted(chat.pk for chat in chats if chat.is_excluded_from_ai)
    if excluded:
        raise CodedError(
            code="chat_excluded_from_ai",
            message="This chat is excluded from AI, so Claire cannot read it.",
            status_code=HTTPStatus.CONFLICT,
            details={"chatIds": excluded},
        )
    return Scope(mode=scope_mode, chat_ids=tuple(chat_ids))


def chats_for_scope(*, user: User, scope: Scope) -> QuerySet[Chat]:
    """The chats a search in ``scope`` may read: the user's, never one excluded from AI (even
    if it was excluded after the scope was resolved). ``preferred`` reads every chat; its ids
    are boosts, not a filter."""
    chats = Chat.objects.filter(user=user, is_excluded_from_ai=False)
    if scope.mode == ScopeMode.STRICT_CHAT:
        return chats.filter(pk=scope.chat_ids[0])
    return chats
