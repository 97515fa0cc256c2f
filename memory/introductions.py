"""A contact that says who it is: "hey it's Dana btw, new phone!", "Hi! This is Noor, I got a
new number", "New number, Tom here".

Someone who changes phone number writes from a contact the user has no name for (or a fresh
one), and says their name in the message. That message makes the new contact the same human as
the contact already saved under that name. It counts when

- the message says the number or phone is new ("new number / phone / sim", "changed my
  number", "lost my phone", "save this number") or that this is another app or account of
  theirs ("this is my Signal, save it"), or the contact has no name of its own (its
  label is the number) and it is among its first messages; and
- the name said ("it's Dana", "this is Dana Whitfield", "Dana here") is the name of exactly
  one other human of the user (people already merged count as one): a full name must match
  whole, a first name the contact's first name.

Pure text rules here; ``services.introductions_merge`` records the merges.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from retrieval.lexicon import fold_text

_NAME = r"([A-ZÀ-Ý][a-zà-ÿ'\u2019-]+(?:\s+[A-ZÀ-Ý][a-zà-ÿ'\u2019-]+)?)"
_SAYS_NAME = re.compile(
    r"\b(?:[Ii]t['\u2019]?s|[Ii]t\s+is|[Tt]his\s+is|[Tt]his\s+be)\s+" + _NAME
    + r"|(?:^|[.!,;:]\s*|\b(?:[Hh]i|[Hh]ey|[Hh]ello|[Yy]o)\W+)" + _NAME + r"\s+here\b"
)  # fmt: skip
NEW_CONTACT = re.compile(
    r"\bnew\s+(?:number|phone|mobile|cell|sim|no\.?|#)"
    r"|\bchanged\s+(?:my\s+)?(?:number|phone|sim)"
    r"|\b(?:lost|broke|dropped|smashed|cracked)\s+my\s+(?:old\s+)?(?:phone|sim|mobile)"
    r"|\bsave\s+(?:this|my)\s+(?:new\s+)?(?:number|contact)"
    r"|\b(?:my\s+)?old\s+(?:number|phone|sim)\b"
    # Another app or account of the same human: "this is my telegram, save it".
    r"|\bthis\s+is\s+my\s+(?:new\s+|other\s+|second\s+)?(?:account|handle|profile|username"
    r"|telegram|signal|whatsapp|imessage|instagram|insta|email|e-mail|slack|discord)\b"
    r"|\bsave\s+(?:it|this|me)\b",
    re.IGNORECASE,
)
# The database prefilter: a message without one of these introduces nobody.
INTRODUCTION_VOCABULARY = r"(it'?s|it is|this is|here)"
# "Dana here" and "it's Dana" count among a nameless contact's first messages.
FIRST_MESSAGES = 3
_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*")
# Words that follow "it's" and name nobody.
_NOT_NAMES = frozenset({"me", "i", "ok", "okay", "fine", "true", "done", "here", "time", "not"})


@dataclass(frozen=True)
class SelfIntroduction:
    """A message in which its sender says who they are; ``name`` as written."""

    name: str
    says_new_contact: bool


def self_introduction(text: str) -> SelfIntroduction | None:
    """The name a message's sender gives as their own, or ``None``."""
    for match in _SAYS_NAME.finditer(text or ""):
        name = (match.group(1) or match.group(2) or "").strip()
        if name and fold_text(name.split()[0]) not in _NOT_NAMES:
            return SelfIntroduction(name=name, says_new_contact=bool(NEW_CONTACT.search(text)))
    return None


def name_words(display_name: str) -> list[str]:
    """The folded words of a contact name (emoji and digits are no words)."""
    return [fold_text(word) for word in _WORD.findall(display_name or "")]


def names_match(said: str, display_name: str) -> bool:
    """Whether the name someone gives ("Dana", "Dana Whitfield") is this contact's name: the
    whole contact name, or its first word for a one-word name."""
    said_words = name_words(said)
    words = name_words(display_name)
    if not said_words or not words:
        return False
    if len(said_words) == 1:
        return said_words[0] == words[0]
    return said_words == words[: len(said_words)]
