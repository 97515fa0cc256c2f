"""Facts about people, and identity lookup: who matches attributes asked about."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from claire.accounts.models import User
from conversations.models import (
    Message,
    Person,
)
from memory.extract import RELATIONS
from memory.models import (
    FactKind,
    PersonFact,
    PersonFactSource,
)
from memory.places import cities_in, nationality_of_place
from retrieval.lexicon import NATIONALITIES, fold_text


@dataclass(frozen=True)
class PersonFactView:
    fact_id: int
    person_id: int
    kind: FactKind
    value: str
    related_person_id: int | None
    valid_from: datetime
    superseded_by_id: int | None
    source_message_ids: tuple[int, ...]

    @property
    def is_current(self) -> bool:
        return self.superseded_by_id is None


def person_facts_for_user(
    *,
    user: User,
    person_ids: Sequence[int] | None = None,
    kinds: Sequence[str] = (),
    include_superseded: bool = True,
    related_person_ids: Sequence[int] | None = None,
) -> list[PersonFactView]:
    """Facts about the user's people, oldest first, each with the ids of the messages that
    support it. Sources in chats excluded from AI are left out, and a fact left with no visible
    source is not returned. Two queries."""
    facts = PersonFact.objects.filter(user=user)
    if person_ids is not None:
        facts = facts.filter(person_id__in=list(person_ids))
    if kinds:
        facts = facts.filter(kind__in=list(kinds))
    if not include_superseded:
        facts = facts.filter(superseded_by__isnull=True)
    if related_person_ids is not None:
        facts = facts.filter(related_person_id__in=list(related_person_ids))
    rows = list(facts.order_by("valid_from", "pk"))
    sources: dict[int, list[int]] = {row.pk: [] for row in rows}
    for fact_id, message_id in (
        PersonFactSource.objects.filter(
            fact_id__in=list(sources), message__chat__is_excluded_from_ai=False
        )
        .order_by("message__sent_at", "message_id")
        .values_list("fact_id", "message_id")
    ):
        sources[fact_id].append(message_id)
    return [
        PersonFactView(
            fact_id=row.pk,
            person_id=row.person_id,
            kind=FactKind(row.kind),
            value=row.value,
            related_person_id=row.related_person_id,
            valid_from=row.valid_from,
            superseded_by_id=row.superseded_by_id,
            source_message_ids=tuple(sources[row.pk]),
        )
        for row in rows
        if sources[row.pk]
    ]


@dataclass(frozen=True)
class DerivedAttribute:
    """An attribute inferred at answer time and never stored (e.g. a nationality read from
    "I'm from Moscow"), with the messages it is read from."""

    name: str
    value: str
    reason: str
    source_message_ids: tuple[int, ...]


@dataclass(frozen=True)
class IdentityMatch:
    person_id: int
    display_name: str
    facts: tuple[PersonFactView, ...]
    derived: tuple[DerivedAttribute, ...]
    evidence_message_ids: tuple[int, ...]
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class IdentityLookupResult:
    """People matching every descriptor, the place and the window, best first. Empty
    ``matches`` means nothing matched in the searched window: say so plainly."""

    matches: tuple[IdentityMatch, ...]
    searched_start: datetime | None
    searched_end: datetime | None


_STAY_START = re.compile(r"\b(?:landed|arrived|arriving|lands|landing|back) in\b", re.IGNORECASE)


def user_stays(*, user: User) -> list[tuple[str, datetime, datetime | None]]:
    """Where the user was, read from their own messages ("Landed in Mexico City!", "Lands in
    Lisbon tomorrow"): (city, from, until) in time order; a stay lasts until the next one.
    Reads only the user's messages that use those phrases."""
    starts: list[tuple[datetime, str]] = []
    for text, sent_at in (
        Message.objects.filter(
            user=user,
            is_from_self=True,
            deleted_at__isnull=True,
            text__iregex=r"(landed|arrived|arriving|lands|landing|back) in ",
        )
        .order_by("sent_at", "pk")
        .values_list("text", "sent_at")
    ):
        for match in _STAY_START.finditer(text):
            cities = cities_in(text[match.end() : match.end() + 60])
            if cities:
                shift = timedelta(days=1) if "tomorrow" in text.lower() else timedelta(0)
                starts.append((sent_at + shift, cities[0]))
                break
    stays: list[tuple[str, datetime, datetime | None]] = []
    for index, (start, city) in enumerate(starts):
        until = starts[index + 1][0] if index + 1 < len(starts) else None
        stays.append((city, start, until))
    return stays


def _people_first_met_during(
    *, user: User, start: datetime, end: datetime | None
) -> dict[int, int]:
    """People whose first message to or with the user falls in [start, end): person id ->
    that first message id (in a chat visible to AI)."""
    first_messages = (
        Message.objects.filter(
            user=user,
            deleted_at__isnull=True,
            sender_person__isnull=False,
            chat__is_excluded_from_ai=False,
        )
        .order_by("sender_person_id", "sent_at", "pk")
        .distinct("sender_person_id")
        .values_list("sender_person_id", "pk", "sent_at")
    )
    met: dict[int, int] = {}
    for person_id, message_id, sent_at in first_messages:
        if sent_at >= start and (end is None or sent_at < end):
            met[person_id] = message_id
    return met


def _place_matches(value: str, city: str) -> bool:
    return fold_text(city) in fold_text(value)


def identity_lookup(
    *,
    user: User,
    descriptors: Sequence[str] = (),
    city: str | None = None,
    start: datetime | None = None,
    end: datetime | None = None,
    person_ids: Sequence[int] | None = None,
    related_to_person_ids: Sequence[int] | None = None,
    related_to_user: bool = False,
    limit: int = 5,
) -> IdentityLookupResult:
    """Who the user means by descriptors, a place and a window ("the Russian guy I met in
    Mexico City", "Ana's brother").

    Candidates: ``person_ids`` when given; people with a relationship fact to
    ``related_to_person_ids``, or to the user with ``related_to_user`` ("my sister"); and, for a
    ``city``, people the user met there (a ``met_at``
    fact naming it, or a first message while the user was staying there, per ``user_stays``),
    or who live in / come from it. ``start``/``end`` bound the meeting and the supporting
    messages. Each descriptor must match: a nationality (``retrieval.lexicon.NATIONALITIES``)
    is derived at answer time from where the person is from or lives (never stored unless the
    memory policy kept a stated one); a relation word must be a relationship fact. Everything
    returned cites the messages it rests on.
    """
    facts = person_facts_for_user(user=user, person_ids=person_ids)
    facts_by_person: dict[int, list[PersonFactView]] = {}
    for fact in facts:
        facts_by_person.setdefault(fact.person_id, []).append(fact)

    def in_window(moment: datetime) -> bool:
        return (start is None or moment >= start) and (end is None or moment < end)

    evidence: dict[int, list[int]] = {}
    reasons: dict[int, list[str]] = {}

    def note(person_id: int, reason: str, message_ids: Sequence[int]) -> None:
        reasons.setdefault(person_id, []).append(reason)
        bucket = evidence.setdefault(person_id, [])
        bucket.extend(mid for mid in message_ids if mid not in bucket)

    if person_ids is not None:
        for person_id in person_ids:
            note(person_id, "named", ())
    if related_to_person_ids is not None:
        related_names = dict(
            Person.objects.filter(user=user, pk__in=list(related_to_person_ids)).values_list(
                "pk", "display_name"
            )
        )
        for fact in facts:
            if fact.kind == FactKind.RELATIONSHIP and fact.related_person_id in set(
                related_to_person_ids
            ):
                note(
                    fact.person_id,
                    f"{fact.value} of {related_names.get(fact.related_person_id or 0, '')}",
                    fact.source_message_ids,
                )
    if related_to_user:
        # "my sister": the user's relationships of the kinds the descriptors name (any kind
        # when they name none).
        wanted = {fold_text(d) for d in descriptors} & {fold_text(w) for w in RELATIONS}
        for fact in facts:
            if (
                fact.kind == FactKind.RELATIONSHIP
                and fact.related_person_id is None
                and (not wanted or fold_text(fact.value) in wanted)
            ):
                note(fact.person_id, f"your {fact.value}", fact.source_message_ids)
    if city:
        for fact in facts:
            if (
                fact.kind in (FactKind.MET_AT, FactKind.LIVES_IN, FactKind.ORIGIN)
                and _place_matches(fact.value, city)
                and in_window(fact.valid_from)
            ):
                note(fact.person_id, f"{fact.kind} {fact.value}", fact.source_message_ids)
        for stay_city, stay_start, stay_end in user_stays(user=user):
            if fold_text(stay_city) != fold_text(city):
                continue
            window_start = max(stay_start, start) if start else stay_start
            window_end = min(stay_end, end) if (stay_end and end) else (stay_end or end)
            met = _people_first_met_during(user=user, start=window_start, end=window_end)
            for person_id, message_id in met.items():
                note(person_id, f"first met while you were in {stay_city}", (message_id,))
        # A meeting fact in the same message as the city counts as met there.
        city_messages = set(
            Message.objects.filter(
                user=user,
                deleted_at__isnull=True,
                chat__is_excluded_from_ai=False,
                pk__in=[
                    mid
                    for fact in facts
                    if fact.kind == FactKind.MET_AT
                    for mid in fact.source_message_ids
                ],
                text__icontains=city,
            ).values_list("pk", flat=True)
        )
        for fact in facts:
            if fact.kind == FactKind.MET_AT and city_messages & set(fact.source_message_ids):
                note(fact.person_id, f"met at {fact.value}, {city}", fact.source_message_ids)

    candidates = list(evidence)
    if person_ids is None and related_to_person_ids is None and not related_to_user and not city:
        candidates = []
    nationalities = {fold_text(canonical): canonical for canonical in NATIONALITIES}
    relation_words = {fold_text(word) for word in RELATIONS}
    names = dict(
        Person.objects.filter(user=user, pk__in=candidates).values_list("pk", "display_name")
    )
    matches: list[IdentityMatch] = []
    for person_id in candidates:
        person_facts = facts_by_person.get(person_id, [])
        derived: list[DerivedAttribute] = []
        ok = True
        for descriptor in descriptors:
            folded = fold_text(descriptor)
            if folded in nationalities:
                nationality = nationalities[folded]
                stated = [
                    f
                    for f in person_facts
                    if f.kind == FactKind.NATIONALITY and f.value == nationality
                ]
                implied = [
                    f
                    for f in person_facts
                    if f.kind in (FactKind.ORIGIN, FactKind.LIVES_IN)
                    and nationality_of_place(f.value) == nationality
                ]
                support = stated or sorted(implied, key=lambda f: f.kind != FactKind.ORIGIN)
                if not support:
                    ok = False
                    break
                derived.append(
                    DerivedAttribute(
                        name="nationality",
                        value=nationality,
                        reason=f"{support[0].kind} {support[0].value}",
                        source_message_ids=support[0].source_message_ids,
                    )
                )
                note(
                    person_id,
                    f"{nationality} ({support[0].kind} {support[0].value})",
                    support[0].source_message_ids,
                )
            elif folded in relation_words and not any(
                f.kind == FactKind.RELATIONSHIP and fold_text(f.value) == folded
                for f in person_facts
            ):
                ok = False
                break
        if not ok:
            continue
        current_facts = tuple(f for f in person_facts if f.is_current)
        matches.append(
            IdentityMatch(
                person_id=person_id,
                display_name=names.get(person_id, ""),
                facts=current_facts,
                derived=tuple(derived),
                evidence_message_ids=tuple(evidence.get(person_id, ())),
                reasons=tuple(reasons.get(person_id, ())),
            )
        )
    matches.sort(key=lambda match: (-len(match.reasons), match.person_id))
    return IdentityLookupResult(
        matches=tuple(matches[: max(limit, 0)]), searched_start=start, searched_end=end
    )
