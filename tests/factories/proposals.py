"""Factories for plugins, capabilities, grants, proposals, receipts and the outbox."""

from __future__ import annotations

import datetime as dt
from typing import Any

import factory
from factory.django import DjangoModelFactory

from proposals.hashing import intent_key, payload_hash
from proposals.models import (
    Capability,
    CapabilityGrant,
    CapabilityKind,
    OutboxMessage,
    Plugin,
    Proposal,
    Receipt,
)
from tests.factories._times import ANCHOR
from tests.factories.conversations import ChatFactory, PersonFactory, UserFactory


class PluginFactory(DjangoModelFactory[Plugin]):
    class Meta:
        model = Plugin

    key = factory.Sequence(lambda n: f"plugin-{n}")
    name = factory.Sequence(lambda n: f"Plugin {n}")


class CapabilityFactory(DjangoModelFactory[Capability]):
    """A propose capability (approval required, as the database insists for actions)."""

    class Meta:
        model = Capability

    plugin = factory.SubFactory(PluginFactory)
    key = factory.Sequence(lambda n: f"capability_{n}")
    kind = CapabilityKind.PROPOSE
    label = "Draft a message"
    description = "Writes a draft for the user to approve."


class CapabilityGrantFactory(DjangoModelFactory[CapabilityGrant]):
    class Meta:
        model = CapabilityGrant

    user = factory.SubFactory(UserFactory)
    capability = factory.SubFactory(CapabilityFactory)


class ProposalFactory(DjangoModelFactory[Proposal]):
    """A proposed draft to a direct chat, its payload hash bound to its id and revision the
    way the proposals service binds it, so approval verifies it."""

    class Meta:
        model = Proposal
        skip_postgeneration_save = True

    user = factory.SubFactory(UserFactory)
    capability = factory.SubFactory(CapabilityFactory)
    request_id = factory.Sequence(lambda n: f"request-{n}")
    destination_chat = factory.SubFactory(ChatFactory, user=factory.SelfAttribute("..user"))
    destination_person = factory.SubFactory(PersonFactory, user=factory.SelfAttribute("..user"))
    intent_key = factory.LazyAttributeSequence(
        lambda proposal, n: intent_key(
            user_id=proposal.user.pk,
            capability_key=proposal.capability.key,
            person_id=proposal.destination_person.pk if proposal.destination_person else None,
            question=f"draft a reply number {n}",
        )
    )
    payload = factory.LazyAttribute(lambda proposal: {"text": "Hi! Saturday works for me."})
    payload_hash = "unbound"
    draft_source = "local drafter"
    expires_at = ANCHOR + dt.timedelta(days=1)

    @factory.post_generation
    def bind_hash(proposal: Proposal, create: bool, extracted: Any, **kwargs: Any) -> None:
        proposal.payload_hash = payload_hash(
            proposal_id=proposal.pk or 0,
            revision=proposal.revision,
            capability_key=proposal.capability.key,
            payload=proposal.payload,
        )
        if create:
            proposal.save(update_fields=["payload_hash"])


class ReceiptFactory(DjangoModelFactory[Receipt]):
    class Meta:
        model = Receipt

    proposal = factory.SubFactory(ProposalFactory)
    user = factory.SelfAttribute("proposal.user")
    payload_hash = factory.SelfAttribute("proposal.payload_hash")
    idempotency_key = factory.LazyAttribute(
        lambda receipt: f"{receipt.proposal.pk}:{receipt.payload_hash}"
    )


class OutboxMessageFactory(DjangoModelFactory[OutboxMessage]):
    class Meta:
        model = OutboxMessage

    receipt = factory.SubFactory(ReceiptFactory)
    user = factory.SelfAttribute("receipt.user")
    chat = factory.SelfAttribute("receipt.proposal.destination_chat")
    platform = factory.SelfAttribute("chat.platform")
    platform_chat_id = factory.SelfAttribute("chat.platform_chat_id")
    text = factory.LazyAttribute(lambda outbox: outbox.receipt.proposal.payload["text"])
