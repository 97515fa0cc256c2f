"""Reads of conversation data, always scoped by the owner.

The ``*_get_for_user`` helpers fail closed: a missing row and someone else's row raise the
same ``NotFound``, so ids never leak whether they exist.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from datetime import datetime
from typing import TypeVar

from django.db.models import QuerySet

from claire.accounts.models import User
from claire.errors import NotFound
from conversations.models import Chat, ChatKind, Message, Person

Key = TypeVar("Key", bound=Hashable)


def user_has_messages(*, user: User) -> bool:
    """Whether the user has any message that is not deleted (an account with nothing imported
    has none)."""
    return Message.objects.filter(user=user, deleted_at__isnull=True).exists()


def chats_for_user(*, user: User) -> QuerySet[Chat]:
    return Chat.objects.filter(user=user)


def chat_get_for_user(*, user: User, chat_id: int | str) -> Chat:
    try:
        return Chat.objects.get(user=user, pk=int(chat_id))
    except (Chat.DoesNotExist, ValueError, TypeError):
        raise NotFound(message="Chat not found.") from None


def chats_get_for_user(*, user: User, chat_ids: list[int]) -> list[Chat]:
    """All of ``chat_ids`` or ``NotFound``: a foreign id is refused, never silently dropped."""
    unique_ids = sorted(set(chat_ids))
    chats = list(Chat.objects.filter(user=user, pk__in=unique_ids).order_by("pk"))
    if len(chats) != len(unique_ids):
        raise NotFound(message="Chat not found.")
    return chats


def people_for_user(*, user: User) -> QuerySet[Person]:
    return Person.objects.filter(user=user)


def person_get_for_user(*, user: User, person_id: int | str) -> Person:
    try:
        return Person.objects.get(user=user, pk=int(person_id))
    except (Person.DoesNotExist, ValueError, TypeError):
        raise NotFound(message="Person not found.") from None


def messages_for_chat(
    *,
    user: User,
    chat: Chat,
    before: tuple[datetime, int] | None = None,
    limit: int = 50,
) -> list[Message]:
    """Newest first, keyset-paginated on (sent_at, id); deleted messages are left out."""
    queryset = (
        Message.objects.filter(user=user, chat=chat, deleted_at__isnull=True)
        .select_related("sender_person")
        .order_by("-sent_at", "-id")
    )
    if before is not None:
        sent_at, message_id = before
        queryset = queryset.filter(sent_at__lt=sent_at) | queryset.filter(
            sent_at=sent_at, id__lt=message_id
        )
    return list(queryset[:limit])


def message_get_for_user(*, user: User, message_id: int | str) -> Message:
    try:
        return Message.objects.select_related("chat", "sender_person").get(
            user=user, pk=int(message_id), deleted_at__isnull=True
        )
    except (Message.DoesNotExist, ValueError, TypeError):
        raise NotFound(message="Message not found.") from None


def direct_chats_latest(
    *, user: User, people: Mapping[Key, Iterable[int]]
) -> dict[Key, int | None]:
    """For each group of person ids (one person and everyone merged with them), the direct
    chat with them that was active last, among chats that allow AI; one query for all."""
    groups = {key: set(person_ids) for key, person_ids in people.items()}
    everyone = set().union(*groups.values()) if groups else set()
    latest: dict[Key, int | None] = dict.fromkeys(groups)
    if not everyone:
        return latest
    rows = (
        Chat.objects.filter(
            user=user,
            kind=ChatKind.DIRECT,
            is_excluded_from_ai=False,
            memberships__person_id__in=list(everyone),
        )
        .order_by("-last_message_at", "-pk")
        .values_list("pk", "memberships__person_id")
    )
    for chat_id, person_id in rows:
        for key, person_ids in groups.items():
            if latest[key] is None and person_id in person_ids:
                latest[key] = chat_id
    return latest
