"""The database the whole suite runs on is a real PostgreSQL with the extensions we rely on."""

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def test_postgres_is_recent_enough():
    assert connection.vendor == "postgresql"
    assert connection.pg_version >= 150000


def test_migrations_created_pgvector_and_pg_trgm():
    with connection.cursor() as cursor:
        cursor.execute("SELECT extname, extversion FROM pg_extension")
        extensions = dict(cursor.fetchall())
    assert _version_tuple(extensions["vector"]) >= (0, 8)
    assert "pg_trgm" in extensions


def test_vector_and_trigram_operators_work():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT '[1,0,0]'::vector <=> '[0,1,0]'::vector, similarity('Dmitri', 'Dmitry')"
        )
        distance, similarity = cursor.fetchone()
    assert distance == pytest.approx(1.0)
    assert 0.3 < similarity < 1.0
