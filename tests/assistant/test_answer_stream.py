"""The answer lifecycle through the real ASGI application, both transports."""

import pytest

from assistant.models import Thread, Turn, TurnStatus
from billing.models import UsageEvent
from tests.assistant.conftest import ask, token_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_stream_runs_the_whole_lifecycle_in_order(user, dinner_chat, answer_models):
    chat, message = dinner_chat
    answer_models.script(deltas=("Dinner is on ", "Friday at 8 [S1]", " [S7]."))
    reply = ask(user)
    assert reply.status == 200
    assert reply.headers["content-type"] == "text/event-stream; charset=utf-8"
    assert reply.headers["x-vercel-ai-ui-message-stream"] == "v1"
    assert reply.headers["x-accel-buffering"] == "no"
    assert "content-encoding" not in reply.headers
    assert "connection" not in reply.headers
    chunks = reply.chunks
    types = [chunk["type"] for chunk in chunks]
    assert types[:4] == ["start", "data-status", "data-thread", "data-sources"]
    assert types[-3:] == ["data-status", "data-finish", "finish"]
    phases = [c["data"]["phase"] for c in chunks if c["type"] == "data-status"]
    assert phases == ["retrieving", "answering", "saving"]
    text = "".join(c["delta"] for c in chunks if c["type"] == "text-delta")
    assert text == "Dinner is on Friday at 8 [S1]."
    sources = chunks[3]["data"]
    assert sources["citations"][0]["id"] == "S1"
    assert sources["citations"][0]["messageId"] == str(message.pk)
    assert sources["citations"][0]["navigation"]["url"] == f"/chats/{chat.pk}/?message={message.pk}"
    assert "indexStatus" in sources
    finish = chunks[-2]["data"]
    assert finish["finishReason"] == "stop"
    assert finish["provider"] == "mock"
    assert finish["citedSourceIds"] == ["S1"]
    assert finish["removedCitationCount"] == 1
    assert finish["thread"]["title"] == "When is the dinner with Ana?"
    assert finish["actions"][0] == {
        "type": "open_conversation",
        "label": "Open Weekend plans",
        "sourceId": "S1",
        "target": sources["citations"][0]["navigation"],
    }
    assert [(a["type"], a["label"]) for a in finish["actions"][1:]] == [
        ("open_calendar", "Open calendar")
    ]
    thread_ids = chunks[2]["data"]
    turn = Turn.objects.get(pk=int(thread_ids["assistantTurnId"]))
    assert turn.status == TurnStatus.COMPLETED
    assert turn.text == text
    assert [c["id"] for c in turn.citations] == ["S1"]
    assert turn.removed_citation_count == 1
    assert Thread.objects.get(pk=int(thread_ids["threadId"])).user_id == user.pk
    event = UsageEvent.objects.get(user=user)
    assert event.ending == "completed"


def _text(chunks):
    return "".join(c["delta"] for c in chunks if c["type"] == "text-delta")


def _data(chunks, kind):
    return next(c["data"] for c in chunks if c["type"] == kind)


def test_json_and_stream_answer_alike_for_the_same_script(user, dinner_chat, answer_models):
    answer_models.script(deltas=("Dinner is on ", "Friday at 8 [S1]", " [S7]."))
    streamed = ask(user).chunks
    legacy = ask(user, accept="application/json")
    assert legacy.status == 200
    body = legacy.json()
    assert body["answer"] == _text(streamed)
    finish = _data(streamed, "data-finish")
    assert body["citations"] == [
        c
        for c in _data(streamed, "data-sources")["citations"]
        if c["id"] in finish["citedSourceIds"]
    ]
    for key in ("finishReason", "provider", "model", "citedSourceIds", "actions", "status"):
        assert body[key] == finish[key]
    assert body["indexStatus"] == _data(streamed, "data-sources")["indexStatus"]
    assert body["thread"]["title"] == finish["thread"]["title"]
    assert set(body) >= {"threadId", "userTurnId", "assistantTurnId"}


def test_completed_request_replays_on_both_transports(user, dinner_chat, answer_models):
    model = answer_models.script(deltas=("Friday at 8 [S1].",))
    first = ask(user, request_id="6f1c1f0e-6f53-4a57-9d86-2f7a2b0c9d11").chunks
    again = ask(user, request_id="6f1c1f0e-6f53-4a57-9d86-2f7a2b0c9d11").chunks
    legacy = ask(
        user, request_id="6f1c1f0e-6f53-4a57-9d86-2f7a2b0c9d11", accept="application/json"
    ).json()
    assert model.call_count == 1
    assert Turn.objects.filter(user=user).count() == 2
    assert _text(again) == _text(first) == legacy["answer"] == "Friday at 8 [S1]."
    assert _data(again, "data-thread") == _data(first, "data-thread")
    assert _data(again, "data-finish")["citedSourceIds"] == ["S1"]
    # The stream that settled the answer reports its cost; a replay settles nothing.
    assert _data(first, "data-finish")["costMicroUsd"] == 0
    assert "costMicroUsd" not in _data(again, "data-finish")
    assert legacy["assistantTurnId"] == _data(first, "data-thread")["assistantTurnId"]


def test_in_flight_request_is_409_and_reused_id_is_422(user, dinner_chat, answer_models):
    from assistant import services
    from assistant.types import AskRequest, Scope

    request_id = "0b9b1c55-6e7d-4c58-9a57-5a0c3a9d2e10"
    services.turn_begin(
        user=user,
        request=AskRequest(
            request_id=request_id, question="When is the dinner with Ana?", scope=Scope("global")
        ),
    )
    in_flight = ask(user, request_id=request_id)
    assert in_flight.status == 409
    assert in_flight.json()["error"]["code"] == "request_in_progress"
    reused = ask(user, request_id=request_id, question="Something else?")
    assert reused.status == 422
    assert reused.json()["error"]["code"] == "request_id_reused"
    assert Turn.objects.filter(user=user).count() == 2


def test_no_evidence_answers_deterministically_without_tokens(user, dinner_chat, answer_models):
    model = answer_models.script(deltas=("never used",))
    chunks = ask(user, question="What did Bruno say about the zeppelin?").chunks
    assert model.call_count == 0
    assert _data(chunks, "data-sources")["citations"] == []
    text = _text(chunks)
    assert text.startswith("I couldn't find anything about this in all your chats")
    assert "**Searched:** all your chats" in text
    finish = _data(chunks, "data-finish")
    assert (finish["finishReason"], finish["provider"], finish["citedSourceIds"]) == (
        "stop",
        "",
        [],
    )
    phases = [c["data"]["phase"] for c in chunks if c["type"] == "data-status"]
    assert phases == ["retrieving", "saving"]
    event = UsageEvent.objects.get(user=user)
    assert event.ending == "no_call"
    assert (event.input_tokens, event.output_tokens, event.settled_micro_usd) == (0, 0, 0)


def test_an_account_with_nothing_imported_is_told_to_import_first(user, answer_models):
    # A plan question: with messages it would offer "Open calendar".
    model = answer_models.script(deltas=("never used",))
    chunks = ask(user, question="When is the dinner with Ana on Friday?").chunks

    assert model.call_count == 0
    assert _data(chunks, "data-sources")["citations"] == []
    text = _text(chunks)
    assert text.startswith("There are no messages in your account yet")
    assert "Import your messages first" in text
    assert "Try other words" not in text
    finish = _data(chunks, "data-finish")
    assert (finish["finishReason"], finish["provider"], finish["actions"]) == ("stop", "", [])
    event = UsageEvent.objects.get(user=user)
    assert event.ending == "no_call"
    assert (
        event.input_tokens,
        event.output_tokens,
        event.embedding_tokens,
        event.settled_micro_usd,
    ) == (0, 0, 0, 0)
    turn = Turn.objects.get(user=user, role="assistant")
    assert (turn.route, turn.actions) == ("no_evidence", [])


def test_the_streamed_answer_accepts_a_bearer_token(user, dinner_chat, answer_models):
    answer_models.script(deltas=("Friday at 8 [S1].",))
    headers = [
        (b"authorization", f"Bearer {token_for(user)}".encode()),
        (b"accept", b"text/event-stream"),
        (b"content-type", b"application/json"),
    ]
    reply = ask(user, headers=headers)

    assert reply.status == 200
    assert _text(reply.chunks) == "Friday at 8 [S1]."


def test_failure_before_first_delta_fails_over_to_the_next_model(user, dinner_chat, answer_models):
    from claire.ai.types import ErrorCode

    failing = answer_models.script(fail_before_first=ErrorCode.PROVIDER_UNAVAILABLE)
    chunks = ask(user).chunks
    assert failing.stream_outcomes == ["failed"]
    finish = _data(chunks, "data-finish")
    assert (finish["provider"], finish["model"]) == ("local", "extractive-answerer-v1")
    assert "[S1]" in _text(chunks)
    assert not [c for c in chunks if c["type"] in ("error", "data-error")]


def test_after_a_failover_the_answering_model_is_charged(user, dinner_chat, answer_models):
    from billing.models import Reservation
    from claire.ai.types import ErrorCode
    from tests.factories import PriceBookEntryFactory, PriceBookFactory

    book = PriceBookFactory()
    # The first candidate is the dearer one: the hold covers it, the answer costs less.
    PriceBookEntryFactory(
        price_book=book,
        provider="local",
        model="mock",
        input_micro_usd_per_million=5_000_000,
        output_micro_usd_per_million=20_000_000,
    )
    PriceBookEntryFactory(
        price_book=book,
        provider="local",
        model="extractive",
        input_micro_usd_per_million=1_000_000,
        output_micro_usd_per_million=2_000_000,
    )
    answer_models.script(fail_before_first=ErrorCode.PROVIDER_UNAVAILABLE)

    chunks = ask(user).chunks

    assert _data(chunks, "data-finish")["model"] == "extractive-answerer-v1"
    event = UsageEvent.objects.get(user=user)
    reservation = Reservation.objects.get(user=user)
    assert (reservation.provider, reservation.model) == ("local", "mock")
    assert (event.provider, event.model) == ("local", "extractive")
    assert event.price_book_version == book.version
    assert event.input_tokens > 0 and event.output_tokens > 0
    # 1 and 2 USD per million tokens: one and two micro-USD per token.
    assert event.settled_micro_usd == event.input_tokens + 2 * event.output_tokens
    assert _data(chunks, "data-finish")["costMicroUsd"] == event.settled_micro_usd
    assert event.estimated_micro_usd > event.settled_micro_usd


def test_mid_stream_failure_keeps_the_partial_answer_and_offers_a_retry(
    user, dinner_chat, answer_models
):
    answer_models.script(deltas=("Dinner is ", "on Friday [S1]", " at 8."), fail_after_deltas=2)
    chunks = ask(user).chunks
    types = [c["type"] for c in chunks]
    assert types[-3:] == ["text-end", "data-error", "error"]
    error = _data(chunks, "data-error")
    assert error == {"code": "stream_interrupted", "retryable": True, "status": "partial"}
    assert "finish" not in types
    failed_id = int(_data(chunks, "data-thread")["assistantTurnId"])
    failed = Turn.objects.get(pk=failed_id)
    assert (failed.status, failed.text, failed.error_code) == (
        TurnStatus.PARTIAL,
        "Dinner is on Friday [S1]",
        "stream_interrupted",
    )

    answer_models.script(deltas=("Friday at 8 [S1].",))
    retry_body = {
        "requestId": "3d3f5a43-3f57-4d7c-8f55-1c0d5e0c4b21",
        "question": "When is the dinner with Ana?",
        "scope": {"mode": "global"},
        "retryOfTurnId": str(failed_id),
    }
    retried = ask(user, body=retry_body).chunks
    again = ask(user, body=retry_body).chunks
    retry_turn = Turn.objects.get(pk=int(_data(retried, "data-thread")["assistantTurnId"]))
    assert retry_turn.retry_of_id == failed_id
    assert retry_turn.thread_id == failed.thread_id
    assert _data(again, "data-thread") == _data(retried, "data-thread")
    assert Turn.objects.filter(user=user).count() == 4


def test_foreign_chat_scope_is_404_and_nothing_is_persisted(user, other_user, answer_models):
    from tests.factories import ChatFactory

    foreign = ChatFactory(user=other_user)
    reply = ask(
        user,
        body={
            "requestId": "9d7a5e0e-0f0b-4d0c-b9b4-3c8b8f1f2a33",
            "question": "What happened?",
            "scope": {"mode": "strict_chat", "chatId": str(foreign.pk)},
        },
    )
    assert reply.status == 404
    assert reply.json()["error"]["code"] == "not_found"
    assert Turn.objects.count() == 0
    assert Thread.objects.count() == 0


def test_unauthenticated_and_unacceptable_requests_write_nothing(user, answer_models):
    anonymous = ask(user, headers=[(b"accept", b"text/event-stream")])
    assert anonymous.status == 401
    assert anonymous.json()["error"]["code"] == "not_authenticated"
    for accept in ("text/html", "*/*", ""):
        refused = ask(user, accept=accept)
        assert refused.status == 406
        assert refused.json()["error"]["code"] == "not_acceptable"
    assert Turn.objects.count() == 0


def test_session_auth_needs_the_csrf_header(user, dinner_chat, answer_models, client):
    answer_models.script(deltas=("Friday [S1].",))
    client.force_login(user)
    session_cookie = f"sessionid={client.cookies['sessionid'].value}"
    secret = "a" * 32
    without = ask(
        user,
        headers=[
            (b"accept", b"text/event-stream"),
            (b"content-type", b"application/json"),
            (b"cookie", session_cookie.encode()),
        ],
    )
    assert without.status == 403
    assert Turn.objects.count() == 0
    with_csrf = ask(
        user,
        headers=[
            (b"accept", b"text/event-stream"),
            (b"content-type", b"application/json"),
            (b"cookie", f"{session_cookie}; csrftoken={secret}".encode()),
            (b"x-csrftoken", secret.encode()),
        ],
    )
    assert with_csrf.status == 200
    assert _text(with_csrf.chunks) == "Friday [S1]."


def test_failure_while_saving_ends_the_stream_with_a_safe_error(
    user, dinner_chat, answer_models, monkeypatch
):
    from django.db import OperationalError

    from assistant import services

    original = services.turn_finalize

    def finalize_failing_once(**kwargs):
        if kwargs["outcome"].status == TurnStatus.COMPLETED:
            raise OperationalError("connection lost (details must not reach the client)")
        return original(**kwargs)

    monkeypatch.setattr(services, "turn_finalize", finalize_failing_once)
    answer_models.script(deltas=("Friday [S1].",))
    reply = ask(user)
    chunks = reply.chunks
    assert [c["type"] for c in chunks][-2:] == ["data-error", "error"]
    assert _data(chunks, "data-error") == {
        "code": "internal_error",
        "retryable": True,
        "status": "partial",
    }
    assert chunks[-1]["errorText"] == "Something went wrong while answering. Please try again."
    assert b"connection lost" not in reply.body
    turn = Turn.objects.get(pk=int(_data(chunks, "data-thread")["assistantTurnId"]))
    assert (turn.status, turn.error_code, turn.text) == (
        TurnStatus.PARTIAL,
        "internal_error",
        "Friday [S1].",
    )


def test_a_crash_inside_the_model_call_ends_the_answer_instead_of_hanging_it(
    user, dinner_chat, answer_models, monkeypatch
):
    """A bug or a lost connection inside the model call (not a provider failure, which the
    runtime reports as an event) still ends the stream with a safe error and frees the
    budget reservation; the client is never left waiting."""
    from billing.models import Reservation, ReservationState
    from claire.ai import generate as generate_module

    def routing_crashes(**kwargs):
        raise RuntimeError("routing table unreadable (details must not reach the client)")

    monkeypatch.setattr(generate_module, "eligible_candidates", routing_crashes)
    answer_models.script(deltas=("Friday [S1].",))
    reply = ask(user)
    chunks = reply.chunks
    assert [c["type"] for c in chunks][-2:] == ["data-error", "error"]
    assert _data(chunks, "data-error")["code"] == "internal_error"
    assert b"routing table" not in reply.body
    turn = Turn.objects.get(pk=int(_data(chunks, "data-thread")["assistantTurnId"]))
    assert (turn.status, turn.error_code) == (TurnStatus.FAILED, "internal_error")
    reservations = Reservation.objects.filter(user=user)
    assert [r.state for r in reservations] != []
    assert ReservationState.OPEN not in [r.state for r in reservations]
