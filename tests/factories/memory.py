"""Factories for personal memory: day counters, plans and their steps, loops, facts and their
sources, merges, rejections, per-message claims, model refinements and the memory job."""

from __future__ import annotations

import factory
from factory.django import DjangoModelFactory

from memory.models import (
    FactKind,
    FactRefinement,
    Loop,
    LoopKind,
    MemoryJob,
    MemoryPolicy,
    MessageClaim,
    MessageClaimSource,
    PersonChatDay,
    PersonFact,
    PersonFactRejection,
    PersonFactSource,
    PersonMerge,
    Plan,
    PlanStatus,
    PlanStep,
    RefinedFactClaim,
)
from tests.factories._times import ANCHOR, minutes_after_anchor
from tests.factories.conversations import (
    ChatFactory,
    MessageFactory,
    PersonFactory,
    UserFactory,
)


class PersonChatDayFactory(DjangoModelFactory[PersonChatDay]):
    class Meta:
        model = PersonChatDay

    chat = factory.SubFactory(ChatFactory)
    user = factory.SelfAttribute("chat.user")
    person = factory.SubFactory(PersonFactory, user=factory.SelfAttribute("..chat.user"))
    day = factory.Sequence(lambda n: (minutes_after_anchor(n * 24 * 60)).date())
    received_count = 1


class PlanFactory(DjangoModelFactory[Plan]):
    class Meta:
        model = Plan

    user = factory.SubFactory(UserFactory)
    activity = "dinner"
    place = "the harbour"
    event_label = "Friday at 8"
    status = PlanStatus.PROPOSED
    first_sent_at = ANCHOR
    last_sent_at = factory.SelfAttribute("first_sent_at")


class PlanStepFactory(DjangoModelFactory[PlanStep]):
    class Meta:
        model = PlanStep

    plan = factory.SubFactory(PlanFactory)
    user = factory.SelfAttribute("plan.user")
    message = factory.SubFactory(
        MessageFactory,
        chat__user=factory.SelfAttribute("...plan.user"),
        text="Dinner at the harbour on Friday at 8?",
    )
    status = factory.SelfAttribute("plan.status")
    event_label = factory.SelfAttribute("plan.event_label")
    sent_at = factory.SelfAttribute("message.sent_at")


class LoopFactory(DjangoModelFactory[Loop]):
    """An open question to the user, opened by a message of the other side."""

    class Meta:
        model = Loop

    opened_by = factory.SubFactory(MessageFactory, text="Could you send me the form?")
    user = factory.SelfAttribute("opened_by.user")
    chat = factory.SelfAttribute("opened_by.chat")
    person = factory.SelfAttribute("opened_by.sender_person")
    kind = LoopKind.QUESTION_TO_USER
    opened_at = factory.SelfAttribute("opened_by.sent_at")


class PersonFactFactory(DjangoModelFactory[PersonFact]):
    class Meta:
        model = PersonFact

    person = factory.SubFactory(PersonFactory)
    user = factory.SelfAttribute("person.user")
    kind = FactKind.LIVES_IN
    value = "Porto"
    valid_from = ANCHOR


class PersonFactSourceFactory(DjangoModelFactory[PersonFactSource]):
    class Meta:
        model = PersonFactSource

    fact = factory.SubFactory(PersonFactFactory)
    message = factory.SubFactory(
        MessageFactory,
        chat__user=factory.SelfAttribute("...fact.user"),
        sender_person=factory.SelfAttribute("..fact.person"),
        text="I live in Porto now.",
    )


class MemoryPolicyFactory(DjangoModelFactory[MemoryPolicy]):
    class Meta:
        model = MemoryPolicy

    user = factory.SubFactory(UserFactory)
    sensitive_purpose = ""


class PersonMergeFactory(DjangoModelFactory[PersonMerge]):
    class Meta:
        model = PersonMerge

    kept_person = factory.SubFactory(PersonFactory)
    user = factory.SelfAttribute("kept_person.user")
    merged_person = factory.SubFactory(
        PersonFactory, user=factory.SelfAttribute("..kept_person.user")
    )
    reason = "same phone number"


class PersonFactRejectionFactory(DjangoModelFactory[PersonFactRejection]):
    class Meta:
        model = PersonFactRejection

    person = factory.SubFactory(PersonFactory)
    user = factory.SelfAttribute("person.user")
    kind = FactKind.WORKS_AT
    folded_value = factory.Sequence(lambda n: f"bakery {n}")


class MessageClaimFactory(DjangoModelFactory[MessageClaim]):
    class Meta:
        model = MessageClaim

    message = factory.SubFactory(MessageFactory, text="I work at the bakery.")
    user = factory.SelfAttribute("message.user")
    position = 0
    source = MessageClaimSource.STATEMENT
    kind = FactKind.WORKS_AT
    value = "the bakery"


class FactRefinementFactory(DjangoModelFactory[FactRefinement]):
    class Meta:
        model = FactRefinement

    message = factory.SubFactory(MessageFactory)
    user = factory.SelfAttribute("message.user")
    model_key = "local/rules"


class RefinedFactClaimFactory(DjangoModelFactory[RefinedFactClaim]):
    class Meta:
        model = RefinedFactClaim

    refinement = factory.SubFactory(FactRefinementFactory)
    person = factory.SubFactory(PersonFactory, user=factory.SelfAttribute("..refinement.user"))
    kind = FactKind.ORIGIN
    value = "Cork"
    previous = ""


class MemoryJobFactory(DjangoModelFactory[MemoryJob]):
    class Meta:
        model = MemoryJob

    user = factory.SubFactory(UserFactory)
    facts_inputs_signature = ""
    last_error = ""
    lease_owner = ""
