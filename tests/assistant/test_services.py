import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from assistant import selectors, services
from assistant.errors import RequestIdReused, RequestInProgress, TurnNotRetryable
from assistant.models import Thread, ThreadKind, Turn, TurnRole, TurnStatus
from assistant.services import TurnOutcome
from assistant.types import AskRequest, Scope
from claire.errors import NotFound
from tests.factories import AssistantTurnFactory, ChatFactory, ThreadFactory

pytestmark = pytest.mark.django_db


def _request(**changes):
    values = {
        "request_id": str(uuid.uuid4()),
        "question": "When is dinner with Ana?",
        "scope": Scope(mode="global"),
    }
    values.update(changes)
    return AskRequest(**values)


def test_new_request_creates_thread_and_both_turns(user):
    pair = services.turn_begin(user=user, request=_request())
    assert pair.is_new is True
    assert pair.thread.kind == ThreadKind.GLOBAL
    assert pair.user_turn.role == TurnRole.USER
    assert pair.user_turn.text == "When is dinner with Ana?"
    assert pair.assistant_turn.status == TurnStatus.STREAMING
    assert pair.assistant_turn.user_turn_id == pair.user_turn.pk
    assert Turn.objects.filter(user=user).count() == 2


def test_strict_chat_scope_creates_a_chat_thread(user):
    chat = ChatFactory(user=user)
    pair = services.turn_begin(
        user=user, request=_request(scope=Scope(mode="strict_chat", chat_ids=(chat.pk,)))
    )
    assert (pair.thread.kind, pair.thread.chat_id) == (ThreadKind.CHAT, chat.pk)


def test_same_request_while_streaming_is_in_progress(user):
    request = _request()
    services.turn_begin(user=user, request=request)
    with pytest.raises(RequestInProgress):
        services.turn_begin(user=user, request=request)
    assert Turn.objects.filter(user=user).count() == 2


def test_same_request_after_completion_returns_the_stored_pair(user):
    request = _request()
    first = services.turn_begin(user=user, request=request)
    Turn.objects.filter(pk=first.assistant_turn.pk).update(status=TurnStatus.COMPLETED)
    again = services.turn_begin(user=user, request=request)
    assert again.is_new is False
    assert (again.user_turn.pk, again.assistant_turn.pk) == (
        first.user_turn.pk,
        first.assistant_turn.pk,
    )
    assert Turn.objects.filter(user=user).count() == 2


def test_different_payload_under_a_used_request_id_is_refused(user):
    request = _request()
    services.turn_begin(user=user, request=request)
    with pytest.raises(RequestIdReused):
        services.turn_begin(
            user=user, request=_request(request_id=request.request_id, question="Other?")
        )
    assert Turn.objects.filter(user=user).count() == 2


def test_request_ids_are_per_user(user, other_user):
    request = _request()
    services.turn_begin(user=user, request=request)
    pair = services.turn_begin(user=other_user, request=request)
    assert pair.is_new is True


def test_a_request_is_seen_only_by_its_sender_and_only_as_a_question(user, other_user):
    request = _request()
    assert selectors.request_is_seen(user=user, request_id=request.request_id) is False
    pair = services.turn_begin(user=user, request=request)
    assert selectors.request_is_seen(user=user, request_id=request.request_id) is True
    assert selectors.request_is_seen(user=other_user, request_id=request.request_id) is False
    assert selectors.request_is_seen(user=user, request_id=str(uuid.uuid4())) is False
    # The assistant turn carries no request id of its own.
    assert pair.assistant_turn.request_id == ""
    assert selectors.request_is_seen(user=user, request_id="") is False


def test_foreign_chat_in_scope_is_not_found_and_nothing_is_written(user, other_user):
    foreign = ChatFactory(user=other_user)
    own = ChatFactory(user=user)
    with pytest.raises(NotFound):
        services.turn_begin(
            user=user,
            request=_request(scope=Scope(mode="preferred", chat_ids=(own.pk, foreign.pk))),
        )
    assert Thread.objects.count() == 0
    assert Turn.objects.count() == 0


def test_foreign_thread_is_not_found(user, other_user):
    foreign = ThreadFactory(user=other_user)
    with pytest.raises(NotFound):
        services.turn_begin(user=user, request=_request(thread_id=foreign.pk))
    assert Turn.objects.count() == 0


def test_retry_of_a_failed_turn_continues_its_thread(user):
    failed = AssistantTurnFactory(user_turn__thread__user=user, status=TurnStatus.FAILED)
    pair = services.turn_begin(user=user, request=_request(retry_of_turn_id=failed.pk))
    assert pair.thread.pk == failed.thread_id
    assert pair.assistant_turn.retry_of_id == failed.pk


def test_retry_of_a_completed_turn_is_refused(user):
    completed = AssistantTurnFactory(user_turn__thread__user=user)
    with pytest.raises(TurnNotRetryable):
        services.turn_begin(user=user, request=_request(retry_of_turn_id=completed.pk))
    assert Turn.objects.filter(user=user).count() == 2


def test_retry_of_a_foreign_turn_is_not_found(user, other_user):
    foreign = AssistantTurnFactory(user_turn__thread__user=other_user, status=TurnStatus.FAILED)
    with pytest.raises(NotFound):
        services.turn_begin(user=user, request=_request(retry_of_turn_id=foreign.pk))
    assert Turn.objects.filter(user=user).count() == 0


def test_stale_streaming_turn_expires_so_its_request_replays_as_failed(user, settings):
    request = _request()
    pair = services.turn_begin(user=user, request=request)
    assert pair.assistant_turn.lease_expires_at > timezone.now()
    Turn.objects.filter(pk=pair.assistant_turn.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    again = services.turn_begin(user=user, request=request)
    assert again.is_new is False
    assert again.assistant_turn.status == TurnStatus.FAILED
    assert again.assistant_turn.error_code == "interrupted"


def _outcome(**changes):
    values = {
        "status": TurnStatus.COMPLETED,
        "text": "Dinner is Friday at 8 [S1].",
        "citations": [],
        "actions": [],
        "provider": "mock",
        "model": "mock-scripted",
        "finish_reason": "stop",
    }
    values.update(changes)
    return TurnOutcome(**values)


def test_finalize_stores_the_answer_and_titles_the_thread(user):
    pair = services.turn_begin(user=user, request=_request())
    before = pair.thread.last_activity_at
    calls = []
    finalized = services.turn_finalize(
        user=user,
        assistant_turn_id=pair.assistant_turn.pk,
        outcome=_outcome(),
        settle=lambda: calls.append("settled"),
    )
    assert finalized.was_finalized is True
    turn = Turn.objects.get(pk=pair.assistant_turn.pk)
    assert (turn.status, turn.text, turn.provider) == (
        TurnStatus.COMPLETED,
        "Dinner is Friday at 8 [S1].",
        "mock",
    )
    assert turn.finished_at is not None
    thread = Thread.objects.get(pk=pair.thread.pk)
    assert thread.title == "When is dinner with Ana?"
    assert thread.last_activity_at > before
    assert calls == ["settled"]


def test_finalize_rolls_back_when_settlement_fails(user):
    pair = services.turn_begin(user=user, request=_request())

    def failing_settle():
        raise RuntimeError("settlement failed")

    with pytest.raises(RuntimeError):
        services.turn_finalize(
            user=user,
            assistant_turn_id=pair.assistant_turn.pk,
            outcome=_outcome(),
            settle=failing_settle,
        )
    turn = Turn.objects.get(pk=pair.assistant_turn.pk)
    assert (turn.status, turn.text) == (TurnStatus.STREAMING, "")
    assert Thread.objects.get(pk=pair.thread.pk).title == ""


def test_finalize_leaves_an_ended_turn_alone(user):
    pair = services.turn_begin(user=user, request=_request())
    services.turn_finalize(
        user=user,
        assistant_turn_id=pair.assistant_turn.pk,
        outcome=_outcome(status=TurnStatus.CANCELLED, text="Dinner"),
    )
    calls = []
    finalized = services.turn_finalize(
        user=user,
        assistant_turn_id=pair.assistant_turn.pk,
        outcome=_outcome(),
        settle=lambda: calls.append("settled"),
    )
    assert finalized.was_finalized is False
    assert finalized.turn.status == TurnStatus.CANCELLED
    assert Turn.objects.get(pk=pair.assistant_turn.pk).text == "Dinner"
    assert calls == []


def test_thread_title_is_cut_at_a_word_boundary():
    title = services.thread_title_from("word " * 40)
    assert title.endswith("…")
    assert len(title) <= services.TITLE_MAX_LENGTH
    assert "wor…" not in title


@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_identical_requests_create_one_pair(user):
    request = _request()
    barrier = threading.Barrier(20)
    outcomes: list[str] = []
    lock = threading.Lock()

    def attempt():
        barrier.wait()
        try:
            pair = services.turn_begin(user=user, request=request)
            outcome = "new" if pair.is_new else "replay"
        except RequestInProgress:
            outcome = "in_progress"
        finally:
            connection.close()
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=attempt) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["in_progress"] * 19 + ["new"]
    assert Turn.objects.filter(user=user, role=TurnRole.USER).count() == 1
    assert Turn.objects.filter(user=user, role=TurnRole.ASSISTANT).count() == 1
    assert Thread.objects.filter(user=user).count() == 1
