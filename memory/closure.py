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
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import Q

from claire.accounts.models import User
from conversations.models import ChatKind, ChatParticipant, Message, MessageKind, Person
from memory.extract import (
    has_link,
    promise_in_person,
    puts_off,
    request_in_person,
    says_arrived_words,
    says_delivered_words,
    says_done_words,
)
from memory.models import Loop, LoopKind, LoopStatus
from memory.plan_words import (
    I_OWE,
    OWED_TO_ME,
    deed_families,
    deed_families_regex,
    phrases_regex,
)
from retrieval.lexicon import STOP_WORDS, fold_text, word_set

# How long after a promise or a request the closing message may come: a request about a trip
# or an event weeks ahead ("could you collect me on the 19th?") is often settled a month or two
# later, once plans firm up.
CLOSE_WINDOW = timedelta(days=60)
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
    "lift": "ride", "lifts": "ride", "rides": "ride", "drive": "ride", "driving": "ride",
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


def says_delivered(text: str) -> bool:
    """A sentence of ``text`` (not a question) saying something was sent, paid or handed over
    ("sent", "attached", "c'est envoyé"); "done" or "fatto" alone do not say what."""
    return any(
        "?" not in sentence and (_DONE.search(sentence) or says_delivered_words(sentence))
        for sentence in _SENTENCE.findall(text)
    )


def says_paid(text: str) -> bool:
    """``text`` says money went over: a payment ("paid", "transferred", "udah aku transfer")
    or a delivery that names a sum ("sent you the $40"); "will pay tonight" does not."""
    return any(
        says_delivered(sentence)
        and ("pay" in deed_families(fold_text(sentence)) or bool(_AMOUNT.search(sentence)))
        for sentence in _SENTENCE.findall(text)
    )


def says_done(text: str) -> bool:
    """A sentence of ``text`` that says something was done, and is not itself a question
    ("CV attached 🙏" in a message that also asks "are they hiring?")."""
    return any(
        "?" not in sentence and (_DONE.search(sentence) or says_done_words(sentence))
        for sentence in _SENTENCE.findall(text)
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
        "?" not in sentence and (_ARRIVED.search(sentence) or says_arrived_words(sentence))
        for sentence in _SENTENCE.findall(text)
    )


def says_received(text: str) -> bool:
    return any(
        "?" not in sentence and (_RECEIVED.search(sentence) or says_arrived_words(sentence))
        for sentence in _SENTENCE.findall(text)
    )


@dataclass(frozen=True)
class Candidate:
    """A message that may close a loop, with what the rules need to know about it."""

    text: str
    is_from_self: bool
    sender_person_id: int | None
    with_person: bool
    is_direct_with_person: bool
    # In a direct chat, the message names the loop's person ("following Ana's request, …"):
    # someone answering the user for them.
    names_person: bool = False
    person_names: frozenset[str] = frozenset()
    # Said to the user: in a direct chat, or naming them ("Maya, your CV arrived").
    addresses_user: bool = False


def closes(
    kind: str,
    *,
    topic: frozenset[str],
    has_person: bool,
    candidate: Candidate,
    deeds: frozenset[str] = frozenset(),
) -> bool:
    """Whether ``candidate`` (in another chat, after the loop opened) closes a loop of ``kind``
    about ``topic`` (``deeds``: the ``plan_words.DEED_FAMILIES`` the loop asks for); see the
    module's table."""
    shared = len(topic & topic_words(candidate.text))
    if kind == LoopKind.PROMISE_BY_USER:
        if candidate.is_from_self:
            if shared >= 1 and says_done(candidate.text):
                return True
            needed = 2 if candidate.with_person or not has_person else 3
            return shared >= needed
        if candidate.with_person:
            return shared >= 1 and says_received(candidate.text)
        # Someone else telling the user it arrived ("your portfolio reached my manager,
        # thanks!"): the thing was handed over.
        return candidate.addresses_user and shared >= 1 and says_arrived(candidate.text)
    if kind == LoopKind.QUESTION_TO_USER:
        return candidate.is_from_self and candidate.is_direct_with_person and shared >= 1
    if kind == LoopKind.REQUEST_BY_USER:
        if candidate.is_from_self or puts_off(candidate.text):
            return False
        if not candidate.with_person:
            # Someone answering for the person names them and two words of the thing asked
            # for (the name aside), and asks nothing ("did Rui ever answer?" is no answer).
            about = topic - {name[:_STEM] for name in candidate.person_names}
            return (
                candidate.names_person
                and "?" not in candidate.text
                and len(about & topic_words(candidate.text)) >= 2
            )
        if shared >= (1 if candidate.is_direct_with_person else 2):
            return True
        # The person telling the user they did the very deed asked, in other words or another
        # language ("Maya, lámpara devuelta" to "can I have my lamp back?").
        return (
            candidate.addresses_user
            and says_delivered(candidate.text)
            and bool(deeds & deed_families(fold_text(candidate.text)))
        )
    return False


def loop_deeds(*, loop: Loop) -> frozenset[str]:
    """The deeds (``plan_words.DEED_FAMILIES``) the user's request asks for: "can I have my
    lamp back?" asks for a return. Only requests: what the user promised is kept by the
    user's own words."""
    if loop.kind != LoopKind.REQUEST_BY_USER:
        return frozenset()
    return deed_families(fold_text(loop.opened_by.text or ""))


def loop_topic(
    *, loop: Loop, user_name: str, answered: Message | None = None, answered_read: bool = False
) -> frozenset[str]:
    """The words of the loop's opening message and of the message it answers (``answered``,
    read when not given and not ``answered_read``: a caller that read it already, finding
    none, says so)."""
    opener = loop.opened_by
    texts = [opener.text or ""]
    if answered is None and not answered_read:
        answered = answered_message(opener)
    if answered is not None:
        texts.append(answered.text or "")
    ignore = [user_name] if user_name else []
    return topic_words(" ".join(texts), ignore=ignore)


def answered_message(opener: Message) -> Message | None:
    """The message ``opener`` answers: the one it replies to, else the last message the other
    side wrote in that chat within ``CONTEXT_WINDOW`` before it."""
    return answered_messages([opener]).get(opener.pk)


_ANSWERED_SQL = """
    SELECT opener.id, previous.id
    FROM conversations_message opener
    CROSS JOIN LATERAL (
        SELECT m.id FROM conversations_message m
        WHERE m.chat_id = opener.chat_id AND m.user_id = opener.user_id
          AND m.deleted_at IS NULL AND m.is_from_self <> opener.is_from_self
          AND m.sent_at < opener.sent_at AND m.sent_at >= opener.sent_at - make_interval(secs => %s)
        ORDER BY m.sent_at DESC, m.id DESC LIMIT 1
    ) previous
    WHERE opener.id = ANY(%s)
"""


def answered_messages(openers: Sequence[Message]) -> dict[int, Message]:
    """``answered_message`` of each opener, by opener id, in two statements however many."""
    if not openers:
        return {}
    replied = {opener.pk: opener.reply_to_id for opener in openers if opener.reply_to_id}
    rest = [opener.pk for opener in openers]
    with connection.cursor() as cursor:
        cursor.execute(_ANSWERED_SQL, [CONTEXT_WINDOW.total_seconds(), rest])
        previous = dict(cursor.fetchall())
    wanted = {*replied.values(), *previous.values()}
    found = Message.objects.filter(pk__in=wanted, deleted_at__isnull=True).in_bulk()
    answered = {}
    for opener in openers:
        message = found.get(replied.get(opener.pk, 0)) or found.get(previous.get(opener.pk, 0))
        if message is not None:
            answered[opener.pk] = message
    return answered


# "$22", "22 dollars", "€15", "R$ 40": an amount of money.
_AMOUNT = re.compile(
    r"(?:[$€£]|R\$)\s?\d+(?:[.,]\d{1,2})?|\b\d+(?:[.,]\d{1,2})?\s?(?:dollars|bucks|euros|eur|usd|reais)\b"
    r"|\b\d+(?:[.,]\d{1,2})?\s?[€£$]",
    re.IGNORECASE,
)
_PAY_BACK = re.compile(
    r"\b(?:pay|paying|venmo|zelle|transfer|owe|reimburse|pay\s+\w+\s+back|bizum|pix)\b"
    r"|" + phrases_regex({**I_OWE, **{f"{key}-owed": v for key, v in OWED_TO_ME.items()}}).pattern,
    re.IGNORECASE,
)
# Paying, in the lexicon's languages: "paguei o estacionamento, 12 euros" → "te passo amanhã"
# is a promise to pay it back.
_PAID_FOR = re.compile(
    r"\b(?:paid|covered|paguei|pagu[eé]|pagado|pagato|pay[ée]|bezahlt|ausgelegt|owe|debes|deves"
    r"|devi|schuldest)\b",
    re.IGNORECASE,
)


def owed_amount(opener: Message) -> tuple[str, int] | None:
    """The amount a promise to pay ("I'll pay you back Saturday!") is about, with the message
    that states it: the promise itself, else the message it answers ("I paid your pass, $22")."""
    answered = answered_message(opener)
    about_paying = _PAY_BACK.search(opener.text or "") or (
        answered is not None
        and _PAID_FOR.search(answered.text or "")
        and _AMOUNT.search(answered.text or "")
    )
    if not about_paying:
        return None
    for message in (opener, answered):
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
    ``loop_ids`` are read (no message can close an older loop: its window is over).

    What every loop needs besides its own candidates (merges, memberships, names, the
    messages the openers answer, the files and links that may deliver them) is read once for
    all of them."""
    from memory.selectors import person_canonical_ids, person_group_expand

    user_name = (user.first_name or "").strip()
    user_names = frozenset(fold_text(user_name).split()[:1])
    closed = 0
    loops = Loop.objects.filter(user=user, status=LoopStatus.OPEN)
    if opened_since is not None:
        loops = loops.filter(Q(opened_at__gte=opened_since) | Q(pk__in=list(loop_ids)))
    open_loops = list(loops.select_related("opened_by").order_by("opened_at", "pk"))
    if not open_loops:
        return 0
    canonical = person_canonical_ids(user=user)
    display_names = dict(Person.objects.filter(user=user).values_list("pk", "display_name"))
    full_names = _full_names(display_names)
    memberships: dict[int, list[tuple[int, str]]] = {}
    for member_id, chat_id, chat_kind in ChatParticipant.objects.filter(
        chat__user=user
    ).values_list("person_id", "chat_id", "chat__kind"):
        memberships.setdefault(member_id, []).append((chat_id, chat_kind))
    answered = answered_messages([loop.opened_by for loop in open_loops])
    reach = {}
    for loop in open_loops:
        person_ids = (
            set(person_group_expand(canonical=canonical, person_ids=[loop.person_id]))
            if loop.person_id
            else set()
        )
        person_ids |= _same_full_name(person_ids, full_names)
        reach[loop.pk] = _Reach.of(person_ids, memberships, display_names)
    deliveries = _deliveries(user=user, loops=open_loops, reach=reach)
    for loop in open_loops:
        topic = loop_topic(
            loop=loop,
            user_name=user_name,
            answered=answered.get(loop.opened_by_id),
            answered_read=True,
        )
        if not topic:
            continue
        deeds = loop_deeds(loop=loop)
        window = QUESTION_CLOSE_WINDOW if loop.kind == LoopKind.QUESTION_TO_USER else CLOSE_WINDOW
        person = reach[loop.pk]
        about = Q(text__iregex=_prefilter(topic))
        if deeds and person.person_ids:
            # The person's word that the deed is done, whatever else it names.
            about |= Q(
                sender_person_id__in=list(person.person_ids), text__iregex=deed_families_regex()
            )
        rows = (
            Message.objects.filter(
                about,
                user=user,
                deleted_at__isnull=True,
                chat__is_excluded_from_ai=False,
                sent_at__gt=loop.opened_at,
                sent_at__lte=loop.opened_at + window,
            )
            .exclude(chat_id=loop.chat_id)
            .order_by("sent_at", "pk")
            .values_list(
                "pk", "text", "is_from_self", "sender_person_id", "chat_id", "sent_at", "chat__kind"
            )
        )[:CANDIDATES_READ]
        closer = None
        for pk, text, is_from_self, sender_id, chat_id, sent_at, chat_kind in rows:
            candidate = Candidate(
                text=text or "",
                is_from_self=is_from_self,
                sender_person_id=sender_id,
                with_person=chat_id in person.chats
                and (is_from_self or sender_id in person.person_ids),
                is_direct_with_person=chat_id in person.direct_chats,
                names_person=chat_kind == ChatKind.DIRECT
                and _names_any(text or "", person.first_names),
                person_names=person.first_names,
                addresses_user=chat_kind == ChatKind.DIRECT or _names_any(text or "", user_names),
            )
            if closes(
                loop.kind,
                topic=topic,
                has_person=bool(person.person_ids),
                candidate=candidate,
                deeds=deeds,
            ):
                closer = (pk, sent_at)
                break
        closer = _earliest(closer, deliveries.get(loop.pk))
        if closer is not None:
            _resolve(loop, *closer)
            closed += 1
    return closed


def _earliest(
    first: tuple[int, datetime] | None, second: tuple[int, datetime] | None
) -> tuple[int, datetime] | None:
    """The earlier of two closing messages: time order decides which one closed the loop."""
    found = [item for item in (first, second) if item is not None]
    return min(found, key=lambda item: (item[1], item[0])) if found else None


@dataclass(frozen=True)
class _Reach:
    """Where a loop's person can be met: their ids (merges and same full names included),
    every chat they are in, the direct ones, and their folded first names."""

    person_ids: frozenset[int]
    chats: frozenset[int]
    direct_chats: frozenset[int]
    first_names: frozenset[str]

    @classmethod
    def of(
        cls,
        person_ids: set[int],
        memberships: dict[int, list[tuple[int, str]]],
        display_names: dict[int, str],
    ) -> _Reach:
        chats: set[int] = set()
        direct: set[int] = set()
        for person_id in person_ids:
            for chat_id, kind in memberships.get(person_id, ()):
                chats.add(chat_id)
                if kind == ChatKind.DIRECT:
                    direct.add(chat_id)
        return cls(
            person_ids=frozenset(person_ids),
            chats=frozenset(chats),
            direct_chats=frozenset(direct),
            first_names=_first_names(display_names.get(pk, "") for pk in person_ids),
        )


def _resolve(loop: Loop, message_id: int, sent_at: datetime) -> None:
    loop.status = LoopStatus.RESOLVED
    loop.resolved_by_id = message_id
    loop.closed_at = sent_at
    loop.save(update_fields=["status", "resolved_by", "closed_at"])


# How soon after a promise or a request a file or a link in a direct chat delivers it.
DELIVERY_WINDOW = timedelta(days=7)
_LINK = r"https?://"
# Longer messages are not a bare "sent!" (a prefilter for ``_bare_done``).
_BARE_DONE_CHARS = 80


def _deliveries(
    *, user: User, loops: Sequence[Loop], reach: dict[int, _Reach]
) -> dict[int, tuple[int, datetime]]:
    """What delivers each loop without naming it ("I'll send you the deck" in a group, then a
    file, a link or a bare "sent!" in the direct chat): the first such message in a direct
    chat with the loop's person within ``DELIVERY_WINDOW``, sent by whoever owed it (the user
    for their promise or someone's ask, the person for the user's request). One statement
    for every loop."""
    wanted = [
        loop
        for loop in loops
        if LoopKind(loop.kind) in _DELIVERED_BY_USER
        and reach[loop.pk].direct_chats - {loop.chat_id}
    ]
    if not wanted:
        return {}
    chat_ids = {chat_id for loop in wanted for chat_id in reach[loop.pk].direct_chats}
    rows = list(
        Message.objects.filter(
            user=user,
            chat_id__in=chat_ids,
            deleted_at__isnull=True,
            sent_at__gt=min(loop.opened_at for loop in wanted),
            sent_at__lte=max(loop.opened_at for loop in wanted) + DELIVERY_WINDOW,
        )
        .filter(
            Q(kind=MessageKind.MEDIA)
            | Q(text__iregex=_LINK)
            | Q(text__regex=rf"^.{{0,{_BARE_DONE_CHARS}}}$")
        )
        .order_by("sent_at", "pk")
        .values_list("pk", "chat_id", "is_from_self", "sender_person_id", "sent_at", "kind", "text")
    )
    found = {}
    for loop in wanted:
        person = reach[loop.pk]
        by_user = _DELIVERED_BY_USER[LoopKind(loop.kind)]
        for pk, chat_id, is_from_self, sender_id, sent_at, kind, text in rows:
            if (
                chat_id == loop.chat_id
                or chat_id not in person.direct_chats
                or not loop.opened_at < sent_at <= loop.opened_at + _delivery_window(loop)
                or is_from_self != by_user
                or (not by_user and sender_id not in person.person_ids)
            ):
                continue
            if _bare_done(text or "") or (
                (kind == MessageKind.MEDIA or has_link(text or ""))
                and not (
                    loop.kind == LoopKind.PROMISE_BY_USER
                    and promise_in_person(loop.opened_by.text or "")
                )
                and not (
                    loop.kind == LoopKind.REQUEST_BY_USER
                    and request_in_person(loop.opened_by.text or "")
                )
            ):
                found[loop.pk] = (pk, sent_at)
                break
    return found


def _delivery_window(loop: Loop) -> timedelta:
    # A question is answered soon or not at all; a thing owed can take days.
    return QUESTION_CLOSE_WINDOW if loop.kind == LoopKind.QUESTION_TO_USER else DELIVERY_WINDOW


# Who delivers a loop of each kind: the user (True) or the loop's person (False).
_DELIVERED_BY_USER = {
    LoopKind.PROMISE_BY_USER: True,
    LoopKind.QUESTION_TO_USER: True,
    LoopKind.REQUEST_BY_USER: False,
}


# At most this many words in a message that says it is done without saying what ("sent!").
BARE_DONE_WORDS = 6


def _bare_done(text: str) -> bool:
    """A short message that says it is done and names nothing else ("sent!", "just sent it
    🙏", "here you go")."""
    return len(text.split()) <= BARE_DONE_WORDS and says_done(text) and not puts_off(text)


def _first_names(names: Iterable[str]) -> frozenset[str]:
    """The folded first names (three letters or more) of ``names``."""
    found = set()
    for name in names:
        words = fold_text(name or "").split()
        if words and len(words[0]) >= 3 and words[0].isalpha():
            found.add(words[0])
    return frozenset(found)


def _names_any(text: str, names: Collection[str]) -> bool:
    folded = fold_text(text)
    return any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", folded) for name in names)


def _full_names(display_names: dict[int, str]) -> dict[int, str]:
    """Each of the user's contacts saved under a full name (two words or more), folded: "Ana
    Souza" on Slack and "Ana Souza" by email are one person when a promise made on one is
    kept on the other."""
    names = {}
    for pk, name in display_names.items():
        folded = " ".join(fold_text(name or "").split())
        if len(folded.split()) >= 2:
            names[pk] = folded
    return names


def _same_full_name(person_ids: Collection[int], full_names: dict[int, str]) -> set[int]:
    """The contacts saved under the same full name as one of ``person_ids``."""
    wanted = {full_names[pk] for pk in person_ids if pk in full_names}
    return {pk for pk, name in full_names.items() if name in wanted}
