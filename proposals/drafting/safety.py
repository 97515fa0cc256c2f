"""The check every draft passes before it is proposed (``draft_is_safe``): no link, address,
phone or account number, sum of money, handle or forwarding chain the question itself does
not contain."""

from __future__ import annotations

import re

from proposals.drafting.context import MAX_DRAFT_CHARS

_URL = re.compile(r"(?:https?://|www\.)\S+|\b[\w-]+\.(?:com|net|org|io|ru|xyz|link|ly)\b", re.I)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_HANDLE = re.compile(r"(?<!\w)@\w{2,}")
_LONG_NUMBER = re.compile(r"(?:\+?\d[\d\s().-]{6,}\d)")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,}\b")
_MONEY = re.compile(
    r"(?:[$€£¥₽]\s?\d|\d\s?(?:[$€£¥₽]|usd|eur|gbp|btc|usdt|dollars?|euros?|pounds?)\b"
    r"|\b(?:bitcoin|crypto|wallet|gift\s*cards?|wire\s+transfer|bank\s+transfer|iban|swift)\b)",
    re.IGNORECASE,
)
# A number of three or more digits (a code, a PIN, an amount) the model cannot have from the
# request, which holds none.
_DIGITS = re.compile(r"\d{3,}")
# Chain letters: asking the recipient to pass the message on to everyone.
_CHAIN = re.compile(
    r"\b(?:forward|share|pass\s+(?:it|this)\s+on|send\s+(?:it|this)\s+on|repost)\b[^.!?\n]{0,60}"
    r"\b(?:everyone|everybody|all\s+(?:your|my|the)\s+\w+|every\s+\w+|anyone)\b",
    re.IGNORECASE,
)
_SAFETY_PATTERNS = (_URL, _EMAIL, _HANDLE, _LONG_NUMBER, _IBAN, _MONEY, _DIGITS, _CHAIN)


def draft_is_safe(draft: str, *, question: str) -> bool:
    """False when the draft carries a link, address, handle, number, account number, payment
    ask or chain-letter request that the user's question does not itself contain, or is empty
    or too long. A model's draft has no other source for these than text it should not obey."""
    text = draft.strip()
    if not text or len(text) > MAX_DRAFT_CHARS:
        return False
    folded_question = question.casefold()
    for pattern in _SAFETY_PATTERNS:
        for match in pattern.finditer(text):
            if match.group(0).strip().casefold() not in folded_question:
                return False
    return True
