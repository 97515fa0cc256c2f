"""The compiled form of a question: what it asks, about which window, people, place and plans.

A ``CompiledQuery`` is produced deterministically by ``retrieval.compile.compile_question``
(no model call) and recorded on the turn, so an answer can always say which window it read and
which route it took.

``to_json()`` is exactly the specification's structured query: the seven keys ``intent``,
``timeRange``, ``people``, ``location``, ``planStatus``, ``ranking`` and ``requestedAction`` are
always present; an object that does not apply is ``null`` and a list that does not apply is
``[]`` (never omitted, so a reader never has to tell "absent" from "not computed").
``to_record()`` adds keys for the turn record (route, scope, keywords, the window's label,
resolved person ids); it only adds keys, so a reader of the specification shape reads a record.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import models
from django.db.models import Q


class Intent(models.TextChoices):
    IDENTITY_LOOKUP = "identity_lookup", "Identity lookup"
    PLAN_RECALL = "plan_recall", "Plan recall"
    PEOPLE_RANKING = "people_ranking", "People ranking"
    CONVERSATION_QA = "conversation_qa", "Conversation question"
    ACTION_REQUEST = "action_request", "Action request"
    CATCH_UP = "catch_up", "Catch up"
    UNRESOLVED = "unresolved", "Unresolved"


class Route(models.TextChoices):
    """Which deterministic source answers. ``no_evidence`` is never chosen by the router: search
    records it when no candidate passes the relevance floor."""

    HYBRID = "hybrid", "Hybrid retrieval"
    RECENT_WINDOW = "recent_window", "Recent window"
    UNRESOLVED = "unresolved", "Unresolved loops"
    PEOPLE_RANKING = "people_ranking", "People ranking"
    NO_EVIDENCE = "no_evidence", "No evidence"


class ScopeMode(models.TextChoices):
    GLOBAL = "global", "All chats"
    PREFERRED = "preferred", "Preferred chats"
    STRICT_CHAT = "strict_chat", "One chat only"


class TimeTarget(models.TextChoices):
    """What a window constrains. ``messages``: the messages' send times. ``event``: when the
    plan or action happens; the messages about it may be older (plans are discussed ahead), so
    search reads messages sent before the window's end and prefers those whose own dates
    (``retrieval.dates.message_relative_date``) fall inside it."""

    MESSAGES = "messages", "Message send time"
    EVENT = "event", "Event time"


class PlanStatus(models.TextChoices):
    PROPOSED = "proposed", "Proposed"
    CONFIRMED = "confirmed", "Confirmed"
    CHANGED = "changed", "Changed"
    CANCELLED = "cancelled", "Cancelled"


class RankingKind(models.TextChoices):
    RELATIONSHIP_STRENGTH = "relationship_strength", "Relationship strength"
    NEGLECTED = "neglected", "Neglected contacts"
    # "Who do I talk to most?": by messages exchanged in a window (90 days unless named).
    MOST_MESSAGES = "most_messages", "Most messages"


class ActionType(models.TextChoices):
    """A reply is outreach too: both are a drafted message to someone, approved before sending."""

    DRAFT_OUTREACH = "draft_outreach", "Draft a message"
    CREATE_REMINDER = "create_reminder", "Create a reminder"
    SEND_INVITE = "send_invite", "Send an invitation"
    SCHEDULE_EVENT = "schedule_event", "Schedule an event"


def _iso(moment: datetime) -> str:
    return moment.isoformat()


@dataclass(frozen=True)
class TimeRange:
    """A half-open window ``[start, end)`` of aware datetimes, expressed in ``timezone``.

    Compare and measure through ``contains``/``duration``: Python compares two datetimes that
    share a tzinfo by wall-clock time, which is wrong across a DST change.
    """

    start: datetime
    end: datetime
    timezone: str
    label: str
    applies_to: TimeTarget = TimeTarget.MESSAGES

    def __post_init__(self) -> None:
        if self.start.tzinfo is None or self.end.tzinfo is None:
            raise ValueError("A time range needs aware datetimes.")
        if self.start.astimezone(UTC) >= self.end.astimezone(UTC):
            raise ValueError("A time range must end after it starts.")

    @property
    def start_utc(self) -> datetime:
        return self.start.astimezone(UTC)

    @property
    def end_utc(self) -> datetime:
        return self.end.astimezone(UTC)

    @property
    def duration(self) -> timedelta:
        """Elapsed time, so a local day across a DST change lasts 23 or 25 hours."""
        return self.end_utc - self.start_utc

    def contains(self, moment: datetime) -> bool:
        if moment.tzinfo is None:
            raise ValueError("contains() needs an aware datetime.")
        instant = moment.astimezone(UTC)
        return self.start_utc <= instant < self.end_utc

    def as_q(self, field_name: str = "sent_at") -> Q:
        """The window as a queryset condition on ``field_name`` (half-open)."""
        return Q(**{f"{field_name}__gte": self.start_utc, f"{field_name}__lt": self.end_utc})

    def to_json(self) -> dict[str, str]:
        return {"start": _iso(self.start), "end": _iso(self.end), "timezone": self.timezone}


@dataclass(frozen=True)
class PersonRef:
    """Someone the question is about: a name as written (resolved to the user's people, maybe
    several when a first name is shared), descriptors (nationality, role, relation), and the
    direct chat with them when the name resolves to exactly one person who has one."""

    name: str | None
    person_ids: tuple[int, ...] = ()
    descriptors: tuple[str, ...] = ()
    chat_id: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "descriptors": list(self.descriptors), "chatId": self.chat_id}


@dataclass(frozen=True)
class Location:
    city: str
    as_of: datetime | None = None

    def to_json(self) -> dict[str, Any]:
        return {"city": self.city, "asOf": _iso(self.as_of) if self.as_of else None}


@dataclass(frozen=True)
class Ranking:
    kind: RankingKind
    limit: int
    # Platforms the question names ("most on Slack"); empty: every platform.
    platforms: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"kind": str(self.kind), "limit": self.limit}
        if self.platforms:
            found["platforms"] = list(self.platforms)
        return found


@dataclass(frozen=True)
class RequestedAction:
    """An action the user asked for. It is only ever proposed: approval is always required,
    whatever the question says."""

    type: ActionType
    requires_approval: bool = True

    def __post_init__(self) -> None:
        if not self.requires_approval:
            raise ValueError("Requested actions always require approval.")

    def to_json(self) -> dict[str, Any]:
        return {"type": str(self.type), "requiresApproval": self.requires_approval}


@dataclass(frozen=True)
class Scope:
    """Where a question may look. ``global``: every chat not excluded from AI. ``preferred``:
    the same chats, with 1..5 boosted. ``strict_chat``: only that one chat. Build from request
    input with ``retrieval.routing.scope_resolve``, which checks ownership."""

    mode: ScopeMode
    chat_ids: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.mode == ScopeMode.GLOBAL and self.chat_ids:
            raise ValueError("A global scope names no chats.")
        if self.mode == ScopeMode.PREFERRED and not 1 <= len(self.chat_ids) <= 5:
            raise ValueError("A preferred scope names 1 to 5 chats.")
        if self.mode == ScopeMode.STRICT_CHAT and len(self.chat_ids) != 1:
            raise ValueError("A strict chat scope names exactly one chat.")

    @classmethod
    def everywhere(cls) -> Scope:
        return cls(mode=ScopeMode.GLOBAL)

    def to_json(self) -> dict[str, Any]:
        if self.mode == ScopeMode.STRICT_CHAT:
            return {"mode": str(self.mode), "chatId": self.chat_ids[0]}
        if self.mode == ScopeMode.PREFERRED:
            return {"mode": str(self.mode), "chatIds": list(self.chat_ids)}
        return {"mode": str(self.mode)}


@dataclass(frozen=True)
class CompiledQuery:
    """The structured form of one question; see the module docstring for the JSON shapes.

    ``keywords`` are the content terms for lexical search, in question order: stop words, the
    time expression, routing phrases and resolved names are removed; a quoted phrase or a
    multi-word city stays one multi-word entry. ``route_fallback`` is set when the route's own
    source is not available yet and another route reads instead (the answer says so).

    ``semantic_text`` is the question with every resolved person (a name or an identity of
    someone in the user's book) replaced by "someone"; the vector leg embeds it beside the
    question (``retrieval.search``). Who is asked about is a people boost in fusion, as it is
    left out of the keywords; in an embedding the name pulls the question towards the
    messages that address that person by name ("Thanks, Ana!") rather than towards what the
    question is about. Empty means the question itself.

    ``form`` is the question in its canonical surface form (``retrieval.question_forms``:
    shorthand spelled out, a tag or a fronted topic put back in question order, "who's" read
    as "who is"); whatever decides what the question asks (memory's readers, the answerability
    check, the answer's lead) reads it through ``read_as``, so a rewording asks the same
    thing. ``question`` stays the question as typed. Empty means the question itself.
    """

    question: str
    intent: Intent
    scope: Scope
    route: Route
    time_range: TimeRange | None = None
    people: tuple[PersonRef, ...] = ()
    location: Location | None = None
    plan_status: tuple[PlanStatus, ...] = ()
    ranking: Ranking | None = None
    requested_action: RequestedAction | None = None
    keywords: tuple[str, ...] = ()
    route_fallback: Route | None = None
    semantic_text: str = ""
    form: str = ""

    @property
    def read_as(self) -> str:
        """The question as its readers read it: its canonical form (``form``)."""
        return self.form or self.question

    @property
    def source_route(self) -> Route:
        """The route whose source is actually read."""
        return self.route_fallback or self.route

    def to_json(self) -> dict[str, Any]:
        return {
            "intent": str(self.intent),
            "timeRange": self.time_range.to_json() if self.time_range else None,
            "people": [person.to_json() for person in self.people],
            "location": self.location.to_json() if self.location else None,
            "planStatus": [str(status) for status in self.plan_status],
            "ranking": self.ranking.to_json() if self.ranking else None,
            "requestedAction": self.requested_action.to_json() if self.requested_action else None,
        }

    def to_record(self) -> dict[str, Any]:
        record = self.to_json()
        if self.time_range is not None:
            record["timeRange"] = {
                **record["timeRange"],
                "label": self.time_range.label,
                "appliesTo": str(self.time_range.applies_to),
            }
        record["people"] = [
            {**person.to_json(), "personIds": list(person.person_ids)} for person in self.people
        ]
        record["route"] = str(self.route)
        record["routeFallback"] = str(self.route_fallback) if self.route_fallback else None
        record["scope"] = self.scope.to_json()
        record["keywords"] = list(self.keywords)
        return record
