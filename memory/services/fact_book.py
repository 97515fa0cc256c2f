"""Facts in the making (``_FactBook``: a single-valued kind keeps one current value, a later
different value supersedes it) and their storage (``_facts_write``: only the people whose facts
changed are written)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Q

from claire.accounts.models import User
from memory.models import (
    SINGLE_VALUED_FACT_KINDS,
    FactBasis,
    FactOrigin,
    PersonFact,
    PersonFactSource,
)
from retrieval.lexicon import fold_text


@dataclass
class _FactDraft:
    person_id: int
    kind: str
    value: str
    related_person_id: int | None
    valid_from: datetime
    is_sensitive: bool = False
    origin: str = FactOrigin.RULES
    message_ids: list[int] = field(default_factory=list)
    superseded_by: _FactDraft | None = None
    # How a source message proves the fact, when not by stating it (``FactBasis``).
    bases: dict[int, str] = field(default_factory=dict)


class _FactBook:
    """Facts in the making, in send-time order: a single-valued kind keeps one current value,
    and a different later value supersedes it."""

    def __init__(self) -> None:
        self.drafts: list[_FactDraft] = []
        self._current: dict[tuple[int, str, int | None], _FactDraft] = {}
        self._by_value: dict[tuple[int, str, str, int | None], _FactDraft] = {}

    def add(
        self,
        *,
        person_id: int,
        kind: str,
        value: str,
        message_id: int,
        sent_at: datetime,
        related_person_id: int | None = None,
        is_sensitive: bool = False,
        previous: str = "",
        origin: str = FactOrigin.RULES,
        basis: str = FactBasis.STATEMENT,
    ) -> None:
        slot = (person_id, kind, related_person_id)
        if previous and kind in SINGLE_VALUED_FACT_KINDS and slot not in self._current:
            self.add(
                person_id=person_id,
                kind=kind,
                value=previous,
                message_id=message_id,
                sent_at=sent_at,
                origin=origin,
            )
        if kind in SINGLE_VALUED_FACT_KINDS:
            current = self._current.get(slot)
            if current is not None and fold_text(current.value) == fold_text(value):
                current.message_ids.append(message_id)
                return
            draft = self._new(
                person_id, kind, value, related_person_id, sent_at, is_sensitive, origin
            )
            draft.message_ids.append(message_id)
            if current is not None:
                current.superseded_by = draft
            self._current[slot] = draft
            return
        key = (person_id, kind, fold_text(value), related_person_id)
        existing = self._by_value.get(key)
        if existing is None:
            existing = self._new(
                person_id, kind, value, related_person_id, sent_at, is_sensitive, origin
            )
            self._by_value[key] = existing
        if message_id not in existing.message_ids:
            existing.message_ids.append(message_id)
            if basis != FactBasis.STATEMENT:
                existing.bases[message_id] = basis
            existing.valid_from = min(existing.valid_from, sent_at)

    def _new(
        self,
        person_id: int,
        kind: str,
        value: str,
        related_person_id: int | None,
        sent_at: datetime,
        is_sensitive: bool,
        origin: str,
    ) -> _FactDraft:
        draft = _FactDraft(
            person_id=person_id,
            kind=kind,
            value=value[:255],
            related_person_id=related_person_id,
            valid_from=sent_at,
            is_sensitive=is_sensitive,
            origin=origin,
        )
        self.drafts.append(draft)
        return draft


_FactShape = tuple[
    str, str, int | None, datetime, bool, str, int | None, frozenset[tuple[int, str]]
]


def _drafts_shape(drafts: Sequence[_FactDraft]) -> list[_FactShape]:
    """One person's drafts as comparable rows (supersession as the index of the successor)."""
    index = {id(draft): position for position, draft in enumerate(drafts)}
    return [
        (
            draft.kind,
            draft.value,
            draft.related_person_id,
            draft.valid_from,
            draft.is_sensitive,
            draft.origin,
            index[id(draft.superseded_by)] if draft.superseded_by is not None else None,
            frozenset((pk, draft.bases.get(pk, FactBasis.STATEMENT)) for pk in draft.message_ids),
        )
        for draft in drafts
    ]


def _stored_shapes(*, user: User) -> tuple[dict[int, list[_FactShape]], dict[int, list[int]]]:
    """The stored facts of each person as ``_drafts_shape`` gives them (facts in id order, the
    order they were written in), and their ids in that order."""
    sources: dict[int, set[tuple[int, str]]] = {}
    for fact_id, message_id, basis in PersonFactSource.objects.filter(fact__user=user).values_list(
        "fact_id", "message_id", "basis"
    ):
        sources.setdefault(fact_id, set()).add((message_id, basis))
    facts: dict[int, list[tuple[Any, ...]]] = {}
    for row in (
        PersonFact.objects.filter(user=user)
        .order_by("pk")
        .values_list(
            "pk",
            "person_id",
            "kind",
            "value",
            "related_person_id",
            "valid_from",
            "is_sensitive",
            "origin",
            "superseded_by_id",
        )
    ):
        facts.setdefault(row[1], []).append(row)
    shapes: dict[int, list[_FactShape]] = {}
    for person_id, rows in facts.items():
        index = {row[0]: position for position, row in enumerate(rows)}
        shapes[person_id] = [
            (
                kind,
                value,
                related,
                valid_from,
                is_sensitive,
                origin,
                index.get(successor, -1) if successor is not None else None,
                frozenset(sources.get(pk, ())),
            )
            for pk, _, kind, value, related, valid_from, is_sensitive, origin, successor in rows
        ]
    return shapes, {person_id: [row[0] for row in rows] for person_id, rows in facts.items()}


def _facts_write(*, user: User, drafts: Sequence[_FactDraft]) -> int:
    """Store the drafts of each person whose facts differ from the stored ones: the sources
    that moved when only they did, else that person's facts replaced whole. Returns how many
    people were replaced and sources added."""
    by_person: dict[int, list[_FactDraft]] = {}
    for draft in drafts:
        by_person.setdefault(draft.person_id, []).append(draft)
    stored, fact_ids = _stored_shapes(user=user)
    changed: set[int] = set()
    added: list[PersonFactSource] = []
    removed = Q(pk__in=[])
    for person_id in {*by_person, *stored}:
        wanted = _drafts_shape(by_person.get(person_id, []))
        held = stored.get(person_id, [])
        if wanted == held:
            continue
        if len(wanted) != len(held) or any(
            new[:-1] != old[:-1] for new, old in zip(wanted, held, strict=True)
        ):
            changed.add(person_id)
            continue
        # The same facts: only the messages that support them moved.
        for fact_id, new, old in zip(fact_ids[person_id], wanted, held, strict=True):
            for message_id, basis in old[-1] - new[-1]:
                removed |= Q(fact_id=fact_id, message_id=message_id, basis=basis)
            added.extend(
                PersonFactSource(fact_id=fact_id, message_id=message_id, basis=basis)
                for message_id, basis in new[-1] - old[-1]
            )
    PersonFactSource.objects.filter(removed).delete()
    PersonFactSource.objects.bulk_create(added)
    if not changed:
        return len(added)
    PersonFact.objects.filter(user=user, person_id__in=changed).delete()
    written = [draft for draft in drafts if draft.person_id in changed]
    created = PersonFact.objects.bulk_create(
        PersonFact(
            user=user,
            person_id=draft.person_id,
            kind=draft.kind,
            value=draft.value,
            related_person_id=draft.related_person_id,
            valid_from=draft.valid_from,
            is_sensitive=draft.is_sensitive,
            origin=draft.origin,
        )
        for draft in written
    )
    row_of = {id(draft): row for draft, row in zip(written, created, strict=True)}
    superseded = []
    for draft in written:
        if draft.superseded_by is not None:
            row = row_of[id(draft)]
            row.superseded_by = row_of[id(draft.superseded_by)]
            superseded.append(row)
    PersonFact.objects.bulk_update(superseded, ["superseded_by"])
    PersonFactSource.objects.bulk_create(
        PersonFactSource(
            fact=row_of[id(draft)],
            message_id=message_id,
            basis=draft.bases.get(message_id, FactBasis.STATEMENT),
        )
        for draft in written
        for message_id in draft.message_ids
    )
    return len(changed) + len(added)
