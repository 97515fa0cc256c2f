"""The user's people by name and chat membership (``PeopleDirectory``), for finding who a
message names."""

from __future__ import annotations

from claire.accounts.models import User
from conversations.models import ChatParticipant, Person
from memory.callnames import people_called_by
from memory.extract import WORK_RELATIONS, FactClaim
from memory.introductions import name_words
from memory.models import FactKind
from retrieval.lexicon import fold_text
from retrieval.people_context import WORK_PLATFORMS

_TITLES = frozenset({"mr", "mrs", "ms", "miss", "mx", "dr", "prof"})


def _untitled_words(name: str) -> list[str]:
    words = [word.strip(".") for word in name_words(name)]
    return words[1:] if len(words) > 1 and words[0] in _TITLES else words


def _first_name_key(name: str) -> str:
    words = fold_text(name).split()
    return words[0] if words else ""


class PeopleDirectory:
    """The user's people by name and chat membership, for finding who a message names."""

    def __init__(self, *, user: User) -> None:
        self.user = user
        self._called: dict[str, int | None] = {}
        self.names: dict[int, str] = dict(
            Person.objects.filter(user=user).values_list("pk", "display_name")
        )
        self._by_first: dict[str, list[int]] = {}
        for person_id, name in self.names.items():
            self._by_first.setdefault(_first_name_key(name), []).append(person_id)
        # Name words without a leading title ("Mr Park": ["park"]).
        self._words: dict[int, list[str]] = {
            pk: _untitled_words(name) for pk, name in self.names.items()
        }
        self.members: dict[int, set[int]] = {}
        self.at_work: set[int] = set()
        for chat_id, person_id, platform in ChatParticipant.objects.filter(
            chat__user=user
        ).values_list("chat_id", "person_id", "chat__platform"):
            self.members.setdefault(chat_id, set()).add(person_id)
            if platform in WORK_PLATFORMS:
                self.at_work.add(person_id)

    def by_first_name(self, name: str, *, chat_id: int) -> int | None:
        """Someone named by first name: a member of the chat, else the only person of the user
        with that first name; ``None`` when that is not one person."""
        candidates = self._by_first.get(_first_name_key(name), [])
        here = [pk for pk in candidates if pk in self.members.get(chat_id, set())]
        chosen = here or candidates
        return chosen[0] if len(chosen) == 1 else None

    def by_claim(self, claim: FactClaim, *, chat_id: int) -> int | None:
        """The person a fact's "named:Clara" / "titled:Park" subject names. A work relation
        ("my boss Sam") between people sharing the name means the one the user talks to on a
        work platform."""
        kind, _, name = claim.subject.partition(":")
        if kind == "titled":
            return self.by_surname(name, chat_id=chat_id)
        found = self.by_first_name(name, chat_id=chat_id)
        namesakes = self._by_first.get(_first_name_key(name), [])
        if found is None and claim.kind == FactKind.RELATIONSHIP and claim.value in WORK_RELATIONS:
            at_work = [pk for pk in namesakes if pk in self.at_work]
            found = at_work[0] if len(at_work) == 1 else None
        if found is None and not namesakes:
            found = self.called(name)
        return found

    def called(self, name: str) -> int | None:
        """The one contact the user calls ``name`` though no contact is saved under it
        ("Maya" for the sister saved as "Bubbles"; ``memory.callnames``)."""
        key = fold_text(name)
        if key not in self._called:
            ids = people_called_by(user=self.user, names=[key]).get(key, ())
            self._called[key] = min(ids) if ids else None
        return self._called[key]

    def by_surname(self, name: str, *, chat_id: int) -> int | None:
        """Someone named by a title and a surname ("Mr. Park"): a member of the chat whose
        name ends with it or is titled with it, else the only such person of the user."""
        key = fold_text(name).strip()
        candidates = [
            pk for pk, words in self._words.items() if words and key in (words[-1], words[0])
        ]
        here = [pk for pk in candidates if pk in self.members.get(chat_id, set())]
        chosen = here or candidates
        return chosen[0] if len(chosen) == 1 else None

    def by_name(self, name: str, *, chat_id: int, sender_id: int | None) -> int | None:
        """Someone named in full or by first name: the sender, else the one member of the chat
        with that full name, else ``by_first_name``."""
        folded = fold_text(name).strip()
        if not folded:
            return None
        if sender_id is not None:
            sender = fold_text(self.names.get(sender_id, ""))
            if folded in (sender, _first_name_key(sender)):
                return sender_id
        exact = [
            pk for pk in self.members.get(chat_id, set()) if fold_text(self.names[pk]) == folded
        ]
        if len(exact) == 1:
            return exact[0]
        return self.by_first_name(folded, chat_id=chat_id)
