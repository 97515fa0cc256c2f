"""One human under two contacts: a contact that says who it is (``introductions_merge``), a
hand-off to another platform (``handoff_links_merge``) and a handle that is a known contact
(``handle_links_merge``), each recorded as a merge."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, OuterRef, Subquery

from claire.accounts.models import User
from conversations.identities import normalise_handle
from conversations.models import (
    Chat,
    ChatKind,
    ChatParticipant,
    IdentityKind,
    Message,
    MessageKind,
    Person,
    PersonIdentity,
    Platform,
)
from memory.extract import is_suspicious
from memory.handles import ChatLine, handle_fit, told_names
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


# How a handle link is told (``memory.links.handle_link_clause`` reads these back).
HANDLE_FORM_REASON = "the handle {handle} on {platform} is a form of the name {name}"
HANDLE_TOLD_REASON = "in a group they were called {name} (message {message_id})"
# A handle that is a first name alone links only in a group of at most this many members
# that the user writes in.
WEAK_FORM_GROUP_MAX = 12
# Messages of each group read for the names its members are called by, newest first.
HANDLE_GROUP_MESSAGES = 3000


@dataclass
class _HandleEvidence:
    reasons: list[str]
    message_ids: list[int]
    by_form: bool = False
    by_told: bool = False


def handle_links_merge(*, user: User, chat_ids: Sequence[int] | None = None) -> int:
    """Link each person a platform shows only by a handle ("dylr" on Discord) to the one
    human the user already has by name elsewhere, when the handle is a form of that name or
    a group calls its author by it (``memory.handles``), recorded as a ``PersonMerge``. The
    human must be the only one the evidence leads to, have no identity on the handle's
    platform, and share no chat with the handle; a human two handles lead to, a handle
    two humans fit, and a pair the user split are linked nobody. The groups' messages are
    read in ``chat_ids`` only when given. Idempotent; returns the number of links made."""
    identities: dict[int, list[tuple[str, str, str]]] = {}
    for person_id, platform, kind, value in PersonIdentity.objects.filter(user=user).values_list(
        "person_id", "platform", "kind", "value"
    ):
        identities.setdefault(person_id, []).append((platform, kind, value))
    names = dict(Person.objects.filter(user=user).values_list("pk", "display_name"))
    handle_only = {
        pk for pk, rows in identities.items() if _is_handle_only(names.get(pk, ""), rows)
    }
    if not handle_only:
        return 0
    canonical = person_canonical_ids(user=user)
    holders = set(canonical.values())
    handle_only -= set(canonical) | holders
    if not handle_only:
        return 0
    split = {
        frozenset(pair)
        for pair in PersonMerge.objects.filter(user=user, split_at__isnull=False).values_list(
            "kept_person_id", "merged_person_id"
        )
    }
    chats_of: dict[int, set[int]] = {}
    for chat_id, person_id in ChatParticipant.objects.filter(
        chat__user=user, chat__is_excluded_from_ai=False
    ).values_list("chat_id", "person_id"):
        chats_of.setdefault(canonical.get(person_id, person_id), set()).add(chat_id)
    humans: dict[int, set[int]] = {}
    for pk in names:
        humans.setdefault(canonical.get(pk, pk), set()).add(pk)

    def eligible(handle_id: int, root: int) -> bool:
        platforms = {platform for platform, kind, _ in identities[handle_id]}
        group = humans.get(root, {root})
        return (
            root != handle_id
            and not any(
                platform in platforms for pk in group for platform, _, _ in identities.get(pk, ())
            )
            and not (chats_of.get(root, set()) & chats_of.get(handle_id, set()))
            and not any(frozenset((pk, handle_id)) in split for pk in group)
        )

    named = {pk: name for pk, name in names.items() if pk not in handle_only and name_words(name)}
    small: list[set[int]] = []

    def small_groups_written() -> set[int]:
        """The groups of at most ``WEAK_FORM_GROUP_MAX`` members the user writes in."""
        if not small:
            sizes = (
                ChatParticipant.objects.filter(
                    chat__user=user, chat__kind=ChatKind.GROUP, chat__is_excluded_from_ai=False
                )
                .values("chat_id")
                .annotate(members=Count("pk"))
                .filter(members__lte=WEAK_FORM_GROUP_MAX)
                .values_list("chat_id", flat=True)
            )
            small.append(
                set(
                    Message.objects.filter(user=user, is_from_self=True, chat_id__in=list(sizes))
                    .values_list("chat_id", flat=True)
                    .distinct()
                )
            )
        return small[0]

    evidence: dict[int, dict[int, _HandleEvidence]] = {}
    for handle_id in sorted(handle_only):
        for platform, kind, value in identities[handle_id]:
            if kind != IdentityKind.HANDLE:
                continue
            fit = {pk: handle_fit(value, name) for pk, name in named.items()}
            fits = {canonical.get(pk, pk) for pk, how in fit.items() if how is not None}
            if len(fits) != 1:
                continue
            (root,) = fits
            surname = any(how == "surname" for how in fit.values())
            if not surname and not (chats_of.get(handle_id, set()) & small_groups_written()):
                # The first name alone is many people's: only among a few the user writes to.
                continue
            if eligible(handle_id, root):
                found = evidence.setdefault(handle_id, {}).setdefault(root, _HandleEvidence([], []))
                found.by_form = True
                found.reasons.append(
                    HANDLE_FORM_REASON.format(
                        handle=value,
                        platform=Platform(platform).label
                        if platform in Platform.values
                        else platform,
                        name=names[root],
                    )
                )
    groups = (
        Chat.objects.filter(
            user=user,
            kind=ChatKind.GROUP,
            is_excluded_from_ai=False,
            memberships__person_id__in=handle_only,
        )
        .values_list("pk", flat=True)
        .distinct()
    )
    if chat_ids is not None:
        groups = groups.filter(pk__in=list(chat_ids))
    members_of: dict[int, set[int]] = {}
    for chat_id, person_id in ChatParticipant.objects.filter(chat_id__in=list(groups)).values_list(
        "chat_id", "person_id"
    ):
        members_of.setdefault(chat_id, set()).add(person_id)
    for chat_id, members in members_of.items():
        rows = list(
            Message.objects.filter(chat_id=chat_id, deleted_at__isnull=True, kind=MessageKind.TEXT)
            .order_by("-sent_at", "-pk")
            .values_list("pk", "sender_person_id", "is_from_self", "text")[:HANDLE_GROUP_MESSAGES]
        )
        rows.reverse()
        lines = [
            ChatLine(pk, 0 if is_from_self else (sender or -1), text or "")
            for pk, sender, is_from_self, text in rows
            if not is_suspicious(text or "")
        ]
        member_names = [names.get(pk, "") for pk in members]
        for told in told_names(lines):
            if told.person_id not in handle_only or told.person_id not in members:
                continue
            if any(names_match(told.name, name) for name in member_names):
                continue
            fits = {
                canonical.get(pk, pk) for pk, name in named.items() if names_match(told.name, name)
            }
            if len(fits) != 1:
                # A name two humans share, or nobody's, tells nothing.
                continue
            (root,) = fits
            if not eligible(told.person_id, root):
                continue
            found = evidence.setdefault(told.person_id, {}).setdefault(
                root, _HandleEvidence([], [])
            )
            found.by_told = True
            found.message_ids.append(told.message_id)
            found.reasons.append(
                HANDLE_TOLD_REASON.format(name=told.name, message_id=told.message_id)
            )
    claimed: dict[int, set[int]] = {}
    for handle_id, leads in evidence.items():
        for root in leads:
            claimed.setdefault(root, set()).add(handle_id)
    made = 0
    for handle_id, leads in sorted(evidence.items()):
        if len(leads) != 1:
            continue
        ((root, proof),) = leads.items()
        if len(claimed[root]) != 1:
            continue
        confidence = 0.9 if proof.by_form and proof.by_told else 0.8 if proof.by_form else 0.7
        person_merge(
            user=user,
            kept_person_id=root,
            merged_person_id=handle_id,
            reason="; ".join(proof.reasons),
            confidence=confidence,
            evidence_message_ids=tuple(dict.fromkeys(proof.message_ids)),
        )
        made += 1
    return made


def _is_handle_only(display_name: str, rows: Sequence[tuple[str, str, str]]) -> bool:
    """Whether a person is known by a handle only: a handle and no phone number or email,
    and shown under that handle (or under no name)."""
    kinds = {kind for _, kind, _ in rows}
    if IdentityKind.HANDLE not in kinds or kinds & {IdentityKind.PHONE, IdentityKind.EMAIL}:
        return False
    if not name_words(display_name):
        return True
    shown = normalise_handle(display_name)
    return any(kind == IdentityKind.HANDLE and value == shown for _, kind, value in rows)
