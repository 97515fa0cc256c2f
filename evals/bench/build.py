"""Builds the retrieval bench database: users, people, chats, messages and their embeddings.

Rows are written with COPY (messages in text format, vectors in binary through pgvector's
psycopg adapter), because the ORM would take hours for a million messages. The vector indexes
are dropped while vectors are copied and built once at the end (the version's, then each large
user's own), which is much faster than growing an HNSW graph row by row. This writes other
apps' tables directly and exists only for a throw-away bench database (``bench_retrieval``
refuses a database whose name lacks "bench").
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast

import numpy as np
from django.db import connection, transaction
from django.utils import timezone
from pgvector.psycopg import register_vector

from claire.accounts.models import User
from claire.ai.embeddings import embed_many
from claire.ai.local.mock import HashEmbedder
from claire.ai.profiles import eligible_candidates
from claire.ai.registry import embedding_model_for
from claire.ai.types import DataPolicy
from conversations.models import (
    Chat,
    ChatKind,
    ChatParticipant,
    Message,
    Person,
    Platform,
    content_hash_of,
)
from evals.bench.corpus import FIRST_NAMES, message_rows
from indexing.models import EntryState, IndexProgress, IndexVersion, MessageEmbedding
from indexing.search_indexes import search_index_drop
from indexing.selectors import active_index_version
from indexing.services import (
    ModelIdentity,
    index_version_create,
    index_version_search_index_build,
    user_search_index_build,
    user_search_index_due,
)

logger = logging.getLogger(__name__)

BENCH_EMAIL_DOMAIN = "bench.askclaire.local"
CORPUS_START = datetime(2024, 1, 1, tzinfo=UTC)
CORPUS_END = datetime(2026, 1, 1, tzinfo=UTC)
CHATS_PER_USER = 60
PEOPLE_PER_CHAT = 3
COPY_BATCH = 20_000

Embed = Callable[[Sequence[str]], list[list[float]]]
Report = Callable[[str], None]


@dataclass(frozen=True)
class BenchUser:
    user: User
    messages: int


def bench_email(index: int) -> str:
    return f"bench-{index:03d}@{BENCH_EMAIL_DOMAIN}"


def user_sizes(*, total: int, largest: int, users: int) -> list[int]:
    """Message counts per user: one user with ``largest``, the rest shared evenly."""
    others = users - 1
    rest = max(total - largest, 0)
    sizes = [largest] + [rest // others + (1 if i < rest % others else 0) for i in range(others)]
    return sizes


def corpus_build(
    *,
    total: int,
    largest: int,
    users: int,
    seed: int,
    index_version: IndexVersion,
    embed: Embed,
    report: Report,
    embed_others: Embed | None = None,
    embedded_users: int | None = None,
) -> list[BenchUser]:
    """Create every bench user's data and embeddings; returns the users, largest first.

    The first ``embedded_users`` users (all by default) are embedded with ``embed``, the rest
    with ``embed_others``: a slow real model can embed the user being timed while the other
    users' rows, which only fill the tables and the version's graph, get cheap vectors."""
    built: list[BenchUser] = []
    search_index_drop(index_version=index_version)
    for index, size in enumerate(user_sizes(total=total, largest=largest, users=users)):
        started = time.perf_counter()
        user = _user_create(index)
        chats, people = _chats_create(user=user, seed=seed + index)
        _messages_copy(user=user, chats=chats, people=people, count=size, seed=seed + index)
        chosen = embed
        if embed_others is not None and embedded_users is not None and index >= embedded_users:
            chosen = embed_others
        embedded = _embeddings_copy(user=user, index_version=index_version, embed=chosen)
        IndexProgress.objects.update_or_create(
            user=user,
            index_version=index_version,
            defaults={"eligible": embedded, "embedded": embedded, "failed": 0, "is_seeded": True},
        )
        built.append(BenchUser(user=user, messages=size))
        report(
            f"user {index}: {size} messages, {embedded} vectors "
            f"in {time.perf_counter() - started:.0f}s"
        )
    started = time.perf_counter()
    index_version_search_index_build(index_version=index_version)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE conversations_message")
        cursor.execute("ANALYZE indexing_messageembedding")
    report(f"vector index built and tables analysed in {time.perf_counter() - started:.0f}s")
    user_indexes_build(
        users=[bench.user for bench in built], index_version=index_version, report=report
    )
    return built


def user_indexes_build(
    *, users: Sequence[User], index_version: IndexVersion, report: Report
) -> None:
    """The per-user indexes the indexing jobs would have built (users above the threshold)."""
    for user in users:
        if user_search_index_due(user_id=user.pk, index_version=index_version):
            started = time.perf_counter()
            user_search_index_build(user_id=user.pk, index_version=index_version)
            report(f"{user.email}: own vector index built in {time.perf_counter() - started:.0f}s")


def _user_create(index: int) -> User:
    user = User.objects.create_user(email=bench_email(index), password=None)
    user.timezone = "UTC"
    user.save(update_fields=["timezone"])
    return user


def _chats_create(*, user: User, seed: int) -> tuple[list[Chat], list[list[Person]]]:
    """``CHATS_PER_USER`` chats; each has ``PEOPLE_PER_CHAT`` people drawn from a name pool
    (names repeat across chats, as first names do)."""
    import random

    rng = random.Random(seed)
    people_by_name: dict[str, Person] = {}
    names = rng.sample(FIRST_NAMES, k=min(len(FIRST_NAMES), 40))
    for name in names:
        people_by_name[name] = Person(user=user, display_name=name)
    Person.objects.bulk_create(people_by_name.values())
    chats = [
        Chat(
            user=user,
            platform=rng.choice([Platform.WHATSAPP, Platform.TELEGRAM, Platform.SIGNAL]),
            platform_chat_id=f"bench-{n}",
            title=f"Chat {n}",
            kind=ChatKind.GROUP if n % 3 == 0 else ChatKind.DIRECT,
        )
        for n in range(CHATS_PER_USER)
    ]
    Chat.objects.bulk_create(chats)
    chat_people: list[list[Person]] = []
    memberships = []
    for chat in chats:
        members = [people_by_name[name] for name in rng.sample(names, k=PEOPLE_PER_CHAT)]
        chat_people.append(members)
        memberships += [ChatParticipant(chat=chat, person=person) for person in members]
    ChatParticipant.objects.bulk_create(memberships)
    return chats, chat_people


def _messages_copy(
    *, user: User, chats: list[Chat], people: list[list[Person]], count: int, seed: int
) -> None:
    table = Message._meta.db_table
    columns = (
        "user_id, chat_id, platform_message_id, sender_person_id, is_from_self, sender_name, "
        "kind, text, content_hash, sent_at, reply_to_platform_message_id, created_at, updated_at"
    )
    now = timezone.now()
    last_sent: dict[int, datetime] = {}
    with transaction.atomic(), connection.cursor() as cursor:
        raw = cursor.cursor
        with raw.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for number, row in enumerate(
                message_rows(
                    seed=seed,
                    count=count,
                    chats=len(chats),
                    people_per_chat=PEOPLE_PER_CHAT,
                    start=CORPUS_START,
                    end=CORPUS_END,
                )
            ):
                chat = chats[row.chat_index]
                sender = (
                    None if row.sender_index is None else people[row.chat_index][row.sender_index]
                )
                copy.write_row(
                    (
                        user.pk,
                        chat.pk,
                        f"m{number}",
                        sender.pk if sender else None,
                        sender is None,
                        sender.display_name if sender else "",
                        "text",
                        row.text,
                        content_hash_of(row.text),
                        row.sent_at,
                        "",
                        now,
                        now,
                    )
                )
                last_sent[chat.pk] = row.sent_at
        for chat_id, sent_at in last_sent.items():
            cursor.execute(
                "UPDATE conversations_chat SET last_message_at = %s WHERE id = %s",
                [sent_at, chat_id],
            )


def _embeddings_copy(*, user: User, index_version: IndexVersion, embed: Embed) -> int:
    """Embeds every message of ``user`` in batches and COPYs the vectors (binary)."""
    table = MessageEmbedding._meta.db_table
    columns = (
        "message_id, user_id, chat_id, sent_at, index_version_id, state, content_hash, "
        "embedding, attempts, error_code, created_at, embedded_at"
    )
    now = timezone.now()
    written = 0
    connection.ensure_connection()
    # Registered before the cursor exists: a cursor copies the adapters it is created with.
    register_vector(connection.connection)
    with transaction.atomic(), connection.cursor() as cursor:
        raw = cursor.cursor
        cursor.execute(
            "SELECT id, chat_id, sent_at, content_hash, text FROM conversations_message "
            "WHERE user_id = %s ORDER BY id",
            [user.pk],
        )
        rows = cursor.fetchall()
        with raw.copy(f"COPY {table} ({columns}) FROM STDIN WITH (FORMAT BINARY)") as copy:
            copy.set_types(
                [
                    "bigint",
                    "bigint",
                    "bigint",
                    "timestamptz",
                    "bigint",
                    "varchar",
                    "varchar",
                    "vector",
                    "integer",
                    "varchar",
                    "timestamptz",
                    "timestamptz",
                ]
            )
            for start in range(0, len(rows), COPY_BATCH):
                batch = rows[start : start + COPY_BATCH]
                vectors = embed([row[4] for row in batch])
                for row, vector in zip(batch, vectors, strict=True):
                    copy.write_row(
                        (
                            row[0],
                            user.pk,
                            row[1],
                            row[2],
                            index_version.pk,
                            EntryState.EMBEDDED.value,
                            row[3],
                            np.asarray(vector, dtype=np.float32),
                            1,
                            "",
                            now,
                            now,
                        )
                    )
                written += len(batch)
    return written


def distinct_texts_embed(embed: Embed) -> Embed:
    """``embed`` called once per distinct text of a batch (short fillers repeat a lot)."""

    def run(texts: Sequence[str]) -> list[list[float]]:
        distinct = list(dict.fromkeys(texts))
        vectors = dict(zip(distinct, embed(distinct), strict=True))
        return [vectors[text] for text in texts]

    return run


def bench_users() -> list[User]:
    """Existing bench users, largest (index 0) first."""
    return list(User.objects.filter(email__endswith=f"@{BENCH_EMAIL_DOMAIN}").order_by("email"))


def corpus_fingerprint(*, total: int, largest: int, users: int, seed: int) -> str:
    return hashlib.sha256(f"{total}:{largest}:{users}:{seed}".encode()).hexdigest()[:12]


def corpus_ensure(
    *, total: int, largest: int, users: int, seed: int, embedded_users: int, report: Report
) -> tuple[list[User], IndexVersion | None]:
    """The bench users (largest first) and the active index version, building the corpus when
    the database has none: the first ``embedded_users`` users (0: all) embedded with the embed
    profile's model, the others with hashed-word vectors of the same dimensions."""
    version = active_index_version()
    existing = bench_users()
    if existing:
        return existing, version
    version = version or _bench_index_version()
    corpus_build(
        total=total,
        largest=largest,
        users=users,
        seed=seed,
        index_version=version,
        embed=distinct_texts_embed(profile_embedder(version)),
        embed_others=HashEmbedder(dimensions=version.dimensions).embed_texts,
        embedded_users=embedded_users or None,
        report=report,
    )
    return bench_users(), version


def _bench_index_version() -> IndexVersion:
    result = embed_many(["bench"], profile="embed")
    return index_version_create(
        profile="embed",
        identity=ModelIdentity(
            provider=result.provider, model=result.model, dimensions=result.dimensions
        ),
    )


def profile_embedder(version: IndexVersion) -> Embed:
    """The embed profile's model, called directly when it is local (no request splitting:
    a million messages) and through ``embed_many`` otherwise."""
    candidates = eligible_candidates(profile=version.profile, data_policy=DataPolicy.LOCAL_ONLY)
    model = embedding_model_for(candidates[0].model) if candidates else None
    embed_texts = getattr(model, "embed_texts", None)
    if embed_texts is not None:
        return cast(Embed, embed_texts)

    def through_profile(texts: Sequence[str]) -> list[list[float]]:
        result = embed_many(texts, profile=version.profile)
        if any(vector is None for vector in result.vectors):
            raise RuntimeError("the embedding model failed on part of the corpus")
        return [vector for vector in result.vectors if vector is not None]

    return through_profile
