"""Factories for index versions, per-message index entries, progress rows and jobs."""

from __future__ import annotations

import factory
from factory.django import DjangoModelFactory

from indexing.models import (
    EntryState,
    IndexJob,
    IndexProgress,
    IndexVersion,
    IndexVersionState,
    MessageEmbedding,
)
from tests.factories.conversations import MessageFactory, UserFactory


class IndexVersionFactory(DjangoModelFactory[IndexVersion]):
    class Meta:
        model = IndexVersion

    version = factory.Sequence(lambda n: n + 1)
    profile = "embed"
    provider = "local"
    model = "hash-embed-384"
    dimensions = 384
    state = IndexVersionState.BUILDING


class MessageEmbeddingFactory(DjangoModelFactory[MessageEmbedding]):
    class Meta:
        model = MessageEmbedding

    message = factory.SubFactory(MessageFactory)
    user = factory.SelfAttribute("message.user")
    chat = factory.SelfAttribute("message.chat")
    sent_at = factory.SelfAttribute("message.sent_at")
    index_version = factory.SubFactory(IndexVersionFactory)
    state = EntryState.PENDING
    content_hash = factory.SelfAttribute("message.content_hash")


class IndexProgressFactory(DjangoModelFactory[IndexProgress]):
    class Meta:
        model = IndexProgress

    user = factory.SubFactory(UserFactory)
    index_version = factory.SubFactory(IndexVersionFactory)


class IndexJobFactory(DjangoModelFactory[IndexJob]):
    class Meta:
        model = IndexJob

    user = factory.SubFactory(UserFactory)
    index_version = factory.SubFactory(IndexVersionFactory)
