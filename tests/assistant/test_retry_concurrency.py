"""Concurrent retries of one answer start one generation and charge once."""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest
from channels.testing import HttpCommunicator

from assistant.models import Turn, TurnRole, TurnStatus
from billing.models import Reservation, UsageEvent
from tests.assistant.conftest import MESSAGES_PATH, ask, token_for
from tests.factories import AssistantTurnFactory

pytestmark = pytest.mark.django_db(transaction=True)

QUESTION = "When is the dinner with Ana?"


def _failed_turn(user):
    answer = AssistantTurnFactory(
        user_turn__thread__user=user, status=TurnStatus.FAILED, error_code="x"
    )
    answer.user_turn.text = QUESTION
    answer.user_turn.save(update_fields=["text"])
    return answer


async def _retry_all(token: str, turn_id: int, count: int) -> list[tuple[int, bytes]]:
    from claire.asgi import application

    async def one() -> tuple[int, bytes]:
        body = json.dumps(
            {
                "requestId": str(uuid.uuid4()),
                "question": QUESTION,
                "scope": {"mode": "global"},
                "retryOfTurnId": str(turn_id),
            }
        ).encode()
        headers = [
            (b"authorization", f"Token {token}".encode()),
            (b"accept", b"application/json"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        communicator = HttpCommunicator(application, "POST", MESSAGES_PATH, body, headers)
        response = await communicator.get_response(timeout=30)
        return response["status"], response["body"]

    return await asyncio.gather(*(one() for _ in range(count)))


def test_ten_concurrent_retries_start_one_generation_and_charge_once(
    user, dinner_chat, answer_models
):
    model = answer_models.script(deltas=("Friday ", "at 8 [S1]."), delta_delay_s=0.3)
    failed = _failed_turn(user)
    replies = asyncio.run(_retry_all(token_for(user), failed.pk, 10))

    statuses = sorted(status for status, _ in replies)
    assert statuses == [200] + [409] * 9
    retries = Turn.objects.filter(retry_of=failed, role=TurnRole.ASSISTANT)
    [retry] = list(retries)
    assert retry.status == TurnStatus.COMPLETED
    assert model.call_count == 1
    assert Reservation.objects.filter(user=user).count() == 1
    assert UsageEvent.objects.filter(user=user).count() == 1
    refusals = [json.loads(body)["error"] for status, body in replies if status == 409]
    assert {refusal["code"] for refusal in refusals} <= {
        "retry_in_progress",
        "turn_already_retried",
    }
    assert {refusal["details"]["turnId"] for refusal in refusals} == {str(retry.pk)}
    # The refused requests wrote nothing: one user turn per answer.
    assert Turn.objects.filter(user=user, role=TurnRole.USER).count() == 2


def test_a_failed_retry_leaves_the_turn_retryable(user, dinner_chat, answer_models):
    failed = _failed_turn(user)
    AssistantTurnFactory(user_turn__thread=failed.thread, retry_of=failed, status=TurnStatus.FAILED)
    body = {
        "requestId": str(uuid.uuid4()),
        "question": QUESTION,
        "scope": {"mode": "global"},
        "retryOfTurnId": str(failed.pk),
    }
    answer_models.script(deltas=("Friday at 8 [S1].",))
    second = ask(user, body={**body, "requestId": str(uuid.uuid4())}, accept="application/json")
    assert second.status == 200, second.body
    statuses = sorted(Turn.objects.filter(retry_of=failed).values_list("status", flat=True))
    assert statuses == [TurnStatus.COMPLETED, TurnStatus.FAILED]

    third = ask(user, body={**body, "requestId": str(uuid.uuid4())}, accept="application/json")
    assert third.status == 409
    assert third.json()["error"]["code"] == "turn_already_retried"
