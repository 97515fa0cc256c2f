"""Conversations API: the bridge ingest endpoint and the user's own chats, people, messages."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from claire.api.auth import request_user
from claire.api.pagination import before_moment_and_id, keyset_page, page_limit
from claire.api.schema import (
    INVALID,
    NOT_FOUND,
    PAGE_ERRORS,
    ErrorSerializer,
    cursor_parameter,
    error_response,
    limit_parameter,
)
from claire.errors import CodedError
from claire.ratelimit import IngestThrottle
from conversations import selectors, services
from conversations.api.serializers import (
    ChatListSerializer,
    ChatSerializer,
    ChatUpdateSerializer,
    IngestBatchRequestSerializer,
    IngestBatchSerializer,
    IngestChatSerializer,
    IngestMessageSerializer,
    IngestResultSerializer,
    MeSerializer,
    MessagePageSerializer,
    MessageSerializer,
    PeopleListSerializer,
    PersonSerializer,
    incoming_chat_from,
    incoming_message_from,
)
from conversations.models import Chat


def _item_errors(kind: str, index: int, errors: Any) -> list[dict[str, Any]]:
    """One entry per invalid field; a nested serializer's fields are dotted
    (``sender.email``, ``participants.2.phone``)."""
    found: list[dict[str, Any]] = []
    pending: list[tuple[str | None, Any]] = [(None, errors)]
    while pending:
        field, value = pending.pop(0)
        if isinstance(value, dict):
            pending += [(_dotted(field, key), nested) for key, nested in value.items()]
        elif isinstance(value, list) and value and not all(isinstance(v, str) for v in value):
            pending += [(_dotted(field, str(i)), item) for i, item in enumerate(value) if item]
        else:
            message = value[0] if isinstance(value, list) and value else value
            found.append({"item": kind, "index": index, "field": field, "message": str(message)})
    return found


def _dotted(prefix: str | None, key: str) -> str:
    return key if prefix is None else f"{prefix}.{key}"


def _batch_too_large(message: str, field: str, limit: int) -> CodedError:
    return CodedError(
        code="batch_too_large",
        message=message,
        status_code=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        details={"field": field, "limit": limit},
    )


def _check_chat_limits(raw_chats: list[dict[str, Any]]) -> None:
    """Bounds on the chats of one batch and their participants (each participant is an
    identity to resolve, so they cost like messages)."""
    chat_limit = settings.INGEST_MAX_BATCH_CHATS
    if len(raw_chats) > chat_limit:
        raise _batch_too_large(f"A batch holds at most {chat_limit} chats.", "chats", chat_limit)
    per_chat = settings.INGEST_MAX_CHAT_PARTICIPANTS
    per_batch = settings.INGEST_MAX_BATCH_PARTICIPANTS
    total = 0
    for raw in raw_chats:
        participants = raw.get("participants")
        count = len(participants) if isinstance(participants, list) else 0
        if count > per_chat:
            raise _batch_too_large(
                f"A chat lists at most {per_chat} participants.", "participants", per_chat
            )
        total += count
    if total > per_batch:
        raise _batch_too_large(
            f"A batch lists at most {per_batch} participants.", "participants", per_batch
        )


class IngestBatchView(APIView):
    """Push one batch of chats and messages from a bridge.

    The batch is all-or-nothing: if any item is invalid, nothing is written and the response
    lists every invalid item (``invalid_batch``), so a bridge can fix and re-post the same batch.
    Re-posting an accepted batch is harmless (idempotent on the platform message id).
    """

    throttle_classes = [IngestThrottle]

    @extend_schema(
        operation_id="ingest_batch",
        request=IngestBatchRequestSerializer,
        responses={
            200: IngestResultSerializer,
            400: OpenApiResponse(
                response=ErrorSerializer,
                description="`invalid_batch` (details.errors: item, index, field, message), "
                "`invalid_request` or `malformed_json`; nothing was stored.",
            ),
            413: error_response("`batch_too_large`."),
        },
    )
    def post(self, request: Request) -> Response:
        batch = IngestBatchSerializer(data=request.data)
        batch.is_valid(raise_exception=True)
        data = batch.validated_data
        platform = data["platform"]
        raw_messages = data["messages"]
        limit = settings.INGEST_MAX_BATCH_MESSAGES
        if len(raw_messages) > limit:
            raise _batch_too_large(f"A batch holds at most {limit} messages.", "messages", limit)
        _check_chat_limits(data["chats"])

        errors: list[dict[str, Any]] = []
        chats = []
        for index, raw in enumerate(data["chats"]):
            serializer = IngestChatSerializer(data=raw)
            if serializer.is_valid():
                chats.append(serializer.validated_data)
            else:
                errors += _item_errors("chat", index, serializer.errors)
        messages = []
        for index, raw in enumerate(raw_messages):
            message_serializer = IngestMessageSerializer(data=raw)
            if message_serializer.is_valid():
                messages.append((index, message_serializer.validated_data))
            else:
                errors += _item_errors("message", index, message_serializer.errors)

        listed_chat_ids = {chat["chatId"] for chat in chats}
        unlisted = {message["chatId"] for _, message in messages} - listed_chat_ids
        known = set(
            Chat.objects.filter(
                user=request_user(request), platform=platform, platform_chat_id__in=unlisted
            ).values_list("platform_chat_id", flat=True)
        )
        for index, message in messages:
            if message["chatId"] in unlisted - known:
                errors.append(
                    {
                        "item": "message",
                        "index": index,
                        "field": "chatId",
                        "message": "Unknown chat: list it in chats first.",
                    }
                )
        if errors:
            raise CodedError(
                code="invalid_batch",
                message="The batch was not stored: some items are invalid.",
                details={"errors": errors},
            )

        account_id = data.get("connection", {}).get("accountId", "")
        incoming_chats = [incoming_chat_from(platform, account_id, chat) for chat in chats]
        incoming_chats += [
            services.IncomingChat(platform=platform, platform_chat_id=chat_id)
            for chat_id in sorted(known)
        ]
        result = services.messages_ingest(
            user=request_user(request),
            chats=incoming_chats,
            messages=[incoming_message_from(platform, message) for _, message in messages],
        )
        return Response(
            {
                "chatsCreated": result.chats_created,
                "peopleCreated": result.people_created,
                "messagesCreated": result.messages_created,
                "messagesUpdated": result.messages_updated,
                "messagesDeleted": result.messages_deleted,
                "messagesUnchanged": result.messages_unchanged,
            }
        )


class ChatListView(APIView):
    @extend_schema(operation_id="chats_list", responses={200: ChatListSerializer})
    def get(self, request: Request) -> Response:
        chats = selectors.chats_for_user(user=request_user(request)).order_by(
            "-last_message_at", "-id"
        )
        return Response({"chats": ChatSerializer(chats, many=True).data})


class ChatDetailView(APIView):
    @extend_schema(operation_id="chat_get", responses={200: ChatSerializer, 404: NOT_FOUND})
    def get(self, request: Request, chat_id: int) -> Response:
        chat = selectors.chat_get_for_user(user=request_user(request), chat_id=chat_id)
        return Response(ChatSerializer(chat).data)

    @extend_schema(
        operation_id="chat_update",
        request=ChatUpdateSerializer,
        responses={200: ChatSerializer, 400: INVALID, 404: NOT_FOUND},
    )
    def patch(self, request: Request, chat_id: int) -> Response:
        chat = selectors.chat_get_for_user(user=request_user(request), chat_id=chat_id)
        serializer = ChatUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        chat = services.chat_set_excluded_from_ai(
            chat=chat, is_excluded=serializer.validated_data["excludedFromAi"]
        )
        return Response(ChatSerializer(chat).data)


class ChatMessagesView(APIView):
    @extend_schema(
        operation_id="chat_messages",
        parameters=[limit_parameter(50, 200), cursor_parameter()],
        responses={
            200: MessagePageSerializer,
            400: PAGE_ERRORS,
            404: NOT_FOUND,
        },
    )
    def get(self, request: Request, chat_id: int) -> Response:
        chat = selectors.chat_get_for_user(user=request_user(request), chat_id=chat_id)
        limit = page_limit(request, default=50, maximum=200)
        rows = selectors.messages_for_chat(
            user=request_user(request),
            chat=chat,
            before=before_moment_and_id(request),
            limit=limit + 1,
        )
        page = keyset_page(rows, limit=limit, key=lambda message: (message.sent_at, message.pk))
        body: dict[str, Any] = {"messages": MessageSerializer(page.items, many=True).data}
        if page.next_cursor:
            body["nextCursor"] = page.next_cursor
        return Response(body)


class PeopleListView(APIView):
    @extend_schema(operation_id="people_list", responses={200: PeopleListSerializer})
    def get(self, request: Request) -> Response:
        people = selectors.people_for_user(user=request_user(request)).order_by(
            "display_name", "id"
        )
        return Response({"people": PersonSerializer(people, many=True).data})


class MeView(APIView):
    @extend_schema(operation_id="me", responses={200: MeSerializer})
    def get(self, request: Request) -> Response:
        user = request_user(request)
        return Response({"id": user.pk, "email": user.email, "timezone": user.timezone})
