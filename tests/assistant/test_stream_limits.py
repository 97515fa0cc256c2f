"""Per-user limits on the ask endpoint: the rate limit and the cap on live streams."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from assistant.models import Turn, TurnRole, TurnStatus
from tests.assistant.conftest import ask
from tests.claire.test_abuse_limits import _assert_429, _limited
from tests.factories import AssistantTurnFactory, UserFactory


@pytest.mark.django_db(transaction=True)
def test_ask_past_the_rate_limit_is_429_and_writes_nothing(
    user, dinner_chat, answer_models, settings
):
    _limited(settings, "ask", "2/3600")
    answer_models.script(deltas=("Friday at 8 [S1].",))
    assert [ask(user, accept="application/json").status for _ in range(2)] == [200, 200]
    turns = Turn.objects.filter(user=user).count()
    reply = ask(user, accept="application/json")
    _assert_429(reply.status, reply.headers, reply.json())
    assert Turn.objects.filter(user=user).count() == turns
    # Another user has a budget of their own.
    assert ask(UserFactory(), accept="application/json").status == 200


@pytest.mark.django_db(transaction=True)
def test_the_stream_cap_refuses_one_more_live_stream(user, dinner_chat, answer_models, settings):
    settings.ASSISTANT_MAX_CONCURRENT_STREAMS = 2
    answer_models.script(deltas=("Friday at 8 [S1].",))
    live = {"status": TurnStatus.STREAMING, "lease_expires_at": timezone.now() + timedelta(60)}
    for _ in range(2):
        AssistantTurnFactory(user_turn__thread__user=user, **live)
    # A stream whose lease passed belongs to a dead process: it does not count.
    AssistantTurnFactory(
        user_turn__thread__user=user,
        status=TurnStatus.STREAMING,
        lease_expires_at=timezone.now() - timedelta(seconds=1),
    )
    turns = Turn.objects.filter(user=user).count()

    reply = ask(user, accept="application/json")

    assert reply.status == 429
    assert reply.headers["retry-after"] == "2"
    assert reply.json()["error"]["code"] == "too_many_streams"
    assert Turn.objects.filter(user=user).count() == turns
    Turn.objects.filter(user=user, role=TurnRole.ASSISTANT, status=TurnStatus.STREAMING).update(
        status=TurnStatus.CANCELLED
    )
    assert ask(user, accept="application/json").status == 200
