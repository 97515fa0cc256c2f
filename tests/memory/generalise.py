"""A small story harness for the generalisation cases of plans and loops: each case is a short
history (its own chats, cast and wording, written for these tests), one question asked at a
given moment, and the words the first memory finding must (and must not) say. Cases go through
the real answer path: ingest, memory refresh, then ``retrieval.pipeline.retrieve``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from conversations.models import Chat, ChatKind, MessageKind
from conversations.services import IncomingMessage, messages_ingest
from memory import services
from retrieval.evidence import EvidenceLimits
from retrieval.pipeline import Retrieval, retrieve
from retrieval.types import Scope
from tests.memory.helpers import chat_of, person_identity

# Monday 2 March 2026, 09:00 UTC (Lisbon is UTC in March): every story starts here.
MONDAY = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
LIMITS = EvidenceLimits(max_sources=8, max_tokens=6000)
MEDIA = "<media omitted>"


@dataclass(frozen=True)
class Line:
    """One message: its chat, when (hours after ``MONDAY``), who (None for the user), what."""

    chat: str
    hours: float
    sender: str | None
    text: str
    reply_to: str = ""
    message_id: str = ""


@dataclass(frozen=True)
class Story:
    """A history and a question about it. ``chats`` maps a chat id to its members, its kind
    and its platform; ``expect`` must all be in the first finding, ``refuse`` none of it."""

    name: str
    chats: dict[str, tuple[tuple[str, ...], str, str]]
    lines: tuple[Line, ...]
    question: str
    asked_hours: float
    expect: tuple[str, ...]
    refuse: tuple[str, ...] = field(default_factory=tuple)
    intent: str = ""


def dm(name: str, platform: str = "whatsapp") -> tuple[tuple[str, ...], str, str]:
    return ((name,), ChatKind.DIRECT, platform)


def group(*names: str, platform: str = "whatsapp") -> tuple[tuple[str, ...], str, str]:
    return (tuple(names), ChatKind.GROUP, platform)


def story_ingest(user, story: Story) -> None:
    for chat_id, (members, kind, platform) in story.chats.items():
        chat = chat_of(chat_id, *members, kind=kind, platform=platform)
        messages = [
            IncomingMessage(
                platform_message_id=line.message_id or f"{chat_id}-{index}",
                sent_at=MONDAY + timedelta(hours=line.hours),
                text=line.text,
                sender=person_identity(line.sender, platform) if line.sender else None,
                is_from_self=line.sender is None,
                kind=MessageKind.MEDIA if line.text == MEDIA else MessageKind.TEXT,
                reply_to_platform_message_id=line.reply_to,
            )
            for index, line in enumerate(story.lines)
            if line.chat == chat_id
        ]
        messages_ingest(
            user=user, chats=[chat], messages=[(chat_id, message) for message in messages]
        )
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def story_ask(user, story: Story) -> Retrieval:
    return retrieve(
        user=user,
        question=story.question,
        now=MONDAY + timedelta(hours=story.asked_hours),
        scope=Scope.everywhere(),
        evidence_limits=LIMITS,
    )


def story_failures(user, story: Story) -> list[str]:
    """What the answer got wrong: an empty list when the first finding says every expected
    word and none of the refused ones (and the question compiled to the expected intent)."""
    story_ingest(user, story)
    retrieval = story_ask(user, story)
    findings = [text for text, _labels in retrieval.memory_findings]
    first = findings[0] if findings else ""
    problems = []
    if story.intent and retrieval.compiled.intent != story.intent:
        problems.append(f"intent {retrieval.compiled.intent}")
    problems += [f"missing {word!r}" for word in story.expect if word not in first]
    problems += [f"says {word!r}" for word in story.refuse if word in first]
    if problems:
        problems.append(f"first finding: {first!r}")
    return problems
