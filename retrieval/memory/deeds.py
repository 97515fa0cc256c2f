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
from conversations.models import ChatKind, ChatParticipant, Message
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
_DONE_BY_USER = re.compile(
    r"\b(?:sent|paid|gave|given|returned|forwarded|forwarding|passed\s+(?:it\s+|them\s+)?"
    r"(?:along|on)|passing\s+(?:it\s+|this\s+|them\s+)?along|emailed|shared|dropped\s+(?:it\s+|them"
    r"\s+)?off|sending\s+(?:you|over)|here\s+(?:it\s+is|they\s+are|you\s+go)|attached|attaching"
    r"|zelle[d']?\w*|venmo\w*|transferred|uploaded|mailed|delivered|brought|told\s+(?:him|her"
    r"|them)|let\s+(?:him|her|them)\s+know|reviewed|left\s+(?:some\s+|a\s+few\s+)?comments"
    r"|enviei|mandei|paguei|envi[eé]|pagu[eé]|te\s+mand[eé]|j'ai\s+envoy[eé]|geschickt|bezahlt)\b",
    re.IGNORECASE,
)
_RECEIVED = re.compile(
    r"\b(?:got\s+it|got\s+them|received|thanks\s+for|thank\s+you\s+for|thx\s+for|obrigad[oa]"
    r"|gracias|merci|danke|peguei|recebi|recib[ií]|lo\s+tengo|got\s+the|got\s+your)\b",
    re.IGNORECASE,
)
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


def deed_topic_terms(terms: Sequence[str]) -> list[str]:
    """The question's topic words without the deed's own verbs ("pay", "ever", "back")."""
    found = []
    for term in terms:
        folded = fold_text(term.strip('"'))
        if len(folded) >= 2 and folded not in _DEED_WORDS:
            found.append(folded)
    return found


def _names_topic(text: str, terms: Sequence[str]) -> bool:
    folded = fold_text(text)
    for term in terms:
        stem = term if len(term) <= 4 else term[: max(4, len(term) - 2)]
        if re.search(rf"(?<!\w){re.escape(stem)}", folded):
            return True
    return False


def deed_answer(
    *, user: User, terms: Sequence[str], person_ids: Sequence[int], now: datetime
) -> DeedAnswer | None:
    """Whether the user did what ``terms`` name (for ``person_ids``, when named), as of
    ``now``; ``None`` when no message names the topic with a deed, a promise or a request."""
    if not terms:
        return None
    pattern = "|".join(re.escape(term[: max(4, len(term) - 2)]) for term in terms)
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
    for row in topic_rows:
        if row.sent_at < raised.sent_at:
            continue
        text = row.text or ""
        is_deed = row.is_from_self and "?" not in text and _DONE_BY_USER.search(text)
        is_receipt = (
            not row.is_from_self
            and (not people or row.sender_person_id in people)
            and _RECEIVED.search(text)
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
            if "?" not in text and _DONE_BY_USER.search(text):
                return _answer(True, row, raised)
    intent = next(
        (
            row
            for row in reversed(topic_rows)
            if (row.is_from_self and _PROMISE.search(row.text or ""))
            or (not row.is_from_self and "?" in (row.text or ""))
        ),
        None,
    )
    if intent is None:
        return None
    return _answer(False, intent, raised)


def _answer(is_done: bool, row: Message, raised: Message) -> DeedAnswer:
    return DeedAnswer(
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
