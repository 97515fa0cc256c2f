"""Binary COPY of vectors into the staging table keeps every value (as float4)."""

import random

import numpy
import pytest
from django.db import connection, transaction

from indexing.vector_copy import vectors_stage


def _staged():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, content_hash, embedding::text FROM indexing_vector_stage ORDER BY id"
        )
        return [
            (row[0], row[1], [float(value) for value in row[2].strip("[]").split(",")])
            for row in cursor.fetchall()
        ]


@pytest.mark.django_db
def test_vectors_of_any_size_arrive_intact_and_replace_earlier_rows():
    rng = random.Random(3)
    first = [(1, "a" * 64, [rng.uniform(-1, 1) for _ in range(384)])]
    second = [
        (7, "hash-é", [rng.uniform(-1, 1) for _ in range(8)]),
        (9, "", [0.0, -2.5, 1e-7]),
    ]
    with transaction.atomic():
        vectors_stage(first)
        assert [(row[0], row[1]) for row in _staged()] == [(1, "a" * 64)]
        vectors_stage(second)
        staged = _staged()
    assert [(row[0], row[1]) for row in staged] == [(7, "hash-é"), (9, "")]
    for (_, _, got), (_, _, sent) in zip(staged, second, strict=True):
        assert got == pytest.approx(numpy.asarray(sent, dtype=numpy.float32).tolist(), rel=1e-6)


@pytest.mark.django_db(transaction=True)
def test_staging_needs_a_transaction():
    assert not connection.in_atomic_block
    with pytest.raises(RuntimeError, match="needs a transaction"):
        vectors_stage([(1, "h", [0.1])])
