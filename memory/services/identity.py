"""One human under two contacts: a contact that says who it is (``introductions_merge``) and a
hand-off to another platform (``handoff_links_merge``), each recorded as a merge."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from django.db.models import OuterRef, Subquery

from claire.accounts.models import User
from conversations.models import Chat, ChatKind, ChatParticipant, Message, MessageKind, Person
from memory.extract import is_suspicious
from memory.handoff import (
    CONTEXT_MESSAGES,
    CONTEXT_WINDOW,
    HANDOFF_MIN_SCORE,
    HANDOFF_VOCABULARY,
    HANDOFF_WINDOW,
    MEDIUM_PLATFORMS,
    RARE_OUTSIDE,
    content_words,
    handoff_medium,
    is_full_name,
    is_number,
    names_contradict,
    overlap_score,
)
from memory.handoff import FIRST_MESSAGES as FIRST_HANDOFF_MESSAGES
from memory.introductions import (
    FIRST_MESSAGES,
    INTRODUCTION_VOCABULARY,
    SelfIntroduction,
    name_words,
    names_match,
    self_introduction,
)
from memory.models import PersonMerge
from memory.selectors import person_canonical_ids
from memory.services.merges import person_merge

INTRODUCTION_REASON = "said who they are: message {message_id}"


def introductions_merge(*, user: User) -> int:
    """Merge each contact that says who it is ("it's Dana btw, new phone!") into the one human
    the user already has under that name (``memory.introductions``). A pair the
    user split is never merged again; a merge already there is kept. Idempotent; returns the
    number of merges made."""
    names = dict(Person.objects.filter(user=user).values_list("pk", "display_name"))
    canonical = dict(
        PersonMerge.objects.filter(user=user, split_at__isnull=True).values_list(
            "merged_person_id", "kept_person_id"
        )
    )
    split = {
        frozenset(pair)
        for pair in PersonMerge.objects.filter(user=user, split_at__isnull=False).values_list(
            "kept_person_id", "merged_person_id"
        )
    }
    rows = (
        Message.objects.filter(
            user=user,
            is_from_self=False,
            sender_person__isnull=False,
            deleted_at__isnull=True,
            kind=MessageKind.TEXT,
            chat__is_excluded_from_ai=False,
            text__iregex=INTRODUCTION_VOCABULARY,
        )
        .order_by("sent_at", "pk")
        .values_list("pk", "sender_person_id", "text")
    )
    made = 0
    for message_id, sender_id, text in rows.iterator(chunk_size=2000):
        said = self_introduction(text)
        if said is None or not _introduces(
            said, message_id=message_id, sender_id=sender_id, names=names, user=user
        ):
            continue
        humans = {
            canonical.get(pk, pk)
            for pk, display in names.items()
            if pk != sender_id and names_match(said.name, display)
        }
        humans.discard(canonical.get(sender_id, sender_id))
        if len(humans) != 1:
            continue
        (kept,) = humans
        if canonical.get(sender_id) == kept or frozenset((kept, sender_id)) in split:
            continue
        if sender_id in canonical.values():
            # The sender already holds others; merging it away is the user's call.
            continue
        person_merge(
            user=user,
            kept_person_id=kept,
            merged_person_id=sender_id,
            reason=INTRODUCTION_REASON.format(message_id=message_id),
        )
        canonical[sender_id] = kept
        made += 1
    return made


def _introduces(
    said: SelfIntroduction, *, message_id: int, sender_id: int, names: Mapping[int, str], user: User
) -> bool:
    """Whether an introduction is about a new way to reach the sender: it says so, or the
    sender has no name of its own (its label is the number) and this is one of its first
    messages."""
    if said.says_new_contact:
        return True
    if name_words(names.get(sender_id, "")):
        return False
    first = Message.objects.filter(user=user, sender_person_id=sender_id).order_by("sent_at", "pk")
    return message_id in set(first.values_list("pk", flat=True)[:FIRST_MESSAGES])


HANDOFF_REASON = (
    "one person across platforms: message {handoff} moves to {medium};"
    " message {first} shares {words}"
)


@dataclass(frozen=True)
class _HandoffLink:
    handoff_id: int
    medium: str
    person_id: int
    other_id: int
    first_id: int
    shared: tuple[str, ...]
    score: float


def handoff_links_merge(*, user: User, since: datetime | None = None) -> int:
    """Link each contact that moved the conversation to another platform ("I'll email u the
    address") to the new contact that then wrote there about the same things
    (``memory.handoff``), recorded as a ``PersonMerge`` with its confidence and
    the messages read. Hand-offs from ``since - HANDOFF_WINDOW`` on are read (all without
    ``since``). A pair the user split is never linked again; a hand-off two new contacts fit
    equally, or a new contact two hand-offs of different people fit, links nobody.
    Idempotent; returns the number of links made."""
    handoffs = Message.objects.filter(
        user=user,
        deleted_at__isnull=True,
        kind=MessageKind.TEXT,
        chat__kind=ChatKind.DIRECT,
        chat__is_excluded_from_ai=False,
        text__iregex=HANDOFF_VOCABULARY,
    )
    if since is not None:
        handoffs = handoffs.filter(sent_at__gte=since - HANDOFF_WINDOW)
    rows = list(
        handoffs.order_by("-sent_at", "-pk").values_list(
            "pk", "chat_id", "chat__platform", "sent_at", "text"
        )[:HANDOFFS_READ]
    )
    rows.reverse()
    if not rows:
        return 0
    canonical = person_canonical_ids(user=user)
    split = {
        frozenset(pair)
        for pair in PersonMerge.objects.filter(user=user, split_at__isnull=False).values_list(
            "kept_person_id", "merged_person_id"
        )
    }
    names = dict(Person.objects.filter(user=user).values_list("pk", "display_name"))
    links: list[_HandoffLink] = []
    for message_id, chat_id, platform, sent_at, text in rows:
        medium = handoff_medium(text)
        if medium is None or is_suspicious(text):
            continue
        link = _handoff_link(
            user=user,
            message_id=message_id,
            chat_id=chat_id,
            platform=platform,
            sent_at=sent_at,
            medium=medium,
            canonical=canonical,
            names=names,
        )
        if link is not None:
            links.append(link)
    # A new contact claimed by hand-offs of two different people is nobody's.
    claimants: dict[int, set[int]] = {}
    for link in links:
        claimants.setdefault(link.other_id, set()).add(
            canonical.get(link.person_id, link.person_id)
        )
    made = 0
    for link in links:
        if len(claimants[link.other_id]) != 1:
            continue
        first_root = canonical.get(link.person_id, link.person_id)
        other_root = canonical.get(link.other_id, link.other_id)
        if first_root == other_root or frozenset((link.person_id, link.other_id)) in split:
            continue
        if frozenset((first_root, other_root)) in split:
            continue
        # The contact with a full name is the one the human is read under.
        if is_full_name(names.get(other_root, "")) and not is_full_name(names.get(first_root, "")):
            kept, merged = other_root, first_root
        else:
            kept, merged = first_root, other_root
        confidence = round(min(0.95, 0.6 + 0.1 * link.score), 2)
        person_merge(
            user=user,
            kept_person_id=kept,
            merged_person_id=merged,
            reason=HANDOFF_REASON.format(
                handoff=link.handoff_id,
                medium=link.medium,
                first=link.first_id,
                words=", ".join(link.shared[:6]),
            ),
            confidence=confidence,
            evidence_message_ids=(link.handoff_id, link.first_id),
        )
        for pk, root in list(canonical.items()):
            if root == merged:
                canonical[pk] = kept
        canonical[merged] = kept
        made += 1
    return made


# Hand-offs read per run: the newest ones, then oldest first.
HANDOFFS_READ = 2000


def _handoff_link(
    *,
    user: User,
    message_id: int,
    chat_id: int,
    platform: str,
    sent_at: datetime,
    medium: str,
    canonical: Mapping[int, int],
    names: Mapping[int, str],
) -> _HandoffLink | None:
    """The new contact a hand-off leads to, when exactly one fits best (see
    ``memory.handoff``)."""
    counterpart = list(
        ChatParticipant.objects.filter(chat_id=chat_id).values_list("person_id", flat=True)[:2]
    )
    if len(counterpart) != 1:
        return None
    (person_id,) = counterpart
    root = canonical.get(person_id, person_id)
    platforms = [p for p in MEDIUM_PLATFORMS[medium] if medium != "dm" or p != platform]
    new_chats = (
        Chat.objects.filter(user=user, kind=ChatKind.DIRECT, is_excluded_from_ai=False)
        .filter(platform__in=platforms)
        .exclude(pk=chat_id)
        # Each chat's first message through the (chat, time) index, not an aggregate over
        # every message of every direct chat.
        .annotate(
            first_at=Subquery(
                Message.objects.filter(chat_id=OuterRef("pk"), deleted_at__isnull=True)
                .order_by("sent_at", "pk")
                .values("sent_at")[:1]
            )
        )
        .filter(first_at__gt=sent_at, first_at__lte=sent_at + HANDOFF_WINDOW)
        .values_list("pk", "title")
    )
    candidates = []
    for new_chat_id, title in new_chats:
        others = list(
            ChatParticipant.objects.filter(chat_id=new_chat_id).values_list("person_id", flat=True)[
                :2
            ]
        )
        if len(others) != 1 or canonical.get(others[0], others[0]) == root:
            continue
        (other_id,) = others
        if names_contradict(names.get(person_id, ""), names.get(other_id, "")):
            continue
        if (
            is_suspicious(title or "")
            or Message.objects.filter(
                user=user, sender_person_id=other_id, sent_at__lte=sent_at
            ).exists()
        ):
            continue
        first = list(
            Message.objects.filter(chat_id=new_chat_id, deleted_at__isnull=True)
            .order_by("sent_at", "pk")
            .values_list("pk", "text", "sender_person_id")[:FIRST_HANDOFF_MESSAGES]
        )
        if not first or any(is_suspicious(text or "") for _, text, _ in first):
            continue
        candidates.append((new_chat_id, other_id, title or "", first))
    if not candidates:
        return None
    context = list(
        Message.objects.filter(
            chat_id=chat_id,
            deleted_at__isnull=True,
            sent_at__lte=sent_at,
            sent_at__gte=sent_at - CONTEXT_WINDOW,
        )
        .order_by("-sent_at", "-pk")
        .values_list("text", flat=True)[:CONTEXT_MESSAGES]
    )
    before: set[str] = set()
    for text in context:
        if not is_suspicious(text or ""):
            before |= content_words(text or "")
    scored = []
    for new_chat_id, other_id, title, first in candidates:
        after = content_words(title)
        for _, text, _ in first:
            after |= content_words(text or "")
        shared = before & after
        rare = {
            word
            for word in shared
            if not is_number(word)
            and Message.objects.filter(user=user, deleted_at__isnull=True, text__icontains=word)
            .exclude(chat_id__in=[chat_id, new_chat_id])[: RARE_OUTSIDE + 1]
            .count()
            <= RARE_OUTSIDE
        }
        score = overlap_score(shared, rare)
        if score >= HANDOFF_MIN_SCORE:
            first_id = next((pk for pk, _, sender in first if sender == other_id), first[0][0])
            scored.append((score, other_id, first_id, tuple(sorted(shared))))
    if not scored:
        return None
    scored.sort(reverse=True)
    if len(scored) > 1 and scored[1][0] == scored[0][0]:
        return None
    best_score, best_other, best_first, best_shared = scored[0]
    return _HandoffLink(
        handoff_id=message_id,
        medium=medium,
        person_id=person_id,
        other_id=best_other,
        first_id=best_first,
        shared=best_shared,
        score=best_score,
    )
