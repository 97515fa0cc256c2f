"""Shared fixtures. Tests run against the embedded PostgreSQL (or DATABASE_URL) — never SQLite."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database (fresh, or kept from the last run with ``--reuse-db``) with the rows
    its data migrations seed: a kept database has been flushed by the last run's transactional
    tests, and its migrations do not run again."""
    with django_db_blocker.unblock():
        _migration_seeded_rows_put_back()


def _migration_seeded_rows_put_back() -> None:
    import importlib

    from django.apps import apps

    seeding = importlib.import_module("billing.migrations.0003_seed_local_price_book")
    seeding.seed_local_prices(apps, None)
    capabilities = importlib.import_module("proposals.migrations.0002_seed_builtin_capabilities")
    capabilities.seed_builtin_capabilities(apps, None)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Real hashers are slow on purpose; tests create many users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def other_user(db):
    return UserFactory()


def _client_for(user) -> APIClient:
    token, _ = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def api_client(user) -> APIClient:
    return _client_for(user)


@pytest.fixture
def other_api_client(other_user) -> APIClient:
    return _client_for(other_user)


@pytest.fixture(autouse=True)
def _fresh_rate_limits(settings):
    """Each test counts its own requests: a key prefix of its own in Redis, and no
    in-process counts left by an earlier test."""
    import uuid

    from claire.ratelimit import rate_limits_reset

    settings.RATE_LIMIT_KEY_PREFIX = f"claire:test:{uuid.uuid4().hex}"
    rate_limits_reset()


@pytest.fixture(autouse=True)
def _migration_seeded_rows(request):
    """A transactional test's flush removes what data migrations seeded (the local models'
    price book), so the next transactional test would depend on the order of the run: every
    transactional test starts with it put back, by the seeding migration's own function."""
    if "transactional_db" not in request.fixturenames and not any(
        marker.kwargs.get("transaction") for marker in request.node.iter_markers("django_db")
    ):
        return
    request.getfixturevalue("transactional_db")
    _migration_seeded_rows_put_back()
