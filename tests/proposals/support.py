"""A small history with open loops, ingested through the real services, for proposal tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.utils import timezone

from claire.accounts.models import User
from conversations.models import Chat, Person
from memory import services as memory_services
from proposals import services
from proposals.services import DraftNeeded, NoProposal
from proposals.types import ProposalView
from retrieval.compile import compile_question
from retrieval.types import Scope
from tests.memory.helpers import chat_of, ingest, say

T0 = datetime(2026, 3, 3, 9, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=5)


def history(user: User) -> None:
    """Rui (landlord) never answered the user's boiler request; Ana asked the user about the
    flat and got no answer; a group with both of them; a spam chat."""
    ingest(
        user,
        chat_of("dm-rui", "Rui Costa"),
        say("r0", T0 - timedelta(days=2), "Hey Rui, thanks for the keys"),
        say("r1", T0 - timedelta(days=2, hours=-1), "No problem", sender="Rui Costa"),
        say("r2", T0, "Hey Rui, could you send someone to fix the boiler this week?"),
    )
    ingest(
        user,
        chat_of("dm-ana", "Ana Lima"),
        say("a0", T0 - timedelta(days=3), "Hi Ana! How was the trip?"),
        say(
            "a1",
            T0 + timedelta(hours=3),
            "Do you know a good agency for the flat?",
            sender="Ana Lima",
        ),
    )
    ingest(
        user,
        chat_of("group-house", "Rui Costa", "Ana Lima", kind="group"),
        say("g1", T0 + timedelta(hours=1), "Dinner on Friday?", sender="Ana Lima"),
    )
    memory_services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def chat(user: User, platform_chat_id: str) -> Chat:
    return Chat.objects.get(user=user, platform_chat_id=platform_chat_id)


def person(user: User, name: str) -> Person:
    return Person.objects.get(user=user, display_name=name)


def propose(user, question: str, *, request_id: str = "req-1", now=None) -> ProposalView | None:
    """Asked at ``NOW`` in the history's time; decided at ``now`` (the clock by default)."""
    now = now or timezone.now()
    compiled = compile_question(user=user, question=question, now=NOW, scope=Scope.everywhere())
    prepared = services.proposal_prepare(
        user=user,
        request_id=request_id,
        question=question,
        compiled_query=compiled.to_record(),
        now=now,
    )
    if isinstance(prepared, NoProposal):
        return None
    if isinstance(prepared, ProposalView):
        return prepared
    assert isinstance(prepared, DraftNeeded)
    return services.proposal_record(
        user=user,
        request_id=request_id,
        draft=prepared,
        text=prepared.local_text,
        draft_source="local drafter",
        now=now,
    )
