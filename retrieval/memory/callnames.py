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

import re
from collections.abc import Iterable

from claire.accounts.models import User
from conversations.models import ChatKind, ChatParticipant, Message, Person
from retrieval.lexicon import fold_text

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
    rows = (
        Message.objects.filter(
            user=user,
            deleted_at__isnull=True,
            chat_id__in=[chat for chat, person in counterpart.items() if person > 0],
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
    from retrieval.memory.selectors import person_canonical_ids

    canonical = person_canonical_ids(user=user)
    called: dict[str, tuple[int, ...]] = {}
    for name, people in found.items():
        humans = {canonical.get(pk, pk) for pk in people}
        if len(humans) == 1:
            called[name] = tuple(sorted(people | humans))
    return called
