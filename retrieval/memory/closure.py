"""Loops closed outside the chat that opened them.

A promise made in a group is often kept in a direct chat, by email or on another platform ("I'll
pass your CV on" in one chat, "CV attached" to a colleague on Slack); a question asked in a
group is often answered in a direct chat with the asker. ``services.loops_refresh`` resolves a
loop inside its own chat; ``loops_close_across_chats`` then reads the user's other chats for the
message that closes each loop still open:

- a promise: the user's message that says it is done ("sent", "attached", "here's …") and
  shares a topic word with the promise; the user's message that shares three topic words (two
  in a chat with the loop's person, or when the promise was to nobody in particular); or the
  person's receipt ("got the crash pad, thanks!") that shares a topic word;
- a question to the user: the user's message in a direct chat with the asker within
  ``QUESTION_CLOSE_WINDOW`` that shares a topic word;
- the user's request: the person's message that shares two topic words, or one in a direct
  chat with them.

The topic of a loop is its opening message with the message it answers (the one it replies to,
or the last message someone else wrote in that chat just before it): "I'll pay you back!"
answers "I paid your guest pass, $22". Topic words are folded content words of three letters or
more (stop words and the deed's own verbs dropped), compared on their first five letters, with
a few everyday synonyms made one ("pics", "photos", "album").

Pure rules and bounded reads; deterministic; no model.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q

from claire.accounts.models import User
from conversations.models import ChatKind, ChatParticipant, Message
from retrieval.lexicon import STOP_WORDS, fold_text, word_set
from retrieval.memory.models import Loop, LoopKind, LoopStatus

# How long after a promise or a request the closing message may come.
CLOSE_WINDOW = timedelta(days=30)
# How long after a question its answer in another chat may come.
QUESTION_CLOSE_WINDOW = timedelta(days=2)
# How far before an opening message the message it answers may be.
CONTEXT_WINDOW = timedelta(hours=12)
# Candidate closers read per loop, oldest first.
CANDIDATES_READ = 200

_WORD = re.compile(r"[^\W_]+|\$?\d+(?:[.,]\d+)?")
_STEM = 5
# Chat filler and the verbs of the deed itself: they say nothing about what was promised.
_FILLER = word_set(
    """
    omg lol haha hahaha yay yess yesss yeah yep nope sorry sure cool nice great amazing awesome
    tonight today tomorrow tmrw week weekend morning evening later soon asap next first
    will bring brought send sending sent pay paid paying give gave return returned pass passed
    share shared forward forwarded call called check checked look looked review reviewed
    take took make made want wanted love loved good best fine okay right thing things stuff
    still already again just really also sometime whenever
    """
)
# Everyday words for the same thing, made one.
_SYNONYMS = {
    "pic": "photo", "pics": "photo", "picture": "photo", "pictures": "photo",
    "photos": "photo", "album": "photo", "fotos": "photo", "foto": "photo",
    "resume": "cv", "resumes": "cv",
}  # fmt: skip


def same_words(word: str) -> list[str]:
    """The everyday words for the same thing as ``word`` (folded), without ``word``."""
    canonical = _SYNONYMS.get(word, word)
    forms = [form for form, same in _SYNONYMS.items() if same == canonical]
    if canonical in forms or any(_SYNONYMS.get(form) == canonical for form in forms):
        forms.append(canonical)
    return [form for form in dict.fromkeys(forms) if form != word]


def topic_words(text: str, *, ignore: Iterable[str] = ()) -> frozenset[str]:
    """The content words of ``text``, folded, on their first five letters."""
    skipped = {fold_text(word) for word in ignore}
    found = set()
    for match in _WORD.finditer(fold_text(text)):
        word = match.group(0).lstrip("$")
        if word.isdigit():
            if len(word) >= 2:
                found.add(word)
            continue
        if len(word) < 3 or word in STOP_WORDS or word in _FILLER or word in skipped:
            continue
        word = _SYNONYMS.get(word, word)
        found.add(word[:_STEM])
    return frozenset(found)


_DONE = re.compile(
    r"\b(?:sent|paid|gave|given|returned|forwarded|forwarding|passed\s+(?:it\s+|them\s+)?"
    r"(?:along|on)|passing\s+(?:it\s+|this\s+|them\s+)?along|emailed|shared|dropped\s+(?:it\s+|them"
    r"\s+)?off|sending\s+(?:you|over)|here\s+(?:it\s+is|they\s+are|you\s+go|is|are)|here['\u2019]s"
    r"|attached|attaching|zelle[d']?\w*|venmo\w*|transferred|uploaded|mailed|delivered|brought"
    r"|told\s+(?:him|her|them)|let\s+(?:him|her|them)\s+know|reviewed|left\s+(?:some\s+|a\s+few\s+)?"
    r"comments|ordered|booked|enviei|mandei|paguei|envi[eé]|pagu[eé]|te\s+mand[eé]"
    r"|j['\u2019]ai\s+envoy[eé]|geschickt|bezahlt)\b",
    re.IGNORECASE,
)
_RECEIVED = re.compile(
    r"\b(?:got\s+it|got\s+them|received|thanks\s+for|thank\s+you\s+for|thx\s+for|obrigad[oa]"
    r"|gracias|merci|danke|peguei|recebi|recib[ií]|lo\s+tengo|got\s+the|got\s+your)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")


def says_done(text: str) -> bool:
    """A sentence of ``text`` that says something was done, and is not itself a question
    ("CV attached 🙏" in a message that also asks "are they hiring?")."""
    return any(
        "?" not in sentence and _DONE.search(sentence) for sentence in _SENTENCE.findall(text)
    )


# That it arrived, not only thanks: "thanks for offering!" right after a promise keeps it open.
_ARRIVED = re.compile(
    r"\b(?:got\s+it|got\s+them|got\s+the|got\s+your|received|recebi|recib[ií]|peguei"
    r"|lo\s+tengo|bien\s+re[çc]u|erhalten|angekommen)\b",
    re.IGNORECASE,
)


def says_arrived(text: str) -> bool:
    """A sentence of ``text`` (not a question) saying that what was owed arrived."""
    return any(
        "?" not in sentence and _ARRIVED.search(sentence) for sentence in _SENTENCE.findall(text)
    )


def says_received(text: str) -> bool:
    return any(
        "?" not in sentence and _RECEIVED.search(sentence) for sentence in _SENTENCE.findall(text)
    )


@dataclass(frozen=True)
class Candidate:
    """A message that may close a loop, with what the rules need to know about it."""

    text: str
    is_from_self: bool
    sender_person_id: int | None
    with_person: bool
    is_direct_with_person: bool


def closes(kind: str, *, topic: frozenset[str], has_person: bool, candidate: Candidate) -> bool:
    """Whether ``candidate`` (in another chat, after the loop opened) closes a loop of ``kind``
    about ``topic``; see the module's table."""
    shared = len(topic & topic_words(candidate.text))
    if kind == LoopKind.PROMISE_BY_USER:
        if candidate.is_from_self:
            if shared >= 1 and says_done(candidate.text):
                return True
            needed = 2 if candidate.with_person or not has_person else 3
            return shared >= needed
        return candidate.with_person and shared >= 1 and says_received(candidate.text)
    if kind == LoopKind.QUESTION_TO_USER:
        return candidate.is_from_self and candidate.is_direct_with_person and shared >= 1
    if kind == LoopKind.REQUEST_BY_USER:
        if candidate.is_from_self or not candidate.with_person:
            return False
        return shared >= (1 if candidate.is_direct_with_person else 2)
    return False


def loop_topic(*, loop: Loop, user_name: str) -> frozenset[str]:
    """The words of the loop's opening message and of the message it answers."""
    opener = loop.opened_by
    texts = [opener.text or ""]
    answered = answered_message(opener)
    if answered is not None:
        texts.append(answered.text or "")
    ignore = [user_name] if user_name else []
    return topic_words(" ".join(texts), ignore=ignore)


def answered_message(opener: Message) -> Message | None:
    """The message ``opener`` answers: the one it replies to, else the last message the other
    side wrote in that chat within ``CONTEXT_WINDOW`` before it."""
    answered = None
    if opener.reply_to_id:
        answered = Message.objects.filter(pk=opener.reply_to_id, deleted_at__isnull=True).first()
    if answered is None:
        answered = (
            Message.objects.filter(
                chat_id=opener.chat_id,
                deleted_at__isnull=True,
                sent_at__lt=opener.sent_at,
                sent_at__gte=opener.sent_at - CONTEXT_WINDOW,
            )
            .exclude(is_from_self=opener.is_from_self)
            .order_by("-sent_at", "-pk")
            .first()
        )
    return answered


# "$22", "22 dollars", "€15", "R$ 40": an amount of money.
_AMOUNT = re.compile(
    r"(?:[$€£]|R\$)\s?\d+(?:[.,]\d{1,2})?|\b\d+(?:[.,]\d{1,2})?\s?(?:dollars|bucks|euros|eur|usd|reais)\b",
    re.IGNORECASE,
)
_PAY_BACK = re.compile(
    r"\b(?:pay|paying|venmo|zelle|transfer|owe|reimburse|pay\s+\w+\s+back)\b", re.IGNORECASE
)


def owed_amount(opener: Message) -> tuple[str, int] | None:
    """The amount a promise to pay ("I'll pay you back Saturday!") is about, with the message
    that states it: the promise itself, else the message it answers ("I paid your pass, $22")."""
    if not _PAY_BACK.search(opener.text or ""):
        return None
    for message in (opener, answered_message(opener)):
        if message is None:
            continue
        match = _AMOUNT.search(message.text or "")
        if match:
            return " ".join(match.group(0).split()), message.pk
    return None


def _prefilter(topic: frozenset[str]) -> str:
    return "|".join(re.escape(word) for word in sorted(topic))


def loops_close_across_chats(
    *, user: User, opened_since: datetime | None = None, loop_ids: Collection[int] = ()
) -> int:
    """Resolve the user's open loops that a message in another chat closes; returns how many
    were closed. Reads each open loop's topic and the messages after it that name a topic
    word or come from its person. With ``opened_since``, only the loops opened since then and
    ``loop_ids`` are read (no message can close an older loop: its window is over)."""
    from retrieval.memory.selectors import person_canonical_ids, person_group_expand

    user_name = (user.first_name or "").strip()
    closed = 0
    loops = Loop.objects.filter(user=user, status=LoopStatus.OPEN)
    if opened_since is not None:
        loops = loops.filter(Q(opened_at__gte=opened_since) | Q(pk__in=list(loop_ids)))
    open_loops = list(loops.select_related("opened_by").order_by("opened_at", "pk"))
    if not open_loops:
        return 0
    # Merges and chat memberships read once for every loop.
    canonical = person_canonical_ids(user=user)
    memberships: dict[int, list[tuple[int, str]]] = {}
    for member_id, chat_id, chat_kind in ChatParticipant.objects.filter(
        chat__user=user
    ).values_list("person_id", "chat_id", "chat__kind"):
        memberships.setdefault(member_id, []).append((chat_id, chat_kind))
    for loop in open_loops:
        topic = loop_topic(loop=loop, user_name=user_name)
        if not topic:
            continue
        window = QUESTION_CLOSE_WINDOW if loop.kind == LoopKind.QUESTION_TO_USER else CLOSE_WINDOW
        person_ids = (
            set(person_group_expand(canonical=canonical, person_ids=[loop.person_id]))
            if loop.person_id
            else set()
        )
        person_chats: set[int] = set()
        direct_chats: set[int] = set()
        for person_id in person_ids:
            for chat_id, kind in memberships.get(person_id, ()):
                person_chats.add(chat_id)
                if kind == ChatKind.DIRECT:
                    direct_chats.add(chat_id)
        rows = (
            Message.objects.filter(
                user=user,
                deleted_at__isnull=True,
                chat__is_excluded_from_ai=False,
                sent_at__gt=loop.opened_at,
                sent_at__lte=loop.opened_at + window,
                text__iregex=_prefilter(topic),
            )
            .exclude(chat_id=loop.chat_id)
            .order_by("sent_at", "pk")
            .values_list("pk", "text", "is_from_self", "sender_person_id", "chat_id", "sent_at")
        )[:CANDIDATES_READ]
        for pk, text, is_from_self, sender_id, chat_id, sent_at in rows:
            candidate = Candidate(
                text=text or "",
                is_from_self=is_from_self,
                sender_person_id=sender_id,
                with_person=chat_id in person_chats and (is_from_self or sender_id in person_ids),
                is_direct_with_person=chat_id in direct_chats,
            )
            if closes(loop.kind, topic=topic, has_person=bool(person_ids), candidate=candidate):
                loop.status = LoopStatus.RESOLVED
                loop.resolved_by_id = pk
                loop.closed_at = sent_at
                loop.save(update_fields=["status", "resolved_by", "closed_at"])
                closed += 1
                break
    return closed
