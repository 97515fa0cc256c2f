"""Wire formats of the assistant API (camelCase; ids are strings, as in the spec's types)."""

from __future__ import annotations

import threading
from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from assistant.models import Thread, Turn, TurnRole
from assistant.selectors import thread_summary_of
from assistant.types import AskRequest, Scope
from claire.errors import CodedError
from claire.params import positive_id


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "pattern": "^[0-9]+$"},
            {"type": "integer", "minimum": 1},
        ]
    }
)
class IdField(serializers.Field[Any, Any, Any, Any]):
    """A positive integer id written as a string (``"12"``) or a number (``12``)."""

    default_error_messages = {"invalid": "Must be an id."}

    def to_internal_value(self, data: Any) -> int:
        value = positive_id(data)
        if value is None:
            self.fail("invalid")
        return value

    def to_representation(self, value: int) -> str:
        return str(value)


class ScopeSerializer(serializers.Serializer[Any]):
    mode = serializers.ChoiceField(choices=["global", "preferred", "strict_chat"])
    chatIds = serializers.ListField(child=IdField(), required=False, min_length=1, max_length=5)
    chatId = IdField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        mode = attrs["mode"]
        if mode == "preferred" and "chatIds" not in attrs:
            raise serializers.ValidationError({"chatIds": "A preferred scope names 1 to 5 chats."})
        if mode == "strict_chat" and "chatId" not in attrs:
            raise serializers.ValidationError({"chatId": "A strict_chat scope names one chat."})
        return attrs


class AskRequestSerializer(serializers.Serializer[Any]):
    requestId = serializers.UUIDField()
    threadId = IdField(required=False, allow_null=True)
    question = serializers.CharField(trim_whitespace=True)
    scope = ScopeSerializer(required=False)
    retryOfTurnId = IdField(required=False, allow_null=True)

    def validate_question(self, value: str) -> str:
        limit = settings.ASSISTANT_QUESTION_MAX_CHARS
        if len(value) > limit:
            raise serializers.ValidationError(f"Ask in at most {limit} characters.")
        return value


_validators = threading.local()


def _ask_request_validator() -> AskRequestSerializer:
    """One serializer per thread, run on each request body (as a list serializer runs its
    child): building a serializer's fields deep-copies them, which cost more than validating
    a request."""
    validator = getattr(_validators, "ask_request", None)
    if validator is None:
        validator = _validators.ask_request = AskRequestSerializer()
    return validator


def ask_request_from(data: Any) -> AskRequest:
    """Validate an ``AskClaireRequest`` body; ``CodedError(invalid_request)`` lists each field."""
    if not isinstance(data, dict):
        raise CodedError(code="invalid_request", message="The body must be a JSON object.")
    try:
        values = _ask_request_validator().run_validation(data)
    except serializers.ValidationError as error:
        raise CodedError(
            code="invalid_request", message="The request is invalid.", details=error.detail
        ) from None
    raw_scope = values.get("scope") or {"mode": "global"}
    mode = raw_scope["mode"]
    if mode == "preferred":
        scope = Scope(mode="preferred", chat_ids=tuple(dict.fromkeys(raw_scope["chatIds"])))
    elif mode == "strict_chat":
        scope = Scope(mode="strict_chat", chat_ids=(raw_scope["chatId"],))
    else:
        scope = Scope(mode="global")
    return AskRequest(
        request_id=str(values["requestId"]),
        question=values["question"],
        scope=scope,
        thread_id=values.get("threadId"),
        retry_of_turn_id=values.get("retryOfTurnId"),
    )


def thread_wire(thread: Thread) -> dict[str, object]:
    return thread_summary_of(thread).as_wire()


def turn_wire(turn: Turn, *, cost_micro_usd: int | None = None) -> dict[str, Any]:
    """One stored turn; ``cost_micro_usd`` is what an assistant turn's request was charged."""
    wire: dict[str, Any] = {
        "turnId": str(turn.pk),
        "role": turn.role,
        "status": turn.status,
        "text": turn.text,
        "createdAt": turn.created_at.isoformat(),
    }
    if turn.role == TurnRole.USER:
        wire["requestId"] = turn.request_id
        wire["scope"] = turn.scope
    else:
        wire["userTurnId"] = str(turn.user_turn_id)
        wire["citations"] = turn.citations
        wire["actions"] = turn.actions
        if turn.finished_at is not None:
            wire["finishedAt"] = turn.finished_at.isoformat()
        if turn.error_code:
            wire["errorCode"] = turn.error_code
        if turn.finish_reason:
            wire["finishReason"] = turn.finish_reason
        if turn.provider:
            wire["provider"] = turn.provider
            wire["model"] = turn.model
        if turn.retry_of_id is not None:
            wire["retryOfTurnId"] = str(turn.retry_of_id)
        if turn.index_status is not None:
            wire["indexStatus"] = turn.index_status
        wire["removedCitationCount"] = turn.removed_citation_count
        if cost_micro_usd is not None:
            wire["costMicroUsd"] = cost_micro_usd
    return wire
