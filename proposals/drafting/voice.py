"""The user's voice: the greeting they open with and the name they call the recipient by,
learned from their own messages to them (``voice_for``)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from conversations.models import Chat, ChatKind, IdentityKind, Message, Person
from proposals.drafting.context import (
    DEFAULT_GREETING,
    GREETINGS,
    GROUP_ADDRESSES,
    SOFT_GREETINGS,
    VOICE_SAMPLE,
)
from retrieval.compile import TITLES
from retrieval.lexicon import DESCRIPTOR_FORMS, STOP_WORDS, fold_text

# Words a nickname or kin name opens with, said together with the name.
_EPITHETS = frozenset(
    {"big", "little", "lil", "old", "young", "uncle", "aunt", "auntie", "aunty", "cousin",
     "tio", "tia", "tante", "onkel", "nonna", "nonno", "zio", "zia"}
)  # fmt: skip


def address_names(recipient_name: str, named_as: str) -> tuple[str, str]:
    """How the greeting addresses the recipient, and their first name (for the facts relayed
    to them): with the title the question or the saved name uses ("reply to dr adeyemi" →
    "Dr Adeyemi", "Dr. Tunde Adeyemi" → "Dr. Adeyemi"), by the short form the user calls them
    ("dani" → "Dani" for "Daniela Ruiz"), else by their first name."""
    words = [word for word in recipient_name.split() if any(char.isalnum() for char in word)]
    title = ""
    while words and fold_text(words[0]).rstrip(".") in TITLES:
        title = title or words[0]
        words.pop(0)
    first = words[0] if words else ""
    surname = words[-1] if len(words) > 1 else ""
    said = named_as.split()
    said_title = said[0] if said and fold_text(said[0]).rstrip(".") in TITLES else ""
    if said_title and (surname or first):
        return f"{said_title[0].upper()}{said_title[1:]} {surname or first}", first
    if title and surname:
        return f"{title} {surname}", first
    if _is_other_name(said, words):
        # "niamh" for a contact saved under a nickname ("sea glass 🐚"): the name the user said.
        return said[0][0].upper() + said[0][1:], said[0][0].upper() + said[0][1:]
    if len(words) > 1 and fold_text(first) in _EPITHETS:
        # "Big Ben", "Uncle Joe": the epithet belongs to the name.
        return f"{first} {words[1]}", words[1]
    if (
        len(said) == 1
        and first
        and len(said[0]) < len(first)
        and fold_text(first).startswith(fold_text(said[0]))
    ):
        return said[0][0].upper() + said[0][1:], first
    return first, first


def _is_other_name(said: list[str], saved: list[str]) -> bool:
    """Whether the one word the question called the recipient is a name their saved name
    neither holds nor shortens (nor is a short form of): a contact saved under a nickname,
    asked for by their name. A word for a role ("landlord") is no name to greet with."""
    if len(said) != 1 or not said[0].isalpha() or not saved:
        return False
    word = fold_text(said[0])
    saved_words = [fold_text(name) for name in saved]
    return (
        word not in TITLES
        and word not in DESCRIPTOR_FORMS
        and word not in saved_words
        and not any(name.startswith(word) or word.startswith(name) for name in saved_words)
    )


_FULL_CALENDAR = (
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|january|february|april|june|july|august|september|october|november|december"
)
_SHORT_CALENDAR = (
    r"mon|tues?|wed|thu(?:rs?)?|fri|sat|sun|jan|feb|mar|march|apr|may|jun|jul|aug|sept?|oct|nov|dec"
)
# A day or month name; a short one only beside a date or another one ("sat dec 5", "thu 7:30").
_CALENDAR_NAME = re.compile(
    rf"\b(?:{_FULL_CALENDAR})\b|\b(?:{_SHORT_CALENDAR})\b(?=\.?\s*(?:\d|(?:{_SHORT_CALENDAR})\b))",
    re.IGNORECASE,
)


def calendar_capitalised(text: str) -> str:
    """Days and months written as names are: "sat dec 5" → "Sat Dec 5"."""
    return _CALENDAR_NAME.sub(lambda match: match[0][0].upper() + match[0][1:], text)


@dataclass(frozen=True)
class Voice:
    """How the user opens messages to this person or group, learned from their own messages:
    the greeting ("Hey"; "" when they open with the name alone: "Ana, …") and the name or
    group word they address them by ("Dani", "everyone"; "" when not learned)."""

    greeting: str
    address: str = ""


_OPENING_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")
# After the name, a stop or the end: "Ana, …", "Ana!", "Ana -".
_STOP_AFTER = re.compile(r"^\s*(?:[,!:;.\u2014\u2013-]|$)")


def _opening(text: str, *, name_forms: set[str], is_group: bool) -> tuple[str, str] | None:
    """The greeting and the address one message opens with, None when it opens with
    neither."""
    rest = text.lstrip()
    greeting = ""
    folded = rest.casefold()
    for soft in SOFT_GREETINGS:
        if re.match(rf"{soft}\b", folded):
            after = rest[len(soft) :]
            word = _OPENING_WORD.match(after.lstrip(" ,"))
            if _STOP_AFTER.match(after) or (word and _is_address(word[0], name_forms, is_group)):
                greeting, rest = rest[: len(soft)], after
            break
    if not greeting:
        word = _OPENING_WORD.match(rest)
        if word is not None and word[0].casefold() in GREETINGS:
            greeting, rest = word[0], rest[word.end() :]
    word = _OPENING_WORD.match(rest.lstrip(" ,"))
    address = ""
    if word is not None and _is_address(word[0], name_forms, is_group):
        after = rest.lstrip(" ,")[word.end() :]
        if greeting or _STOP_AFTER.match(after):
            address = word[0]
    if not greeting and not address:
        return None
    return greeting, address


def _is_address(word: str, name_forms: set[str], is_group: bool) -> bool:
    folded = fold_text(word)
    if is_group:
        return folded in GROUP_ADDRESSES
    if folded in name_forms:
        return True
    # A short form written as a name ("Hey Dani" for Daniela), not a word ("hey man").
    return (
        word[:1].isupper()
        and len(folded) >= 3
        and folded not in STOP_WORDS
        and any(form.startswith(folded) for form in name_forms)
    )


def _name_forms(names: list[str]) -> set[str]:
    """The words of a contact's saved names, titles and emoji left out."""
    return {
        word
        for name in names
        for word in re.findall(r"[a-z]+", fold_text(name))
        if len(word) > 1 and word not in TITLES
    }


def voice_for(
    *,
    chat: Chat,
    person: Person | None = None,
    default: str = DEFAULT_GREETING,
) -> Voice:
    """How the user most often opens messages to them: in this chat, else (for a person) in
    the user's other direct chats with them; ``default`` (the request's language's greeting)
    when they never greet. Only the user's own messages are read, and only a fixed list of
    greetings, the contact's own name words or a group word can be learned."""
    names = [person.display_name] if person is not None else []
    if person is not None:
        names += [
            identity.value
            for identity in person.identities.all()
            if identity.kind == IdentityKind.NAME and identity.value
        ]
    name_forms = _name_forms(names)
    chats = [chat.pk]
    if person is not None:
        chats += list(
            Chat.objects.filter(
                user_id=chat.user_id,
                kind=ChatKind.DIRECT,
                is_excluded_from_ai=False,
                memberships__person=person,
            )
            .exclude(pk=chat.pk)
            .values_list("pk", flat=True)
        )
    for chat_id in chats:
        voice = _voice_in(
            user_id=chat.user_id,
            chat_id=chat_id,
            name_forms=name_forms,
            is_group=person is None and chat.kind != ChatKind.DIRECT,
        )
        if voice is not None:
            return voice
    return Voice(greeting=default)


def _voice_in(*, user_id: int, chat_id: int, name_forms: set[str], is_group: bool) -> Voice | None:
    greetings: Counter[str] = Counter()
    addresses: Counter[str] = Counter()
    spelled: dict[str, str] = {}
    texts = (
        Message.objects.filter(
            user_id=user_id, chat_id=chat_id, is_from_self=True, deleted_at__isnull=True
        )
        .order_by("-sent_at")
        .values_list("text", flat=True)[:VOICE_SAMPLE]
    )
    for text in texts:
        opening = _opening(text or "", name_forms=name_forms, is_group=is_group)
        if opening is None:
            continue
        greeting, address = opening
        greetings[greeting.casefold()] += 1
        spelled.setdefault(greeting.casefold(), greeting[:1].upper() + greeting[1:].lower())
        if address:
            addresses[address.casefold()] += 1
            spelled.setdefault(address.casefold(), address[:1].upper() + address[1:])
    if not greetings:
        return None
    greeting = spelled[greetings.most_common(1)[0][0]]
    address = spelled[addresses.most_common(1)[0][0]] if addresses else ""
    return Voice(greeting=greeting, address=address)
