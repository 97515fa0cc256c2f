"""Factories for the indexing models."""

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
from tests.factories import MessageFactory, UserFactory


class IndexVersionFactory(DjangoModelFactory):
    class Meta:
        model = IndexVersion

    version = factory.Sequence(lambda n: n + 1)
    profile = "embed"
    provider = "local"
    model = "hash-embed-384"
    dimensions = 384
    state = IndexVersionState.BUILDING


class MessageEmbeddingFactory(DjangoModelFactory):
    class Meta:
        model = MessageEmbedding

    message = factory.SubFactory(MessageFactory)
    user = factory.SelfAttribute("message.user")
    chat = factory.SelfAttribute("message.chat")
    sent_at = factory.SelfAttribute("message.sent_at")
    index_version = factory.SubFactory(IndexVersionFactory)
    state = EntryState.PENDING
    content_hash = factory.SelfAttribute("message.content_hash")


class IndexProgressFactory(DjangoModelFactory):
    class Meta:
        model = IndexProgress

    user = factory.SubFactory(UserFactory)
    index_version = factory.SubFactory(IndexVersionFactory)


class IndexJobFactory(DjangoModelFactory):
    class Meta:
        model = IndexJob

    user = factory.SubFactory(UserFactory)
    index_version = factory.SubFactory(IndexVersionFactory)
