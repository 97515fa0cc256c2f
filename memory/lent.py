"""Things the user lent: "did Bo return my drill?", "has Bo given my book back yet?".

Someone asking to borrow the user's thing ("can I borrow your drill?", "could you lend me
the tent?", "¿me prestas la bici?") opens a lending, whatever the user answered; that
person's later message saying it is back ("returning your drill", "left the tent back at
yours", "libro devuelto") closes it. The thing is matched on the question's words, their stem,
or their initials: "my AMH" is the "Australian Medicines Handbook" the person asked for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from claire.accounts.models import User
from conversations.models import Message
from memory.findings import Finding, moment_text
from memory.plan_words import DEED_FAMILIES
from memory.selectors import person_ids_expand
from retrieval.lexicon import fold_text

# "did Bo (ever) return my drill?", "has Bo given my book back?", "did Bo bring the tent back?"
ASKS_RETURNED = re.compile(
    r"^\W*(?:(?:so|and|ok|okay|wait)\s+)*(?:did|has|have)\s+(?!i\b|we\b|you\b)"
    r"(?:[\w'@.-]+\s+){1,3}?(?:(?:ever|already|actually|finally|yet)\s+)*"
    r"(?:return|returned|(?:give|given|gave|bring|brought|hand|handed)\s+(?:[\w'-]+\s+){0,4}?back)"
    r"\b"
)
_MINE = re.compile(r"\b(?:my|mine|me)\b")
# Asking to borrow the reader's thing, in the languages the product reads (folded).
_BORROW = re.compile(
    r"\b(?:borrow|lend\s+me|loan\s+me|me\s+(?:prestas|presta|empresta\w*|pretes|pretez)"
    r"|mi\s+(?:presti|prestate)|(?:leihst|leihen)\s+(?:du|sie)\s+mir|mir\s+\w+\s+leihen)\b"
)
_RETURNED = re.compile(r"\b(?:" + "|".join(DEED_FAMILIES["return"]) + r")\b")
# The question's own deed words say nothing of what was lent.
_DEED_WORDS = re.compile(
    r"^(?:return\w*|give|given|gave|bring|brought|hand|handed|back|ever|yet|borrow\w*|lent|lend)$"
)
# A run of capitalised words ("Australian Medicines Handbook"), for its initials.
_CAPITALISED_RUN = re.compile(r"(?:\b[A-Z][\w'-]*(?:\s+(?:of|and|the|for|de|du|da)\b)?\s*){2,6}")
# How many of the person's latest messages are read for a borrowing and a return.
MESSAGES_READ = 400


def initials(text: str) -> set[str]:
    """The initials of each run of two to six capitalised words in ``text``, folded:
    "Australian Medicines Handbook" -> "amh"; a small joining word is read with and without
    its initial ("Standard of Practice" -> "sp", "sop")."""
    found = set()
    for match in _CAPITALISED_RUN.finditer(text):
        words = match.group(0).split()
        capitalised = [word for word in words if word[:1].isupper()]
        if len(capitalised) >= 2:
            found.add(fold_text("".join(word[0] for word in capitalised)))
            found.add(fold_text("".join(word[0] for word in words)))
    return found


def _names_thing(text: str, terms: Sequence[str]) -> bool:
    folded = fold_text(text)
    acronyms = initials(text)
    for term in terms:
        stem = term[: max(4, len(term) - 2)] if len(term) > 4 else term
        if re.search(rf"\b{re.escape(stem)}", folded) or term in acronyms:
            return True
    return False


def lent_answer(
    *, user: User, question: str, terms: Sequence[str], person_ids: Sequence[int], now: datetime
) -> tuple[list[tuple[int, str]], Finding] | None:
    """Yes or no to "did Bo return my drill?", from Bo's asking to borrow it and Bo's message
    saying it is back; ``None`` when the question asks no such thing or Bo never asked to
    borrow something it names."""
    folded = fold_text(question)
    if not person_ids or not ASKS_RETURNED.search(folded) or not _MINE.search(folded):
        return None
    thing = [term for term in terms if len(term) >= 2 and not _DEED_WORDS.match(term)]
    if not thing:
        return None
    theirs = list(
        Message.objects.filter(
            user=user,
            sender_person_id__in=person_ids_expand(user=user, person_ids=list(person_ids)),
            is_from_self=False,
            deleted_at__isnull=True,
            sent_at__lte=now,
        )
        .select_related("sender_person")
        .order_by("-sent_at")[:MESSAGES_READ]
    )
    asks = [
        message
        for message in theirs
        if _BORROW.search(fold_text(message.text or "")) and _names_thing(message.text or "", thing)
    ]
    if not asks:
        return None
    ask = asks[0]
    ask_words = [
        word
        for word in re.findall(r"[\w'-]+", fold_text(ask.text or ""))
        if len(word) >= 4 and not _DEED_WORDS.match(word)
    ]
    back = [
        message
        for message in theirs
        if message.sent_at > ask.sent_at
        and _RETURNED.search(fold_text(message.text or ""))
        and (
            _names_thing(message.text or "", thing)
            or bool(
                initials(ask.text or "") & set(re.findall(r"\w+", fold_text(message.text or "")))
            )
            or _names_thing(message.text or "", ask_words)
        )
    ]
    zone = user.zoneinfo
    name = (ask.sender_person.display_name if ask.sender_person is not None else "they") or "they"
    asked = moment_text(ask.sent_at, zone)
    if back:
        returned = back[-1]
        text = (
            f"Yes: {name} said it was back on {moment_text(returned.sent_at, zone)}; "
            f"they had asked to borrow it on {asked}."
        )
        hits = [(returned.pk, "gave it back"), (ask.pk, "asked to borrow it")]
    else:
        text = f"No: {name} asked to borrow it on {asked}, and no message since says it is back."
        hits = [(ask.pk, "asked to borrow it")]
    return hits, Finding(text=text, message_ids=tuple(mid for mid, _note in hits))
