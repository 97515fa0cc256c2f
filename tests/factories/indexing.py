"""Factories for index versions, per-message index entries, progress rows and jobs."""

from __future__ import annotations

import factory
from factory.django import DjangoModelFactory

from indexing.models import IndexJob, IndexProgress, IndexVersion, MessageEmbedding
from tests.factories.conversations import MessageFactory, UserFactory


class IndexVersionFactory(DjangoModelFactory[IndexVersion]):
    class Meta:
        model = IndexVersion

    version = factory.Sequence(lambda n: 1000 + n)
    provider = "local"
    model = "minilm"
    dimensions = 384


class MessageEmbeddingFactory(DjangoModelFactory[MessageEmbedding]):
    """A pending entry; pass ``state="embedded"`` with an ``embedding`` for an embedded one."""

    class Meta:
        model = MessageEmbedding

    message = factory.SubFactory(MessageFactory)
    user = factory.SelfAttribute("message.user")
    chat = factory.SelfAttribute("message.chat")
    sent_at = factory.SelfAttribute("message.sent_at")
    index_version = factory.SubFactory(IndexVersionFactory)
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
