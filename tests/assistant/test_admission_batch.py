"""Admission in batches (``assistant.admission.admissions_decide``): the requests that arrive
together are decided with a few statements for them all, and each gets the outcome it would
get alone -- idempotent request ids, the exact stream cap, rate limits, the error shapes."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid

import pytest
from rest_framework import exceptions

from assistant.admission import Admitted, Arrival, admission_decide, admissions_decide
from assistant.db import run_admission_batched
from assistant.errors import NotAcceptable, RequestIdReused, RequestInProgress, TooManyStreams
from assistant.models import Thread, Turn, TurnRole, TurnStatus
from billing.errors import AiDisabled
from claire.errors import CodedError, NotFound
from tests.assistant.conftest import MESSAGES_PATH, token_for
from tests.factories import AiPolicyFactory, ThreadFactory, UserFactory


def _arrival(
    token: str | None,
    *,
    request_id: str | None = None,
    question: str = "Which evening suits the pottery class?",
    accept: bytes = b"text/event-stream",
    **fields: object,
) -> Arrival:
    headers = [(b"accept", accept), (b"content-type", b"application/json")]
    if token is not None:
        headers.append((b"authorization", f"Token {token}".encode()))
    body = {"requestId": request_id or str(uuid.uuid4()), "question": question, **fields}
    return Arrival(
        scope={
            "type": "http",
            "method": "POST",
            "path": MESSAGES_PATH,
            "headers": headers,
            "query_string": b"",
        },
        body=json.dumps(body).encode(),
    )


@pytest.mark.django_db
def test_a_batch_admits_each_new_request_once_and_refuses_the_rest_as_alone(user, settings):
    settings.ASSISTANT_MAX_CONCURRENT_STREAMS = 0
    token = token_for(user)
    repeated = str(uuid.uuid4())
    outcomes = admissions_decide(
        [
            _arrival(token),
            _arrival(token, request_id=repeated),
            _arrival(token, request_id=repeated),
            _arrival(token, request_id=repeated, question="A different question entirely?"),
            _arrival("not-a-token"),
            _arrival(None),
            _arrival(token, accept=b"*/*"),
            _arrival(token, scope={"mode": "sideways"}),
        ]
    )

    first, second = outcomes[0], outcomes[1]
    assert isinstance(first, Admitted) and isinstance(second, Admitted)
    assert first.pair.is_new and second.pair.is_new
    assert first.transport == "sse"
    assert first.pair.thread.pk != second.pair.thread.pk
    assert isinstance(outcomes[2], RequestInProgress)
    assert isinstance(outcomes[3], RequestIdReused)
    assert isinstance(outcomes[4], exceptions.AuthenticationFailed)
    assert str(outcomes[4].detail) == "Invalid token."
    assert isinstance(outcomes[5], exceptions.NotAuthenticated)
    assert isinstance(outcomes[6], NotAcceptable)
    assert isinstance(outcomes[7], CodedError) and outcomes[7].code == "invalid_request"
    # Two questions, two answers: nothing was written for the refused requests.
    assert Turn.objects.filter(user=user, role=TurnRole.USER).count() == 2
    assert Turn.objects.filter(user=user, role=TurnRole.ASSISTANT).count() == 2
    assert Thread.objects.filter(user=user).count() == 2
    assistant_turn = first.pair.assistant_turn
    assert assistant_turn.status == TurnStatus.STREAMING
    assert assistant_turn.user_turn_id == first.pair.user_turn.pk
    assert assistant_turn.lease_expires_at is not None


@pytest.mark.django_db
def test_a_batch_replays_an_answered_request_and_continues_a_thread(user, settings):
    settings.ASSISTANT_MAX_CONCURRENT_STREAMS = 0
    token = token_for(user)
    answered = str(uuid.uuid4())
    (first,) = admissions_decide([_arrival(token, request_id=answered)])
    assert isinstance(first, Admitted)
    Turn.objects.filter(pk=first.pair.assistant_turn.pk).update(status=TurnStatus.COMPLETED)
    thread = ThreadFactory(user=user)
    foreign = ThreadFactory(user=UserFactory())

    replay, continued, not_found = admissions_decide(
        [
            _arrival(token, request_id=answered),
            _arrival(token, threadId=str(thread.pk)),
            _arrival(token, threadId=str(foreign.pk)),
        ]
    )

    assert isinstance(replay, Admitted) and not replay.pair.is_new
    assert replay.pair.assistant_turn.pk == first.pair.assistant_turn.pk
    assert isinstance(continued, Admitted) and continued.pair.thread.pk == thread.pk
    thread.refresh_from_db()
    assert thread.last_activity_at == continued.pair.thread.last_activity_at
    assert isinstance(not_found, NotFound) and not_found.status_code == 404
    assert not Turn.objects.filter(thread=foreign).exists()


@pytest.mark.django_db
def test_the_stream_cap_is_exact_within_a_batch(user, other_user, settings):
    settings.ASSISTANT_MAX_CONCURRENT_STREAMS = 2
    token, other_token = token_for(user), token_for(other_user)

    outcomes = admissions_decide([_arrival(token) for _ in range(4)] + [_arrival(other_token)])

    assert [type(outcome) for outcome in outcomes] == [
        Admitted,
        Admitted,
        TooManyStreams,
        TooManyStreams,
        Admitted,
    ]
    assert Turn.objects.filter(user=user, role=TurnRole.ASSISTANT).count() == 2
    (later,) = admissions_decide([_arrival(token)])
    assert isinstance(later, TooManyStreams)


@pytest.mark.django_db
def test_rate_limit_and_ai_policy_refuse_per_request(user, other_user, settings):
    settings.ASSISTANT_MAX_CONCURRENT_STREAMS = 0
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "ask": "2/3600"}
    AiPolicyFactory(user=other_user, is_ai_enabled=False)
    token, other_token = token_for(user), token_for(other_user)

    outcomes = admissions_decide(
        [_arrival(token), _arrival(other_token), _arrival(token), _arrival(token)]
    )

    assert isinstance(outcomes[0], Admitted)
    assert isinstance(outcomes[1], AiDisabled)
    assert isinstance(outcomes[2], Admitted)
    assert isinstance(outcomes[3], exceptions.Throttled)
    assert 1 <= outcomes[3].wait <= 3600
    assert not Turn.objects.filter(user=other_user).exists()


@pytest.mark.django_db
def test_a_batch_costs_the_same_statements_whatever_its_size(
    user, settings, django_assert_num_queries
):
    settings.ASSISTANT_MAX_CONCURRENT_STREAMS = 3
    token = token_for(user)
    admissions_decide([_arrival(token)])  # connections and caches warmed
    Turn.objects.filter(user=user).update(status=TurnStatus.COMPLETED)
    users = [UserFactory() for _ in range(3)]
    tokens = [token_for(each) for each in users]

    # Tokens, the request probe, each user's policy and budget periods, then the
    # transaction: locks, the probe again, the stream count, one insert of the threads and
    # turns.
    with django_assert_num_queries(2 + 2 * 3 + 6):
        small = admissions_decide([_arrival(each) for each in tokens])
    with django_assert_num_queries(2 + 2 * 3 + 6):
        large = admissions_decide([_arrival(each) for each in tokens for _ in range(3)])

    assert all(isinstance(outcome, Admitted) for outcome in small)
    assert sum(isinstance(outcome, Admitted) for outcome in large) == 6
    assert sum(isinstance(outcome, TooManyStreams) for outcome in large) == 3


def test_requests_that_arrive_while_a_batch_runs_are_decided_together():
    batches: list[list[int]] = []
    first_started = threading.Event()
    release_first = threading.Event()

    def decide(items: list[int]) -> list[object]:
        batches.append(list(items))
        if len(batches) == 1:
            first_started.set()
            release_first.wait(10)
        return [item * 10 for item in items]

    async def scenario() -> list[object]:
        first = asyncio.ensure_future(run_admission_batched(decide, 1))
        await asyncio.get_running_loop().run_in_executor(None, first_started.wait, 10)
        later = [asyncio.ensure_future(run_admission_batched(decide, item)) for item in (2, 3, 4)]
        await asyncio.sleep(0)
        release_first.set()
        return await asyncio.gather(first, *later)

    import django.conf

    previous = django.conf.settings.ASSISTANT_ADMISSION_THREADS
    django.conf.settings.ASSISTANT_ADMISSION_THREADS = 1
    try:
        results = asyncio.run(scenario())
    finally:
        django.conf.settings.ASSISTANT_ADMISSION_THREADS = previous
    assert results == [10, 20, 30, 40]
    assert batches == [[1], [2, 3, 4]]


_TIMES = {"created_at", "last_activity_at", "finished_at", "lease_expires_at"}


def _row(instance: Thread | Turn) -> dict[str, object]:
    """A row's columns apart from its keys, its times and its request id."""
    return {
        field.attname: getattr(instance, field.attname)
        for field in type(instance)._meta.concrete_fields
        if not field.attname.endswith("id") and field.attname not in _TIMES
    }


@pytest.mark.django_db
def test_a_batch_writes_the_rows_the_one_request_path_writes(user, settings, dinner_chat):
    settings.ASSISTANT_MAX_CONCURRENT_STREAMS = 0
    chat, _ = dinner_chat
    continued = ThreadFactory(user=user)
    token = token_for(user)
    asks: list[dict[str, object]] = [
        {"question": "Where did the hiking group meet last spring?"},
        {
            "question": "Who lent me the tent?",
            "scope": {"mode": "strict_chat", "chatId": str(chat.pk)},
        },
        {"question": "And the sleeping bags?", "threadId": str(continued.pk)},
    ]

    batch = admissions_decide([_arrival(token, **fields) for fields in asks])
    assert all(isinstance(outcome, Admitted) for outcome in batch)
    pairs = [outcome.pair for outcome in batch if isinstance(outcome, Admitted)]
    handed_on = [(p.thread, p.user_turn, p.assistant_turn) for p in pairs]
    stored = [[type(each).objects.get(pk=each.pk) for each in trio] for trio in handed_on]
    # The same questions, each admitted alone through the one-request insert.
    alone = [admission_decide(**vars(_arrival(token, **fields))) for fields in asks]

    for trio, stored_trio, single in zip(handed_on, stored, alone, strict=True):
        references = (single.pair.thread, single.pair.user_turn, single.pair.assistant_turn)
        for instance, row, reference in zip(trio, stored_trio, references, strict=True):
            # What the batch hands on is what it stored, and what a lone request stores.
            assert _row(instance) == _row(row) == _row(reference)
            assert all(
                getattr(instance, name) == getattr(row, name)
                for name in _TIMES
                if hasattr(instance, name)
            )
    for pair, single in zip(pairs, alone, strict=True):
        assert pair.user_turn.request_id != single.pair.user_turn.request_id
        assert pair.user_turn.request_hash == single.pair.user_turn.request_hash
        assert pair.user_turn.thread is pair.thread and pair.assistant_turn.thread is pair.thread
        assert pair.assistant_turn.user_turn is pair.user_turn
        assert pair.user_turn.user == user and pair.assistant_turn.user == user
        assert pair.user_turn.pk < pair.assistant_turn.pk
    assert [pair.user_turn.pk for pair in pairs] == sorted(pair.user_turn.pk for pair in pairs)
    assert pairs[1].thread.kind == "chat" and pairs[1].thread.chat_id == chat.pk
    assert pairs[2].thread.pk == continued.pk
    assert pairs[2].user_turn.thread_id == continued.pk
    continued.refresh_from_db()
    assert continued.last_activity_at >= pairs[0].user_turn.created_at
