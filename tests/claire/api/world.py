"""Two users who each own one object of every kind, and the tools to tell them apart.

User A's rows are created with ids from ``A_ID_BASE`` upwards (every sequence is moved there
first), so any of A's ids in a response to user B is found by value, whatever the field."""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from channels.testing import HttpCommunicator
from django.apps import apps
from django.db import connection
from django.utils import timezone
from rest_framework.authtoken.models import Token

from assistant.models import TurnStatus
from billing.models import PeriodKind
from claire.accounts.models import User
from conversations.models import IdentityKind, Platform
from indexing.models import EntryState, IndexProgress, IndexVersion, IndexVersionState
from memory.models import (
    FactKind,
    Loop,
    LoopKind,
    PersonChatDay,
    PersonFact,
    PersonFactSource,
    PersonMerge,
    Plan,
    PlanStatus,
    PlanStep,
)
from proposals import services as proposal_services
from proposals.models import OutboxMessage, Proposal
from tests.factories import (
    AiPolicyFactory,
    AssistantTurnFactory,
    BudgetPeriodFactory,
    ChatFactory,
    ChatParticipantFactory,
    IndexJobFactory,
    MessageEmbeddingFactory,
    MessageFactory,
    PersonFactory,
    PersonIdentityFactory,
    ThreadFactory,
    UsageEventFactory,
    UserFactory,
    UserTurnFactory,
)
from tests.proposals.support import history, propose

A_ID_BASE = 9_000_000
B_ID_BASE = 100_000
# Apps whose tables hold user data (a request must never change another user's rows).
PRODUCT_APPS = ("accounts", "conversations", "indexing", "memory", "billing", "assistant")


# The kinds of object each world holds (one of each).
KINDS = (
    "person",
    "twin",
    "merged",
    "chat",
    "message",
    "thread",
    "question",
    "answer",
    "loop",
    "plan",
    "fact",
    "merge",
    "failure",
    "job",
    "policy",
    "budget",
    "usage",
    "proposal",
    "outbox",
)


@dataclass
class World:
    """One user's objects of every kind."""

    user: User
    marker: str
    token: str
    signature: int
    objects: dict[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["objects"][name]
        except KeyError:
            raise AttributeError(name) from None


def sequences_restart(at: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")
        for (name,) in cursor.fetchall():
            cursor.execute(f'ALTER SEQUENCE "{name}" RESTART WITH {int(at)}')


def world_build(*, marker, id_base, signature):
    """``signature`` is the user's spend and index size: numbers only this user's rows hold."""
    sequences_restart(id_base)
    now = timezone.now()
    user = UserFactory(email=f"{marker}@example.com")
    token, _ = Token.objects.get_or_create(user=user)
    person = PersonFactory(user=user, display_name=f"{marker} Ana")
    twin = PersonFactory(user=user, display_name=f"{marker} Ana Silva")
    merged = PersonFactory(user=user, display_name=f"{marker} Bruno")
    for who in (person, twin):
        PersonIdentityFactory(
            person=who,
            platform=Platform.TELEGRAM if who is person else Platform.SIGNAL,
            kind=IdentityKind.HANDLE,
            value=f"{marker}handle",
        )
    chat = ChatFactory(user=user, title=f"{marker} weekend plans")
    ChatParticipantFactory(chat=chat, person=person)
    message = MessageFactory(
        chat=chat, sender_person=person, text=f"{marker} dinner on Friday?", sent_at=now
    )
    PersonChatDay.objects.create(
        user=user, person=person, chat=chat, day=timezone.localdate(now), received_count=1
    )
    thread = ThreadFactory(user=user, title=f"{marker} thread")
    question = UserTurnFactory(thread=thread, text=f"{marker} question")
    answer = AssistantTurnFactory(
        user_turn=question, text=f"{marker} answer", status=TurnStatus.STREAMING
    )
    loop = Loop.objects.create(
        user=user,
        kind=LoopKind.QUESTION_TO_USER,
        chat=chat,
        person=person,
        opened_by=message,
        opened_at=message.sent_at,
    )
    plan = Plan.objects.create(
        user=user,
        activity=f"{marker} dinner",
        place=f"{marker} place",
        event_label="Friday",
        status=PlanStatus.PROPOSED,
        first_sent_at=message.sent_at,
        last_sent_at=message.sent_at,
    )
    PlanStep.objects.create(
        user=user,
        plan=plan,
        message=message,
        status=PlanStatus.PROPOSED,
        event_label="Friday",
        sent_at=message.sent_at,
    )
    fact = PersonFact.objects.create(
        user=user,
        person=person,
        kind=FactKind.LIVES_IN,
        value=f"{marker} town",
        valid_from=message.sent_at,
    )
    PersonFactSource.objects.create(fact=fact, message=message)
    merge = PersonMerge.objects.create(user=user, kept_person=person, merged_person=merged)
    version = IndexVersion.objects.filter(state=IndexVersionState.ACTIVE).first()
    if version is None:
        version = IndexVersion.objects.create(
            version=1,
            profile="embed",
            provider="local",
            model="hash-embed-384",
            dimensions=384,
            state=IndexVersionState.ACTIVE,
        )
    failure = MessageEmbeddingFactory(
        message=message, index_version=version, state=EntryState.FAILED, error_code="too_long"
    )
    job = IndexJobFactory(user=user, index_version=version)
    policy = AiPolicyFactory(user=user)
    budget = BudgetPeriodFactory(
        user=user,
        kind=PeriodKind.DAY,
        starts_on=timezone.localdate(now, ZoneInfo(user.timezone)),
        spent_micro_usd=signature,
    )
    usage = UsageEventFactory(user=user, created_at=now, settled_micro_usd=signature)
    # A proposal to write to someone, approved and executed into the bridge's outbox, and a
    # second one still pending, through the real services.
    history(user)
    sent = propose(user, "Write to Rui again about the boiler", request_id=f"{marker}-sent")
    receipt = proposal_services.proposal_approve(
        user=user, proposal_id=sent.proposal_id, seen_hash=sent.payload_hash
    )
    proposal_services.receipt_execute(receipt_id=receipt.pk)
    outbox = OutboxMessage.objects.get(user=user)
    pending = propose(user, "Write to Ana about the agency", request_id=f"{marker}-pending")
    proposal = Proposal.objects.get(pk=pending.proposal_id)
    # Last: ingestion above moves the counters.
    IndexProgress.objects.update_or_create(
        user=user,
        index_version=version,
        defaults={"eligible": signature, "embedded": signature - 1},
    )
    world = World(
        user=user,
        marker=marker,
        token=token.key,
        signature=signature,
        objects={
            "person": person,
            "twin": twin,
            "merged": merged,
            "chat": chat,
            "message": message,
            "thread": thread,
            "question": question,
            "answer": answer,
            "loop": loop,
            "plan": plan,
            "fact": fact,
            "merge": merge,
            "failure": failure,
            "job": job,
            "policy": policy,
            "budget": budget,
            "usage": usage,
            "proposal": proposal,
            "outbox": outbox,
        },
    )
    assert tuple(world.objects) == KINDS
    return world


def user_models() -> list[Any]:
    return [
        model
        for model in apps.get_models()
        if model._meta.app_label in PRODUCT_APPS and not model._meta.proxy
    ]


def rows_fingerprint(user: User) -> dict[str, str]:
    """A digest of every row of ``user`` (and of user-free product tables), per table."""
    digests = {}
    for model in user_models():
        names = {field.name for field in model._meta.get_fields()}
        if "user" in names:
            rows = model.objects.filter(user=user)
        elif model is User:
            rows = model.objects.filter(pk=user.pk)
        else:
            rows = model.objects.all()
        values = sorted(json.dumps(row, default=str, sort_keys=True) for row in rows.values())
        digests[model._meta.label] = hashlib.sha256("\n".join(values).encode()).hexdigest()
    return digests


def ids_of(user: User) -> set[int]:
    """Every primary key of the user's rows."""
    found: set[int] = set()
    for model in user_models():
        names = {field.name for field in model._meta.get_fields()}
        if "user" in names:
            found |= {
                int(pk) for pk in model.objects.filter(user=user).values_list("pk", flat=True)
            }
    found.add(user.pk)
    return found


def integers_in(body: Any) -> set[int]:
    """Every integer in a JSON value, including ids written as strings."""
    if isinstance(body, bool):
        return set()
    if isinstance(body, int):
        return {body}
    if isinstance(body, str):
        return {int(body)} if body.isdigit() and len(body) < 19 else set()
    if isinstance(body, list):
        return set().union(*(integers_in(item) for item in body)) if body else set()
    if isinstance(body, dict):
        return set().union(*(integers_in(item) for item in body.values())) if body else set()
    return set()


@dataclass
class Reply:
    status: int
    body: Any
    raw: bytes

    def text(self) -> str:
        return self.raw.decode("utf-8", "replace")


def asgi_call(method: str, path: str, body: bytes, headers: list[tuple[bytes, bytes]]) -> Reply:
    """One request through ``claire.asgi.application`` (the answer endpoint lives only there)."""
    from claire.asgi import application

    headers = [*headers, (b"content-length", str(len(body)).encode())]

    async def run() -> dict[str, Any]:
        communicator = HttpCommunicator(application, method, path, body=body, headers=headers)
        return await communicator.get_response(timeout=30)

    response = asyncio.run(run())
    raw = response["body"]
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = None
    return Reply(status=response["status"], body=parsed, raw=raw)
