"""Per-version vector indexes.

The ``embedding`` column has no fixed dimensions, so one HNSW index over the column is
impossible; each version gets a partial expression index over ``embedding::vector(D)``
restricted to its own rows. A query uses it when it orders by the same expression and filters
on the same ``index_version_id`` literal (``indexing.selectors.vector_search`` does both).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection

from indexing.models import IndexVersion, MessageEmbedding

logger = logging.getLogger(__name__)


def search_index_name(*, index_version: IndexVersion) -> str:
    return f"indexing_embedding_hnsw_v{int(index_version.pk)}"


def search_index_expression(*, index_version: IndexVersion) -> str:
    """The indexed expression; queries must order by exactly this to use the index."""
    return f"(embedding::vector({int(index_version.dimensions)}))"


def search_index_ensure(*, index_version: IndexVersion) -> None:
    """Create the version's HNSW index if it is missing (or left invalid by an interrupted
    concurrent build). Builds concurrently outside a transaction so ingestion keeps writing."""
    name = search_index_name(index_version=index_version)
    table = MessageEmbedding._meta.db_table
    concurrently = "" if connection.in_atomic_block else "CONCURRENTLY"
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "WHERE c.relname = %s",
            [name],
        )
        row = cursor.fetchone()
        if row is not None and row[0]:
            return
        if row is not None:
            cursor.execute(f'DROP INDEX {concurrently} IF EXISTS "{name}"')
        expression = search_index_expression(index_version=index_version)
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
                f"USING hnsw ({expression} vector_cosine_ops) "
                f"WHERE index_version_id = {int(index_version.pk)}"
            )
        finally:
            if not connection.in_atomic_block:
                cursor.execute("RESET maintenance_work_mem")
    logger.info(
        "indexing.search_index_created",
        extra={"index_version": index_version.version, "index_name": name},
    )


def search_index_drop(*, index_version: IndexVersion) -> None:
    name = search_index_name(index_version=index_version)
    concurrently = "" if connection.in_atomic_block else "CONCURRENTLY"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP INDEX {concurrently} IF EXISTS "{name}"')
    logger.info(
        "indexing.search_index_dropped",
        extra={"index_version": index_version.version, "index_name": name},
    )


def search_index_exists(*, index_version: IndexVersion) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "WHERE c.relname = %s AND i.indisvalid",
            [search_index_name(index_version=index_version)],
        )
        return cursor.fetchone() is not None
