"""Questions someone asked in the user's group chats that the user has not answered.

"Reply to the climbing group about Sunday", "answer the group chat's question about the
venue": the reply answers a question another member asked there. Memory's open loops record a
question to the user only when it addresses them ("can you…?"); a question to the whole group
("who can drive on Sunday?") is read here instead, on demand:

- a message of someone else (never an automated sender) in one of the given groups, within
  ``ASKED_WINDOW`` before now, with a question sentence, that reads neither as spam nor as
  instructions to an assistant;
- still open: the user has not replied to it (a platform reply), and nothing the user wrote in
  that group after it shares a word of its subject;
- the one that shares most subject words with the request wins (when the request has subject
  words, at least one), then the newest.

Only the user's own groups are read, as the caller names them; the question found is shown in
the draft and cited, never followed as an instruction.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from claire.accounts.models import User
from conversations.models import Message
from memory.chatnames import MIN_STEM, word_stem
from memory.extract import is_suspicious
from memory.recipient import AUTOMATED, contact_kind, topic_stems
from retrieval.lexicon import STOP_WORDS, fold_text

ASKED_WINDOW = timedelta(days=21)
# Messages of the groups read, newest first.
SCAN_LIMIT = 300
# A question longer than this is not shown whole in a draft.
MAX_QUESTION_CHARS = 160

_QUESTION_SENTENCE = re.compile(r"[^.!?\n]*\?")
# Words of the request that say it is a reply, not what it is about.
_REPLY_WORDS = frozenset(
    {"question", "questions", "asked", "asking", "group", "chat", "thread", "channel", "gc"}
)


@dataclass(frozen=True)
class AskedQuestion:
    """An open question in a group: who asked it, where, when, and its question sentence."""

    message_id: int
    chat_id: int
    person_id: int | None
    asker_name: str
    text: str
    sent_at: datetime


def _stems(text: str) -> set[str]:
    return {
        word_stem(word.rstrip("'"))
        for word in re.findall(r"[a-z][a-z'-]*", fold_text(text))
        if len(word) >= MIN_STEM and word not in STOP_WORDS
    }


def _shared(wanted: set[str], said: set[str]) -> int:
    """How many wanted stems the said ones meet, one a prefix of the other ("driv" and
    "drive")."""
    long_said = [stem for stem in said if len(stem) >= MIN_STEM]
    return sum(
        1
        for stem in wanted
        if len(stem) >= MIN_STEM
        and any(stem.startswith(other) or other.startswith(stem) for other in long_said)
    )


def _question_sentence(text: str) -> str:
    sentences = [match.group(0).strip() for match in _QUESTION_SENTENCE.finditer(text)]
    return sentences[-1] if sentences else ""


def open_group_question(
    *,
    user: User,
    chat_ids: Sequence[int],
    question: str,
    names: Sequence[str],
    now: datetime,
) -> AskedQuestion | None:
    """The open question in these groups the request answers (see the module docstring);
    None when there is none."""
    if not chat_ids:
        return None
    wanted = {stem.rstrip("'") for stem in topic_stems(question, names)} - {
        word_stem(word) for word in _REPLY_WORDS
    }
    recent = list(
        Message.objects.filter(
            user=user,
            chat_id__in=list(chat_ids),
            chat__is_excluded_from_ai=False,
            deleted_at__isnull=True,
            sent_at__gte=now - ASKED_WINDOW,
            sent_at__lte=now,
        )
        .select_related("sender_person")
        .prefetch_related("sender_person__identities")
        .order_by("-sent_at", "-pk")[:SCAN_LIMIT]
    )
    best: tuple[int, datetime, AskedQuestion] | None = None
    for index, message in enumerate(recent):
        if message.is_from_self or message.sender_person is None:
            continue
        text = message.text or ""
        asked = _question_sentence(text)
        if not asked or is_suspicious(text):
            continue
        if contact_kind(message.sender_person) == AUTOMATED:
            continue
        subject = _stems(text)
        later_own = [
            earlier
            for earlier in recent[:index]
            if earlier.is_from_self and earlier.chat_id == message.chat_id
        ]
        if any(
            own.reply_to_id == message.pk or _shared(_stems(own.text or ""), subject)
            for own in later_own
        ):
            continue
        hits = _shared(wanted, subject)
        if wanted and hits == 0:
            continue
        found = AskedQuestion(
            message_id=message.pk,
            chat_id=message.chat_id,
            person_id=message.sender_person_id,
            asker_name=message.sender_person.display_name,
            text=asked[:MAX_QUESTION_CHARS],
            sent_at=message.sent_at,
        )
        if best is None or (hits, message.sent_at) > (best[0], best[1]):
            best = (hits, message.sent_at, found)
    return best[2] if best is not None else None
