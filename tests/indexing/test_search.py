"""Vector search over the active version: exact, through the version's partial HNSW index, or
through a large user's own index."""

import datetime as dt
import math

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from conversations.services import chat_set_excluded_from_ai
from indexing import services
from indexing.models import MessageEmbedding
from indexing.search_indexes import search_index_exists, search_index_name
from indexing.selectors import SearchPlan, vector_search
from tests.indexing.embedders import hash_vector
from tests.indexing.support import BASE_TIME, ingest, message, message_row, run_job

pytestmark = pytest.mark.django_db

TEXTS = {
    1: "dinner on friday at the italian place",
    2: "the flight to lisbon leaves at noon",
    3: "can you pick up milk and bread",
    4: "friday dinner is moved to eight",
    5: "my passport expires next month",
    6: "lisbon hotel booking confirmed",
}


@pytest.fixture
def indexed(user, version):
    ingest(user, [message(n, text) for n, text in TEXTS.items() if n <= 4], chat="c1")
    ingest(user, [message(n, text) for n, text in TEXTS.items() if n > 4], chat="c2")
    run_job(user, version)
    services.index_version_search_index_build(index_version=version)
    services.user_search_index_build(user_id=user.pk, index_version=version)
    return version


def _cosine_distance(a, b):
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return 1 - dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


def _row(user, n):
    return message_row(user, n, chat="c1" if n <= 4 else "c2")


def _brute_force(user, query):
    ranked = sorted(
        (round(_cosine_distance(hash_vector(text), query), 4), _row(user, n).pk)
        for n, text in TEXTS.items()
    )
    return [message_id for _, message_id in ranked]


@pytest.mark.parametrize("plan", list(SearchPlan))
def test_nearest_messages_come_first(user, indexed, plan):
    query = hash_vector("friday dinner")
    hits = vector_search(user=user, query_vector=query, limit=6, plan=plan)
    assert [hit.message_id for hit in hits][:2] == _brute_force(user, query)[:2]
    assert {hit.message_id for hit in hits} == set(_brute_force(user, query))
    nearest = min(_cosine_distance(hash_vector(text), query) for text in TEXTS.values())
    assert hits[0].distance == pytest.approx(nearest, abs=1e-4)
    assert [hit.distance for hit in hits] == sorted(hit.distance for hit in hits)


@pytest.mark.parametrize("plan", list(SearchPlan))
def test_filters_by_chat_and_time(user, indexed, plan):
    query = hash_vector("lisbon")
    in_c2 = vector_search(
        user=user,
        query_vector=query,
        chat_ids=[_row(user, 5).chat_id],
        plan=plan,
    )
    assert {hit.message_id for hit in in_c2} == {
        _row(user, 5).pk,
        _row(user, 6).pk,
    }
    window = (BASE_TIME + dt.timedelta(minutes=2), BASE_TIME + dt.timedelta(minutes=4))
    in_window = vector_search(user=user, query_vector=query, time_range=window, plan=plan)
    assert {hit.message_id for hit in in_window} == {
        message_row(user, 2).pk,
        message_row(user, 3).pk,
    }
    assert vector_search(user=user, query_vector=query, chat_ids=[], plan=plan) == []


@pytest.mark.parametrize("plan", list(SearchPlan))
def test_other_users_deleted_and_excluded_messages_are_never_found(user, other_user, indexed, plan):
    ingest(other_user, [message(1, TEXTS[2])])
    run_job(other_user, indexed)
    ingest(user, [message(2, deleted=True)])
    chat_set_excluded_from_ai(chat=_row(user, 5).chat, is_excluded=True)
    hits = vector_search(user=user, query_vector=hash_vector(TEXTS[2]), limit=50, plan=plan)
    assert {hit.message_id for hit in hits} == {
        message_row(user, 1).pk,
        message_row(user, 3).pk,
        message_row(user, 4).pk,
    }


def test_a_query_of_the_wrong_size_is_refused(user, indexed):
    with pytest.raises(ValueError, match="384"):
        vector_search(user=user, query_vector=[0.1] * 8)


def test_no_active_version_means_no_hits(user):
    assert vector_search(user=user, query_vector=[0.1] * 384) == []


def _plan_of(statement_sql: str, *, hnsw: bool) -> str:
    """The plan with sorting priced out: only an index that yields rows in distance order
    avoids it, which shows whether the query can use that index at all (on six rows the
    planner would rightly sort instead)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_sort = off")
        if hnsw:
            cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        cursor.execute("EXPLAIN " + statement_sql)
        return "\n".join(row[0] for row in cursor.fetchall())


@pytest.mark.parametrize("plan", [SearchPlan.EXACT, SearchPlan.HNSW])
def test_only_the_hnsw_plan_reads_the_versions_partial_index(user, indexed, plan):
    with CaptureQueriesContext(connection) as captured:
        vector_search(user=user, query_vector=hash_vector("dinner"), plan=plan)
    statement = next(q["sql"] for q in captured.captured_queries if "message_id" in q["sql"])
    # An approximate search sends its HNSW settings in the same query, ahead of the search.
    statement = statement.split(";\n", 1)[-1]
    explained = _plan_of(statement, hnsw=plan == SearchPlan.HNSW)
    uses_index = search_index_name(index_version=indexed) in explained
    assert uses_index is (plan == SearchPlan.HNSW)


def test_versions_of_different_sizes_each_have_their_own_index(user, indexed):
    small = services.index_version_create(
        profile="embed_small",
        identity=services.ModelIdentity(provider="local", model="tiny", dimensions=8),
    )
    services.index_version_search_index_build(index_version=small)
    assert search_index_exists(index_version=indexed)
    assert search_index_exists(index_version=small)
    ingest(user, [message(7, "a new message")])
    entry = MessageEmbedding.objects.get(user=user, index_version=small)
    MessageEmbedding.objects.filter(pk=entry.pk).update(
        state="embedded", embedding=[1.0] + [0.0] * 7
    )
    hits = vector_search(
        user=user,
        query_vector=[1.0] + [0.0] * 7,
        index_version=small,
        plan=SearchPlan.HNSW,
    )
    assert [(hit.message_id, round(hit.distance, 6)) for hit in hits] == [(entry.message_id, 0.0)]
    active_hits = vector_search(user=user, query_vector=hash_vector("dinner"), limit=50)
    assert entry.message_id not in {hit.message_id for hit in active_hits}


def test_without_its_index_a_version_is_searched_exactly(user, version, settings):
    settings.INDEXING_EXACT_SEARCH_MAX_VECTORS = 0
    ingest(user, [message(n, text) for n, text in TEXTS.items()])
    run_job(user, version)
    assert not version.has_search_index
    with CaptureQueriesContext(connection) as captured:
        hits = vector_search(user=user, query_vector=hash_vector("lisbon"), limit=6)
    assert len(hits) == 6
    assert not any("WITH nearest" in query["sql"] for query in captured.captured_queries)
    services.index_version_search_index_build(index_version=version)
    with CaptureQueriesContext(connection) as captured:
        assert len(vector_search(user=user, query_vector=hash_vector("lisbon"), limit=6)) == 6
    assert any("WITH nearest" in query["sql"] for query in captured.captured_queries)
