"""Relationships to the user read from general evidence, not only from "my sister Clara".

Three kinds of evidence, each tied to the message that shows it:

- **contact name**: the user saved someone under a relation word ("Mom", "Dad ❤️", "My
  brother", "Ana (sister)"); the proof is that person's first message (in a direct chat if
  any), where the name shows;
- **addressed**: the user calls someone by a relation word ("thanks dad 😂", "Mom, can you…",
  "… love you, mum") in a direct chat with them or replying to them in a group; in a family
  group (a title with a family word), a parent word said by another member replying to
  someone ("happy birthday mom!") — the members' parents are the user's;
- **signature**: someone signs a message to the user in a direct chat with a relation word
  ("Love, Mom", a last line "- Dad").

General patterns only; nothing here knows any person or corpus. The text rules are pure
functions; ``kinship_claims`` reads the user's people and messages and returns claims that
``memory.services.facts_rebuild`` stores as ``relationship`` facts with no
``related_person`` (the user is not a ``Person``) and the basis of each source message.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from claire.accounts.models import User
from conversations.models import (
    ChatKind,
    ChatParticipant,
    IdentityKind,
    Message,
    MessageKind,
    Person,
    PersonIdentity,
)
from conversations.selectors import direct_chats_latest
from memory.models import FactBasis, FactKind, PersonFact
from memory.selectors import person_canonical_ids
from retrieval.lexicon import DESCRIPTOR_FORMS, ROLES, fold_text

# The relations a contact name, a form of address or a signature can state, with the words
# (folded) that say them: the shared lexicon's forms plus common forms of address.
KIN_RELATIONS = frozenset(
    {
        "mother",
        "father",
        "sister",
        "brother",
        "wife",
        "husband",
        "partner",
        "girlfriend",
        "boyfriend",
        "son",
        "daughter",
        "aunt",
        "uncle",
        "cousin",
        "grandmother",
        "grandfather",
    }
)

# The kinship lexicon: the words people call and save their relatives by, per relation, as
# written — English forms of family talk, then Spanish, Portuguese, French, German, Italian,
# Vietnamese, Indonesian and Chinese. A word is read as written, marks kept: "mẹ" is mother,
# "me" is nothing; "Sơn" (a name) is no "son"; "avó" and "avô" are two relations. Words of
# one language that are a common name or word of another are left out ("mari", "om", "ma",
# "anh", "em"); "ibu" or "chú" before a name is a title ("Ibu Sari"), which the readers check.
KIN_WORDS: dict[str, tuple[str, ...]] = {
    "mother": (
        "mother", "mom", "mum", "mama", "mommy", "mummy", "momma", "mamá", "mami", "madre",
        "mãe", "mamãe", "mamae", "mainha", "maman", "mère", "mutter", "mutti", "mamma",
        "mẹ", "má", "ibu", "bunda", "mamah", "妈妈", "妈", "媽媽", "媽", "母亲", "母親",
    ),
    "father": (
        "father", "dad", "daddy", "papa", "papá", "papi", "padre", "pai", "papai", "père",
        "vater", "vati", "papà", "babbo", "bố", "ayah", "bapak", "papah", "爸爸", "爸", "父亲",
        "父親",
    ),
    "sister": (
        "sister", "sis", "hermana", "hermanita", "irmã", "sœur", "soeur", "schwester",
        "sorella", "chị gái", "em gái", "kakak perempuan", "adik perempuan", "姐姐", "妹妹",
    ),
    "brother": (
        "brother", "bro", "hermano", "hermanito", "irmão", "irmao", "frère", "bruder",
        "fratello", "anh trai", "em trai", "kakak laki-laki", "adik laki-laki", "哥哥", "弟弟",
    ),
    "grandmother": (
        "grandmother", "grandma", "granny", "gran", "nan", "nana", "nanna", "grandmom",
        "grandmum", "abuela", "abuelita", "avó", "vovó", "grand-mère", "mamie", "mémé",
        "oma", "nonna", "bà", "bà ngoại", "bà nội", "nenek", "奶奶", "外婆", "姥姥",
    ),
    "grandfather": (
        "grandfather", "grandpa", "grandad", "granddad", "gramps", "abuelo", "abuelito", "avô",
        "vovô", "grand-père", "papy", "pépé", "opa", "nonno", "ông", "ông ngoại",
        "ông nội", "kakek", "爷爷", "爺爺", "外公", "姥爷",
    ),
    "aunt": (
        "aunt", "auntie", "aunty", "tía", "tia", "tante", "zia", "dì", "cô", "bibi",
        "阿姨", "姑姑", "姨妈",
    ),
    "uncle": (
        "uncle", "tío", "tio", "oncle", "tonton", "onkel", "zio", "chú", "bác", "cậu",
        "paman", "叔叔", "舅舅", "伯伯",
    ),
    "son": ("son", "hijo", "filho", "fils", "sohn", "figlio", "con trai", "儿子", "兒子"),
    "daughter": (
        "daughter", "hija", "filha", "fille", "tochter", "figlia", "con gái", "女儿", "女兒",
    ),
    "wife": (
        "wife", "wifey", "missus", "esposa", "épouse", "ehefrau", "moglie", "vợ", "istri",
        "老婆", "妻子",
    ),
    "husband": (
        "husband", "hubby", "esposo", "marido", "ehemann", "marito", "chồng", "suami", "老公",
        "丈夫",
    ),
    "partner": ("partner",),
}  # fmt: skip


def _written(word: str) -> str:
    """A word as written for comparing: composed, lower case, one space between words."""
    return " ".join(unicodedata.normalize("NFC", word).casefold().split())


def _is_chinese(word: str) -> bool:
    return "\u4e00" <= word[:1] <= "\u9fff"


# Each spelling of the lexicon, as written -> its relation.
KIN_SPELLINGS: dict[str, str] = {
    _written(word): relation for relation, words in KIN_WORDS.items() for word in words
}
_EXTRA_FORMS = {
    "mamae": "mother",
    "grandad": "grandfather",
    "hubby": "husband",
    "wifey": "wife",
}
KIN_FORMS: dict[str, str] = {
    **{
        form: canonical
        for form, canonical in DESCRIPTOR_FORMS.items()
        if canonical in KIN_RELATIONS
    },
    # The lexicon's words without marks (a marked word folds to another word: "mẹ", "me").
    **{word: relation for word, relation in KIN_SPELLINGS.items() if fold_text(word) == word},
    **_EXTRA_FORMS,
}


def kin_relation(word: str) -> str | None:
    """The relation a word (or words: "em gái") names as written, marks counting: "Mẹ" and
    "mum" are mother, "me" and "Sơn" nothing."""
    written = _written(word)
    if written in KIN_SPELLINGS:
        return KIN_SPELLINGS[written]
    return KIN_FORMS.get(written) if fold_text(written) == written else None


# Words people also call friends by ("thanks bro", "ok sis"): a name, never a form of address.
_CASUAL = frozenset({"bro", "sis", "gf", "bf", "partner"})
# Parents are shared by siblings: another family member's "mom" is the user's too.
_PARENTS = frozenset({"mother", "father", "grandmother", "grandfather"})


def _alternation(words: Iterable[str]) -> str:
    return "|".join(sorted({re.escape(word) for word in words}, key=len, reverse=True))


# Words everyone calls elders or strangers by (Vietnamese "cô", "chú", "bác", "bà", "ông";
# Indonesian "bapak"): a saved name, never proof of kinship as a form of address.
_COURTESY = frozenset({"cô", "chú", "bác", "cậu", "dì", "bà", "ông", "bapak"})
_SPELLED = {*KIN_FORMS, *KIN_SPELLINGS}
_ADDRESS_FORM = _alternation(form for form in _SPELLED if form not in _CASUAL | _COURTESY)
_FLAGS = re.IGNORECASE
# Words a form of address follows at the start of a message ("thanks dad", "love you mom",
# "hola mamá", "chào mẹ", "terima kasih ibu").
_OPENER = (
    r"(?:hi|hey|hello|hiya|morning|good morning|good night|night|thanks|thank you|thx|ty"
    r"|love you|love u|miss you|miss u|yes|yeah|yep|ok|okay|sure|sorry|congrats"
    r"|congratulations|happy birthday|happy bday|bye|wow|omg|aww*|oh|ha(?:ha)+|lol"
    r"|hola|buenos d[ií]as|buenas noches|gracias|te quiero|te amo|feliz cumpleaños|sí|si|vale"
    r"|ol[aá]|oi|bom dia|boa noite|obrigad[oa]|valeu|parab[eé]ns"
    r"|bonjour|bonsoir|salut|coucou|merci|je t'aime|bisous|oui"
    r"|hallo|guten morgen|gute nacht|danke|alles gute|ja"
    r"|ciao|buongiorno|buonanotte|grazie|auguri|ti voglio bene"
    r"|chào|con chào|dạ|vâng|cảm ơn|con cảm ơn|chúc mừng sinh nhật|con yêu"
    r"|halo|hai|pagi|selamat pagi|makasih|terima kasih|iya|oke)"
)
# After the relation word: the end, punctuation or an emoji, never another word ("lol mom just
# sent me…" is about her, not to her).
_CLOSE = r"(?=\s*(?:$|[^\w\s']))"
_ADDRESSED_AFTER_OPENER = re.compile(
    rf"^\W*{_OPENER}[\s,!.]+(?:my\s+)?({_ADDRESS_FORM}){_CLOSE}", _FLAGS
)
# Full-width punctuation of Chinese text counts as its ASCII twin.
_ADDRESSED_FIRST = re.compile(rf"^\W*({_ADDRESS_FORM})\s*[,!:\uff0c\uff01\uff1a]", _FLAGS)
_ADDRESSED_LAST = re.compile(rf"[,\uff0c]\s*({_ADDRESS_FORM})\s*[^\w\s]*\s*$", _FLAGS)
# The Vietnamese calling particle: "Mẹ ơi …", "… nha bố ơi" call the reader.
_ADDRESSED_CALLED = re.compile(rf"(?<![\w'])({_ADDRESS_FORM})\s+ơi(?!\w)", _FLAGS)
_SIGNED = re.compile(
    rf"(?:\b(?:love|lots of love|hugs|xx+|xo+|besos|beijos|bisous|baci|küsse)\s*[,\n]\s*"
    rf"|\n\s*[-\u2013\u2014~]?\s*)"
    rf"({_ADDRESS_FORM})\s*[^\w\s]*\s*$",
    _FLAGS,
)
_FAMILY_TITLE = re.compile(
    r"\b(?:fam|family|familia|famille|familie|famiglia|keluarga|gia dinh|nha minh)\b|家", _FLAGS
)
# A cheap database-side filter for the messages the text rules read.
_VOCABULARY = (
    r"\m("
    + _alternation(variant for form in _SPELLED for variant in (form, form[:1].upper() + form[1:]))
    + r")\M"
)
# The database-side filter of the messages that may show kinship (a message matching none of
# these shows none).
KINSHIP_VOCABULARY = _VOCABULARY


# Roles people save a contact with ("Tomas landlord", "Dr Lee (dentist)", "Plumber Rui"):
# the people around a home and a working life, in canonical form.
CONTACT_NAME_ROLES = {
    form: canonical
    for canonical in (
        "landlord", "plumber", "electrician", "dentist", "doctor", "mechanic", "cleaner",
        "babysitter", "accountant", "lawyer", "builder", "neighbour", "boss", "colleague",
        "teacher", "coach", "therapist", "vet", "barber", "flatmate",
    )
    for form in ROLES[canonical]
    if " " not in form
}  # fmt: skip


# Words around a relation word in a saved name: a possessive before ("My brother", "Mi
# mamá", "Ma mère"), an endearment after ("Mẹ yêu", "Mum xx", "Mamá querida").
_NAME_OWN = re.compile(r"^(?:my|our|mi|mis|mon|ma|mein|meine|mia|mio|minha|meu)\s+")
_NAME_ENDEARMENT = re.compile(
    r"\s+(?:yêu|iu|love|xx+|xo+|sayang|tersayang|querida|querido|chérie|cheri|liebe|lieber"
    r"|amore|cara|caro)$"
)


def _relation_of_words(text: str) -> str | None:
    words = " ".join(re.findall(r"[^\W\d_]+(?:['-][^\W\d_]+)*", _written(text)))
    words = _NAME_ENDEARMENT.sub("", _NAME_OWN.sub("", words))
    return kin_relation(words) if words else None


def relation_of_contact_name(name: str) -> str | None:
    """The relation a contact name states: the whole name is a relation word in any language
    of the lexicon ("Mom", "Dad ❤️", "My brother", "Mẹ", "Mamá", "Ibu", "妈妈"), or a
    parenthesis holds one ("Ana (sister)"); or a word of the name is a role the contact is
    saved with ("Tomas landlord", "Dr Lee (dentist)")."""
    inner = re.search(r"\(([^)]*)\)", name)
    if inner and (relation := _relation_of_words(inner.group(1))) is not None:
        return relation
    if (relation := _relation_of_words(name)) is not None:
        return relation
    words = re.sub(r"^(?:my|our)\s+", "", " ".join(re.findall(r"[a-z'-]+", fold_text(name))))
    return next(
        (CONTACT_NAME_ROLES[word] for word in words.split() if word in CONTACT_NAME_ROLES), None
    )


def addressed_relation(text: str) -> str | None:
    """The relation word the author addresses the reader by, if any ("thanks dad 😂",
    "Mom, can you…", "see you soon, mum!", "hola mamá!", "Mẹ ơi …")."""
    text = unicodedata.normalize("NFC", text).strip()
    first_line = text.split("\n", 1)[0]
    for pattern, where in (
        (_ADDRESSED_AFTER_OPENER, first_line),
        (_ADDRESSED_FIRST, first_line),
        (_ADDRESSED_CALLED, text),
        (_ADDRESSED_LAST, text),
    ):
        match = pattern.search(where)
        if match and (relation := kin_relation(match.group(1))) is not None:
            return relation
    return None


def signed_relation(text: str) -> str | None:
    """The relation word the author signs with ("…Love, Mom", a last line "- Dad")."""
    match = _SIGNED.search(unicodedata.normalize("NFC", text).strip())
    return kin_relation(match.group(1)) if match else None


def is_family_title(title: str) -> bool:
    return bool(_FAMILY_TITLE.search(fold_text(title)))


@dataclass(frozen=True)
class KinClaim:
    person_id: int
    relation: str
    message_id: int
    sent_at: datetime
    basis: str


def _contact_name_claims(*, user: User) -> list[KinClaim]:
    names: dict[int, str] = {}
    for person_id, name in Person.objects.filter(user=user).values_list("pk", "display_name"):
        if (relation := relation_of_contact_name(name or "")) is not None:
            names[person_id] = relation
    for person_id, value in PersonIdentity.objects.filter(
        user=user, kind=IdentityKind.NAME
    ).values_list("person_id", "value"):
        if person_id not in names and (relation := relation_of_contact_name(value)) is not None:
            names[person_id] = relation
    if not names:
        return []
    claims = []
    visible = Message.objects.filter(
        user=user, deleted_at__isnull=True, chat__is_excluded_from_ai=False
    )
    for person_id, relation in names.items():
        # Their first message, in a direct chat when there is one ("direct" sorts before
        # "group"); else the user's first message in a direct chat with them: where the saved
        # name shows.
        row = (
            visible.filter(sender_person_id=person_id, kind=MessageKind.TEXT)
            .order_by("chat__kind", "sent_at", "pk")
            .values_list("pk", "sent_at")
            .first()
        )
        if row is None:
            row = (
                visible.filter(
                    chat__kind=ChatKind.DIRECT,
                    is_from_self=True,
                    chat__memberships__person_id=person_id,
                )
                .order_by("sent_at", "pk")
                .values_list("pk", "sent_at")
                .first()
            )
        if row is not None:
            claims.append(KinClaim(person_id, relation, row[0], row[1], FactBasis.CONTACT_NAME))
    return claims


@dataclass(frozen=True)
class KinMessage:
    """A message with relation words, and what finding whom they are about needs."""

    message_id: int
    chat_id: int
    chat_kind: str
    title: str
    sender_id: int | None
    is_from_self: bool
    sent_at: datetime
    replied_person: int | None
    replied_self: bool | None
    addressed: str | None
    signed: str | None

    @classmethod
    def of(cls, fields: Sequence[Any], *, addressed: str | None, signed: str | None) -> KinMessage:
        """One from a row of ``kin_message_fields``, with the relation words found in it."""
        message_id, chat_id, chat_kind, title, sender_id, is_from_self, sent_at, *replied = fields
        return cls(
            message_id=message_id,
            chat_id=chat_id,
            chat_kind=chat_kind,
            title=title,
            sender_id=sender_id,
            is_from_self=is_from_self,
            sent_at=sent_at,
            replied_person=replied[0],
            replied_self=replied[1],
            addressed=addressed,
            signed=signed,
        )


def kin_message_fields(prefix: str = "") -> tuple[str, ...]:
    """The ``values_list`` fields a ``KinMessage`` is read from, on the message model itself
    or (``prefix`` "message__") through a model that points to one."""
    return tuple(
        prefix + name
        for name in (
            "id",
            "chat_id",
            "chat__kind",
            "chat__title",
            "sender_person_id",
            "is_from_self",
            "sent_at",
            "reply_to__sender_person_id",
            "reply_to__is_from_self",
        )
    )


@dataclass(frozen=True)
class KinContext:
    """Each direct chat's counterpart and each chat's members."""

    counterparts: dict[int, int]
    members: dict[int, set[int]]


def kin_context(*, user: User) -> KinContext:
    counterparts: dict[int, int] = {}
    members: dict[int, set[int]] = {}
    for chat_id, member_id, kind in ChatParticipant.objects.filter(chat__user=user).values_list(
        "chat_id", "person_id", "chat__kind"
    ):
        members.setdefault(chat_id, set()).add(member_id)
        if kind == ChatKind.DIRECT:
            counterparts.setdefault(chat_id, member_id)
    return KinContext(counterparts=counterparts, members=members)


def message_kin_claims(message: KinMessage, *, context: KinContext) -> list[KinClaim]:
    """The relationships one message shows: the relation word it addresses someone with (the
    user in a direct chat, or replying to them in a group; a parent word in a family group
    said to another member) and the one it is signed with in a direct chat."""
    claims = []
    is_direct = message.chat_kind == ChatKind.DIRECT
    addressed = message.addressed
    if addressed is not None:
        person_id: int | None = None
        if message.is_from_self:
            person_id = (
                context.counterparts.get(message.chat_id) if is_direct else message.replied_person
            )
        elif (
            not is_direct
            and addressed in _PARENTS
            and is_family_title(message.title or "")
            and message.replied_person is not None
            and not message.replied_self
            and message.replied_person != message.sender_id
        ):
            person_id = message.replied_person
        if person_id is not None and person_id in context.members.get(message.chat_id, set()):
            claims.append(
                KinClaim(
                    person_id, addressed, message.message_id, message.sent_at, FactBasis.ADDRESSED
                )
            )
    if not message.is_from_self and is_direct and message.sender_id is not None:
        signed = message.signed
        if signed is not None and context.counterparts.get(message.chat_id) == message.sender_id:
            claims.append(
                KinClaim(
                    message.sender_id,
                    signed,
                    message.message_id,
                    message.sent_at,
                    FactBasis.SIGNATURE,
                )
            )
    return claims


def kinship_claims(*, user: User, messages: Iterable[KinMessage]) -> list[KinClaim]:
    """Relationships to the user shown by contact names, forms of address and signatures,
    each with the message that shows it, in send-time order. ``messages``: the messages with
    relation words, oldest first (``KinMessage.of`` over ``kin_message_fields``)."""
    claims = _contact_name_claims(user=user)
    context = kin_context(user=user)
    for message in messages:
        claims.extend(message_kin_claims(message, context=context))
    claims.sort(key=lambda claim: (claim.sent_at, claim.message_id))
    return claims


# Forms that name one person on their own ("reply to mom", "ask dad"); other relation words
# need "my"/"our" ("my brother").
_NAME_LIKE = frozenset(
    {
        "mom", "mum", "mommy", "mummy", "mama", "momma", "dad", "daddy", "papa", "grandma",
        "granny", "nan", "nana", "nanna", "grandpa", "grandad", "granddad", "gramps",
    }
)  # fmt: skip
_OWN = re.compile(r"\b(?:my|our)\s+$")
_OTHERS = re.compile(r"(?:\b(?:his|her|their|your|the|a|an|whose)|['\u2019]s)\s+$")


# The words of other languages a question may call a relative by on their own ("nhắn mẹ …",
# "bilang ke ibu …", "¿qué dijo mamá?"), as written, marks kept: folded, "mẹ" would be English
# "me". English words are the descriptors' (``retrieval.lexicon.ROLES``).
MARKED_KIN_WORDS = {
    word: relation
    for word, relation in KIN_SPELLINGS.items()
    if " " not in word
    and word not in DESCRIPTOR_FORMS
    and word not in _CASUAL
    and not _is_chinese(word)
}


def relation_words(name: str) -> tuple[str, ...]:
    """For a question's word for the user's relative ("mum", "my mother", "mẹ"): every word
    of the lexicon for that relation, which is how the user and the family name that person
    in their messages ("can you take mẹ to …", "mum's flight lands at 6"); else ``()``. Words
    of the Chinese script are left out (no word boundary shows them)."""
    words = _written(name).split()
    if words[:1] in (["my"], ["our"]):
        words = words[1:]
    relation = kin_relation(" ".join(words)) if words else None
    if relation is None or relation not in KIN_RELATIONS:
        return ()
    return tuple(
        word
        for word in KIN_WORDS.get(relation, ())
        if word not in _CASUAL | _COURTESY and not _is_chinese(word)
    )


def is_someone_elses(folded_text: str, start: int) -> bool:
    """Whether the words at ``start`` follow another person's possessive or an article ("his
    mom", "Ana's dad", "the mum"): not the user's relative, nor a contact saved as "Mom"."""
    return _OTHERS.search(folded_text[:start]) is not None


def means_users_relative(folded_text: str, start: int, end: int) -> bool:
    """Whether the relation word at ``start:end`` of a folded question means the user's own
    relative: "my brother", "our dad", or a name-like form on its own ("reply to mom"), never
    "his mom" or "Ana's dad"."""
    if _OWN.search(folded_text[:start]):
        return True
    if is_someone_elses(folded_text, start):
        return False
    return " ".join(folded_text[start:end].split()) in _NAME_LIKE


@dataclass(frozen=True)
class Relative:
    person_ids: tuple[int, ...]
    direct_chat_id: int | None


# The evidence that says who someone is (a saved name, an introduction), not how they are
# called.
_SAID_BASES = frozenset({FactBasis.CONTACT_NAME, FactBasis.STATEMENT})


def relatives_of_user(*, user: User, relations: set[str]) -> dict[str, Relative]:
    """The one human memory knows as the user's ``relation`` (every merged identity of them,
    and their most recent direct chat not excluded from AI), per relation; with several, the
    one saved or introduced as that relative when only one is; a relation with nobody or
    with several people alike is left out. Two queries and the merge table."""
    if not relations:
        return {}
    found: dict[str, set[int]] = {}
    said: dict[str, set[int]] = {}
    for person_id, value, basis in PersonFact.objects.filter(
        user=user,
        kind=FactKind.RELATIONSHIP,
        related_person__isnull=True,
        superseded_by__isnull=True,
        value__in=sorted(relations),
    ).values_list("person_id", "value", "source_links__basis"):
        found.setdefault(value, set()).add(person_id)
        if basis in _SAID_BASES:
            said.setdefault(value, set()).add(person_id)
    if not found:
        return {}
    canonical = person_canonical_ids(user=user)
    result: dict[str, Relative] = {}
    relatives: dict[str, set[int]] = {}
    for relation, everyone in found.items():
        people = everyone
        roots = {canonical.get(pk, pk) for pk in people}
        if len(roots) != 1:
            # Several, by different evidence: the one saved or introduced as that relative
            # outweighs those only called so ("thanks mum!" to a mother-in-law).
            people = said.get(relation, set())
            roots = {canonical.get(pk, pk) for pk in people}
        if len(roots) != 1:
            continue
        relatives[relation] = (
            set(people) | roots | {merged for merged, kept in canonical.items() if kept in roots}
        )
    direct = direct_chats_latest(user=user, people=relatives)
    for relation, ids in relatives.items():
        result[relation] = Relative(person_ids=tuple(sorted(ids)), direct_chat_id=direct[relation])
    return result
