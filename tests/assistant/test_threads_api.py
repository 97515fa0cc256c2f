import datetime as dt

import pytest

from assistant.models import Thread
from tests.factories import AssistantTurnFactory, ThreadFactory, UserTurnFactory

pytestmark = pytest.mark.django_db


def _threads(user, count):
    start = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
    threads = [ThreadFactory(user=user) for _ in range(count)]
    for index, thread in enumerate(threads):
        Thread.objects.filter(pk=thread.pk).update(
            last_activity_at=start + dt.timedelta(minutes=index)
        )
    return threads


def test_threads_paginate_by_keyset_most_recent_first(api_client, user, other_user):
    threads = _threads(user, 5)
    ThreadFactory(user=other_user)
    first = api_client.get("/api/assistant/threads?limit=2").json()
    assert [t["threadId"] for t in first["threads"]] == [str(threads[4].pk), str(threads[3].pk)]
    second = api_client.get(f"/api/assistant/threads?limit=2&before={first['nextCursor']}").json()
    assert [t["threadId"] for t in second["threads"]] == [str(threads[2].pk), str(threads[1].pk)]
    last = api_client.get(f"/api/assistant/threads?limit=2&before={second['nextCursor']}").json()
    assert [t["threadId"] for t in last["threads"]] == [str(threads[0].pk)]
    assert "nextCursor" not in last


def test_thread_turns_paginate_newest_first(api_client, user):
    thread = ThreadFactory(user=user)
    answers = [AssistantTurnFactory(user_turn__thread=thread) for _ in range(2)]
    page = api_client.get(f"/api/assistant/threads/{thread.pk}/turns?limit=3").json()
    assert [t["turnId"] for t in page["turns"]] == [
        str(answers[1].pk),
        str(answers[1].user_turn_id),
        str(answers[0].pk),
    ]
    assert page["turns"][0]["role"] == "assistant"
    assert page["turns"][0]["userTurnId"] == str(answers[1].user_turn_id)
    rest = api_client.get(
        f"/api/assistant/threads/{thread.pk}/turns?limit=3&before={page['nextCursor']}"
    ).json()
    assert [t["turnId"] for t in rest["turns"]] == [str(answers[0].user_turn_id)]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/assistant/threads/{thread}/turns"),
        ("post", "/api/assistant/turns/{turn}/cancel"),
    ],
)
def test_foreign_threads_and_turns_are_not_found(api_client, other_user, method, path):
    foreign = AssistantTurnFactory(user_turn__thread__user=other_user)
    response = getattr(api_client, method)(path.format(thread=foreign.thread_id, turn=foreign.pk))
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_foreign_threads_are_not_listed(api_client, other_user):
    UserTurnFactory(thread__user=other_user)
    assert api_client.get("/api/assistant/threads").json() == {"threads": []}


def test_bad_cursor_is_refused(api_client):
    response = api_client.get("/api/assistant/threads?before=yesterday")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_cursor"


def test_one_turn_shows_its_stored_state(api_client, user):
    answer = AssistantTurnFactory(
        user_turn__thread__user=user,
        status="streaming",
        index_status={"state": "ready", "eligible": 2, "embedded": 2, "failed": 0, "pending": 0},
    )
    body = api_client.get(f"/api/assistant/turns/{answer.pk}").json()
    assert body["turnId"] == str(answer.pk)
    assert body["status"] == "streaming"
    assert body["userTurnId"] == str(answer.user_turn_id)
    assert body["indexStatus"]["state"] == "ready"
    assert body["removedCitationCount"] == 0


def test_another_users_turn_is_not_found(api_client, other_user):
    foreign = AssistantTurnFactory(user_turn__thread__user=other_user)
    response = api_client.get(f"/api/assistant/turns/{foreign.pk}")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_ended_answers_show_what_their_request_was_charged(
    api_client, user, other_user, django_assert_num_queries
):
    from tests.factories import UsageEventFactory

    thread = ThreadFactory(user=user)
    charged = AssistantTurnFactory(user_turn__thread=thread)
    free = AssistantTurnFactory(user_turn__thread=thread)
    streaming = AssistantTurnFactory(user_turn__thread=thread, status="streaming")
    UsageEventFactory(user=user, request_id=charged.user_turn.request_id, settled_micro_usd=700)
    UsageEventFactory(
        user=user, request_id=charged.user_turn.request_id, attempt=2, settled_micro_usd=50
    )
    UsageEventFactory(user=user, request_id=free.user_turn.request_id, settled_micro_usd=0)
    UsageEventFactory(user=user, request_id=streaming.user_turn.request_id)
    # Another user's usage under the same request id is not this user's cost.
    UsageEventFactory(user=other_user, request_id=free.user_turn.request_id)

    # Authentication, the thread, its turns and the costs.
    with django_assert_num_queries(4):
        page = api_client.get(f"/api/assistant/threads/{thread.pk}/turns").json()
    costs = {t["turnId"]: t.get("costMicroUsd") for t in page["turns"] if t["role"] == "assistant"}
    assert costs == {str(charged.pk): 750, str(free.pk): 0, str(streaming.pk): None}
    assert all("costMicroUsd" not in t for t in page["turns"] if t["role"] == "user")
    one = api_client.get(f"/api/assistant/turns/{charged.pk}").json()
    assert one["costMicroUsd"] == 750
