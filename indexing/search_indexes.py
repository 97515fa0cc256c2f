"""Per-version and per-user vector indexes.

The ``embedding`` column has no fixed dimensions, so one HNSW index over the column is
impossible; each version gets a partial expression index over ``embedding::vector(D)``
restricted to its own rows. A query uses it when it orders by the same expression and filters
on the same ``index_version_id`` literal (``indexing.selectors.vector_search`` does both).

A user with many vectors also gets an index of their own, restricted to
``index_version_id = V AND user_id = U``. Searching the version's index for one user is a
*filtered* graph search: the scan walks the whole graph's neighbourhoods and discards other
users' rows, so a user holding 10% of the rows costs ten times the rows returned and loses
recall. Searching a graph of the user's own rows needs no filter at all. Every such index is
one more partial index PostgreSQL checks on each write to the table, so these are for the
largest users only (``INDEXING_USER_SEARCH_INDEX_MIN_VECTORS``; docs/INDEXING.md).
"""

from __future__ import annotations

import logging
import re

from django.conf import settings
from django.db import connection

from conversations.models import Message
from indexing.models import IndexVersion, MessageEmbedding

logger = logging.getLogger(__name__)


def search_index_name(*, index_version: IndexVersion) -> str:
    return f"indexing_embedding_hnsw_v{int(index_version.pk)}"


def user_search_index_name(*, index_version: IndexVersion, user_id: int) -> str:
    return f"{search_index_name(index_version=index_version)}_u{int(user_id)}"


def search_index_expression(*, index_version: IndexVersion) -> str:
    """The indexed expression; queries must order by exactly this to use the index."""
    return f"(embedding::vector({int(index_version.dimensions)}))"


def user_search_index_expression(*, index_version: IndexVersion) -> str:
    """The expression of a user's own graph: the same values as the version's (a subvector of
    all D dimensions), but an expression of its own, so that only a query ordering by it (the
    user plan) can use the index and the planner never weighs it against the version's index
    (with both over the same expression it sometimes chose the version's)."""
    dimensions = int(index_version.dimensions)
    return f"(subvector(embedding::vector({dimensions}), 1, {dimensions})::vector({dimensions}))"


def _index_is_valid(name: str) -> bool | None:
    """True for a valid index, False for one left invalid by an interrupted concurrent build,
    None when there is none."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "WHERE c.relname = %s",
            [name],
        )
        row = cursor.fetchone()
    return None if row is None else bool(row[0])


def _hnsw_ensure(*, name: str, method: str, predicate: str) -> bool:
    """Create the HNSW index ``name`` (``method``: expression, operator class, options) where
    ``predicate`` holds, unless a valid one exists (an invalid one is dropped and rebuilt).
    Builds concurrently outside a transaction so ingestion keeps writing. Returns whether it
    built one."""
    return _index_ensure(
        name=name, table=MessageEmbedding._meta.db_table, method=method, predicate=predicate
    )


def _index_ensure(*, name: str, table: str, method: str, predicate: str) -> bool:
    valid = _index_is_valid(name)
    if valid:
        return False
    concurrently = "" if connection.in_atomic_block else "CONCURRENTLY"
    with connection.cursor() as cursor:
        if valid is not None:
            cursor.execute(f'DROP INDEX {concurrently} IF EXISTS "{name}"')
        if not concurrently:
            # Inside a transaction, an index cannot be built while deferred foreign-key checks
            # on the table are pending; run them now.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        # The graph is built in memory when it fits; on disk it is many times slower.
        cursor.execute(
            "SELECT set_config('maintenance_work_mem', %s, %s)",
            [settings.INDEXING_HNSW_BUILD_MEMORY, bool(connection.in_atomic_block)],
        )
        try:
            cursor.execute(
                f'CREATE INDEX {concurrently} IF NOT EXISTS "{name}" ON "{table}" '
                f"USING {method} WHERE {predicate}"
            )
        finally:
            if not connection.in_atomic_block:
                cursor.execute("RESET maintenance_work_mem")
    return True


def _drop(name: str) -> None:
    concurrently = "" if connection.in_atomic_block else "CONCURRENTLY"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP INDEX {concurrently} IF EXISTS "{name}"')


def search_index_ensure(*, index_version: IndexVersion) -> None:
    """Create the version's HNSW index if it is missing (or left invalid by an interrupted
    concurrent build)."""
    name = search_index_name(index_version=index_version)
    expression = search_index_expression(index_version=index_version)
    _hnsw_ensure(
        name=name,
        method=f"hnsw ({expression} vector_cosine_ops)",
        predicate=f"index_version_id = {int(index_version.pk)}",
    )
    logger.info(
        "indexing.search_index_created",
        extra={"index_version": index_version.version, "index_name": name},
    )


def user_search_index_ensure(*, index_version: IndexVersion, user_id: int) -> None:
    """Create the user's own HNSW index in the version if it is missing (or invalid). Its graph
    parameters are ``INDEXING_USER_HNSW_M`` and ``INDEXING_USER_HNSW_EF_CONSTRUCTION``."""
    name = user_search_index_name(index_version=index_version, user_id=user_id)
    expression = user_search_index_expression(index_version=index_version)
    built = _hnsw_ensure(
        name=name,
        method=(
            f"hnsw ({expression} vector_cosine_ops) "
            f"WITH (m = {int(settings.INDEXING_USER_HNSW_M)}, "
            f"ef_construction = {int(settings.INDEXING_USER_HNSW_EF_CONSTRUCTION)})"
        ),
        predicate=f"index_version_id = {int(index_version.pk)} AND user_id = {int(user_id)}",
    )
    if built:
        logger.info(
            "indexing.user_search_index_created",
            extra={
                "index_version": index_version.version,
                "user_id": user_id,
                "index_name": name,
            },
        )


def user_text_index_name(*, user_id: int) -> str:
    return f"message_search_vector_u{int(user_id)}"


def user_text_index_ensure(*, user_id: int) -> None:
    """Create the user's own full-text index over their live messages if it is missing. The
    lexical leg filters by user: against the shared GIN index that is a ``BitmapAnd`` of every
    user's matches with a bitmap of all the user's rows (100,000 for the largest bench user)
    for each term; this index holds the user's postings only. The planner picks it by itself
    (the lexical query's user id is a literal); no query changes."""
    name = user_text_index_name(user_id=user_id)
    built = _index_ensure(
        name=name,
        table=Message._meta.db_table,
        method="gin (search_vector)",
        predicate=f"deleted_at IS NULL AND user_id = {int(user_id)}",
    )
    if built:
        logger.info(
            "indexing.user_text_index_created", extra={"user_id": user_id, "index_name": name}
        )


def user_text_index_drop(*, user_id: int) -> None:
    _drop(user_text_index_name(user_id=user_id))


def user_text_index_exists(*, user_id: int) -> bool:
    return bool(_index_is_valid(user_text_index_name(user_id=user_id)))


def search_index_drop(*, index_version: IndexVersion) -> None:
    """Drop the version's index and every per-user index of the version."""
    name = search_index_name(index_version=index_version)
    for user_id in user_search_index_users(index_version=index_version):
        user_search_index_drop(index_version=index_version, user_id=user_id)
    _drop(name)
    logger.info(
        "indexing.search_index_dropped",
        extra={"index_version": index_version.version, "index_name": name},
    )


def user_search_index_drop(*, index_version: IndexVersion, user_id: int) -> None:
    name = user_search_index_name(index_version=index_version, user_id=user_id)
    _drop(name)
    logger.info(
        "indexing.user_search_index_dropped",
        extra={"index_version": index_version.version, "user_id": user_id, "index_name": name},
    )


def user_search_index_users(*, index_version: IndexVersion) -> list[int]:
    """Users who have an index of their own in the version (valid or not), from the catalog."""
    prefix = search_index_name(index_version=index_version) + "_u"
    pattern = re.compile(re.escape(prefix) + r"([0-9]+)")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_class c WHERE c.relkind = 'i' AND c.relname LIKE %s",
            [prefix.replace("_", r"\_") + "%"],
        )
        names = [row[0] for row in cursor.fetchall()]
    users = []
    for name in names:
        match = pattern.fullmatch(name)
        if match:
            users.append(int(match.group(1)))
    return sorted(users)


def search_index_exists(*, index_version: IndexVersion) -> bool:
    return bool(_index_is_valid(search_index_name(index_version=index_version)))


def user_search_index_exists(*, index_version: IndexVersion, user_id: int) -> bool:
    return bool(
        _index_is_valid(user_search_index_name(index_version=index_version, user_id=user_id))
    )
