"""A handle that is a known contact: the people a group on Discord or Slack shows only by a
handle ("dylr", "samwhit", "kucingoren") are, often, contacts the user already has by name on
another platform. What a careful reader would go by, and what these rules read:

- **The handle is a form of one contact's name** (``handle_fits_name``): the first name and
  the surname joined ("ana.lima", "analima", "lima_ana"), the first name, or a start of it of
  three letters or more, and a start of the surname ("anal", "ana.li", "dylr" for Dylan
  Reid), the first initial and the surname ("alima"), the first name alone, each with digits
  at either end and dots, underscores or hyphens between the parts ("ana_lima92"). A contact
  saved under one word ("Dyl 🦘") fits that word alone or with one more letter (a surname
  initial nobody wrote down: "dylr"). Anything more after the name ("samurai" for Sam) is no
  fit. A form without the surname (the first name alone, a one-word name and a letter) is a
  weaker sign: it counts only in a small group the user writes in
  (``services.handle_links_merge``).
- **The group calls the handle by a name** (``told_names``): the handle's author says it
  ("it's Ana btw", "Ana here"); the next message by someone else answers them by a name
  ("thanks Ana!", "Ana, you coming?"); or a message names a place as someone's ("at Ana's",
  "Ana's place") and the handle's author answers for it as theirs ("my place!", "at mine",
  "chez moi", "en mi casa", "bei mir", "rumahku").

Either way the name must lead to exactly one human the user has, who has no identity on the
handle's platform and is never in a chat with the handle: ``services.handle_links_merge``
checks that and records the link as a ``PersonMerge``. Pure text rules here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.callnames import addressed_name
from memory.introductions import name_words, self_introduction
from retrieval.lexicon import fold_text

# A start of a first name fits a handle from this many letters on ("dyl" of "Dylan").
FIRST_PREFIX_MIN = 3
# Titles before a name are no part of a handle.
_TITLES = frozenset({"dr", "mr", "mrs", "ms", "miss", "prof", "sir", "dra", "sr", "sra"})
_SEPARATORS = re.compile(r"[._\-]+")
_EDGE_DIGITS = re.compile(r"^\d+|\d+$")
_LETTERS = re.compile(r"[a-z]+")


def handle_parts(handle: str) -> tuple[str, ...]:
    """The letter parts of a handle, folded, without the ``@``, digits at its ends, and the
    separators between its parts ("@Ana_Lima92" -> ("ana", "lima")); empty when a digit or
    another sign is left inside a part ("d3lan")."""
    core = fold_text(handle.strip().lstrip("@"))
    core = _EDGE_DIGITS.sub("", _SEPARATORS.sub(".", core).strip("."))
    core = _EDGE_DIGITS.sub("", core.strip(".")).strip(".")
    parts = tuple(part for part in _SEPARATORS.split(core) if part)
    if not parts or not all(_LETTERS.fullmatch(part) for part in parts):
        return ()
    return parts


def _name_parts(display_name: str) -> tuple[str, str]:
    """(first name, surname) of a contact name, folded; the surname empty for one word."""
    words = [word.rstrip(".") for word in name_words(display_name)]
    words = [word for word in words if word and word not in _TITLES]
    words = [word for word in words if _LETTERS.fullmatch(word)]
    if not words:
        return "", ""
    return words[0], words[-1] if len(words) > 1 else ""


def handle_fits_name(handle: str, display_name: str) -> bool:
    """Whether ``handle`` is a form of the contact name ``display_name`` (see the module)."""
    return handle_fit(handle, display_name) is not None


def handle_fit(handle: str, display_name: str) -> str | None:
    """How ``handle`` fits the contact name ``display_name``: ``"surname"`` when the handle
    holds the surname or its start with the first name, ``"first"`` when it is the first name
    alone, or a one-word name and one letter (a weaker sign: many people share a first
    name); ``None`` when it is no form of the name."""
    parts = handle_parts(handle)
    first, last = _name_parts(display_name)
    if not parts or len(first) < FIRST_PREFIX_MIN - 1:
        return None
    joined = "".join(parts)
    if joined == first:
        return "first" if len(first) >= FIRST_PREFIX_MIN else None
    if not last:
        # A one-word name and one letter more: a surname initial nobody saved.
        fits = len(first) >= FIRST_PREFIX_MIN and len(joined) == len(first) + 1
        return "first" if fits and joined.startswith(first) else None
    if joined in {first + last, last + first, first[0] + last, last + first[0]}:
        return "surname"
    heads = [len(first), *range(len(first) - 1, FIRST_PREFIX_MIN - 1, -1)]
    if len(parts) == 2:
        head, rest = parts
        fits = len(head) in heads and first.startswith(head) and last.startswith(rest)
        return "surname" if fits else None
    if len(parts) > 2:
        return None
    # A start of the first name (three letters or all of it) and a start of the surname.
    fits = any(
        joined[:cut] == first[:cut] and joined[cut:] and last.startswith(joined[cut:])
        for cut in heads
    )
    return "surname" if fits else None


# "at Ana's", "Ana's place", "chez Ana", "en casa de Ana", "bei Ana", "di rumah Ana": a place
# named as someone's.
_NAME = r"([A-ZÀ-Ý][a-zà-ÿ'\u2019-]+)"
_PLACE_NOUNS = r"place|house|flat|apartment|apt|pad|home|unit|room"
_PLACE_OF = re.compile(
    rf"\b(?i:at|to)\s+{_NAME}['\u2019]s\b"
    rf"|\b{_NAME}['\u2019]s\s+(?i:{_PLACE_NOUNS})\b"
    rf"|\b(?i:chez|bei|(?:en|a)\s+(?:la\s+)?casa\s+de|(?:di|ke)\s+rumah(?:nya)?)\s+{_NAME}\b"
)
# The answer that takes the place as one's own: "my place!", "at mine", "ours works".
_MY_PLACE = re.compile(
    rf"\b(?:my\s+(?:{_PLACE_NOUNS})|at\s+mine|(?:ok|yes|yep|sure)\W+mine|chez\s+moi|bei\s+mir"
    r"|(?:en|a)\s+mi\s+casa|(?:na|em)\s+minha\s+casa|(?:di|ke)\s+rumah\s*(?:ku|saya|aku)"
    r"|rumahku|tempatku|tempat\s+(?:ku|aku|saya))\b",
    re.IGNORECASE,
)


def place_owner_names(text: str) -> tuple[str, ...]:
    """The names a message gives a place as belonging to ("at Ana's" -> ("Ana",))."""
    names = []
    for match in _PLACE_OF.finditer(text or ""):
        name = next((group for group in match.groups() if group), "")
        if name:
            names.append(name)
    return tuple(dict.fromkeys(names))


def claims_place(text: str) -> bool:
    """Whether a message answers for a place as the writer's own ("boleh, my place!")."""
    return bool(_MY_PLACE.search(text or ""))


@dataclass(frozen=True)
class ChatLine:
    """A message of a group as the rules read it: ``sender`` is a person id, 0 for the user."""

    message_id: int
    sender: int
    text: str


@dataclass(frozen=True)
class ToldName:
    """A name a group gives one of its members, and the message that gives it."""

    person_id: int
    name: str
    message_id: int


# How many messages after a place is named its owner's answer may come.
PLACE_ANSWER_WITHIN = 3
_MENTION = re.compile(r"@[\w.\-]+")


def told_names(lines: list[ChatLine]) -> list[ToldName]:
    """The names the members of one group are given in it, oldest first (see the module):
    what a member says of themselves, a name the next message by someone else answers them
    by, a place named as someone's that the member answers for as theirs."""
    told: list[ToldName] = []
    for index, line in enumerate(lines):
        if line.sender:
            said = self_introduction(line.text)
            if said is not None and len(name_words(said.name)) == 1:
                told.append(ToldName(line.sender, said.name, line.message_id))
        previous = lines[index - 1] if index else None
        if previous is not None and previous.sender and previous.sender != line.sender:
            name = addressed_name(_MENTION.sub("", line.text).strip())
            if name:
                told.append(ToldName(previous.sender, name, line.message_id))
        for name in place_owner_names(line.text):
            for answer in lines[index + 1 : index + 1 + PLACE_ANSWER_WITHIN]:
                if answer.sender and answer.sender != line.sender and claims_place(answer.text):
                    told.append(ToldName(answer.sender, name, answer.message_id))
                    break
    return told
