"""The answer lifecycle through the real ASGI application, both transports."""

import pytest

from assistant.models import Thread, Turn, TurnStatus
from billing.models import UsageEvent
from tests.assistant.conftest import ask

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
    thread_ids = chunks[2]["data"]
    turn = Turn.objects.get(pk=int(thread_ids["assistantTurnId"]))
    assert turn.status == TurnStatus.COMPLETED
    assert turn.text == text
    assert [c["id"] for c in turn.citations] == ["S1"]
    assert turn.removed_citation_count == 1
    assert Thread.objects.get(pk=int(thread_ids["threadId"])).user_id == user.pk
    event = UsageEvent.objects.get(user=user)
    assert event.ending == "completed"
