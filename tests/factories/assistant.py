"""Factories for threads and their turns: a user turn (the question) and the assistant turn
that answers it."""

from __future__ import annotations

import factory
from factory.django import DjangoModelFactory

from assistant.models import Thread, ThreadKind, Turn, TurnRole, TurnStatus
from tests.factories.conversations import UserFactory


class ThreadFactory(DjangoModelFactory[Thread]):
    class Meta:
        model = Thread

    user = factory.SubFactory(UserFactory)
    title = "Weekend plans"
    kind = ThreadKind.GLOBAL


class UserTurnFactory(DjangoModelFactory[Turn]):
    class Meta:
        model = Turn

    thread = factory.SubFactory(ThreadFactory)
    user = factory.SelfAttribute("thread.user")
    role = TurnRole.USER
    request_id = factory.Sequence(lambda n: f"request-{n}")
    request_hash = factory.Sequence(lambda n: f"{n:064x}")
    status = TurnStatus.COMPLETED
    text = "What are my plans this weekend?"


class AssistantTurnFactory(DjangoModelFactory[Turn]):
    class Meta:
        model = Turn

    user_turn = factory.SubFactory(UserTurnFactory)
    thread = factory.SelfAttribute("user_turn.thread")
    user = factory.SelfAttribute("user_turn.user")
    role = TurnRole.ASSISTANT
    status = TurnStatus.COMPLETED
    route = "search"
    text = "Nothing is planned for this weekend."
