"""What a loop is about and by when, said in the answer's own words.

A loop is stored as its opening message; an answer that only says "you promised Ana and have
not done it yet" leaves the user to open the quote to learn what. This reads the promise's own
clause ("I'll drop it off thursday after work" → "you said you would drop it off thursday after
work"), the ask it answers ("could you look over my draft?" → "Ana asked you to look over their
draft") and a deadline the ask sets ("due to me by Friday Oct 30" → "by Friday Oct 30"), with
the speaker's pronouns turned to the answer's ("my" → "your" for the user, "their" for the
person).

Pure text rules; deterministic; no model.
"""

from __future__ import annotations

import re

from memory.extract import ask_clause, debt_amount, promise_clause

# Words a message's author says of themselves, as the answer says them to the user ...
_USER_TO_ANSWER = {
    "i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself",
    "i'm": "you're", "i'll": "you'll", "i'd": "you'd", "im": "you're",
}  # fmt: skip
# ... and as it says them of someone else, whose "you" is the user.
_PERSON_TO_ANSWER = {
    "i": "they", "me": "them", "my": "their", "mine": "theirs", "myself": "themselves",
    "i'm": "they're", "i'll": "they'll", "i'd": "they'd", "i've": "they've",
    "you": "you", "u": "you", "ur": "your", "your": "your",
}  # fmt: skip
_WORD = re.compile(r"[\w'\u2019]+")
# A deadline an ask or a promise sets: "by Friday Oct 30", "before the 20th", "due Monday".
_DEADLINE = re.compile(
    r"\b(?:by|before|until|till|no\s+later\s+than|avant|antes\s+del?|bis|entro)\s+"
    r"(?:the\s+|le\s+|el\s+)?[\w'\u2019]+(?:\s+[\w'\u2019]+){0,2}",
    re.IGNORECASE,
)
_DUE = re.compile(r"\bdue\s+(?:on\s+)?[\w'\u2019]+(?:\s+[\w'\u2019]+){0,2}", re.IGNORECASE)
_NOT_DEADLINE_END = re.compile(
    r"\s+(?:ideally|pls|please|sana|thanks?|if|so|and|or|to|for)\b.*$", re.I
)


def _turned(text: str, table: dict[str, str], *, you: str = "") -> str:
    """``text`` with its speaker's pronouns said from the answer's side; ``you`` replaces a
    "you" the user wrote to someone else."""

    def swap(match: re.Match[str]) -> str:
        word = match.group(0)
        key = word.lower().replace("\u2019", "'")
        if you and key in {"you", "u", "ya"}:
            return you
        if you and key in {"your", "ur"}:
            return f"{you}'s" if you != "them" else "their"
        return table.get(key, word)

    return _WORD.sub(swap, text)


def _clean(text: str) -> str:
    """Symbols and emoji out, one space between words."""
    kept = "".join(ch if ch.isalnum() or ch in " '\u2019,:/$€£%-" else " " for ch in text)
    return " ".join(kept.split()).strip(" ,:-")


def deadline(text: str) -> str:
    """The deadline ``text`` sets, as written ("by Friday Oct 30"), or ""."""
    match = _DEADLINE.search(text or "") or _DUE.search(text or "")
    if match is None:
        return ""
    return _clean(_NOT_DEADLINE_END.sub("", match.group(0)))


def asked_words(text: str, *, name: str) -> str:
    """ "Rosa asked you to look over their budget sheet" / "Ivo asked: can I get my tent
    back" from the ask's text, "Ivo asked you for $40" from a sum asked for ("you owe me $40",
    "still need your $40"); "" when it asks nothing the rules read."""
    who = name or "They"
    amount = debt_amount(text or "")
    if amount:
        # A sum asked for is said as the sum ("half of $90 ($45)"), however it was asked.
        return f"{who} asked you for {amount}"
    clause, is_deed = ask_clause(text or "")
    clause = _clean(clause)
    if not clause:
        return ""
    if is_deed:
        return f"{who} asked you to {_turned(clause, _PERSON_TO_ANSWER)}"
    return f"{who} asked: {clause}"


def promised_words(text: str, *, name: str) -> str:
    """ "you said you would bring the paddles" from the user's promise; "" when the promise
    has no clause the rules read."""
    clause, is_verb = promise_clause(text or "")
    clause = _clean(clause)
    if not clause:
        return ""
    if not is_verb:
        # Another language's promise is reported as written.
        return f"you said: {clause}"
    first = name.split()[0] if name else "them"
    return f"you said you would {_turned(clause, _USER_TO_ANSWER, you=first)}"


def owed_detail(*, kind: str, opener_text: str, answered_text: str, person_name: str) -> str:
    """One sentence on what the loop is about and by when: the user's promise with the ask it
    answers, the ask to the user, or the user's own request."""
    from memory.models import LoopKind

    name = person_name or ""
    parts: list[str] = []
    if kind == LoopKind.PROMISE_BY_USER:
        promised = promised_words(opener_text, name=name)
        asked = asked_words(answered_text, name=name) if answered_text else ""
        parts += [words for words in (promised, asked) if words]
        due = deadline(answered_text) if answered_text else ""
        if due and due.lower() not in " ".join(parts).lower():
            parts.append(f"{name or 'they'} wanted it {due}")
    elif kind == LoopKind.QUESTION_TO_USER:
        asked = asked_words(opener_text, name=name)
        if asked:
            parts.append(asked)
    elif kind == LoopKind.REQUEST_BY_USER:
        clause, is_deed = ask_clause(opener_text or "")
        clause = _clean(clause)
        if clause:
            parts.append(
                f"you asked {name or 'them'} to {_turned(clause, _USER_TO_ANSWER)}"
                if is_deed
                else f"you asked {name or 'them'}: {_turned(clause, _USER_TO_ANSWER)}"
            )
    if not parts:
        return ""
    text = "; ".join(parts)
    return text[0].upper() + text[1:]
