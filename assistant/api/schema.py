"""The published description of the assistant's wire formats, including
``POST /api/assistant/messages``.

That endpoint is the ASGI application in ``assistant.consumers``, not a Django route, so the
schema generator cannot find it in the URL conf: ``assistant_messages_endpoint_add`` (a
drf-spectacular preprocessing hook) adds it, described by ``AssistantMessagesDescription``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from assistant.api.serializers import AskRequestSerializer
from assistant.errors import STREAM_FAILURE_CODES
from assistant.models import ThreadKind, TurnRole, TurnStatus
from assistant.types import FINISH_REASONS
from billing.errors import AiDisabled, BudgetExceeded, PriceUnknown
from claire.api.schema import NOT_FOUND, ErrorSerializer, error_response

ASSISTANT_MESSAGES_PATH = "/api/assistant/messages"

# Codes of failures after the stream opened: the ``data-error`` part, or the legacy JSON error.
ANSWER_FAILURE_CODES: tuple[str, ...] = tuple(
    sorted(
        {
            *STREAM_FAILURE_CODES,
            BudgetExceeded.default_code,
            AiDisabled.default_code,
            PriceUnknown.default_code,
        }
    )
)


class ThreadSerializer(serializers.Serializer[Any]):
    threadId = serializers.CharField()
    title = serializers.CharField()
    kind = serializers.ChoiceField(choices=ThreadKind.choices)
    chatId = serializers.CharField(required=False, help_text="Only for a one-chat thread.")
    createdAt = serializers.DateTimeField()
    lastActivityAt = serializers.DateTimeField()


class NavigationSerializer(serializers.Serializer[Any]):
    type = serializers.ChoiceField(choices=["open_conversation"])
    chatId = serializers.CharField()
    messageId = serializers.CharField()
    url = serializers.CharField()


class CitationSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="S1..Sn, the mark the answer cites as [S1].")
    messageId = serializers.CharField()
    chatId = serializers.CharField()
    chat = serializers.CharField()
    sender = serializers.CharField()
    platform = serializers.CharField()
    sentAt = serializers.DateTimeField()
    snippet = serializers.CharField()
    navigation = NavigationSerializer()


class ActionSerializer(serializers.Serializer[Any]):
    type = serializers.ChoiceField(choices=["open_conversation", "open_calendar"])
    # The metaclass moves declared fields off the class, so ``Field.label`` is not shadowed.
    label = serializers.CharField()  # type: ignore[assignment]
    sourceId = serializers.CharField(required=False)
    target = NavigationSerializer(required=False)
    date = serializers.CharField(required=False)


class TurnSerializer(serializers.Serializer[Any]):
    turnId = serializers.CharField()
    role = serializers.ChoiceField(choices=TurnRole.choices)
    status = serializers.ChoiceField(choices=TurnStatus.choices)
    text = serializers.CharField()
    createdAt = serializers.DateTimeField()
    requestId = serializers.CharField(required=False, help_text="User turns.")
    scope = serializers.JSONField(required=False, help_text="User turns.")
    userTurnId = serializers.CharField(required=False, help_text="Assistant turns.")
    citations = CitationSerializer(many=True, required=False)
    actions = ActionSerializer(many=True, required=False)
    finishedAt = serializers.DateTimeField(required=False)
    errorCode = serializers.CharField(required=False)
    finishReason = serializers.CharField(required=False)
    provider = serializers.CharField(required=False)
    model = serializers.CharField(required=False)
    retryOfTurnId = serializers.CharField(required=False)
    indexStatus = serializers.JSONField(required=False, help_text="Assistant turns.")
    removedCitationCount = serializers.IntegerField(required=False, help_text="Assistant turns.")
    costMicroUsd = serializers.IntegerField(
        required=False, help_text="An ended assistant turn: what its request was charged."
    )


class ThreadPageSerializer(serializers.Serializer[Any]):
    threads = ThreadSerializer(many=True)
    nextCursor = serializers.CharField(required=False, help_text="Absent on the last page.")


class TurnPageSerializer(serializers.Serializer[Any]):
    thread = ThreadSerializer()
    turns = TurnSerializer(many=True)
    nextCursor = serializers.CharField(required=False, help_text="Absent on the last page.")


class TurnStopSerializer(serializers.Serializer[Any]):
    turnId = serializers.CharField()
    status = serializers.ChoiceField(choices=TurnStatus.choices)
    stopRequested = serializers.BooleanField()


# --- The UI message stream parts (one ``data: {json}`` event each) ----------------------------


def _part(
    name: str, **fields: serializers.Field[Any, Any, Any, Any]
) -> type[serializers.Serializer[Any]]:
    attributes: dict[str, Any] = {"type": serializers.ChoiceField(choices=[name]), **fields}
    component = "".join(word.capitalize() for word in name.split("-")) + "Part"
    return type(component, (serializers.Serializer,), attributes)


class StatusDataSerializer(serializers.Serializer[Any]):
    phase = serializers.ChoiceField(choices=["retrieving", "answering", "saving"])


class ThreadIdsSerializer(serializers.Serializer[Any]):
    threadId = serializers.CharField()
    userTurnId = serializers.CharField()
    assistantTurnId = serializers.CharField()


class SourcesDataSerializer(serializers.Serializer[Any]):
    citations = CitationSerializer(many=True)
    indexStatus = serializers.JSONField(allow_null=True)


class FinishDataSerializer(serializers.Serializer[Any]):
    finishReason = serializers.CharField()
    provider = serializers.CharField()
    model = serializers.CharField()
    status = serializers.ChoiceField(choices=TurnStatus.choices)
    thread = ThreadSerializer()
    citedSourceIds = serializers.ListField(child=serializers.CharField())
    actions = ActionSerializer(many=True)
    removedCitationCount = serializers.IntegerField()
    costMicroUsd = serializers.IntegerField(
        required=False, help_text="What the answer was charged; absent on a replay."
    )


class AnswerErrorDataSerializer(serializers.Serializer[Any]):
    code = serializers.ChoiceField(choices=ANSWER_FAILURE_CODES)
    retryable = serializers.BooleanField()
    status = serializers.ChoiceField(choices=TurnStatus.choices)


STREAM_PARTS: dict[str, serializers.Serializer[Any] | type[serializers.Serializer[Any]]] = {
    "start": _part("start", messageId=serializers.CharField()),
    "data-status": _part(
        "data-status",
        id=serializers.ChoiceField(choices=["status"]),
        data=StatusDataSerializer(),
    ),
    "data-thread": _part("data-thread", data=ThreadIdsSerializer()),
    "data-sources": _part("data-sources", data=SourcesDataSerializer()),
    "text-start": _part("text-start", id=serializers.CharField()),
    "text-delta": _part("text-delta", id=serializers.CharField(), delta=serializers.CharField()),
    "text-end": _part("text-end", id=serializers.CharField()),
    "data-finish": _part("data-finish", data=FinishDataSerializer()),
    "finish": _part("finish", finishReason=serializers.ChoiceField(choices=sorted(FINISH_REASONS))),
    "data-error": _part("data-error", data=AnswerErrorDataSerializer()),
    "error": _part("error", errorText=serializers.CharField()),
}

StreamPart = PolymorphicProxySerializer(
    component_name="StreamPart",
    serializers=STREAM_PARTS,
    resource_type_field_name="type",
    many=False,
)


class LegacyAnswerSerializer(ThreadIdsSerializer):
    answer = serializers.CharField()
    citations = CitationSerializer(many=True, help_text="Only the cited sources.")
    indexStatus = serializers.JSONField(allow_null=True)
    finishReason = serializers.CharField()
    provider = serializers.CharField()
    model = serializers.CharField()
    status = serializers.ChoiceField(choices=TurnStatus.choices)
    thread = ThreadSerializer()
    citedSourceIds = serializers.ListField(child=serializers.CharField())
    actions = ActionSerializer(many=True)
    removedCitationCount = serializers.IntegerField()


class AnswerFailureDetailSerializer(serializers.Serializer[Any]):
    code = serializers.ChoiceField(choices=ANSWER_FAILURE_CODES)
    message = serializers.CharField()
    details = serializers.JSONField(
        help_text="retryable, status, the turn ids and partialAnswer (the text streamed so far)."
    )


class AnswerFailureSerializer(serializers.Serializer[Any]):
    error = AnswerFailureDetailSerializer()


STREAM_DESCRIPTION = """\
`Accept: text/event-stream`: the AI SDK UI message stream. Each event is one line
`data: <StreamPart as JSON>` closed by a blank line; the stream ends with `data: [DONE]`.
Order: `start`, `data-status` (retrieving), `data-thread`, `data-sources`, then `text-start`,
`text-delta`..., `text-end` while the model writes, `data-status` (saving), and `data-finish`
+ `finish`. A failure after the stream opened is `data-error` + `error`, always the last parts
before `[DONE]`; the turn is then `failed` or `partial` (text kept) and a Stop ends it
`cancelled`."""

LEGACY_DESCRIPTION = (
    "`Accept: application/json`: the same answer collected into one body (no stream)."
)


class AssistantMessagesDescription(APIView):
    """Describes ``POST /api/assistant/messages`` for the schema; never routed (the ASGI
    application in ``assistant.consumers`` serves the path, with the same authentication)."""

    # The body is read as JSON whatever its Content-Type says.
    is_media_type_checked = False

    @extend_schema(
        operation_id="assistant_message_create",
        summary="Ask a question; the answer streams (SSE) or comes as one JSON body",
        description=(
            "Idempotent on `requestId`: the same request again replays the stored answer. "
            "Everything that decides the status (authentication, `Accept`, validation, policy, "
            "budget, scope ownership) happens before the first byte."
        ),
        request=AskRequestSerializer,
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                response=StreamPart, description=STREAM_DESCRIPTION
            ),
            (200, "application/json"): OpenApiResponse(
                response=LegacyAnswerSerializer, description=LEGACY_DESCRIPTION
            ),
            400: error_response(
                "`invalid_request`, `malformed_json`, `invalid_scope` or "
                "`chat_excluded_from_ai`; nothing was stored."
            ),
            (402, "application/json"): OpenApiResponse(
                response=ErrorSerializer, description="`budget_exceeded` before the answer began."
            ),
            403: error_response(
                "`permission_denied` (a session POST without `X-CSRFToken`) or `ai_disabled`."
            ),
            404: NOT_FOUND,
            406: error_response("`not_acceptable`: accept text/event-stream or application/json."),
            409: error_response(
                "`request_in_progress`, `turn_not_retryable`, `retry_in_progress` or "
                "`turn_already_retried` (details name the retry's `turnId`)."
            ),
            413: error_response("`request_too_large`."),
            422: error_response("`request_id_reused`."),
            429: error_response(
                "`rate_limited` (asks per minute) or `too_many_streams` (answers streaming at "
                "once); `Retry-After` says when to ask again."
            ),
            (502, "application/json"): OpenApiResponse(
                response=AnswerFailureSerializer,
                description="Legacy JSON only: the answer failed after it began.",
            ),
            (503, "application/json"): OpenApiResponse(
                response=AnswerFailureSerializer,
                description="Legacy JSON only: no model or retrieval was available.",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        raise exceptions.NotFound()


def assistant_messages_endpoint_add(
    endpoints: list[tuple[str, str, str, Any]],
) -> list[tuple[str, str, str, Any]]:
    """drf-spectacular preprocessing hook: the ASGI endpoint joins the URL conf's."""
    return [
        *endpoints,
        (
            ASSISTANT_MESSAGES_PATH,
            "^api/assistant/messages$",
            "POST",
            AssistantMessagesDescription.as_view(),
        ),
    ]
