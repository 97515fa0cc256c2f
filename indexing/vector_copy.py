"""Moving a batch of vectors into PostgreSQL in binary.

Formatting 384 floats as text costs more than everything else a backfill does per message
when embedding is fast, so a batch goes in through ``COPY ... (FORMAT BINARY)`` into a
per-session staging table, and one UPDATE moves it onto the entries.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy
from django.db import connection

STAGE_TABLE = "indexing_vector_stage"

_SIGNATURE = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
_TRAILER = struct.pack(">h", -1)


def _copy_payload(rows: Sequence[tuple[int, str, Sequence[float]]]) -> bytes:
    """Binary COPY data for (id bigint, content_hash text, embedding vector) rows.

    pgvector's binary form of a vector is int16 dimensions, int16 zero, then big-endian
    float4 values.
    """
    parts = [_SIGNATURE]
    for entry_id, content_hash, values in rows:
        vector = numpy.asarray(values, dtype=">f4")
        hash_bytes = content_hash.encode()
        parts.append(
            struct.pack(
                f">hiqi{len(hash_bytes)}sihh",
                3,
                8,
                entry_id,
                len(hash_bytes),
                hash_bytes,
                4 + 4 * vector.shape[0],
                vector.shape[0],
                0,
            )
        )
        parts.append(vector.tobytes())
    parts.append(_TRAILER)
    return b"".join(parts)


def vectors_stage(rows: Sequence[tuple[int, str, Sequence[float]]]) -> None:
    """Replace the session's staging rows with ``rows``. The caller must be in a transaction;
    the rows are also dropped when it commits."""
    if not connection.in_atomic_block:
        raise RuntimeError("vectors_stage needs a transaction")
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE IF NOT EXISTS {STAGE_TABLE} "
            "(id bigint, content_hash text, embedding vector) ON COMMIT DELETE ROWS"
        )
        # An enclosing transaction may already have staged a batch.
        cursor.execute(f"TRUNCATE {STAGE_TABLE}")
        raw = cursor.cursor  # the psycopg cursor behind Django's wrapper
        with raw.copy(
            f"COPY {STAGE_TABLE} (id, content_hash, embedding) FROM STDIN (FORMAT BINARY)"
        ) as copy:
            copy.write(_copy_payload(rows))
