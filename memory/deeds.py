"""Whether the user did something they were asked or promised to do, in any chat.

"Did I pay Ivo back for the tickets?", "did I ever send Bea the slides?": the promise or the ask is
made in one chat, and the deed often happens in another (a direct chat, another platform, an
email). A loop is closed inside its own chat (``services.loops_refresh``); this reads across
chats, from the messages that name the question's topic and their neighbourhood:

- a **deed**: the user's own message that names the topic and says it is done ("sent",
  "paid", "forwarding you her portfolio", "here they are"), or one of the user's messages
  that says it is done in a direct chat with the person named, within ``DEED_WINDOW`` of the
  topic being raised;
  or the named person's receipt that names the topic ("got the tent, thank you!");
- otherwise, an **intent**: the user's promise about the topic ("I'll send the photos") or the
  named person's request, with nothing done since.

Pure rules over a bounded read; deterministic; no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from claire.accounts.models import User
from conversations.models import ChatKind, ChatParticipant, Message, Person
from memory.closure import same_words, says_done, says_received
from memory.extract import promise_object
from retrieval.lexicon import fold_text

# How long after the topic is raised a bare "sent!" in a direct chat with the person counts.
DEED_WINDOW = timedelta(days=14)
# Topic messages read, newest first.
TOPIC_MESSAGES_READ = 300
# Words of a yes/no question that are the deed itself, not its topic.
_DEED_WORDS = frozenset(
    {
        "pay", "paid", "send", "sent", "give", "gave", "return", "returned", "ever", "back",
        "pass", "passed", "along", "tell", "told", "review", "reviewed", "get", "got", "did",
        "done", "yet", "already", "actually", "finally", "forward", "forwarded", "share",
        "shared", "reply", "replied", "answer", "answered", "email", "emailed", "bring",
        "brought", "call", "called", "write", "wrote",
    }
)  # fmt: skip
_PROMISE = re.compile(
    r"\b(?:i['\u2019]ll|i\s+will|will|i['\u2019]m\s+going\s+to|gonna|let\s+me)\b", re.IGNORECASE
)


@dataclass(frozen=True)
class DeedAnswer:
    """``is_done`` with the message that shows it (the deed, or the promise/request left
    undone), the message that raised the topic, and where the deed was said."""

    is_done: bool
    message_id: int
    sent_at: datetime
    text: str
    chat_title: str
    platform: str
    raised_by_message_id: int | None
    # "" when the user wrote it.
    sender_name: str = ""
    # The other side's reply to the deed, when it came soon after.
    acknowledged_by_message_id: int | None = None


def deed_topic_terms(terms: Sequence[str]) -> list[str]:
    """The question's topic words without the deed's own verbs ("pay", "ever", "back")."""
    found = []
    for term in terms:
        folded = fold_text(term.strip('"'))
        if len(folded) >= 2 and folded not in _DEED_WORDS:
            found.append(folded)
    return found


def _stems(terms: Sequence[str]) -> list[str]:
    """Each term's stem, and those of the everyday words for the same thing ("pics":
    "photo", "album")."""
    stems = []
    for term in terms:
        for form in (term, *same_words(term)):
            stem = form if len(form) <= 4 else form[: max(4, len(form) - 2)]
            stems.append(stem)
    return list(dict.fromkeys(stems))


def _names_topic(text: str, terms: Sequence[str]) -> bool:
    folded = fold_text(text)
    return any(re.search(rf"(?<!\w){re.escape(stem)}", folded) for stem in _stems(terms))


def deed_answer(
    *, user: User, terms: Sequence[str], person_ids: Sequence[int], now: datetime
) -> DeedAnswer | None:
    """Whether the user did what ``terms`` name (for ``person_ids``, when named), as of
    ``now``; ``None`` when no message names the topic with a deed, a promise or a request."""
    if not terms:
        return None
    pattern = "|".join(re.escape(stem) for stem in _stems(terms))
    topic_rows = list(
        Message.objects.filter(
            user=user,
            deleted_at__isnull=True,
            chat__is_excluded_from_ai=False,
            sent_at__lt=now,
            text__iregex=pattern,
        )
        .select_related("chat", "sender_person")
        .order_by("-sent_at", "-pk")[:TOPIC_MESSAGES_READ]
    )
    topic_rows = [row for row in topic_rows if _names_topic(row.text or "", terms)]
    if not topic_rows:
        return None
    topic_rows.reverse()
    people = set(person_ids)
    raised = next(
        (
            row
            for row in topic_rows
            if not people or row.sender_person_id in people or row.is_from_self
        ),
        topic_rows[0],
    )
    person_chat_ids, person_names = _people_reach(user=user, person_ids=people)
    for row in topic_rows:
        if row.sent_at < raised.sent_at:
            continue
        text = row.text or ""
        if people and not (
            row.chat_id in person_chat_ids
            or any(
                re.search(rf"(?<!\w){re.escape(name)}(?!\w)", fold_text(text))
                for name in person_names
            )
        ):
            # A deed about the topic with somebody else ("sent Ana the photos" is no answer
            # about Rui's).
            continue
        is_deed = row.is_from_self and says_done(text)
        is_receipt = (
            not row.is_from_self
            and (not people or row.sender_person_id in people)
            and says_received(text)
            and row.pk != raised.pk
        )
        if is_deed or is_receipt:
            return _answer(True, row, raised)
    if people:
        direct_chat_ids = list(
            ChatParticipant.objects.filter(
                chat__user=user, chat__kind=ChatKind.DIRECT, person_id__in=list(people)
            ).values_list("chat_id", flat=True)
        )
        done = (
            Message.objects.filter(
                user=user,
                chat_id__in=direct_chat_ids,
                is_from_self=True,
                deleted_at__isnull=True,
                sent_at__gte=raised.sent_at,
                sent_at__lt=min(now, raised.sent_at + DEED_WINDOW),
            )
            .select_related("chat", "sender_person")
            .order_by("sent_at", "pk")
        )
        for row in done:
            text = row.text or ""
            if says_done(text):
                return _answer(True, row, raised)
    intent = next(
        (
            row
            for row in reversed(topic_rows)
            if (
                row.is_from_self
                and (_PROMISE.search(row.text or "") or promise_object(row.text or "") is not None)
            )
            or (not row.is_from_self and "?" in (row.text or ""))
        ),
        None,
    )
    if intent is None:
        return None
    return _answer(False, intent, raised)


# How soon after the deed the other side's acknowledgement comes.
ACK_WINDOW = timedelta(days=1)


def acknowledgement(row: Message) -> int | None:
    """The first message someone else wrote in the deed's chat soon after it ("got it, I'll
    forward it today"): it shows the deed arrived."""
    return (
        Message.objects.filter(
            chat_id=row.chat_id,
            deleted_at__isnull=True,
            is_from_self=False,
            sent_at__gt=row.sent_at,
            sent_at__lte=row.sent_at + ACK_WINDOW,
        )
        .order_by("sent_at", "pk")
        .values_list("pk", flat=True)
        .first()
    )


def _people_reach(*, user: User, person_ids: set[int]) -> tuple[set[int], set[str]]:
    """The chats the people are in and their folded first names."""
    if not person_ids:
        return set(), set()
    chat_ids = set(
        ChatParticipant.objects.filter(chat__user=user, person_id__in=person_ids).values_list(
            "chat_id", flat=True
        )
    )
    names = {
        fold_text(name.split()[0])
        for name in Person.objects.filter(user=user, pk__in=person_ids).values_list(
            "display_name", flat=True
        )
        if name and name.split() and len(name.split()[0]) >= 2
    }
    return chat_ids, names


def _answer(is_done: bool, row: Message, raised: Message) -> DeedAnswer:
    return DeedAnswer(
        acknowledged_by_message_id=acknowledgement(row) if is_done and row.is_from_self else None,
        is_done=is_done,
        message_id=row.pk,
        sent_at=row.sent_at,
        text=row.text or "",
        chat_title=row.chat.title,
        platform=row.chat.platform,
        raised_by_message_id=raised.pk if raised.pk != row.pk else None,
        sender_name=""
        if row.is_from_self or row.sender_person is None
        else row.sender_person.display_name,
    )
