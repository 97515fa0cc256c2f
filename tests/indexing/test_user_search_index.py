"""A large user's own HNSW index: built when their job completes above the threshold, chosen by
searches, never read for anyone else, dropped with the version."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from indexing import services, tasks
from indexing.models import IndexProgress
from indexing.search_indexes import (
    search_index_exists,
    user_search_index_exists,
    user_search_index_name,
    user_search_index_users,
    user_text_index_exists,
)
from indexing.selectors import SearchPlan, vector_search, vector_search_plan
from tests.indexing.embedders import hash_vector
from tests.indexing.support import ingest, message, run_job

pytestmark = pytest.mark.django_db

TEXTS = [
    "dinner on friday at the italian place",
    "the flight to lisbon leaves at noon",
    "can you pick up milk and bread",
    "friday dinner is moved to eight",
    "my passport expires next month",
    "lisbon hotel booking confirmed",
]


@pytest.fixture
def thresholds(settings):
    settings.INDEXING_EXACT_SEARCH_MAX_VECTORS = 2
    settings.INDEXING_USER_SEARCH_INDEX_MIN_VECTORS = 4
    return settings


def _ingest(user, count, start=1):
    ingest(user, [message(start + n, TEXTS[n % len(TEXTS)]) for n in range(count)])


def _search_sql(user, **kwargs):
    with CaptureQueriesContext(connection) as captured:
        hits = vector_search(user=user, query_vector=hash_vector("friday dinner"), **kwargs)
    statement = next(q["sql"] for q in captured.captured_queries if "message_id" in q["sql"])
    # An approximate search sends its HNSW settings in the same query, ahead of the search.
    statement = statement.split(";\n", 1)[-1]
    return hits, statement


def _explain(statement_sql):
    """The plan with sorting priced out, so only an index yielding rows in distance order can
    avoid a sort (on a few rows the planner would rightly sort instead)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        cursor.execute("EXPLAIN " + statement_sql)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_plans_by_size_and_available_indexes(thresholds):
    assert vector_search_plan(embedded=2, has_user_index=True) == SearchPlan.EXACT
    assert vector_search_plan(embedded=3, has_user_index=True) == SearchPlan.USER_HNSW
    assert vector_search_plan(embedded=3, has_user_index=False) == SearchPlan.HNSW
    assert (
        vector_search_plan(embedded=3, has_user_index=True, has_version_index=False)
        == SearchPlan.USER_HNSW
    )
    assert (
        vector_search_plan(embedded=3, has_user_index=False, has_version_index=False)
        == SearchPlan.EXACT
    )


def test_a_job_that_leaves_the_user_above_the_threshold_asks_for_their_index(
    user, version, thresholds
):
    _ingest(user, 3)
    assert run_job(user, version).user_search_index_due is False
    _ingest(user, 2, start=4)
    result = run_job(user, version)
    assert (result.user_search_index_due, result.user_id) == (True, user.pk)

    assert services.user_search_index_build(user_id=user.pk, index_version=version)
    assert user_search_index_exists(index_version=version, user_id=user.pk)
    progress = IndexProgress.objects.get(user=user, index_version=version)
    assert progress.search_index_built_at is not None
    assert user_search_index_users(index_version=version) == [user.pk]

    _ingest(user, 1, start=6)
    assert run_job(user, version).user_search_index_due is False


def test_the_build_task_builds_only_when_due(user, other_user, version, thresholds):
    _ingest(user, 5)
    _ingest(other_user, 3)
    run_job(user, version)
    run_job(other_user, version)
    tasks.build_user_search_index(version.pk, other_user.pk)
    assert not user_search_index_exists(index_version=version, user_id=other_user.pk)
    tasks.build_user_search_index(version.pk, user.pk)
    assert user_search_index_exists(index_version=version, user_id=user.pk)


def test_the_job_task_sends_the_build_task_when_due(user, version, thresholds, monkeypatch):
    sent = []
    monkeypatch.setattr(
        tasks.build_user_search_index,
        "apply_async",
        lambda *, args, queue: sent.append(tuple(args)),
    )
    monkeypatch.setattr(tasks.build_search_index, "apply_async", lambda **kwargs: None)
    _ingest(user, 5)
    services.index_jobs_request(user_id=user.pk, version_ids=[version.pk])
    from indexing.selectors import open_index_job

    job = open_index_job(user_id=user.pk, index_version_id=version.pk)
    tasks.run_index_job.apply(args=[job.pk])
    assert sent == [(version.pk, user.pk)]


def test_searches_read_the_users_own_index_once_built(user, other_user, version, thresholds):
    _ingest(user, 5)
    _ingest(other_user, 5)
    run_job(user, version)
    run_job(other_user, version)
    exact, _ = _search_sql(user, limit=5, plan=SearchPlan.EXACT)

    # No index of any kind yet: exact.
    hits, statement = _search_sql(user, limit=5)
    assert "WITH nearest" not in statement

    services.index_version_search_index_build(index_version=version)
    services.user_search_index_build(user_id=user.pk, index_version=version)
    hits, statement = _search_sql(user, limit=5)
    assert f"e.user_id = {user.pk}" in statement
    assert "subvector" in statement
    assert [hit.message_id for hit in hits] == [hit.message_id for hit in exact]
    assert user_search_index_name(index_version=version, user_id=user.pk) in _explain(statement)

    # The other user has no index of their own: the version's, never the first user's.
    other_hits, other_statement = _search_sql(other_user, limit=10)
    assert "WITH nearest" in other_statement
    assert "subvector" not in other_statement
    assert user_search_index_name(index_version=version, user_id=user.pk) not in _explain(
        other_statement
    )
    assert {hit.message_id for hit in other_hits}.isdisjoint({hit.message_id for hit in hits})


def test_the_shared_plan_never_reads_a_users_own_index(user, version, thresholds):
    _ingest(user, 5)
    run_job(user, version)
    services.user_search_index_build(user_id=user.pk, index_version=version)
    hits, statement = _search_sql(user, limit=5, plan=SearchPlan.HNSW)
    assert len(hits) == 5
    assert user_search_index_name(index_version=version, user_id=user.pk) not in _explain(statement)


def test_removing_a_users_index_sends_searches_back_to_the_versions(user, version, thresholds):
    _ingest(user, 5)
    run_job(user, version)
    services.index_version_search_index_build(index_version=version)
    services.user_search_index_build(user_id=user.pk, index_version=version)
    services.user_search_index_remove(user_id=user.pk, index_version=version)
    assert not user_search_index_exists(index_version=version, user_id=user.pk)
    hits, statement = _search_sql(user, limit=5)
    assert len(hits) == 5
    assert "WITH nearest" in statement
    assert "subvector" not in statement


def test_retiring_a_version_drops_its_users_indexes(user, version, thresholds):
    _ingest(user, 5)
    run_job(user, version)
    services.user_search_index_build(user_id=user.pk, index_version=version)
    new = services.index_version_create(
        profile="embed",
        identity=services.ModelIdentity(provider="local", model="other", dimensions=384),
    )
    assert services.user_search_index_build(user_id=user.pk, index_version=new) is True
    list(services.index_version_retire(index_version=new))
    assert not user_search_index_exists(index_version=new, user_id=user.pk)
    assert user_search_index_exists(index_version=version, user_id=user.pk)
    assert not search_index_exists(index_version=new)
    # A retired version gets no new index.
    new.refresh_from_db()
    assert services.user_search_index_build(user_id=user.pk, index_version=new) is False
    assert not user_search_index_exists(index_version=new, user_id=user.pk)


def test_a_users_own_text_index_is_built_with_their_vector_index(user, other_user, version):
    from retrieval.lexical import SearchFilters, lexical_search

    _ingest(user, 6)
    _ingest(other_user, 6)
    run_job(user, version)

    def found(who):
        hits = lexical_search(
            user=who, keywords=["lisbon", "dinner"], filters=SearchFilters(), term_cap=50, limit=10
        )
        return [hit.message_id for hit in hits]

    before = (found(user), found(other_user))
    services.user_search_index_build(user_id=user.pk, index_version=version)
    assert user_text_index_exists(user_id=user.pk)
    assert not user_text_index_exists(user_id=other_user.pk)
    assert (found(user), found(other_user)) == before
    assert set(before[0]).isdisjoint(before[1])


def test_a_build_another_process_is_running_is_left_to_it(user, version, thresholds):
    import psycopg

    from indexing.sql import USER_SEARCH_INDEX_BUILD_LOCK_NAMESPACE

    _ingest(user, 5)
    run_job(user, version)
    IndexProgress.objects.filter(user=user, index_version=version).update(
        search_index_built_at=None
    )
    services.user_search_index_remove(user_id=user.pk, index_version=version)
    params = connection.get_connection_params()
    other = psycopg.connect(
        host=params["host"], port=params["port"], user=params["user"], dbname=params["dbname"]
    )
    try:
        other.execute(
            "SELECT pg_advisory_lock(%s, %s)", [USER_SEARCH_INDEX_BUILD_LOCK_NAMESPACE, user.pk]
        )
        assert services.user_search_index_build(user_id=user.pk, index_version=version) is False
        assert not user_search_index_exists(index_version=version, user_id=user.pk)
        other.execute(
            "SELECT pg_advisory_unlock(%s, %s)", [USER_SEARCH_INDEX_BUILD_LOCK_NAMESPACE, user.pk]
        )
        assert services.user_search_index_build(user_id=user.pk, index_version=version) is True
        assert user_search_index_exists(index_version=version, user_id=user.pk)
        # The lock was given back: the other session can take it at once.
        row = other.execute(
            "SELECT pg_try_advisory_lock(%s, %s)", [USER_SEARCH_INDEX_BUILD_LOCK_NAMESPACE, user.pk]
        ).fetchone()
        assert row == (True,)
    finally:
        other.close()


def test_a_deleted_users_own_indexes_are_dropped_with_them(
    user, other_user, version, thresholds, django_capture_on_commit_callbacks
):
    for owner in (user, other_user):
        _ingest(owner, 5)
        run_job(owner, version)
        services.user_search_index_build(user_id=owner.pk, index_version=version)
    assert user_text_index_exists(user_id=user.pk)
    user_id = user.pk

    with django_capture_on_commit_callbacks(execute=True):
        user.delete()

    assert not user_search_index_exists(index_version=version, user_id=user_id)
    assert not user_text_index_exists(user_id=user_id)
    assert user_search_index_users(index_version=version) == [other_user.pk]
    assert user_text_index_exists(user_id=other_user.pk)
