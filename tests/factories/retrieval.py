"""Factories for stored evidence packs and their sources."""

from __future__ import annotations

import factory
from factory.django import DjangoModelFactory

from conversations.models import Platform
from retrieval.models import EvidencePackRecord, EvidenceSourceRecord
from tests.factories._times import minutes_after_anchor
from tests.factories.conversations import UserFactory


class EvidencePackRecordFactory(DjangoModelFactory[EvidencePackRecord]):
    class Meta:
        model = EvidencePackRecord

    user = factory.SubFactory(UserFactory)
    route = "search"
    source_count = 1
    token_estimate = 120


class EvidenceSourceRecordFactory(DjangoModelFactory[EvidenceSourceRecord]):
    class Meta:
        model = EvidenceSourceRecord

    pack = factory.SubFactory(EvidencePackRecordFactory)
    user = factory.SelfAttribute("pack.user")
    source_id = factory.Sequence(lambda n: f"S{n + 1}")
    position = factory.Sequence(lambda n: n % 100)
    primary_message_id = factory.Sequence(lambda n: 1 + n)
    message_ids = factory.LazyAttribute(lambda source: [source.primary_message_id])
    chat_id = 1
    chat_title = "Book club"
    platform = Platform.WHATSAPP
    sender_name = factory.Faker("first_name")
    sent_at = factory.Sequence(minutes_after_anchor)
