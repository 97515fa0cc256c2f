"""Which of the user's chats a question names: by its title ("catch me up on #design-review")
or by what a group is about ("the hiking group", "our band chat").

A group's title rarely says what people call it: "Trail Rats 🥾" is "the hiking group". So a
word said just before "group", "chat" or "channel" names a group when it shares a stem with a
word of the group's title or with the name of an emoji in it (the Unicode name of 🥾 is
"HIKING BOOT"); a shortened title word counts ("fam" for "family"). Only the user's chats
not excluded from AI are read; the title is the user's own data, never message text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from claire.accounts.models import User
from conversations.models import Chat, ChatKind, Person
from retrieval.lexicon import STOP_WORDS, fold_text

# "the <word> group", "my <word> <word> chat", "the <word> channel".
_DESCRIBED = re.compile(
    r"\b(?P<words>[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?)\s+(?:group|chat|channel|thread|server)s?\b"
)
# Words said before "group" that describe no subject.
_NOT_DESCRIBING = frozenset(
    {"the", "my", "our", "a", "that", "this", "whole", "group", "chat", "new", "old", "big"}
)
_SUFFIXES = ("ings", "ing", "ers", "er", "es", "s")
MIN_STEM = 3
# Unicode categories nobody types when naming a chat: emoji, modifiers, joiners, selectors.
_NOT_SAID = frozenset({"So", "Sk", "Cf", "Mn", "Me"})


def word_stem(word: str) -> str:
    """A crude stem that makes "running", "runners" and "runner" one word ("run"): a common
    suffix off, then a doubled last consonant single."""
    word = fold_text(word)
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM:
            word = word[: -len(suffix)]
            break
    if len(word) > MIN_STEM and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]
    return word


def title_stems(title: str) -> set[str]:
    """Stems of a title's words and of the words of its emoji's Unicode names."""
    words = re.findall(r"[a-z]+", fold_text(title))
    for char in title:
        if unicodedata.category(char) == "So":
            words += re.findall(r"[a-z]+", unicodedata.name(char, "").lower())
    return {word_stem(word) for word in words if len(word) >= MIN_STEM}


def _title_words(title: str) -> str:
    """A folded title without its emoji ("Trail Rats 🥾" is said "trail rats")."""
    kept = "".join(
        " " if unicodedata.category(char) in _NOT_SAID else char for char in fold_text(title)
    )
    return " ".join(kept.split())


def described_stems(folded_question: str) -> set[str]:
    """Stems of the words a folded question says a group is about ("the climbing group")."""
    stems: set[str] = set()
    for match in _DESCRIBED.finditer(folded_question):
        for word in match.group("words").split():
            if word in _NOT_DESCRIBING or word in STOP_WORDS or len(word) < MIN_STEM:
                continue
            stems.add(word_stem(word))
    return stems


def chats_named(*, user: User, question: str, groups_only: bool = False) -> list[int]:
    """The user's chats (visible to AI; groups only when ``groups_only``) whose title the
    question says, else the groups it describes by a subject their title holds; empty when it
    names none. One query."""
    folded = fold_text(question)
    chats = Chat.objects.filter(user=user, is_excluded_from_ai=False)
    if groups_only:
        chats = chats.exclude(kind=ChatKind.DIRECT)
    rows = list(chats.values_list("pk", "title", "kind"))
    named = []
    for pk, title, _kind in rows:
        key = _title_words(title or "")
        if len(key) >= MIN_STEM and re.search(rf"(?<!\w){re.escape(key)}(?!\w)", folded):
            named.append(pk)
    if named:
        return named
    known: list[frozenset[str]] = []

    def people_words() -> frozenset[str]:
        # Read once, and only when a lone title word is said after "on / in / from / at".
        if not known:
            known.append(_people_words(user))
        return known[0]

    partly = _partly_titled(folded, rows, people_words=people_words)
    if partly:
        return partly
    described = described_stems(folded)
    if not described:
        return []
    return [
        pk
        for pk, title, kind in rows
        if kind != ChatKind.DIRECT and _stems_meet(described, title_stems(title or ""))
    ]


# A title word said alone names its chat only after "on", "in" or "from" ("catch me up on
# Fitzroy"), and never when it is a word of time ("on the weekend" names no "Weekend Crew").
_AFTER_PLACE_WORD = r"(?:on|in|from|at)\s+(?:the\s+|my\s+|our\s+)?"
_TIME_WORDS = frozenset(
    [
        "week",
        "weekend",
        "weeks",
        "month",
        "months",
        "year",
        "today",
        "tonight",
        "tomorrow",
        "yesterday",
        "morning",
        "evening",
        "night",
        "days",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ]
)
PARTIAL_WORD_MIN = 4


def _people_words(user: User) -> frozenset[str]:
    """The words of the user's contacts' names: "catch me up on Tilde" names Tilde, not the
    group "Tilde's 40th"."""
    return frozenset(
        word
        for name in Person.objects.filter(user=user).values_list("display_name", flat=True)
        for word in re.findall(r"[a-z0-9]+", fold_text(name or ""))
    )


def _partly_titled(
    folded: str, rows: list[tuple[int, str, str]], *, people_words: Callable[[], frozenset[str]]
) -> list[int]:
    """Chats the question names by part of their title: two or more consecutive title words
    ("the pottery circle" for "Pottery Circle 🏺 Elmwood"), or one longer title word after
    "on / in / from"; the chats with the longest such run, when that run is said of few chats."""
    best: list[int] = []
    best_length = 0
    for pk, title, kind in rows:
        words = [
            word
            for word in re.findall(r"[a-z0-9]+", _title_words(title or ""))
            if word not in STOP_WORDS
        ]
        length = _longest_run_said(
            folded, words, single=kind != ChatKind.DIRECT, people_words=people_words
        )
        if length > best_length:
            best, best_length = [pk], length
        elif length and length == best_length:
            best.append(pk)
    # A run shared by many chats ("group" in every title) names none of them.
    return best if len(best) <= 2 else []


def _longest_run_said(
    folded: str, words: list[str], *, single: bool, people_words: Callable[[], frozenset[str]]
) -> int:
    longest = 0
    for start in range(len(words)):
        for end in range(len(words), start, -1):
            run = words[start:end]
            if end - start <= longest:
                break
            phrase = r"\s+".join(re.escape(word) for word in run)
            if len(run) >= 2:
                if re.search(rf"(?<!\w){phrase}(?!\w)", folded):
                    longest = len(run)
            elif (
                single
                and len(run[0]) >= PARTIAL_WORD_MIN
                and run[0] not in _TIME_WORDS
                and not run[0].isdigit()
                and re.search(rf"\b{_AFTER_PLACE_WORD}{phrase}(?!\w)", folded)
                and run[0] not in people_words()
            ):
                longest = 1
    return longest


def _stems_meet(described: set[str], title: set[str]) -> bool:
    """A described stem equals a title stem, or one starts the other ("fam" for "family")."""
    return any(
        said.startswith(held) or held.startswith(said) for said in described for held in title
    )
