"""Factories for threads and turns (an answered question is a user turn plus its answer)."""

from __future__ import annotations

import uuid

import factory
from factory.django import DjangoModelFactory

from assistant.models import Thread, ThreadKind, Turn, TurnRole, TurnStatus
from tests.factories.conversations import UserFactory


class ThreadFactory(DjangoModelFactory[Thread]):
    class Meta:
        model = Thread

    user = factory.SubFactory(UserFactory)
    title = factory.Sequence(lambda n: f"Thread {n}")
    kind = ThreadKind.GLOBAL


class UserTurnFactory(DjangoModelFactory[Turn]):
    class Meta:
        model = Turn

    thread = factory.SubFactory(ThreadFactory)
    user = factory.SelfAttribute("thread.user")
    role = TurnRole.USER
    request_id = factory.LazyFunction(lambda: str(uuid.uuid4()))
    request_hash = factory.Sequence(lambda n: f"{n:064x}")
    status = TurnStatus.COMPLETED
    text = factory.Faker("sentence")
    scope = factory.LazyFunction(lambda: {"mode": "global"})


class AssistantTurnFactory(DjangoModelFactory[Turn]):
    class Meta:
        model = Turn

    user_turn = factory.SubFactory(UserTurnFactory)
    thread = factory.SelfAttribute("user_turn.thread")
    user = factory.SelfAttribute("user_turn.user")
    role = TurnRole.ASSISTANT
    status = TurnStatus.COMPLETED
    text = factory.Faker("paragraph")
    scope = factory.LazyFunction(lambda: {"mode": "global"})
