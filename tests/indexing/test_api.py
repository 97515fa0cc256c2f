"""The user's own index status and failures over the API."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from claire.ai.registry import models_overridden
from indexing import services
from indexing.selectors import index_status_for_user
from indexing.wire import index_status_wire
from tests.indexing.embedders import ScriptedEmbedder
from tests.indexing.support import ingest, message, message_row, run_job

pytestmark = pytest.mark.django_db


def test_status_without_any_version(api_client):
    response = api_client.get("/api/index/status")
    assert response.status_code == 200
    assert response.json() == {"active": None, "versions": []}


def test_status_reports_counters_per_maintained_version(api_client, user, version):
    ingest(user, [message(1), message(2), message(3, "please REFUSE")])
    with models_overridden({"local/hash-embed": ScriptedEmbedder()}):
        run_job(user, version)
    building = services.index_version_create(
        profile="embed_next",
        identity=services.ModelIdentity(provider="local", model="other", dimensions=16),
    )
    response = api_client.get("/api/index/status")
    assert response.status_code == 200
    active = {
        "version": 1,
        "provider": "local",
        "model": "hash-embed-384",
        "dimensions": 384,
        "versionState": "active",
        "state": "partial",
        "eligible": 3,
        "embedded": 2,
        "failed": 1,
        "pending": 0,
        "jobError": None,
    }
    assert response.json() == {
        "active": active,
        "versions": [
            active,
            {
                "version": building.version,
                "provider": "local",
                "model": "other",
                "dimensions": 16,
                "versionState": "building",
                "state": "not_started",
                "eligible": 0,
                "embedded": 0,
                "failed": 0,
                "pending": 0,
                "jobError": None,
            },
        ],
    }


def test_status_is_building_while_entries_are_pending(api_client, user, version):
    ingest(user, [message(1)])
    body = api_client.get("/api/index/status").json()
    assert (body["active"]["state"], body["active"]["pending"]) == ("building", 1)


def test_index_status_reads_two_rows_and_counts_nothing(user, version, django_assert_num_queries):
    ingest(user, [message(n) for n in range(1, 30)])
    with CaptureQueriesContext(connection) as captured, django_assert_num_queries(2):
        status = index_status_for_user(user=user)
    assert status.eligible == 29
    assert not any("count(" in query["sql"].lower() for query in captured.captured_queries)


def test_failures_lists_only_the_users_own_permanent_failures(
    api_client, user, other_user, version
):
    ingest(user, [message(1, "REFUSE one"), message(2), message(3, "REFUSE two")])
    ingest(other_user, [message(1, "REFUSE theirs")])
    with models_overridden({"local/hash-embed": ScriptedEmbedder()}):
        run_job(user, version)
        run_job(other_user, version)
    response = api_client.get("/api/index/failures")
    assert response.status_code == 200
    body = response.json()
    assert [item["messageId"] for item in body["failures"]] == [
        message_row(user, 3).pk,
        message_row(user, 1).pk,
    ]
    first = body["failures"][0]
    assert (first["chatId"], first["version"], first["errorCode"], first["attempts"]) == (
        message_row(user, 3).chat_id,
        1,
        "content_filtered",
        1,
    )
    assert "nextCursor" not in body


def test_failures_paginate_with_a_cursor(api_client, user, version):
    ingest(user, [message(n, f"REFUSE {n}") for n in range(1, 4)])
    with models_overridden({"local/hash-embed": ScriptedEmbedder()}):
        run_job(user, version)
    first = api_client.get("/api/index/failures?limit=2").json()
    assert len(first["failures"]) == 2
    second = api_client.get(f"/api/index/failures?limit=2&before={first['nextCursor']}").json()
    assert [item["messageId"] for item in second["failures"]] == [message_row(user, 1).pk]
    assert "nextCursor" not in second


def test_failures_refuse_a_bad_limit(api_client, version):
    response = api_client.get("/api/index/failures?limit=abc")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_limit"


def test_index_api_needs_a_signed_in_user(client):
    assert client.get("/api/index/status").status_code in (401, 403)
    assert client.get("/api/index/failures").status_code in (401, 403)


def test_an_answer_and_the_status_endpoint_share_one_index_status_format(api_client, user, version):
    endpoint = api_client.get("/api/index/status").json()["active"]
    assert endpoint == index_status_wire(index_status_for_user(user=user))
    assert index_status_wire(None) == {
        "state": "not_started",
        "eligible": 0,
        "embedded": 0,
        "failed": 0,
        "pending": 0,
    }
