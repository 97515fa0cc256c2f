"""The links memory made between contacts of one human (``PersonMerge`` rows with a
confidence: a hand-off to another platform, a contact saying who it is), told in an answer
with the messages that made them: "Bean is most likely Theo Marsh: Bean wrote “I'll email
you the permit” on Mon 2 March, and Theo Marsh then wrote to you by email about the same
things (permit, 14)".

Pure reads, user-scoped, a few queries; deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Q

from claire.accounts.models import User
from conversations.models import Message, Person, Platform
from memory.findings import moment_text
from memory.handoff import is_full_name
from memory.introductions import name_words
from memory.models import PersonMerge

QUOTE_CHARS = 120
_SHARES = re.compile(r"\bshares\s+(.+)$")


@dataclass(frozen=True)
class DerivedLink:
    """Two contacts memory holds for one human, with how sure it is and what it read."""

    person_ids: tuple[int, int]
    confidence: float
    evidence_message_ids: tuple[int, ...]
    shared_words: tuple[str, ...]


def derived_links(*, user: User, person_ids: Sequence[int]) -> list[DerivedLink]:
    """The active links memory made (not the user's own merges) touching ``person_ids``,
    surest first."""
    if not person_ids:
        return []
    rows = (
        PersonMerge.objects.filter(user=user, split_at__isnull=True, confidence__isnull=False)
        .filter(Q(kept_person_id__in=list(person_ids)) | Q(merged_person_id__in=list(person_ids)))
        .order_by("-confidence", "pk")
        .values_list(
            "kept_person_id", "merged_person_id", "confidence", "evidence_message_ids", "reason"
        )
    )
    links = []
    for kept, merged, confidence, evidence, reason in rows:
        shares = _SHARES.search(reason or "")
        words = tuple(w.strip() for w in shares.group(1).split(",")) if shares else ()
        links.append(
            DerivedLink(
                person_ids=(kept, merged),
                confidence=float(confidence or 0.0),
                evidence_message_ids=tuple(int(pk) for pk in evidence or ()),
                shared_words=tuple(w for w in words if w and not w.isdigit()),
            )
        )
    return links


@dataclass(frozen=True)
class LinkedName:
    """The full name a contact asked about by a nickname most likely has, and why."""

    full_name: str
    sentence: str
    message_ids: tuple[int, ...]


def linked_full_name(*, user: User, person_ids: Sequence[int], lead: str) -> LinkedName | None:
    """When the contact asked about (``lead``, as the question names it) has no full name
    but memory linked it to a contact that has one: that name, a sentence telling how the two
    were linked, and the messages to cite."""
    names = dict(
        Person.objects.filter(user=user, pk__in=list(person_ids)).values_list("pk", "display_name")
    )
    asked = set(name_words(lead))
    for link in derived_links(user=user, person_ids=person_ids):
        full = [
            names.get(pk, "")
            for pk in link.person_ids
            if is_full_name(names.get(pk, "")) and not asked <= set(name_words(names.get(pk, "")))
        ]
        if not full or not link.evidence_message_ids:
            continue
        return LinkedName(
            full_name=full[0],
            sentence=link_sentence(user=user, link=link, lead=lead, full_name=full[0]),
            message_ids=link.evidence_message_ids,
        )
    return None


def link_sentence(*, user: User, link: DerivedLink, lead: str, full_name: str) -> str:
    """ "Bean is most likely Theo Marsh: Bean wrote “…” on Mon 2 March, 18:00, and Theo
    Marsh then wrote to you by email on Wed 4 March, 09:10 about the same things (permit)"."""
    rows = {
        pk: (text, sent_at, is_from_self, platform)
        for pk, text, sent_at, is_from_self, platform in Message.objects.filter(
            user=user, pk__in=list(link.evidence_message_ids), deleted_at__isnull=True
        ).values_list("pk", "text", "sent_at", "is_from_self", "chat__platform")
    }
    head = f"{lead} is most likely {full_name}"
    if len(link.evidence_message_ids) < 2 or any(
        pk not in rows for pk in link.evidence_message_ids[:2]
    ):
        return head
    zone = user.zoneinfo
    handoff_text, handoff_at, handoff_self, _ = rows[link.evidence_message_ids[0]]
    _, first_at, first_self, first_platform = rows[link.evidence_message_ids[1]]
    who = "you" if handoff_self else lead
    then = f"you then wrote to {full_name}" if first_self else f"{full_name} then wrote to you"
    quote = " ".join((handoff_text or "").split())
    if len(quote) > QUOTE_CHARS:
        quote = quote[: QUOTE_CHARS - 1].rstrip() + "…"
    platform = (
        Platform(first_platform).label if first_platform in Platform.values else first_platform
    )
    words = (
        f" about the same things ({', '.join(link.shared_words[:4])})" if link.shared_words else ""
    )
    return (
        f"{head}: {who} wrote “{quote}” on {moment_text(handoff_at, zone)}, and {then} on"
        f" {platform} on {moment_text(first_at, zone)}{words}"
    )


# The reasons ``services.handle_links_merge`` records.
_HANDLE_REASON = re.compile(
    r"^(?:the handle \S+ on .+? is a form of the name |in a group they were called )"
)
_MESSAGE_NOTE = re.compile(r"\s*\(message \d+\)")


def handle_link_clause(*, user: User, person_ids: Sequence[int]) -> str:
    """How memory linked a handle among ``person_ids`` to a contact ("the handle dylr on
    Discord is a form of the name Dyl"), for an answer that says why two names are one
    person; empty when no handle link joins them."""
    ids = list(person_ids)
    if len(ids) < 2:
        return ""
    for reason in PersonMerge.objects.filter(
        user=user,
        split_at__isnull=True,
        confidence__isnull=False,
        kept_person_id__in=ids,
        merged_person_id__in=ids,
    ).values_list("reason", flat=True):
        parts = [
            _MESSAGE_NOTE.sub("", part).strip()
            for part in (reason or "").split("; ")
            if _HANDLE_REASON.match(part)
        ]
        if parts:
            return " and ".join(parts)
    return ""
