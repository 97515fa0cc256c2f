"""Typed values of the answer engine: the request, the sources it shows, and the events it emits.

The engine produces one sequence of ``EngineEvent`` values; the transports only translate that
sequence into bytes (``assistant.transports.sse``) or one JSON body
(``assistant.transports.legacy_json``). Nothing here touches the database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from proposals.types import ProposalView

ScopeMode = Literal["global", "preferred", "strict_chat"]
Phase = Literal["retrieving", "answering", "saving"]
# The finish reasons every AI SDK UI stream client (major versions 5 to 7) accepts.
FinishReason = Literal["stop", "length", "content-filter", "tool-calls", "error", "other"]
FINISH_REASONS: frozenset[str] = frozenset(
    {"stop", "length", "content-filter", "tool-calls", "error", "other"}
)


@dataclass(frozen=True)
class Scope:
    """Where to look: everything, a few preferred chats first, or strictly one chat."""

    mode: ScopeMode
    chat_ids: tuple[int, ...] = ()

    def as_wire(self) -> dict[str, object]:
        if self.mode == "global":
            return {"mode": "global"}
        if self.mode == "preferred":
            return {"mode": "preferred", "chatIds": [str(chat_id) for chat_id in self.chat_ids]}
        return {"mode": "strict_chat", "chatId": str(self.chat_ids[0])}


@dataclass(frozen=True)
class AskRequest:
    """The spec's ``AskClaireRequest`` after validation (``assistant.api.serializers``)."""

    request_id: str
    question: str
    scope: Scope
    thread_id: int | None = None
    retry_of_turn_id: int | None = None


@dataclass(frozen=True)
class NavigationTarget:
    """Trusted Claire navigation to one message of a conversation (``open_conversation``)."""

    chat_id: int
    message_id: int

    @property
    def url(self) -> str:
        return f"/chats/{self.chat_id}/?message={self.message_id}"

    def as_wire(self) -> dict[str, object]:
        return {
            "type": "open_conversation",
            "chatId": str(self.chat_id),
            "messageId": str(self.message_id),
            "url": self.url,
        }


@dataclass(frozen=True)
class Citation:
    """One source of the evidence pack as the client sees it; ``source_id`` is S1..Sn."""

    source_id: str
    message_id: int
    chat_id: int
    chat_title: str
    sender: str
    platform: str
    sent_at: datetime
    snippet: str

    @property
    def navigation(self) -> NavigationTarget:
        return NavigationTarget(chat_id=self.chat_id, message_id=self.message_id)

    def as_wire(self) -> dict[str, object]:
        return {
            "id": self.source_id,
            "messageId": str(self.message_id),
            "chatId": str(self.chat_id),
            "chat": self.chat_title,
            "sender": self.sender,
            "platform": self.platform,
            "sentAt": self.sent_at.isoformat(),
            "snippet": self.snippet,
            "navigation": self.navigation.as_wire(),
        }

    @classmethod
    def from_wire(cls, data: dict[str, object]) -> Citation:
        """Read back a citation stored on a turn (the stored form is the wire form)."""
        return cls(
            source_id=str(data["id"]),
            message_id=int(str(data["messageId"])),
            chat_id=int(str(data["chatId"])),
            chat_title=str(data["chat"]),
            sender=str(data["sender"]),
            platform=str(data["platform"]),
            sent_at=datetime.fromisoformat(str(data["sentAt"])),
            snippet=str(data["snippet"]),
        )


@dataclass(frozen=True)
class NavigationAction:
    """A button under the answer. ``open_conversation`` goes to a cited message;
    ``open_calendar`` only opens the calendar: it never creates anything."""

    kind: Literal["open_conversation", "open_calendar"]
    label: str
    source_id: str = ""
    target: NavigationTarget | None = None
    date: str = ""

    def as_wire(self) -> dict[str, object]:
        wire: dict[str, object] = {"type": self.kind, "label": self.label}
        if self.source_id:
            wire["sourceId"] = self.source_id
        if self.target is not None:
            wire["target"] = self.target.as_wire()
        if self.date:
            wire["date"] = self.date
        return wire

    @classmethod
    def from_wire(cls, data: dict[str, object]) -> NavigationAction:
        """Read back an action stored on a turn (the stored form is the wire form)."""
        kind: Literal["open_conversation", "open_calendar"] = (
            "open_calendar" if data.get("type") == "open_calendar" else "open_conversation"
        )
        raw_target = data.get("target")
        target = None
        if isinstance(raw_target, dict):
            target = NavigationTarget(
                chat_id=int(str(raw_target["chatId"])), message_id=int(str(raw_target["messageId"]))
            )
        return cls(
            kind=kind,
            label=str(data.get("label", "")),
            source_id=str(data.get("sourceId", "")),
            target=target,
            date=str(data.get("date", "")),
        )


@dataclass(frozen=True)
class ThreadSummary:
    thread_id: int
    title: str
    kind: str
    chat_id: int | None
    created_at: datetime
    last_activity_at: datetime

    def as_wire(self) -> dict[str, object]:
        wire: dict[str, object] = {
            "threadId": str(self.thread_id),
            "title": self.title,
            "kind": self.kind,
            "createdAt": self.created_at.isoformat(),
            "lastActivityAt": self.last_activity_at.isoformat(),
        }
        if self.chat_id is not None:
            wire["chatId"] = str(self.chat_id)
        return wire


# --- Engine events ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StartEvent:
    message_id: str


@dataclass(frozen=True)
class StatusEvent:
    phase: Phase


@dataclass(frozen=True)
class ThreadEvent:
    thread_id: int
    user_turn_id: int
    assistant_turn_id: int


@dataclass(frozen=True)
class SourcesEvent:
    citations: tuple[Citation, ...]
    index_status: dict[str, object]


@dataclass(frozen=True)
class TextStartEvent:
    text_id: str


@dataclass(frozen=True)
class TextDeltaEvent:
    text_id: str
    delta: str


@dataclass(frozen=True)
class TextEndEvent:
    text_id: str


@dataclass(frozen=True)
class FinishEvent:
    """The answer is stored. ``status`` is ``completed``, or ``cancelled`` after a Stop."""

    finish_reason: FinishReason
    provider: str
    model: str
    status: str
    thread: ThreadSummary
    cited_source_ids: tuple[str, ...]
    actions: tuple[NavigationAction, ...] = field(default=())
    removed_citation_count: int = 0
    # What the answer was charged, when this stream settled it (a replay does not know it).
    cost_micro_usd: int | None = None


@dataclass(frozen=True)
class ProposalEvent:
    """An action request's approval-gated proposal (``proposals``): ids and display only go
    on the wire; the destination's ids stay on the server (evaluations read them)."""

    proposal: ProposalView
    chat_id: int = 0
    person_id: int | None = None

    @classmethod
    def of(cls, proposal: ProposalView) -> ProposalEvent:
        return cls(proposal=proposal, chat_id=proposal.chat_id, person_id=proposal.person_id)


@dataclass(frozen=True)
class ErrorEvent:
    """A stable, safe failure: ``code`` from ``assistant.errors``, never a provider message."""

    code: str
    message: str
    retryable: bool
    status: str


EngineEvent = (
    StartEvent
    | StatusEvent
    | ThreadEvent
    | SourcesEvent
    | TextStartEvent
    | TextDeltaEvent
    | TextEndEvent
    | ProposalEvent
    | FinishEvent
    | ErrorEvent
)
