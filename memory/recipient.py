"""Who an action request is for: where what to say begins, the request's subject words, and
which of the user's contacts the recipient's name means. The proposal's destination
(``proposals.destination``) and the messages the request follows up
(``memory.followup``) read the same recipient.

The compiler resolves the question's names against the user's contacts; a name can still fit
an automated sender ("Game Night Bot" for "game night"), a stranger the user never wrote to (a
display name imitating a contact), or fit nobody because the question says a short form the
compiler leaves alone ("dani" for a contact saved as "Daniela Ruiz"). The recipient is ranked
here, among the user's own contacts only:

1. a real person before a business, and an automated sender (a bot, a no-reply address,
   notifications) never: no draft goes to a machine;
2. someone the user has written to (in a chat they share) before someone the user never talks
   to;
3. someone who took part in what the request is about (the request's own subject words in
   their messages, or in the user's direct chat with them);
4. whoever wrote most recently.

The recipient is the word right after the verb of asking ("tell dani ...", "let Alex K know
...", "reply to dr adeyemi ..."): a short form there names the contacts whose first name it
begins. Message text is read only to rank contacts the question already named (their own
messages, for the subject words); it never adds a contact or a destination.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Max, Q, QuerySet

from claire.accounts.models import User
from conversations.models import ChatKind, IdentityKind, Message, Person, Platform
from memory.callnames import people_called_by
from memory.chatnames import MIN_STEM, word_stem
from memory.extract import is_suspicious
from retrieval.compile import TITLES, platform_verb, question_platforms
from retrieval.lexicon import STOP_WORDS, fold_text

# Words that open what the message is about: a name after them is content, not recipient
# ("reply to mom about what Sam wants", "dile a Marta que Pia llega"). "with" after a verb
# that takes its recipient with it ("follow up with Ana") names the recipient instead.
_CONTENT_MARKER = re.compile(
    r"\b(?:about|regarding|re|that|saying|with|whether|if|what|how|why|when|que|sobre|acerca"
    r"|dass|über|ueber|concernant|pour|a\s+dizer|dizendo|diciendo|disant"
    r"|là|rằng|về|xem|để|bahwa|kalau|tentang|soal|untuk|apakah)\b",
    re.IGNORECASE,
)
_RECIPIENT_WITH = re.compile(
    r"\b(?:follow(?:ing)?\s+up|check(?:ing)?\s+in|get(?:ting)?\s+in\s+touch|touch\s+base"
    r"|catch\s+up|speak|talk|chat)\s+$",
    re.IGNORECASE,
)


def content_start(question: str) -> int:
    """Where what the message is about begins in the question (its length when nowhere)."""
    for marker in _CONTENT_MARKER.finditer(question):
        if marker.group(0).casefold() == "with" and _RECIPIENT_WITH.search(
            question[: marker.start()]
        ):
            continue
        return marker.start()
    return len(question)


# The verbs of a message request in Vietnamese and Indonesian, folded.
VI_ID_VERBS = frozenset(
    {"nhan", "bao", "noi", "hoi", "nhac", "gui", "tra", "loi", "kirim", "kirimin", "bilang",
     "bilangin", "ngomong", "kasih", "kabari", "kabarin", "tanya", "tanyain", "tanyakan",
     "ingatkan", "ingetin", "balas", "bales"}
)  # fmt: skip
# Words of asking and writing that say nothing about the subject.
_REQUEST_WORDS = VI_ID_VERBS | frozenset(
    {
        "text",
        "message",
        "messag",
        "ping",
        "remind",
        "tell",
        "ask",
        "write",
        "send",
        "reply",
        "respond",
        "answer",
        "drop",
        "line",
        "shoot",
        "quick",
        "follow",
        "check",
        "nudge",
        "let",
        "know",
        "draft",
        "email",
        "mail",
        "note",
        "again",
        "please",
        "back",
        "whatsapp",
        "slack",
        "telegram",
        "signal",
        "sms",
        "imessage",
        "discord",
        "dm",
        "dile",
        "escribe",
        "escribele",
        "ecris",
        "envoie",
        "manda",
        "mensagem",
        "mensaje",
        "que",
        "sobre",
        "about",
        "saying",
        "contact",
        "touch",
        "reach",
        "heads",
        "shout",
        "give",
        "post",
        "get",
    }
)


def topic_words(question: str, names: Sequence[str]) -> list[str]:
    """The request's subject words, folded: not stop words, names or the words of asking."""
    named = {word for name in names for word in re.findall(r"[a-z]+", fold_text(name))}
    return [
        word
        for word in re.findall(r"[a-z][a-z'-]*", fold_text(question))
        if len(word) >= MIN_STEM
        and word not in STOP_WORDS
        and word not in named
        and word not in _REQUEST_WORDS
    ]


def topic_stems(question: str, names: Sequence[str]) -> set[str]:
    """Stems of the request's subject words."""
    return {word_stem(word) for word in topic_words(question, names)}


# A display name, handle or address that is a machine's: a bot, a no-reply mailbox.
_AUTOMATED = re.compile(
    r"(?:\bbot\b|[a-z0-9]_?bot\b|\bno[-_.]?reply\b|\bdo[-_.]?not[-_.]?reply\b"
    r"|\bnotifications?\b|\bmailer[-_.]?daemon\b|\bnewsletters?\b|\bauto[-_. ]?reply\b"
    r"|\bautomated\b|\balerts?@)",
    re.IGNORECASE,
)
# A display name or mailbox that is a business's, not a person's.
_BUSINESS = re.compile(
    r"\b(?:inc|ltd|llc|gmbh|plc|corp|company|bank|clinic|pharmacy|shop|store|support"
    r"|services?|management|mgmt|department|dept|bookings?|orders?|billing|insurance"
    r"|customer|helpdesk|reception|info|hello|sales|team)\b",
    re.IGNORECASE,
)

# Contact kinds, best first.
PERSON, BUSINESS, AUTOMATED = 0, 1, 2

# Messages of each contact read for the request's subject words.
TOPIC_SAMPLE = 300
# A short form shorter than this names nobody ("al" is no name).
MIN_SHORT_FORM = 3

# Words a request opens with before its recipient: verbs of asking and writing, what is
# written, politeness, articles and titles ("could you draft a quick reply to dr adeyemi").
_VERBS = frozenset(
    {
        "tell",
        "let",
        "text",
        "message",
        "msg",
        "ping",
        "remind",
        "ask",
        "nudge",
        "write",
        "send",
        "reply",
        "respond",
        "answer",
        "email",
        "mail",
        "dm",
        "slack",
        "whatsapp",
        "signal",
        "imessage",
        "telegram",
        "sms",
        "discord",
        "drop",
        "shoot",
        "give",
        "draft",
        "follow",
        "check",
        "contact",
        "thank",
        "wish",
        "congratulate",
        # Spanish, French, Portuguese, German (folded): "dile a jo que ...", "ecris a max ..."
        "dile",
        "escribe",
        "escribele",
        "recuerdale",
        "preguntale",
        "mandale",
        "ecris",
        "envoie",
        "rappelle",
        "demande",
        "diz",
        "escreve",
        "lembra",
        "pergunta",
        "schreib",
        "schreibe",
        "sag",
        "frag",
        "erinnere",
        # Vietnamese and Indonesian (folded): "nhắn tin cho Lan ...", "bilang ke Sari ...".
        *VI_ID_VERBS,
    }
)
_LEAD_WORDS = _VERBS | frozenset(
    {
        "tin",
        "cho",
        "voi",
        "pesan",
        "ke",
        "sama",
        "pada",
        "tahu",
        "tau",
        "al",
        "ao",
        "a",
        "an",
        "the",
        "to",
        "up",
        "in",
        "with",
        "back",
        "again",
        "quick",
        "short",
        "little",
        "reply",
        "note",
        "line",
        "please",
        "pls",
        "can",
        "could",
        "would",
        "you",
        "hey",
        "claire",
        "just",
    }
)
_WORD = re.compile(r"[a-z][a-z'\u2019-]*")


@dataclass(frozen=True)
class Slot:
    """The word the recipient is named by, where the question says it."""

    word: str
    start: int
    end: int


def recipient_slot(question: str) -> Slot | None:
    """The first word after the request's verb of asking, before what to say; None when the
    question does not open with one ("could you tell dani ..." → "dani")."""
    folded = fold_text(question)
    head = folded[: content_start(question)]
    has_verb = False
    for match in _WORD.finditer(head):
        word = match.group()
        if word in _VERBS:
            has_verb = True
        if word in _LEAD_WORDS or word.rstrip(".") in TITLES:
            continue
        if not has_verb:
            return None
        return Slot(word=word, start=match.start(), end=match.end())
    return None


def contact_kind(person: Person) -> int:
    """``PERSON``, ``BUSINESS`` or ``AUTOMATED``, read from the saved name, handles and
    addresses."""
    values = [person.display_name, *(identity.value for identity in person.identities.all())]
    if any(_AUTOMATED.search(value or "") for value in values):
        return AUTOMATED
    names = [person.display_name] + [
        identity.value
        for identity in person.identities.all()
        if identity.kind in (IdentityKind.NAME, IdentityKind.EMAIL)
    ]
    if any(_BUSINESS.search((value or "").split("@")[0]) for value in names):
        return BUSINESS
    return PERSON


def short_form_people(*, user: User, word: str) -> list[int]:
    """The user's contacts whose first name is ``word`` or begins with it ("dani" for
    "Daniela Ruiz"), by saved name or a platform's display name. A word shorter than a short
    form or one the language also uses ("jo", "will", "mark") names only a contact whose first
    name it is exactly, or the one contact the user calls by it in their own messages ("hey
    jo" to "Joanna Tanaka", ``memory.callnames``): resolved against the user's own
    contacts, never a word list."""
    if len(word) < 2 or not word.isalpha() or word in _DETERMINERS:
        return []
    is_short_form = is_plain_short_form(word)
    pattern = r"\m" + re.escape(word)
    rows = Person.objects.filter(
        Q(display_name__iregex=pattern)
        | Q(identities__kind=IdentityKind.NAME, identities__value__iregex=pattern),
        user=user,
    ).distinct()
    found = []
    for person in rows.prefetch_related("identities"):
        names = [person.display_name] + [
            identity.value
            for identity in person.identities.all()
            if identity.kind == IdentityKind.NAME
        ]
        firsts = [_first_name(name) for name in names]
        if any(first == word or (is_short_form and first.startswith(word)) for first in firsts):
            found.append(person.pk)
    if not found:
        # Only a name the user is seen calling someone they write to, or one a stranger signs
        # with that is a short form of their own name ("— Liz" from Elizabeth Marsh): a
        # stranger signing with a friend's short form does not become them.
        called = people_called_by(user=user, names=[word]).get(word, ())
        found = [
            person_id for person_id in called if _is_written_to(user=user, person_id=person_id)
        ] or [person_id for person_id in called if _is_own_short_form(user, person_id, word)]
    return found


def _is_own_short_form(user: User, person_id: int, word: str) -> bool:
    """Whether ``word`` is a short form of one of the contact's own names (saved or a
    platform's display name): the start of a name word ("will" for William), or a run of
    three letters or more inside one ("liz" for Elizabeth, "tash" for Natasha)."""
    person = Person.objects.filter(user=user, pk=person_id).prefetch_related("identities").first()
    if person is None:
        return False
    names = [person.display_name] + [
        identity.value for identity in person.identities.all() if identity.kind == IdentityKind.NAME
    ]
    for name in names:
        for name_word in _WORD.findall(fold_text(name)):
            if name_word == word or len(name_word) <= len(word):
                continue
            if name_word.startswith(word) or (len(word) >= MIN_SHORT_FORM and word in name_word):
                return True
    return False


def _is_written_to(*, user: User, person_id: int) -> bool:
    return Message.objects.filter(
        user=user,
        is_from_self=True,
        deleted_at__isnull=True,
        chat__memberships__person_id=person_id,
        chat__is_excluded_from_ai=False,
    ).exists()


# Words that open a noun phrase ("text my sister ..."): never a name at the recipient's place.
_DETERMINERS = frozenset(
    {"my", "our", "your", "his", "her", "their", "its", "the", "a", "an", "this", "that",
     "these", "those", "some", "any", "every", "all", "each", "both", "me", "us", "him", "them"}
)  # fmt: skip


def is_plain_short_form(word: str) -> bool:
    """Whether a word may be a short form of a longer first name on its own: long enough, and
    no word the language also uses."""
    return len(word) >= MIN_SHORT_FORM and word not in STOP_WORDS


def _first_name(name: str) -> str:
    words = _WORD.findall(fold_text(name))
    while words and words[0].rstrip(".") in TITLES:
        words.pop(0)
    return words[0] if words else ""


@dataclass(frozen=True)
class Standing:
    """What ranks one contact as a recipient (see the module docstring)."""

    person_id: int
    kind: int
    is_written_to: bool
    has_direct_chat: bool
    topic_hits: int
    last_from_them: datetime | None

    def key(self) -> tuple[int, int, int, float]:
        return (
            self.kind,
            0 if self.is_written_to else 1,
            -self.topic_hits,
            -(self.last_from_them.timestamp() if self.last_from_them else 0.0),
        )


def standings(
    *, user: User, person_ids: Sequence[int], question: str, names: Sequence[str]
) -> list[Standing]:
    """Each contact's standing, best first."""
    people = list(
        Person.objects.filter(user=user, pk__in=list(person_ids)).prefetch_related("identities")
    )
    stems = topic_stems(question, names)
    ranked = []
    for person in people:
        chats = person.memberships.filter(chat__user=user, chat__is_excluded_from_ai=False)
        direct_ids = list(
            chats.filter(chat__kind=ChatKind.DIRECT).values_list("chat_id", flat=True)
        )
        is_written_to = Message.objects.filter(
            user=user,
            is_from_self=True,
            deleted_at__isnull=True,
            chat_id__in=chats.values("chat_id"),
        ).exists()
        theirs = Message.objects.filter(user=user, deleted_at__isnull=True).filter(
            Q(sender_person=person) | Q(chat_id__in=direct_ids)
        )
        last = Message.objects.filter(
            user=user, deleted_at__isnull=True, sender_person=person
        ).aggregate(last=Max("sent_at"))["last"]
        ranked.append(
            Standing(
                person_id=person.pk,
                kind=contact_kind(person),
                is_written_to=is_written_to,
                has_direct_chat=bool(direct_ids),
                topic_hits=_topic_hits(theirs, stems),
                last_from_them=last,
            )
        )
    return sorted(ranked, key=lambda standing: (*standing.key(), standing.person_id))


def _topic_hits(messages: QuerySet[Message], stems: set[str]) -> int:
    if not stems:
        return 0
    said: set[str] = set()
    texts = messages.order_by("-sent_at").values_list("text", flat=True)[:TOPIC_SAMPLE]
    for text in texts:
        if not text or is_suspicious(text):
            continue
        said |= {word_stem(word) for word in re.findall(r"[a-z][a-z'-]*", fold_text(text))}
    return len(stems & said)


def recipients_kept(
    *,
    user: User,
    person_ids: Sequence[int],
    question: str,
    names: Sequence[str],
    is_platform_asked: bool = False,
) -> list[int]:
    """Of the contacts one name fits, those a draft may go to, in their first order: never an
    automated sender; a business or someone the user never wrote to only when no one better
    fits; the one who, alone, took part in what the request is about (when the question asks
    for a platform, only if they have no direct chat with the user: the platform then picks
    among direct chats). Empty when all are automated."""
    if not person_ids:
        return []
    ranked = standings(user=user, person_ids=person_ids, question=question, names=names)
    ranked = [standing for standing in ranked if standing.kind != AUTOMATED]
    if not ranked:
        return []
    best = ranked[0]
    kept = [
        standing
        for standing in ranked
        if standing.kind == best.kind and standing.is_written_to == best.is_written_to
    ]
    top_hits = max(standing.topic_hits for standing in kept)
    leaders = [standing for standing in kept if standing.topic_hits == top_hits]
    if (
        top_hits > 0
        and len(leaders) == 1
        and (not is_platform_asked or not leaders[0].has_direct_chat)
    ):
        return [leaders[0].person_id]
    kept_ids = {standing.person_id for standing in kept}
    return [person_id for person_id in person_ids if person_id in kept_ids]


def not_automated(*, user: User, person_ids: Sequence[int]) -> list[int]:
    """These contacts, automated senders left out."""
    people = Person.objects.filter(user=user, pk__in=list(person_ids)).prefetch_related(
        "identities"
    )
    kept = {person.pk for person in people if contact_kind(person) != AUTOMATED}
    return [person_id for person_id in person_ids if person_id in kept]


def short_form_recipient(*, user: User, question: str, names: Sequence[str]) -> list[int]:
    """The contact a short form at the recipient's place names ("tell dani ..."), the best
    ranked one; empty when there is no such word or no contact a draft may go to."""
    slot = recipient_slot(question)
    if slot is None:
        return []
    candidates = short_form_people(user=user, word=slot.word)
    if not candidates:
        return []
    ranked = standings(user=user, person_ids=candidates, question=question, names=names)
    ranked = [standing for standing in ranked if standing.kind != AUTOMATED]
    return [ranked[0].person_id] if ranked else []


# "email Ana ...", "send Ana an email": the medium said as a verb or an object.
_EMAIL_ASKED = re.compile(r"^\W*e-?mail\b|\ban\s+e-?mail\b", re.IGNORECASE)


def platforms_asked(question: str) -> set[str]:
    """The platforms the question asks the message to go on ("on Slack", "by email", "email
    Ana ...", "slack Ana ...", "send Bea a whatsapp ..."); a platform said only inside what
    the message is about ("tell Ana I got her email") is not asked for."""
    asked = question[: content_start(question)]
    platforms = set(question_platforms(fold_text(asked)))
    if _EMAIL_ASKED.search(asked):
        platforms.add(str(Platform.EMAIL))
    if (said := platform_verb(fold_text(asked))) is not None:
        platforms.add(said)
    return platforms


@dataclass(frozen=True)
class Mention:
    """A name the compiler resolved in the question: what it said and the contacts it fits."""

    name: str
    person_ids: tuple[int, ...]


def recipient_of(
    *,
    user: User,
    question: str,
    mentions: Sequence[Mention],
    group_words: Sequence[str] = (),
) -> tuple[list[int], str]:
    """The recipient's contacts and, when a short form named them, that word as the question
    wrote it. The person named first, unless that name only comes inside what the message is
    about; of several contacts one name fits, those a draft may go to (``recipients_kept``);
    a short form at the recipient's place that no mention covers ("tell dani ...") names the
    contact it best fits, unless it is a word of a group the question names
    (``group_words``). Empty when the question names nobody a draft may go to."""
    folded = question.casefold()
    content_starts = content_start(question)
    names = [mention.name for mention in mentions]
    placed: list[tuple[int, list[int]]] = []
    for mention in mentions:
        position = folded.find(mention.name.casefold()) if mention.name else -1
        if mention.person_ids and 0 <= position < content_starts:
            placed.append((position, list(mention.person_ids)))
    placed.sort(key=lambda item: item[0])
    slot = recipient_slot(question)
    if (
        slot is not None
        and not any(start <= slot.start for start, _ in placed)
        # A common or two-letter word ("will", "jo", "my") names the recipient only when the
        # question names no one else before what to say ("text my sister ...").
        and (is_plain_short_form(slot.word) or not placed)
        and not any(slot.word in fold_text(words).split() for words in group_words)
    ):
        short = short_form_recipient(user=user, question=question, names=[*names, slot.word])
        if short:
            return short, question[slot.start : slot.end]
    is_platform_asked = bool(platforms_asked(question))
    for _, ids in placed:
        kept = recipients_kept(
            user=user,
            person_ids=ids,
            question=question,
            names=names,
            is_platform_asked=is_platform_asked,
        )
        if kept:
            return kept, ""
    return [], ""
