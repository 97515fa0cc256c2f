"""An action request's memory context: the open threads with the recipient, and what the
user's open promise answers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from conversations.models import Chat
from memory import services
from memory.evidence import MemorySource, memory_message_ids
from retrieval.compile import compile_question
from retrieval.types import Scope
from tests.memory.helpers import chat_of, ingest, message_row, say

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 5, 4, 18, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=3)


def _refresh(user) -> None:
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def test_a_promise_brings_the_message_it_answers(user):
    ingest(
        user,
        chat_of("dm-tomasz", "Tomasz Wierzba"),
        say("t0", T0 - timedelta(days=2), "see you at the wall", sender="Tomasz Wierzba"),
        say("t1", T0, "you forgot your card again, I paid the day pass", sender="Tomasz Wierzba"),
        say("t2", T0 + timedelta(minutes=5), "oops sorry! I'll pay you back on Saturday"),
    )
    _refresh(user)
    compiled = compile_question(
        user=user,
        question="text Tomasz that I'm paying him back for the day pass",
        now=NOW,
        scope=Scope.everywhere(),
    )
    hits = memory_message_ids(user=user, compiled=compiled, now=NOW)
    assert hits is not None and hits.source == MemorySource.OPEN_LOOPS
    assert set(hits.message_ids) == {
        message_row(user, "dm-tomasz", "t2").pk,
        message_row(user, "dm-tomasz", "t1").pk,
    }


def test_a_message_long_before_the_promise_is_not_what_it_answers(user):
    ingest(
        user,
        chat_of("dm-tomasz", "Tomasz Wierzba"),
        say("t1", T0 - timedelta(days=1), "nice climbing today", sender="Tomasz Wierzba"),
        say("t2", T0, "I'll send you the photos tomorrow"),
    )
    _refresh(user)
    compiled = compile_question(
        user=user, question="write to Tomasz about the photos", now=NOW, scope=Scope.everywhere()
    )
    hits = memory_message_ids(user=user, compiled=compiled, now=NOW)
    assert hits is not None
    assert hits.message_ids == (message_row(user, "dm-tomasz", "t2").pk,)
