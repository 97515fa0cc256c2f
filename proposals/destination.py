"""Where a proposed message would go: resolved from the user's own data and the question.

The question's people are resolved by the query compiler against the user's contacts
(``personIds``); the destination is then the user's direct chat with that person, or the
chat of an open loop with them (a reply goes where they asked), found through the user's own
chat memberships and loops. Nothing here reads message text: a phone number,
handle, chat title or instruction inside a message can never become a destination.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Max, Q
from django.utils import timezone

from claire.accounts.models import User
from conversations.models import Chat, ChatKind, Message, Person, Platform
from memory.asked import AskedQuestion, open_group_question
from memory.chatnames import word_stem
from memory.extract import is_suspicious
from memory.models import LoopKind
from memory.recipient import Mention, not_automated, platforms_asked, recipient_of, topic_words
from memory.selectors import OpenLoop, open_loops_for_user
from proposals.choice import direct_chat_choice
from proposals.groups import group_unnamed, groups_named, groups_visible
from proposals.wording import content_start
from retrieval.compile import TITLES
from retrieval.lexicon import fold_text


@dataclass(frozen=True)
class Destination:
    chat: Chat
    # None for a message to a whole group ("remind the climbing group ...").
    person: Person | None
    # The open loop with this person that the message follows up: their unanswered ask
    # first, else the newest.
    loop: OpenLoop | None = None
    # The user's own open request or promise in the same chat, when ``loop`` is their ask:
    # the draft follows it up after answering.
    also: OpenLoop | None = None
    # How the question named the group ("the climbing group") or the person ("dani", "Dr.
    # Adeyemi"), for the drafter.
    named_as: str = ""
    # Said on the card when the choice between contacts was not the question's own.
    note: str = ""
    # The open question someone asked in the group that a reply to the group answers.
    asked: AskedQuestion | None = None
    # ``loop`` is the one whose text says the topic the question names ("about the deck").
    on_topic: bool = False

    @property
    def is_group(self) -> bool:
        return self.person is None

    @property
    def recipient_name(self) -> str:
        return self.person.display_name if self.person is not None else self.chat.title


# Words that ask for an answer where the person asked ("reply to mom", "answer Ana").
_REPLY = re.compile(r"\b(?:repl(?:y|ies|ying)|respond|answer)\b", re.IGNORECASE)


def _person_ids(
    *, user: User, compiled_query: Mapping[str, Any], question: str
) -> tuple[list[int], str]:
    """The recipient (``memory.recipient.recipient_of``): the person named first,
    never an automated sender, or the contact a short form at the recipient's place names;
    with the name as the question wrote it."""
    mentions = []
    people = compiled_query.get("people") or []
    for person in people if isinstance(people, list) else []:
        if not isinstance(person, dict):
            continue
        said = tuple(value for value in person.get("personIds") or [] if isinstance(value, int))
        mentions.append(Mention(name=str(person.get("name") or ""), person_ids=said))
    groups = groups_named(user=user, head=question[: content_start(question)])
    ids, named_as = recipient_of(
        user=user,
        question=question,
        mentions=mentions,
        group_words=[group.named_as for group in groups],
    )
    if ids and not named_as:
        named_as = next((m.name for m in mentions if set(m.person_ids) & set(ids)), "")
    return ids, named_as


def _said_names(compiled_query: Mapping[str, Any]) -> list[str]:
    people = compiled_query.get("people") or []
    return [
        str(person.get("name") or "")
        for person in (people if isinstance(people, list) else [])
        if isinstance(person, dict)
    ]


def _direct_chats(*, user: User, person_ids: Sequence[int]) -> list[Chat]:
    """The user's direct chats with these people, the one the user wrote most in first: when
    a name is shared (or imitated by a stranger's display name), the contact the user
    actually talks to wins, whoever wrote last."""
    return list(
        Chat.objects.filter(
            user=user,
            kind=ChatKind.DIRECT,
            is_excluded_from_ai=False,
            memberships__person_id__in=list(person_ids),
        )
        .annotate(
            own_messages=Count(
                "messages",
                filter=Q(messages__is_from_self=True, messages__deleted_at__isnull=True),
                distinct=True,
            )
        )
        .order_by("-own_messages", "-last_message_at", "-pk")
    )


def _shared_group(
    *, user: User, person_ids: Sequence[int], platforms: AbstractSet[str] = frozenset()
) -> Chat | None:
    """For someone the user has no direct chat with, the group where they last wrote (the
    smallest such group when several are equally recent): the only place the user reaches
    them. A group on the platform the question asks for comes first."""
    groups = (
        Chat.objects.filter(
            user=user,
            kind=ChatKind.GROUP,
            is_excluded_from_ai=False,
            messages__sender_person_id__in=list(person_ids),
            messages__deleted_at__isnull=True,
        )
        .annotate(
            last_from_them=Max(
                "messages__sent_at",
                filter=Q(messages__sender_person_id__in=list(person_ids)),
            ),
            size=Count("memberships", distinct=True),
        )
        .order_by("-last_from_them", "size", "-pk")
    )
    if platforms and (on_platform := groups.filter(platform__in=sorted(platforms)).first()):
        return on_platform
    return groups.first()


def _platform_note(*, chat: Chat, person: Person, platforms: set[str]) -> str:
    """Said on the card when the question asks for a platform the recipient has no chat on
    with the user ("slack Ana ..." for someone the user only reaches on WhatsApp)."""
    if not platforms or chat.platform in platforms:
        return ""
    asked = _labels(platforms)
    where = _labels({chat.platform})
    kind = "chat" if chat.kind == ChatKind.DIRECT else f"group {chat.title}"
    return (
        f"You have no {asked} chat with {person.display_name}: the draft is for your {where} "
        f"{kind} instead."
    )


def _same_name_on(
    *,
    user: User,
    person_ids: Sequence[int],
    compiled_query: Mapping[str, Any],
    named_as: str,
    platforms: set[str],
) -> list[int]:
    """When none of the recipient's contacts has a direct chat on the platform the question
    asks for ("reply to Dr Adeyemi by email" for a contact saved with the title on Slack), the
    contact saved under the same name there ("Tunde Adeyemi" on email) whom the user has
    written to: one human saved twice. Every word of the name the question said, titles left
    out, must be one of the contact's name words; never an automated sender."""
    direct = _direct_chats(user=user, person_ids=person_ids)
    if any(chat.platform in platforms for chat in direct):
        return []
    said = named_as or next(
        (
            str(person.get("name") or "")
            for person in compiled_query.get("people") or []
            if isinstance(person, dict) and set(person.get("personIds") or []) & set(person_ids)
        ),
        "",
    )
    words = {word for word in re.findall(r"[a-z]+", fold_text(said)) if word not in TITLES}
    words = {word for word in words if len(word) > 1}
    if not words:
        return []
    candidates = (
        Person.objects.filter(
            user=user,
            memberships__chat__kind=ChatKind.DIRECT,
            memberships__chat__platform__in=sorted(platforms),
            memberships__chat__is_excluded_from_ai=False,
            memberships__chat__messages__is_from_self=True,
        )
        .exclude(pk__in=list(person_ids))
        .distinct()
    )
    found = []
    for candidate in candidates:
        name_words = set(re.findall(r"[a-z]+", fold_text(candidate.display_name)))
        if words <= name_words:
            found.append(candidate.pk)
    return not_automated(user=user, person_ids=found)


def _scoped_person_ids(*, user: User, scope_chat_ids: Sequence[int]) -> list[int]:
    """A strict-chat scope on a direct chat ("reply to him" inside it) names its participant."""
    if len(scope_chat_ids) != 1:
        return []
    scoped = Chat.objects.filter(
        user=user, pk=scope_chat_ids[0], kind=ChatKind.DIRECT, is_excluded_from_ai=False
    ).first()
    if scoped is None:
        return []
    chat_people = list(
        Person.objects.filter(user=user, memberships__chat=scoped).order_by("pk")[:2]
    )
    return [chat_people[0].pk] if len(chat_people) == 1 else []


def _labels(platforms: set[str]) -> str:
    """Platforms as people write them: "Slack or WhatsApp", "email"."""
    return " or ".join(
        sorted(
            "email"
            if name == Platform.EMAIL
            else (Platform(name).label if name in Platform.values else name)
            for name in platforms
        )
    )


def _asked_in(
    *, user: User, question: str, chat_ids: Sequence[int], names: Sequence[str], now: datetime
) -> AskedQuestion | None:
    """For a reply to a group ("reply to the climbing group about Sunday"), the open question
    asked there that it answers."""
    if not _REPLY.search(question[: content_start(question)]):
        return None
    return open_group_question(
        user=user, chat_ids=chat_ids, question=question, names=names, now=now
    )


def _group_destination(
    *, user: User, question: str, platforms: set[str], now: datetime
) -> Destination | None:
    """The group the question addresses, when it names one before what to say: on a platform
    asked for first, then the one the user writes in most, then the most recent. A reply to
    "the group" (not said which) goes to the group of the open question it answers."""
    head = question[: content_start(question)]
    named = groups_named(user=user, head=head)
    if not named and group_unnamed(head):
        groups = groups_visible(user=user)
        if platforms and any(group.platform in platforms for group in groups):
            groups = [group for group in groups if group.platform in platforms]
        asked = _asked_in(
            user=user,
            question=question,
            chat_ids=[group.pk for group in groups],
            names=[],
            now=now,
        )
        if asked is None:
            return None
        chat = next(group for group in groups if group.pk == asked.chat_id)
        return Destination(chat=chat, person=None, named_as="", asked=asked)
    if not named:
        return None
    own = dict(
        Chat.objects.filter(user=user, pk__in=[group.chat.pk for group in named])
        .annotate(
            own_messages=Count(
                "messages",
                filter=Q(messages__is_from_self=True, messages__deleted_at__isnull=True),
            )
        )
        .values_list("pk", "own_messages")
    )
    chosen = min(
        named,
        key=lambda group: (
            bool(platforms) and group.chat.platform not in platforms,
            -own.get(group.chat.pk, 0),
            -(group.chat.last_message_at.timestamp() if group.chat.last_message_at else 0),
            -group.chat.pk,
        ),
    )
    note = ""
    if platforms and chosen.chat.platform not in platforms:
        note = (
            f"{chosen.chat.title} is not one of your {_labels(platforms)} chats: the draft is "
            f"for it on {_labels({chosen.chat.platform})} instead."
        )
    asked = _asked_in(
        user=user,
        question=question,
        chat_ids=[chosen.chat.pk],
        names=[chosen.named_as, chosen.chat.title],
        now=now,
    )
    return Destination(
        chat=chosen.chat, person=None, named_as=chosen.named_as, note=note, asked=asked
    )


def _group_said_in(*, user: User, question: str, person_ids: Sequence[int]) -> Destination | None:
    """ "Reply to Ana in the climbing group ...": the named group, when the person is in it,
    addressed to them."""
    head = question[: content_start(question)]
    for group in groups_named(user=user, head=head):
        said_in = rf"\b(?:in|on|into)\s+(?:(?:the|our|my)\s+)?{re.escape(group.named_as)}"
        if not re.search(said_in, head, re.I):
            continue
        person = (
            Person.objects.filter(user=user, pk__in=list(person_ids), memberships__chat=group.chat)
            .order_by("pk")
            .first()
        )
        if person is not None:
            loops = open_loops_for_user(
                user=user, person_ids=[person.pk], chat_ids=[group.chat.pk], limit=1
            )
            return Destination(chat=group.chat, person=person, loop=loops[0] if loops else None)
    return None


# The subject a request names: "about the pricing deck", "re the lease", "regarding rent",
# "on the quote" (after "on", only with a determiner: "on Slack", "on Friday" name none); up to
# the clause that says what to say.
_NAMED_TOPIC = re.compile(
    r"\b(?:about|regarding|concerning|re:?(?=\s)|on\s+(?=(?:the|my|our|your|his|her|their)\s))"
    r"\s*(?P<x>[^,.;:!?\n]+)",
    re.IGNORECASE,
)
_TOPIC_END = re.compile(
    r"\s+(?:that|saying|and|to|so|because|since|but|with|telling|letting)\b.*$", re.I
)
# Loops read for the topic a request names.
TOPIC_LOOPS = 20


def named_topic_stems(question: str, names: Sequence[str]) -> set[str]:
    """Stems of the subject the question names after "about", "re", "regarding" or "on the"
    (word forms folded: "decks" and "deck" are one), none when it names none."""
    match = _NAMED_TOPIC.search(question)
    if match is None:
        return set()
    said = _TOPIC_END.sub("", match["x"])
    return {word_stem(word) for word in topic_words(said, names)}


def _topic_loop(
    *, user: User, person_ids: Sequence[int], stems: set[str], platforms: AbstractSet[str]
) -> OpenLoop | None:
    """Of the open loops with these people (their asks, the user's requests and promises),
    the one whose opening message says the topic: every stem of it (all but one, for a topic
    of three words or more); the most stems, then the newest. Never a suspicious message."""
    if not stems:
        return None
    loops = open_loops_for_user(user=user, person_ids=person_ids, limit=TOPIC_LOOPS)
    if platforms:
        loops = [loop for loop in loops if loop.platform in platforms] or loops
    texts = dict(
        Message.objects.filter(
            user=user,
            pk__in=[loop.opened_by_message_id for loop in loops],
            deleted_at__isnull=True,
        ).values_list("pk", "text")
    )
    needed = len(stems) - 1 if len(stems) >= 3 else len(stems)
    best: tuple[int, OpenLoop] | None = None
    for loop in loops:
        text = texts.get(loop.opened_by_message_id) or ""
        if not text or is_suspicious(text):
            continue
        said = {word_stem(word) for word in re.findall(r"[a-z][a-z'-]*", fold_text(text))}
        hits = len(stems & said)
        if hits >= needed and (best is None or hits > best[0]):
            best = (hits, loop)
    return best[1] if best is not None else None


def _also_in_chat(*, user: User, loop: OpenLoop) -> OpenLoop | None:
    """When the loop followed up is their ask, the user's own open promise or request to the
    same person in the same chat (a promise first): the draft answers their ask with it."""
    if loop.kind != LoopKind.QUESTION_TO_USER or loop.person_id is None:
        return None
    mine = [
        open_loop
        for open_loop in open_loops_for_user(
            user=user, person_ids=[loop.person_id], limit=TOPIC_LOOPS
        )
        if open_loop.chat_id == loop.chat_id and open_loop.kind != LoopKind.QUESTION_TO_USER
    ]
    return next(
        (open_loop for open_loop in mine if open_loop.kind == LoopKind.PROMISE_BY_USER),
        mine[0] if mine else None,
    )


def _topic_destination(
    *,
    user: User,
    question: str,
    person_ids: Sequence[int],
    names: Sequence[str],
    platforms: AbstractSet[str],
    named_as: str,
) -> Destination | None:
    """When the question names a topic, the open loop with the person that says it, in the
    chat where it was raised: the draft follows that thread, not their newest ask."""
    loop = _topic_loop(
        user=user,
        person_ids=person_ids,
        stems=named_topic_stems(question, names),
        platforms=platforms,
    )
    if loop is None or loop.person_id is None:
        return None
    chat = Chat.objects.filter(
        user=user, pk=loop.chat_id, is_excluded_from_ai=False, memberships__person_id=loop.person_id
    ).first()
    person = Person.objects.filter(user=user, pk=loop.person_id).first()
    if chat is None or person is None:
        return None
    return Destination(
        chat=chat,
        person=person,
        loop=loop,
        also=_also_in_chat(user=user, loop=loop),
        named_as=named_as,
        note=_platform_note(chat=chat, person=person, platforms=set(platforms)),
        on_topic=True,
    )


def destination_resolve(
    *,
    user: User,
    compiled_query: Mapping[str, Any],
    question: str,
    scope_chat_ids: Sequence[int] = (),
    now: datetime | None = None,
) -> Destination | None:
    """The chat and person a message for this question goes to: their direct chat, the chat of
    an open loop with them, else the group where they last wrote; a group the question
    addresses when it names no person first; None when the question names nobody the user
    shares a chat with. ``scope_chat_ids`` (ownership-checked by the caller) is a strict chat
    scope: "reply to him" asked inside a direct chat."""
    platforms = platforms_asked(question)
    person_ids, named_as = _person_ids(user=user, compiled_query=compiled_query, question=question)
    person_ids = person_ids or _scoped_person_ids(user=user, scope_chat_ids=scope_chat_ids)
    if not person_ids:
        return _group_destination(
            user=user, question=question, platforms=platforms, now=now or timezone.now()
        )
    if (
        in_group := _group_said_in(user=user, question=question, person_ids=person_ids)
    ) is not None:
        return in_group
    if platforms:
        person_ids = [
            *person_ids,
            *_same_name_on(
                user=user,
                person_ids=person_ids,
                compiled_query=compiled_query,
                named_as=named_as,
                platforms=platforms,
            ),
        ]
    choice = direct_chat_choice(
        user=user,
        chats=_direct_chats(user=user, person_ids=person_ids),
        person_ids=person_ids,
        question=question,
        names=_said_names(compiled_query),
        platforms=platforms,
    )
    chat: Chat | None = choice.chat
    if choice.person_id is not None:
        # The contact the request is about is settled: the loops followed up are theirs.
        person_ids = [choice.person_id]
    on_topic = _topic_destination(
        user=user,
        question=question,
        person_ids=person_ids,
        names=_said_names(compiled_query),
        platforms=platforms,
        named_as=named_as,
    )
    if on_topic is not None:
        return on_topic
    loops = open_loops_for_user(user=user, person_ids=person_ids, limit=5)
    loop = loops[0] if loops else None
    if loop is not None and not choice.is_topic_chosen:
        loop_chat = Chat.objects.filter(
            user=user, pk=loop.chat_id, is_excluded_from_ai=False
        ).first()
        # Follow the loop where it is: its own direct chat, or, when the user asks to reply,
        # the group where the person asked the user something (a reply goes where the
        # question was), or any chat when the person has no direct chat with the user. "Text
        # Ana ..." goes to Ana herself.
        # A platform the question asks for keeps its chat.
        if loop_chat is not None and (
            chat is None
            or (
                (not platforms or loop_chat.platform in platforms)
                and (
                    loop_chat.kind == ChatKind.DIRECT
                    or (loop.kind == LoopKind.QUESTION_TO_USER and _REPLY.search(question))
                )
            )
        ):
            chat = loop_chat
    if chat is None:
        chat = _shared_group(user=user, person_ids=person_ids, platforms=platforms)
    if chat is None:
        return None
    members = set(
        Person.objects.filter(user=user, pk__in=person_ids, memberships__chat=chat).values_list(
            "pk", flat=True
        )
    )
    if not members:
        return None
    person_id = next(pid for pid in person_ids if pid in members)
    if loop is not None and loop.person_id is not None and loop.person_id in members:
        person_id = loop.person_id
    person = Person.objects.get(user=user, pk=person_id)
    # Of the open loops in that chat, their unanswered ask comes first: a message to them
    # answers it before it chases what the user asked or promised; else the newest.
    in_chat = [open_loop for open_loop in loops if open_loop.chat_id == chat.pk]
    loop = next(
        (open_loop for open_loop in in_chat if open_loop.kind == LoopKind.QUESTION_TO_USER),
        in_chat[0] if in_chat else None,
    )
    also = (
        next((open_loop for open_loop in in_chat if open_loop.kind != loop.kind), None)
        if loop is not None and loop.kind == LoopKind.QUESTION_TO_USER
        else None
    )
    notes = [choice.note_for(person), _platform_note(chat=chat, person=person, platforms=platforms)]
    return Destination(
        chat=chat,
        person=person,
        loop=loop,
        also=also,
        named_as=named_as,
        note=" ".join(note for note in notes if note),
    )


def destination_is_valid(*, user: User, chat_id: int, person_id: int | None) -> bool:
    """Approval re-checks the stored destination against the user's data as it is now: the
    user's chat, not excluded from AI, with the person still in it (a group, for a message
    to the whole group)."""
    chat = Chat.objects.filter(user=user, pk=chat_id, is_excluded_from_ai=False).first()
    if chat is None:
        return False
    if person_id is None:
        # A message to the whole group: the user's own group, still visible to AI.
        return chat.kind != ChatKind.DIRECT
    return Person.objects.filter(user=user, pk=person_id, memberships__chat=chat).exists()
