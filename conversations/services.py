"""Writes to conversation data. Ingestion never calls a model and never waits on embedding.

``messages_ingest`` is the single path by which messages enter the system: the bridge API and
every importer call it. It is idempotent on (user, chat, platform message id): re-sending the
same messages creates nothing, new text is an edit (new content hash, edit time kept), and a
delete is a soft delete. It then calls the declared conversation hooks
(``conversations.hooks``: indexing, then memory) inside the same transaction, so counters they
keep move atomically with the data, and each schedules its background work on commit.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from claire.accounts.models import User
from conversations.hooks import (
    ChatExclusionChange,
    MessagesChange,
    chat_exclusion_changed_run,
    messages_changed_run,
)
from conversations.identities import (
    NATIONAL_DIGITS_MIN,
    IdentityKey,
    IncomingIdentity,
    national_digits,
    phone_same_number,
)
from conversations.models import (
    Chat,
    ChatKind,
    ChatParticipant,
    IdentityKind,
    Message,
    MessageKind,
    Person,
    PersonIdentity,
    PlatformConnection,
    content_hash_of,
)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class IncomingChat:
    """A chat as a source describes it. Empty or ``None`` fields were not said: a new chat
    gets the defaults (no title, a direct chat), a stored chat keeps what it has."""

    platform: str
    platform_chat_id: str
    title: str = ""
    kind: str | None = None
    participants: tuple[IncomingIdentity, ...] = ()
    connection_account_id: str = ""


@dataclass(frozen=True)
class IncomingMessage:
    platform_message_id: str
    sent_at: datetime
    text: str = ""
    sender: IncomingIdentity | None = None
    is_from_self: bool = False
    kind: str = MessageKind.TEXT
    reply_to_platform_message_id: str = ""
    edited_at: datetime | None = None
    is_deleted: bool = False
    # Where an importer read the message (its first line), for error reports; not stored.
    source_line: int | None = field(default=None, compare=False)


@dataclass
class IngestResult:
    chats_created: int = 0
    people_created: int = 0
    messages_created: int = 0
    messages_updated: int = 0
    messages_deleted: int = 0
    messages_unchanged: int = 0
    created_message_ids: list[int] = field(default_factory=list)
    changed_message_ids: list[int] = field(default_factory=list)
    deleted_message_ids: list[int] = field(default_factory=list)

    def add(self, other: IngestResult) -> None:
        self.chats_created += other.chats_created
        self.people_created += other.people_created
        self.messages_created += other.messages_created
        self.messages_updated += other.messages_updated
        self.messages_deleted += other.messages_deleted
        self.messages_unchanged += other.messages_unchanged
        self.created_message_ids += other.created_message_ids
        self.changed_message_ids += other.changed_message_ids
        self.deleted_message_ids += other.deleted_message_ids


_LETTER = re.compile(r"[^\W\d_]")


def _has_no_name(label: str) -> bool:
    """A contact label without a letter ("+1 555 0100", "(647) 555-0139") names nobody."""
    return _LETTER.search(label or "") is None


def _name_given(person: Person, identity: IncomingIdentity) -> None:
    """A contact known so far by a number only (an SMS contact), now shown with a name on
    another platform, takes that name: it is how the user knows them."""
    if _has_no_name(person.display_name) and not _has_no_name(identity.display_name):
        person.display_name = identity.display_name.strip()[:255]
        person.save(update_fields=["display_name", "updated_at"])


class PersonResolver:
    """Finds or creates the person behind each incoming identity, caching within one ingest."""

    def __init__(self, *, user: User) -> None:
        self.user = user
        self.people_created = 0
        self._by_key: dict[IdentityKey, Person] = {}

    def resolve(self, identity: IncomingIdentity) -> Person | None:
        keys = identity.keys()
        if not keys:
            return None
        cached = next((self._by_key[key] for key in keys if key in self._by_key), None)
        if cached is not None:
            _name_given(cached, identity)
            self._remember(cached, keys)
            return cached

        existing = {
            IdentityKey(row.platform, row.kind, row.value): row
            for row in PersonIdentity.objects.filter(
                user=self.user,
                platform__in={key.platform for key in keys},
                kind__in={key.kind for key in keys},
                value__in={key.value for key in keys},
            ).select_related("person")
        }
        # The strongest matching key wins (keys() lists them strongest first).
        person = next((existing[key].person for key in keys if key in existing), None)
        if person is None:
            person = self._same_number(keys)
        if person is None:
            person = Person.objects.create(user=self.user, display_name=identity.label[:255])
            self.people_created += 1
        else:
            _name_given(person, identity)
        missing = [key for key in keys if key not in existing]
        if missing:
            PersonIdentity.objects.bulk_create(
                [
                    PersonIdentity(
                        user=self.user,
                        person=person,
                        platform=key.platform,
                        kind=key.kind,
                        value=key.value[:255],
                    )
                    for key in missing
                ],
                ignore_conflicts=True,
            )
        self._remember(person, keys)
        return person

    def _same_number(self, keys: Sequence[IdentityKey]) -> Person | None:
        """The person already known by the same phone number written the other way
        (national "07700 900123" against international "+44 7700 900123"); one query on the
        number's last digits, then ``phone_same_number``."""
        for key in keys:
            if key.kind != IdentityKind.PHONE:
                continue
            tail = national_digits(key.value)[-NATIONAL_DIGITS_MIN:]
            if len(tail) < NATIONAL_DIGITS_MIN:
                continue
            for row in (
                PersonIdentity.objects.filter(
                    user=self.user, kind=IdentityKind.PHONE, value__endswith=tail
                )
                .select_related("person")
                .order_by("pk")
            ):
                if phone_same_number(row.value, key.value):
                    return row.person
        return None

    def _remember(self, person: Person, keys: Iterable[IdentityKey]) -> None:
        for key in keys:
            self._by_key.setdefault(key, person)


def chat_upsert(
    *, user: User, chat: IncomingChat, resolver: PersonResolver | None = None
) -> tuple[Chat, bool]:
    """Create or update a chat and its participants; returns (chat, created).

    Only what ``chat`` says changes a stored chat: an empty title, no kind, no connection
    and an absent participant leave the stored ones as they are."""
    resolver = resolver or PersonResolver(user=user)
    connection = None
    if chat.connection_account_id:
        connection, _ = PlatformConnection.objects.get_or_create(
            user=user, platform=chat.platform, external_account_id=chat.connection_account_id
        )
    row, created = Chat.objects.get_or_create(
        user=user,
        platform=chat.platform,
        platform_chat_id=chat.platform_chat_id,
        defaults={
            "title": chat.title[:512],
            "kind": chat.kind or ChatKind.DIRECT,
            "connection": connection,
        },
    )
    changed_fields = []
    if not created:
        if chat.title and row.title != chat.title[:512]:
            row.title = chat.title[:512]
            changed_fields.append("title")
        if chat.kind and row.kind != chat.kind:
            row.kind = chat.kind
            changed_fields.append("kind")
        if connection is not None and row.connection_id != connection.pk:
            row.connection = connection
            changed_fields.append("connection")
        if changed_fields:
            row.save(update_fields=[*changed_fields, "updated_at"])
    people = [resolver.resolve(identity) for identity in chat.participants]
    _participants_add(chat=row, people=[person for person in people if person is not None])
    return row, created


def _participants_add(*, chat: Chat, people: Sequence[Person]) -> None:
    if not people:
        return
    ChatParticipant.objects.bulk_create(
        [
            ChatParticipant(chat=chat, person=person)
            for person in {p.pk: p for p in people}.values()
        ],
        ignore_conflicts=True,
    )


def _chats_lock(*, chat_ids: Iterable[int]) -> None:
    """Serialise concurrent ingests of the same chats; locks in primary-key order."""
    list(Chat.objects.select_for_update().filter(pk__in=sorted(set(chat_ids))).order_by("pk"))


@transaction.atomic
def messages_ingest(
    *,
    user: User,
    chats: Sequence[IncomingChat],
    messages: Sequence[tuple[str, IncomingMessage]],
) -> IngestResult:
    """Upsert chats, then messages given as (platform_chat_id, message) pairs.

    Every message's chat must be among ``chats`` (all of one call share the chats' platforms
    by platform chat id). Idempotent: the same input twice changes nothing the second time.
    """
    result = IngestResult()
    resolver = PersonResolver(user=user)
    chat_rows: dict[str, Chat] = {}
    for incoming_chat in chats:
        row, created = chat_upsert(user=user, chat=incoming_chat, resolver=resolver)
        chat_rows[incoming_chat.platform_chat_id] = row
        result.chats_created += int(created)

    by_chat: dict[str, list[IncomingMessage]] = defaultdict(list)
    for platform_chat_id, message in messages:
        if platform_chat_id not in chat_rows:
            raise ValueError(f"message for unknown chat {platform_chat_id!r}")
        by_chat[platform_chat_id].append(message)

    _chats_lock(chat_ids=[chat_rows[key].pk for key in by_chat])
    for platform_chat_id, chat_messages in by_chat.items():
        result.add(
            _chat_messages_ingest(
                user=user,
                chat=chat_rows[platform_chat_id],
                messages=chat_messages,
                resolver=resolver,
            )
        )
    result.people_created = resolver.people_created

    if result.created_message_ids or result.changed_message_ids or result.deleted_message_ids:
        messages_changed_run(
            MessagesChange(
                user_id=user.pk,
                created_ids=tuple(result.created_message_ids),
                changed_ids=tuple(result.changed_message_ids),
                deleted_ids=tuple(result.deleted_message_ids),
            )
        )
    counts = {
        "user_id": user.pk,
        "chats_created": result.chats_created,
        "messages_created": result.messages_created,
        "messages_updated": result.messages_updated,
        "messages_deleted": result.messages_deleted,
        "messages_unchanged": result.messages_unchanged,
    }
    # Logged on commit: an import that fails later in the same transaction keeps nothing,
    # and its log must not say otherwise.
    transaction.on_commit(lambda: logger.info("conversations.ingest", extra=counts))
    return result


def _chat_messages_ingest(
    *, user: User, chat: Chat, messages: Sequence[IncomingMessage], resolver: PersonResolver
) -> IngestResult:
    """Caller holds the chat's row lock."""
    result = IngestResult()
    # The last occurrence of a platform message id in one batch wins (an edit after a post).
    latest: dict[str, IncomingMessage] = {}
    for message in messages:
        latest[message.platform_message_id] = message
    existing = {
        row.platform_message_id: row
        for row in Message.objects.filter(
            user=user, chat=chat, platform_message_id__in=list(latest)
        )
    }
    now = timezone.now()
    to_create: list[Message] = []
    to_update: list[Message] = []
    for platform_message_id, incoming in latest.items():
        row = existing.get(platform_message_id)
        if row is None:
            to_create.append(
                _message_new(user=user, chat=chat, incoming=incoming, resolver=resolver, now=now)
            )
            continue
        if row.deleted_at is not None:
            # Deleted stays deleted: bridges re-send history, and a re-sent original must not
            # resurrect a message its author removed.
            result.messages_unchanged += 1
            continue
        if incoming.is_deleted:
            row.deleted_at = now
            to_update.append(row)
            result.messages_deleted += 1
            result.deleted_message_ids.append(row.pk)
            continue
        new_hash = content_hash_of(incoming.text)
        if new_hash != row.content_hash:
            row.text = incoming.text
            row.content_hash = new_hash
            row.edited_at = incoming.edited_at or now
            row.kind = incoming.kind
            to_update.append(row)
            result.messages_updated += 1
            result.changed_message_ids.append(row.pk)
        else:
            result.messages_unchanged += 1

    if to_create:
        # Senders become participants with one insert per chat, not one per message.
        _participants_add(
            chat=chat, people=[row.sender_person for row in to_create if row.sender_person]
        )
        Message.objects.bulk_create(to_create)
        for row in to_create:
            if row.deleted_at is None:
                result.messages_created += 1
                result.created_message_ids.append(row.pk)
            else:
                # A delete for a message we never saw leaves a tombstone, so that the original
                # arriving later (out of order) stays deleted.
                result.messages_unchanged += 1
    if to_update:
        Message.objects.bulk_update(
            to_update, ["text", "content_hash", "edited_at", "deleted_at", "kind", "updated_at"]
        )
    _replies_link(user=user, chat=chat, new_rows=to_create)
    latest_sent_at = max((row.sent_at for row in to_create if row.deleted_at is None), default=None)
    if latest_sent_at and (chat.last_message_at is None or latest_sent_at > chat.last_message_at):
        chat.last_message_at = latest_sent_at
        chat.save(update_fields=["last_message_at", "updated_at"])
    return result


def _message_new(
    *,
    user: User,
    chat: Chat,
    incoming: IncomingMessage,
    resolver: PersonResolver,
    now: datetime,
) -> Message:
    sender_person = None
    sender_name = ""
    if incoming.sender is not None:
        sender_name = incoming.sender.label[:255]
        if not incoming.is_from_self:
            sender_person = resolver.resolve(incoming.sender)
    return Message(
        user=user,
        chat=chat,
        platform_message_id=incoming.platform_message_id,
        sender_person=sender_person,
        is_from_self=incoming.is_from_self,
        sender_name=sender_name,
        kind=incoming.kind,
        text="" if incoming.is_deleted else incoming.text,
        content_hash=content_hash_of("" if incoming.is_deleted else incoming.text),
        sent_at=incoming.sent_at,
        reply_to_platform_message_id=incoming.reply_to_platform_message_id,
        edited_at=incoming.edited_at,
        deleted_at=now if incoming.is_deleted else None,
    )


def _replies_link(*, user: User, chat: Chat, new_rows: Sequence[Message]) -> None:
    """Point ``reply_to`` at the replied-to row once both are present, in either order:
    new replies to known messages, and known replies waiting for a message that just came."""
    if not new_rows:
        return
    new_ids = {row.platform_message_id for row in new_rows}
    dangling = [row for row in new_rows if row.reply_to_platform_message_id]
    dangling += list(
        Message.objects.filter(
            user=user, chat=chat, reply_to__isnull=True, reply_to_platform_message_id__in=new_ids
        ).only("pk", "reply_to_platform_message_id")
    )
    if not dangling:
        return
    targets = dict(
        Message.objects.filter(
            user=user,
            chat=chat,
            platform_message_id__in={row.reply_to_platform_message_id for row in dangling},
        ).values_list("platform_message_id", "pk")
    )
    linked = []
    for row in {row.pk: row for row in dangling}.values():
        target = targets.get(row.reply_to_platform_message_id)
        if target is not None and target != row.pk:
            row.reply_to_id = target
            linked.append(row)
    if linked:
        Message.objects.bulk_update(linked, ["reply_to"])


def chat_set_excluded_from_ai(*, chat: Chat, is_excluded: bool) -> Chat:
    """Flip the chat's AI switch. The conversation hooks drop or restore its vectors in the
    same transaction."""
    with transaction.atomic():
        locked = Chat.objects.select_for_update().get(pk=chat.pk)
        if locked.is_excluded_from_ai == is_excluded:
            return locked
        locked.is_excluded_from_ai = is_excluded
        locked.save(update_fields=["is_excluded_from_ai", "updated_at"])
        chat_exclusion_changed_run(
            ChatExclusionChange(user_id=locked.user_id, chat_id=locked.pk, is_excluded=is_excluded)
        )
    return locked
