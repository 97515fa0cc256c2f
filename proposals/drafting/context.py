"""What a draft is written from: the request's context, the messages it follows up, and the
greeting words every part of the drafter shares."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

MAX_DRAFT_CHARS = 1000
GREETINGS = (
    "hi", "hey", "hello", "hiya", "heya", "yo", "howdy", "olá", "ola", "oi", "hola", "salut",
    "hallo", "ciao", "bonjour",
)  # fmt: skip
# Words that greet only when the recipient's name or a stop follows them ("Morning Ana,",
# "Dear Ana", "Good evening!"), not in "morning run was great".
SOFT_GREETINGS = ("good morning", "good afternoon", "good evening", "morning", "evening", "dear")
# How the user addresses a whole group after a greeting ("Hey all", "Hi everyone").
GROUP_ADDRESSES = ("all", "everyone", "everybody", "guys", "folks", "team", "y'all", "gang")
DEFAULT_GREETING = "Hi"
# The user's own messages read for their greeting, newest first.
VOICE_SAMPLE = 200


@dataclass(frozen=True)
class DraftGround:
    """A message the request follows up, as the answer cites it (``memory.followup``):
    why it matters (a ``FollowUpRole``), who wrote it, its text and its source label."""

    role: str
    text: str
    sender: str = ""
    label: str = ""


@dataclass(frozen=True)
class DraftContext:
    """What a draft may be written from: the question, who it is for, what it follows up."""

    question: str
    recipient_name: str
    # The name as the question wrote it ("Dmitri" for "Dmitri Volkov"), when it did.
    named_as: str
    loop_kind: str
    loop_opened_at: datetime | None
    greeting: str
    timezone: str
    # How the user addresses them after the greeting, learned from their own messages ("Dani",
    # "everyone"); "" for the first name (or "all", to a group).
    address: str = ""
    # The messages it follows up; the local drafter relays facts from the news and answers.
    grounds: tuple[DraftGround, ...] = ()
    # A message to a whole group chat (``recipient_name`` is its title).
    is_group: bool = False
    # The plan in that chat the request is about ("climbing on Saturday at 9 at Redstone").
    plan: str = ""
    # That plan's activity ("game night"), when the question names it.
    plan_activity: str = ""
    # The open question someone asked in the group that this reply answers: who asked (their
    # saved name), its question sentence, and when.
    asked_by: str = ""
    asked: str = ""
    asked_at: datetime | None = None
    # The text of the message that opened the loop it follows up: their question (read for
    # which question it was and what the user will do about it: "can you bring the tent?"),
    # or the user's own request or promise (read for what is followed up).
    loop_asked: str = ""
    # When that loop is their ask: the user's own open request or promise in the same chat
    # (its loop kind, the user's message that opened it, when), followed up after answering.
    also: tuple[str, str, datetime | None] = ("", "", None)
    # Names of other people the question names ("Ivo" in "tell mom what Ivo wants"): the
    # pronouns after them are theirs, not the recipient's.
    others: tuple[str, ...] = ()
    # The loop followed up is the one whose text says the topic the question names: its own
    # words say what the draft is about.
    loop_on_topic: bool = False
