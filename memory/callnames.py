"""The names people are called by that their contact name does not hold: a sister saved as
"Bubbles 🫧" whom the user greets "Happy birthday Maya!!", a friend saved by surname who signs
"— Jo".

In a direct chat there is one person the user can be talking to, so a name the user addresses
them by, or one they sign with, is theirs:

- the user opens with a greeting, thanks or wishes and the name ("hey Maya", "thanks Maya!",
  "happy birthday Maya", "love you Maya"), or starts with the name and a comma or "!"
  ("Maya, are you coming?"), or ends with a comma and the name ("see you at 6, Maya!");
- the person ends a message with the name on its own line or after a sign-off ("Cheers,\\nJo",
  "- Jo", "xx Jo", "love, Jo").

A name counts only when it points to one human (people the user merged count as one) and is
not the name of another contact. One bounded query per lookup; user-scoped.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable
from functools import reduce

from django.contrib.postgres.search import SearchQuery

from claire.accounts.models import User
from conversations.models import (
    TEXT_SEARCH_CONFIG,
    ChatKind,
    ChatParticipant,
    Message,
    Person,
)
from retrieval.lexicon import DESCRIPTOR_FORMS, STOP_WORDS, fold_text

# Messages read per lookup, newest first.
MESSAGES_READ = 400
_OPENERS = (
    r"hi|hey|heya|hiya|hello|yo|oi|morning|good\s+morning|night|good\s+night|thanks|thank\s+you"
    r"|thx|ty|cheers|congrats|congratulations|happy\s+birthday|happy\s+bday|hbd|love\s+you"
    r"|miss\s+you|sorry|dear|bye|night\s+night|welcome\s+home"
)
_SIGN_OFFS = r"cheers|love|thanks|best|regards|xx+|x|hugs|ciao|besos|beijos|bjs|-+|\u2014|\u2013"
# A folded word a person may be called by: letters, with an inner apostrophe or hyphen.
_NAME_CHARS = re.compile(r"[^\W\d_]{2,}(?:['\u2019-][^\W\d_]+)*")


def _patterns(name: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(how the user addresses ``name``, how ``name`` signs), on folded text."""
    escaped = re.escape(name)
    addressed = re.compile(
        rf"^\W*(?:{_OPENERS})\W+{escaped}\b(?!['\u2019]s)"
        rf"|^\W*{escaped}\s*[,!]"
        rf"|,\s*{escaped}\s*[!?.\u2764\ufe0f\U0001F300-\U0001FAFF\s]*$"
    )
    # The name closes the message: on its own line, after a sign-off that opens its line
    # ("Cheers,\nJo", "- Jo"), or after kisses ("see you soon xx Jo"); "I love Jo" is no
    # signature.
    signed = re.compile(
        rf"(?:(?:^|\n)\s*(?:(?:{_SIGN_OFFS})[,\s]+)?|\bxx+\s+){escaped}"
        rf"\s*[!.\u2764\ufe0f\U0001F300-\U0001FAFF\s]*$"
    )
    return addressed, signed


def people_called_by(*, user: User, names: Iterable[str]) -> dict[str, tuple[int, ...]]:
    """Each of ``names`` (folded: "maya") that the user's direct chats show one contact is
    called by, with that contact's ids (merged people included); names of existing contacts
    are left out."""
    wanted = [
        name for name in dict.fromkeys(fold_text(n) for n in names) if _NAME_CHARS.fullmatch(name)
    ]
    if not wanted:
        return {}
    known = {
        word
        for display in Person.objects.filter(user=user).values_list("display_name", flat=True)
        for word in fold_text(display).split()
    }
    wanted = [name for name in wanted if name not in known]
    if not wanted:
        return {}
    counterpart: dict[int, int] = {}
    for chat_id, person_id in ChatParticipant.objects.filter(
        chat__user=user, chat__kind=ChatKind.DIRECT, chat__is_excluded_from_ai=False
    ).values_list("chat_id", "person_id"):
        counterpart[chat_id] = person_id if chat_id not in counterpart else -1
    alternation = "|".join(re.escape(name) for name in wanted)
    # The text-search index narrows first (a name is a word of the stored search vector).
    said = reduce(operator.or_, (SearchQuery(name, config=TEXT_SEARCH_CONFIG) for name in wanted))
    rows = (
        Message.objects.filter(
            user=user,
            deleted_at__isnull=True,
            chat_id__in=[chat for chat, person in counterpart.items() if person > 0],
            search_vector=said,
            text__iregex=rf"(^|[^[:alnum:]])({alternation})([^[:alnum:]]|$)",
        )
        .order_by("-sent_at", "-pk")
        .values_list("chat_id", "sender_person_id", "is_from_self", "text")[:MESSAGES_READ]
    )
    found: dict[str, set[int]] = {}
    patterns = {name: _patterns(name) for name in wanted}
    for chat_id, sender_id, is_from_self, text in rows:
        person_id = counterpart[chat_id]
        folded = fold_text(text or "")
        for name, (addressed, signed) in patterns.items():
            if (is_from_self and addressed.search(folded)) or (
                sender_id == person_id and signed.search(folded)
            ):
                found.setdefault(name, set()).add(person_id)
    from memory.selectors import person_canonical_ids

    canonical = person_canonical_ids(user=user)
    called: dict[str, tuple[int, ...]] = {}
    for name, people in found.items():
        humans = {canonical.get(pk, pk) for pk in people}
        if len(humans) == 1:
            called[name] = tuple(sorted(people | humans))
    return called


# A capitalised word in the places ``_patterns`` reads a name from.
_ANY_NAME = r"([A-ZÀ-Ý][a-zà-ÿ'\u2019-]+)"
_ADDRESSED_ANY = re.compile(
    rf"^\W*(?i:{_OPENERS})\W+{_ANY_NAME}\b(?!['\u2019]s)"
    rf"|^\W*{_ANY_NAME}\s*[,!]"
    rf"|,\s*{_ANY_NAME}\s*[!?.\u2764\ufe0f\U0001F300-\U0001FAFF\s]*$"
)
_SIGNED_ANY = re.compile(
    rf"(?:(?:^|\n)\s*(?:(?i:{_SIGN_OFFS})[,\s]+)?|\b[Xx]{{2,}}\s+){_ANY_NAME}"
    rf"\s*[!.\u2764\ufe0f\U0001F300-\U0001FAFF\s]*$"
)


def addressed_name(text: str) -> str:
    """The name a message addresses its reader by ("thanks Ana!", "Ana, you coming?", "see
    you at 6, Ana"), as written; empty when it addresses nobody by a name."""
    match = _ADDRESSED_ANY.search(text or "")
    if match is None:
        return ""
    name = next(group for group in match.groups() if group)
    key = fold_text(name)
    if key in STOP_WORDS or key in DESCRIPTOR_FORMS or key in _NOT_NAMES:
        return ""
    return name


def call_names_of(*, user: User, person_ids: Iterable[int]) -> list[tuple[str, int]]:
    """The names the user calls the person by in their direct chats, or the person signs
    with, that the contact name does not hold ("Lucy" for "Peanut 🥜"), most used first, each
    with the latest message that says it. Relation words ("Mom") and common words are no
    names."""
    ids = list(person_ids)
    own = {
        word
        for display in Person.objects.filter(user=user, pk__in=ids).values_list(
            "display_name", flat=True
        )
        for word in fold_text(display).split()
    }
    direct = list(
        ChatParticipant.objects.filter(
            chat__user=user,
            chat__kind=ChatKind.DIRECT,
            chat__is_excluded_from_ai=False,
            person_id__in=ids,
        ).values_list("chat_id", flat=True)
    )
    counts: dict[str, list[int]] = {}
    for pk, sender_id, is_from_self, text in (
        Message.objects.filter(user=user, deleted_at__isnull=True, chat_id__in=direct)
        .order_by("-sent_at", "-pk")
        .values_list("pk", "sender_person_id", "is_from_self", "text")[:MESSAGES_READ]
    ):
        pattern = _ADDRESSED_ANY if is_from_self else _SIGNED_ANY if sender_id in ids else None
        match = pattern.search(text or "") if pattern is not None else None
        if match is None:
            continue
        name = next(group for group in match.groups() if group)
        key = fold_text(name)
        if key in own or key in STOP_WORDS or key in DESCRIPTOR_FORMS or key in _NOT_NAMES:
            continue
        counts.setdefault(name, []).append(pk)
    ranked = sorted(counts.items(), key=lambda item: (-len(item[1]), -item[1][0]))
    return [(name, pks[0]) for name, pks in ranked]


# Capitalised words that open or close a message without naming anyone.
_NOT_NAMES = frozenset(
    {"ok", "okay", "yes", "yeah", "yep", "nope", "no", "sure", "thanks", "thank", "lol", "omg",
     "haha", "sorry", "wow", "cool", "great", "perfect", "nice", "good", "morning", "night",
     "hey", "hi", "hello", "love", "also", "well", "so", "oh", "ah", "hmm", "anyway", "btw",
     "today", "tonight", "tomorrow", "yesterday", "monday", "tuesday", "wednesday", "thursday",
     "friday", "saturday", "sunday", "done", "deal", "agreed", "true", "same", "welcome"}
)  # fmt: skip
