"""Which of the user's group chats an action request addresses: "remind the climbing group…",
"tell the Crag Rats…", "post in #design-review…", "ask everyone in the band chat…".

Only the part of the question before what the message is about is read (a group named inside
what to say is content), and only the titles of the user's own groups are matched: by the
title itself (emoji left out, any case), by a run of its words ("the rats chat" for "Crag
Rats"), or by what the group is about, a word said before "group", "chat", "channel", "club",
"team"… sharing a stem with a title word or an emoji's name ("the climbing group" for
"Crag Rats 🧗"). A title that reads as instructions to an assistant is never a destination,
and nothing here reads message text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from claire.accounts.models import User
from conversations.models import Chat, ChatKind
from memory.chatnames import MIN_STEM, title_stems, word_stem
from memory.extract import is_suspicious
from retrieval.lexicon import STOP_WORDS, fold_text

# Nouns that say a group is meant: "the climbing group", "our band chat", "the book club".
_GROUP_NOUNS = r"group|chat|channel|thread|server|club|team|crew|gang|squad|lot|gc"
# "the climbing group's question" names the group; "the climbing group's plan" is content.
_DESCRIBED = re.compile(
    rf"(?P<words>(?:[#\w][\w'-]*\s+){{1,3}}?)(?:{_GROUP_NOUNS})s?\b"
    r"(?!\s*'s\b(?!\s+(?:open\s+|last\s+|latest\s+)?(?:question|ask|request|poll)s?\b))",
    re.IGNORECASE,
)
# "reply to the group", "answer the group chat's question": a group, not said which.
_ANY_GROUP = re.compile(
    r"\b(?:the|our|my)\s+(?:group(?:\s+(?:chat|thread))?|gc|group\s+convo)(?:'s)?\b", re.IGNORECASE
)
# "everyone in Crag Rats", "all of the band", "everybody on the hiking chat".
_EVERYONE = re.compile(
    r"\b(?:everyone|everybody|all)\s+(?:of\s+|in\s+|on\s+|from\s+|at\s+)"
    r"(?P<words>(?:[#\w][\w'-]*\s*){1,4})",
    re.IGNORECASE,
)
_NOT_DESCRIBING = frozenset(
    {
        "the",
        "my",
        "our",
        "a",
        "that",
        "this",
        "whole",
        "new",
        "old",
        "big",
        "in",
        "on",
        "to",
        "everyone",
        "everybody",
        "all",
        "of",
        "post",
        "tell",
        "text",
        "message",
        "remind",
        "ask",
        "write",
        "ping",
        "let",
        "send",
        "group",
        "chat",
        "channel",
        "reply",
        "answer",
        "respond",
    }
)
# The request's own verb and preposition before a described group ("remind the climbing
# group" names "the climbing group").
_LEADING_VERBS = re.compile(
    r"^(?:(?:post|tell|text|message|remind|ask|write|ping|let|send|nudge|drop|shoot|e-?mail|dm"
    r"|reply|answer|in|on|to|into)\s+)+",
    re.IGNORECASE,
)
# Unicode categories nobody types when naming a chat: emoji, modifiers, joiners, selectors.
_NOT_SAID = frozenset({"So", "Sk", "Cf", "Mn", "Me"})


@dataclass(frozen=True)
class NamedGroup:
    chat: Chat
    # The words of the question that named it ("the climbing group", "Crag Rats").
    named_as: str


def _said_title(title: str) -> str:
    """A folded title without its emoji, as it is typed ("Crag Rats 🧗" is "crag rats")."""
    kept = "".join(
        " " if unicodedata.category(char) in _NOT_SAID else char for char in fold_text(title)
    )
    return " ".join(kept.replace("#", " ").split())


def _title_said(title: str, head: str) -> re.Match[str] | None:
    key = _said_title(title)
    if len(key) < MIN_STEM:
        return None
    return re.search(rf"(?<![\w-])#?{re.escape(key)}(?![\w-])", head)


def _described(head: str) -> list[tuple[str, set[str]]]:
    """Each phrase that describes a group in the (folded) head, with the stems it says."""
    phrases: list[tuple[str, set[str]]] = []
    for pattern in (_DESCRIBED, _EVERYONE):
        for match in pattern.finditer(head):
            stems = {
                word_stem(word)
                for word in re.findall(r"[a-z][\w'-]*", match.group("words"))
                if word not in _NOT_DESCRIBING and word not in STOP_WORDS and len(word) >= MIN_STEM
            }
            if stems:
                phrases.append((_LEADING_VERBS.sub("", match.group(0).strip()), stems))
    return phrases


def _meets(said: set[str], held: set[str]) -> bool:
    return any(a.startswith(b) or b.startswith(a) for a in said for b in held)


def groups_named(*, user: User, head: str) -> list[NamedGroup]:
    """The user's groups (visible to AI, titles not suspicious) the head of an action request
    names: by title first, else by description; empty when it names none."""
    folded = fold_text(head)
    groups = [
        chat
        for chat in Chat.objects.filter(user=user, is_excluded_from_ai=False).exclude(
            kind=ChatKind.DIRECT
        )
        if chat.title and not is_suspicious(chat.title)
    ]
    by_title = [
        NamedGroup(chat=chat, named_as=head[match.start() : match.end()])
        for chat in groups
        if (match := _title_said(chat.title, folded)) is not None
    ]
    if by_title:
        return by_title
    phrases = _described(folded)
    named: list[NamedGroup] = []
    for chat in groups:
        held = title_stems(chat.title)
        for phrase, said in phrases:
            if _meets(said, held):
                start = folded.find(phrase)
                named.append(NamedGroup(chat=chat, named_as=head[start : start + len(phrase)]))
                break
    return named


def group_unnamed(head: str) -> bool:
    """The head of a request speaks of "the group" (or "the group chat") without saying
    which."""
    return bool(_ANY_GROUP.search(fold_text(head)))


def groups_visible(*, user: User) -> list[Chat]:
    """The user's groups a draft may go to: visible to AI, titled without instructions, and
    written in by the user."""
    return [
        chat
        for chat in Chat.objects.filter(
            user=user, is_excluded_from_ai=False, messages__is_from_self=True
        )
        .exclude(kind=ChatKind.DIRECT)
        .distinct()
        if not is_suspicious(chat.title or "")
    ]
