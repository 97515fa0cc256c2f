"""Whether two names are one human: "is 'Dad mobile' in my SMS the same person as Jon Reyes on
WhatsApp?", "are Bo 🐝 and Bo Lind the same person?".

Each name is looked up as the user's history shows it, decoration folded away (emoji, quotes,
punctuation, case, accents): a contact's saved name, a direct chat's title, or the name a
sender's messages came under. Two names are one human when they lead to the same person (one
phone number written two ways is already one person, ``conversations.identities``), to people
the user merged, or to contacts memory links as aliases. The answer says which way and cites
a message of the person under each name.

Pure reads, user-scoped, a handful of queries; deterministic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from claire.accounts.models import User
from conversations.models import (
    ChatKind,
    ChatParticipant,
    IdentityKind,
    Message,
    Person,
    PersonIdentity,
)
from memory.about import alias_person_ids
from memory.findings import Finding
from memory.links import handle_link_clause
from memory.selectors import person_ids_expand
from retrieval.lexicon import fold_text

_KIND = r"(?:person|people|guy|girl|man|woman|contact|human|one)"
_SAME_PERSON = (
    re.compile(
        r"\b(?:is|was)\s+(?P<a>.+?)\s+(?:really\s+|also\s+|actually\s+)?the\s+same\s+"
        rf"(?:{_KIND}\s+)?as\s+(?P<b>.+?)\W*$"
    ),
    re.compile(
        r"\b(?:are|were)\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+(?:really\s+|actually\s+)?"
        rf"(?:the\s+same\s+{_KIND}|one\s+and\s+the\s+same)\b"
    ),
)
# Where a name was seen, said after it: "in my SMS", "on WhatsApp", "in my contacts".
_WHERE_AFTER = re.compile(r"\s+(?:in|on|from|at)\s+(?:my\s+|the\s+)?[\w ]+$")
_QUOTED = re.compile("[\"'\u201c\u2018]([^\"'\u201d\u2019]+)[\"'\u201d\u2019]")
_DECORATION = re.compile(r"[^\w\s]|_")
NAME_ROWS_READ = 200


def asked_same_person(question: str) -> tuple[str, str] | None:
    """The two names a "same person" question compares (as written), or ``None``."""
    folded = fold_text(question)
    for pattern in _SAME_PERSON:
        match = pattern.search(folded)
        if match is not None:
            first = _bare_name(question[match.start("a") : match.end("a")])
            second = _bare_name(question[match.start("b") : match.end("b")])
            if first and second:
                return first, second
    return None


def _bare_name(phrase: str) -> str:
    """The name in a phrase: the quoted part when there is one, else the phrase without a
    trailing "in my SMS" / "on WhatsApp"."""
    quoted = _QUOTED.search(phrase)
    if quoted is not None:
        return quoted.group(1).strip()
    return _WHERE_AFTER.sub("", phrase.strip()).strip(" '\"?\u201c\u201d\u2018\u2019")


def name_key(name: str) -> str:
    """A name with its decoration folded away: "Bo 🐝" and "bo" are one key."""
    return " ".join(_DECORATION.sub(" ", fold_text(name)).split())


@dataclass(frozen=True)
class _Named:
    """The people a name leads to, and the chats where it is shown."""

    person_ids: frozenset[int]
    chat_ids: frozenset[int]


def people_named(*, user: User, name: str) -> _Named:
    """The people the user's history shows under ``name`` (decoration folded): a saved
    contact name, a direct chat's title (its counterpart), or a sender name."""
    key = name_key(name)
    if not key:
        return _Named(frozenset(), frozenset())
    first = key.split()[0]
    people: set[int] = set()
    chats: set[int] = set()
    for pk, display in Person.objects.filter(user=user, display_name__icontains=first).values_list(
        "pk", "display_name"
    )[:NAME_ROWS_READ]:
        if name_key(display) == key:
            people.add(pk)
    for chat_id, person_id, title in ChatParticipant.objects.filter(
        chat__user=user, chat__kind=ChatKind.DIRECT, chat__title__icontains=first
    ).values_list("chat_id", "person_id", "chat__title")[:NAME_ROWS_READ]:
        if name_key(title) == key:
            people.add(person_id)
            chats.add(chat_id)
    for sender_id, chat_id, sender_name in (
        Message.objects.filter(user=user, sender_name__icontains=first, sender_person__isnull=False)
        .values_list("sender_person_id", "chat_id", "sender_name")
        .distinct()[:NAME_ROWS_READ]
    ):
        if name_key(sender_name) == key:
            people.add(sender_id)
            chats.add(chat_id)
    return _Named(frozenset(people), frozenset(chats))


def same_person_findings(*, user: User, question: str) -> tuple[list[Finding], list[int]]:
    """Yes or no to a "same person" question, with a message of the person under each name;
    nothing when the question compares no two names or a name leads to nobody."""
    names = asked_same_person(question)
    if names is None:
        return [], []
    first, second = (people_named(user=user, name=name) for name in names)
    if not first.person_ids or not second.person_ids:
        return [], []
    humans = [_human(user=user, person_ids=named.person_ids) for named in (first, second)]
    cited = [
        message_id
        for named in (first, second)
        if (message_id := _latest_message(user=user, named=named)) is not None
    ]
    cited = list(dict.fromkeys(cited))
    a, b = names
    if humans[0] & humans[1]:
        how = _how_linked(user=user, person_ids=first.person_ids | second.person_ids)
        text = f"Yes: “{a}” and “{b}” are the same person{how}."
    else:
        text = f"No: “{a}” and “{b}” are different contacts; nothing links them."
    return [Finding(text=text, message_ids=tuple(cited))], cited


def _human(*, user: User, person_ids: frozenset[int]) -> set[int]:
    """Every contact of the human(s) behind ``person_ids``: merges and aliases."""
    expanded = list(person_ids_expand(user=user, person_ids=sorted(person_ids)))
    return set(expanded) | set(alias_person_ids(user=user, person_ids=expanded))


def _how_linked(*, user: User, person_ids: frozenset[int]) -> str:
    """ ", with one phone number (0491 570 110, +61 491 570 110)" when a number ties them;
    ", as memory linked them: the handle … is a form of the name …" for a handle link."""
    linked = handle_link_clause(
        user=user, person_ids=sorted(_human(user=user, person_ids=person_ids))
    )
    if linked:
        return f", as memory linked them: {linked}"
    phones = list(
        PersonIdentity.objects.filter(
            user=user, person_id__in=sorted(person_ids), kind=IdentityKind.PHONE
        )
        .order_by("pk")
        .values_list("value", flat=True)
    )
    if not phones:
        return ""
    noun = "one phone number written two ways" if len(phones) > 1 else "one phone number"
    return f", with {noun} ({', '.join(phones)})"


def _latest_message(*, user: User, named: _Named) -> int | None:
    """The newest message the person sent where the name is shown, else anywhere."""
    rows = Message.objects.filter(
        user=user,
        sender_person_id__in=sorted(named.person_ids),
        deleted_at__isnull=True,
        chat__is_excluded_from_ai=False,
    ).order_by("-sent_at", "-pk")
    shown = rows.filter(chat_id__in=sorted(named.chat_ids)) if named.chat_ids else rows
    return shown.values_list("pk", flat=True).first() or rows.values_list("pk", flat=True).first()
