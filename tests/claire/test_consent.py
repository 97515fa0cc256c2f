"""Remote consent is the user's own decision (``claire.accounts.consent``): the deployment's
default until they decide, their decision after, and the migration that moved it off
billing's policy row keeps every decision already made."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import override_settings

from claire.accounts.consent import data_policy_for_user, has_remote_consent, remote_consent_set
from claire.ai.types import DataPolicy
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("default", [True, False])
def test_an_undecided_user_gets_the_deployment_default(user, default):
    with override_settings(REMOTE_CONSENT_DEFAULT=default):
        assert user.remote_consent is None
        assert has_remote_consent(user=user) is default
        expected = DataPolicy.ALLOW_REMOTE if default else DataPolicy.LOCAL_ONLY
        assert data_policy_for_user(user=user) == expected


@override_settings(REMOTE_CONSENT_DEFAULT=True)
def test_the_users_decision_overrides_the_default_and_is_dated(user):
    remote_consent_set(user=user, given=False)

    user.refresh_from_db()
    assert user.remote_consent is False
    assert user.remote_consent_changed_at is not None
    assert data_policy_for_user(user=user) == DataPolicy.LOCAL_ONLY

    remote_consent_set(user=user, given=True)
    assert data_policy_for_user(user=user) == DataPolicy.ALLOW_REMOTE


@pytest.mark.django_db(transaction=True)
def test_the_migration_copies_each_policy_rows_consent_to_its_user():
    before = [("billing", "0003_seed_local_price_book"), ("accounts", "0002_user_remote_consent")]
    after = [("billing", "0004_remote_consent_moved_to_the_user")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    consenting, refusing, undecided = (UserFactory() for _ in range(3))
    old_policy = old.get_model("billing", "AiPolicy")
    old_policy.objects.create(user_id=consenting.pk, has_remote_consent=True)
    old_policy.objects.create(user_id=refusing.pk, has_remote_consent=False)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)

    consenting.refresh_from_db()
    refusing.refresh_from_db()
    undecided.refresh_from_db()
    assert (consenting.remote_consent, refusing.remote_consent) == (True, False)
    assert undecided.remote_consent is None

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(before)
    rows = dict(old_policy.objects.values_list("user_id", "has_remote_consent"))
    assert rows == {consenting.pk: True, refusing.pk: False}

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
