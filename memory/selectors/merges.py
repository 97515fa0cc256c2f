"""Merges: people read as one person, and suggestions of people to merge."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from claire.accounts.models import User
from conversations.identities import normalise_handle
from conversations.models import (
    IdentityKind,
    Message,
    Person,
    PersonIdentity,
)
from memory.models import PersonMerge
from retrieval.lexicon import fold_text

if TYPE_CHECKING:
    from memory.selectors.relationships import RelationshipMetrics


def person_canonical_ids(*, user: User) -> dict[int, int]:
    """merged person id -> the person it is read as, for the user's active merges."""
    return dict(
        PersonMerge.objects.filter(user=user, split_at__isnull=True).values_list(
            "merged_person_id", "kept_person_id"
        )
    )


def person_ids_expand(*, user: User, person_ids: Sequence[int]) -> tuple[int, ...]:
    """``person_ids`` plus everyone merged with them (either way), for filters such as "messages
    from Emma" that must read all of one human's identities. One query."""
    return person_group_expand(canonical=person_canonical_ids(user=user), person_ids=person_ids)


def person_group_expand(
    *, canonical: Mapping[int, int], person_ids: Sequence[int]
) -> tuple[int, ...]:
    """``person_ids_expand`` with the merges (``person_canonical_ids``) already read."""
    roots = {canonical.get(pk, pk) for pk in person_ids}
    expanded = set(person_ids) | roots
    expanded |= {merged for merged, kept in canonical.items() if kept in roots}
    return tuple(sorted(expanded))


@dataclass(frozen=True)
class MergeSuggestion:
    person_id: int
    other_person_id: int
    display_name: str
    other_display_name: str
    reasons: tuple[str, ...]


def _name_parts(name: str) -> list[str]:
    return [part.strip(".") for part in fold_text(name).split() if part.strip(".")]


def names_compatible(first: str, second: str) -> bool:
    """ "Emma Clarke" ~ "Emma C." ~ "Emma C 🌿": same first name, and any further part of the
    shorter name is the other's part or its initial."""
    a, b = _name_parts(first), _name_parts(second)
    if not a or not b or a[0] != b[0] or (len(a) == 1 and len(b) == 1):
        return False
    return all(
        mine.startswith(theirs) or theirs.startswith(mine)
        for mine, theirs in zip(a[1:], b[1:], strict=False)
    )


def fuller_names(*, user: User, ranked: Sequence[RelationshipMetrics]) -> dict[int, str]:
    """For people saved under a cut name ("Lee H 🏄"), the fuller name their platform showed on
    the messages a ranking cites ("Lee Harwood"): a sender name compatible with the saved one
    (``names_compatible``) with more letters. For people whose cited messages came under a
    handle of a contact merged with them ("dylr" on Discord), that handle, so the answer
    names both ("Dylan (dylr)"). Two queries over the cited messages only."""
    canonical = person_canonical_ids(user=user)
    message_ids = [mid for item in ranked for mid in item.representative_message_ids]
    seen: dict[int, set[str]] = {}
    under_handle: dict[int, set[tuple[int, str]]] = {}
    for person_id, sender_name in (
        Message.objects.filter(user=user, pk__in=message_ids, sender_person__isnull=False)
        .values_list("sender_person_id", "sender_name")
        .distinct()
    ):
        root = canonical.get(person_id, person_id)
        seen.setdefault(root, set()).add(sender_name or "")
        if root != person_id and sender_name:
            under_handle.setdefault(root, set()).add((person_id, sender_name))
    handles = set(
        PersonIdentity.objects.filter(
            user=user,
            kind=IdentityKind.HANDLE,
            person_id__in=[pk for pairs in under_handle.values() for pk, _ in pairs],
        ).values_list("person_id", "value")
    )
    fuller: dict[int, str] = {}
    for item in ranked:
        letters = _letter_count(item.display_name)
        longer = [
            name
            for name in seen.get(item.person_id, ())
            if _letter_count(name) > letters and names_compatible(name, item.display_name)
        ]
        if longer:
            fuller[item.person_id] = max(longer, key=lambda name: (_letter_count(name), name))
            continue
        shown = sorted(
            {
                name
                for pk, name in under_handle.get(item.person_id, ())
                if (pk, normalise_handle(name)) in handles
            }
        )
        if shown:
            fuller[item.person_id] = ", ".join(shown)
    return fuller


def _letter_count(name: str) -> int:
    return sum(char.isalpha() for char in name)


def merge_suggestions(*, user: User, limit: int = 50) -> list[MergeSuggestion]:
    """Pairs of the user's people who may be one human: an identity value they share across
    kinds or platforms (a handle equal to an email's local part, the same number on two
    platforms that the importer could not match), or compatible names. Pairs already merged are
    left out. Suggestions only: nothing changes until the user merges."""
    people = dict(Person.objects.filter(user=user).values_list("pk", "display_name"))
    canonical = person_canonical_ids(user=user)
    reasons: dict[tuple[int, int], list[str]] = {}

    def suggest(first: int, second: int, reason: str) -> None:
        if first == second or canonical.get(first, first) == canonical.get(second, second):
            return
        key = (min(first, second), max(first, second))
        bucket = reasons.setdefault(key, [])
        if reason not in bucket:
            bucket.append(reason)

    by_value: dict[str, set[int]] = {}
    for person_id, kind, value in PersonIdentity.objects.filter(user=user).values_list(
        "person_id", "kind", "value"
    ):
        key = value.lower()
        if kind == IdentityKind.EMAIL:
            key = key.split("@", 1)[0]
        elif kind == IdentityKind.PHONE:
            key = "".join(ch for ch in key if ch.isdigit())[-9:]
        elif kind == IdentityKind.NAME:
            continue
        if len(key) >= 4:
            by_value.setdefault(key, set()).add(person_id)
    for ids in by_value.values():
        ordered = sorted(ids)
        for index, first in enumerate(ordered):
            for second in ordered[index + 1 :]:
                suggest(first, second, "shared identifier")
    by_first_name: dict[str, list[int]] = {}
    for person_id, name in people.items():
        parts = _name_parts(name)
        if parts:
            by_first_name.setdefault(parts[0], []).append(person_id)
    for same_first_name in by_first_name.values():
        ordered = sorted(same_first_name)
        for index, first in enumerate(ordered):
            for second in ordered[index + 1 :]:
                if names_compatible(people[first], people[second]):
                    suggest(first, second, "similar name")
    suggestions = [
        MergeSuggestion(
            person_id=first,
            other_person_id=second,
            display_name=people[first],
            other_display_name=people[second],
            reasons=tuple(found),
        )
        for (first, second), found in sorted(reasons.items())
    ]
    suggestions.sort(key=lambda item: (-len(item.reasons), item.person_id, item.other_person_id))
    return suggestions[: max(limit, 0)]
