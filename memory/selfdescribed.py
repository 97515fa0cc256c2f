"""What people say of themselves: their occupation, employer, home and the name they go by,
read from their own first-person sentences when their messages are ingested (kept as
``self`` claims, ``MessageClaim``) and looked up at answer time, in the languages the history is
written in. General sentence shapes only ("I work as a … at …", "sou enfermeira no …",
"trabajo como … en …", "je travaille chez …", "ich arbeite als … bei …", "I live in …",
"it's Greta, new number"); the words captured are the person's own.

A statement belongs to its sender: a message of the user is never a statement about the person
asked about, and a message that reads as instructions or spam says nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from claire.accounts.models import User
from claire.ai.suspicious import suspicious_text
from memory.models import MessageClaim, MessageClaimSource

# A capitalised organisation or place of up to four words ("Northgate Clinic", "Hospital de
# Santa Maria", "the Riverside Dental Clinic").
_PROPER = (
    r"((?:[A-ZÀ-Ý0-9][\w'\u2019&.-]*)"
    r"(?:\s+(?:of\s+|de\s+|do\s+|da\s+|del\s+|la\s+|the\s+|&\s+)?[A-ZÀ-Ý0-9][\w'\u2019&.-]*){0,3})"
)
# An occupation as people name it: up to three lower-case words ("physiotherapist", "sous-chef",
# "high school teacher", "enfermeira").
_ROLE_WORD = (
    r"(?!(?:at|for|with|in|on|no|na|nos|nas|em|en|para|chez|bei|and|but|so|now|since|from|here"
    r"|there|e|y|et|und|que|who|which|that)\b)[a-zà-ÿ][\w\u2019-]*"
)
_ROLE = r"((?:" + _ROLE_WORD + r"\s+){0,2}" + _ROLE_WORD + r")"
_ARTICLE = r"(?:an?\s+|the\s+|um\s+|uma\s+|un\s+|una\s+|une\s+|ein\s+|eine\s+)?"
_AT = r"(?:at|for|with|in|no|na|nos|nas|em|en|para|chez|bei|à|a)"
# Occupation words: the endings work names have in these languages, and common names that
# have none of them. "I'm a runner" or "I'm a mess" name no occupation; "I'm a nurse" does.
_OCCUPATION_ENDINGS = (
    "ist",
    "ian",
    "eer",
    "ographer",
    "ologist",
    "iatrist",
    "ician",
    "tect",
    "chef",
    "eiro",
    "eira",
    "ista",
    "ero",
    "era",
    "ora",
    "eur",
    "euse",
    "ière",
    "dor",
    "tor",
    "erin",
)
_OCCUPATION_WORDS = frozenset(
    [
        "nurse",
        "doctor",
        "vet",
        "teacher",
        "lawyer",
        "cook",
        "chef",
        "barista",
        "pilot",
        "dentist",
        "judge",
        "surgeon",
        "paramedic",
        "firefighter",
        "plumber",
        "electrician",
        "carpenter",
        "mechanic",
        "farmer",
        "baker",
        "butcher",
        "waiter",
        "waitress",
        "bartender",
        "cashier",
        "clerk",
        "nanny",
        "tutor",
        "coach",
        "professor",
        "lecturer",
        "researcher",
        "scientist",
        "engineer",
        "developer",
        "designer",
        "architect",
        "accountant",
        "consultant",
        "manager",
        "director",
        "editor",
        "writer",
        "journalist",
        "photographer",
        "translator",
        "midwife",
        "pharmacist",
        "therapist",
        "psychologist",
        "enfermeira",
        "enfermeiro",
        "medico",
        "medica",
        "professora",
        "professor",
        "advogada",
        "advogado",
        "cozinheira",
        "cozinheiro",
        "engenheira",
        "engenheiro",
        "enfermera",
        "enfermero",
        "abogada",
        "abogado",
        "maestra",
        "maestro",
        "profesora",
        "infirmiere",
        "infirmier",
        "medecin",
        "avocat",
        "avocate",
        "lehrer",
        "lehrerin",
        "arzt",
        "arztin",
        "krankenschwester",
        "koch",
        "assistant",
        "accountant",
        "consultant",
        "agent",
        "attendant",
        "painter",
        "writer",
        "carpenter",
        "driver",
        "officer",
        "trainer",
        "cleaner",
        "server",
        "banker",
        "broker",
    ]
)
_NOT_OCCUPATIONS = frozenset(
    [
        "runner",
        "fan",
        "mess",
        "member",
        "beginner",
        "winner",
        "loser",
        "fighter",
        "dreamer",
        "lover",
        "gardener",
        "reader",
        "believer",
        "sucker",
        "keeper",
        "partner",
        "parent",
        "student",
    ]
)

_WORK_AS = re.compile(
    r"\b(?i:I\s+work\s+as|I['\u2019]m\s+working\s+as|trabalho\s+como|trabajo\s+como"
    r"|je\s+travaille\s+comme|ich\s+arbeite\s+als)\s+"
    + _ARTICLE
    + _ROLE
    + r"(?:\s+"
    + _AT
    + r"\s+"
    + _ARTICLE
    + _PROPER
    + r")?"
)
_I_AM = re.compile(
    r"(?:^|[.!?,;]\s*|\b(?i:now|and|but|so)\s+)(?i:I['\u2019]m|I\s+am|sou|soy|je\s+suis|ich\s+bin)\s+"
    r"(?i:now\s+|actually\s+)?"
    + _ARTICLE
    + _ROLE
    + r"(?:\s+"
    + _AT
    + r"\s+"
    + _ARTICLE
    + _PROPER
    + r")?"
)
_WORK_AT = re.compile(
    r"\b(?i:I\s+work|I['\u2019]m\s+working|trabalho|trabajo|je\s+travaille|ich\s+arbeite)\s+"
    r"(?i:at|for|no|na|em|para|en|chez|bei)\s+" + _ARTICLE + _PROPER
)
_LIVE_IN = re.compile(
    r"\b(?i:I\s+live|I['\u2019]ve\s+lived|I['\u2019]m\s+living|I['\u2019]m\s+based|we\s+live"
    r"|moro|vivo|j['\u2019]habite|je\s+vis|ich\s+wohne|ich\s+lebe)\s+"
    r"(?i:in|em|no|na|en|à|a|in\s+der)\s+"
    + _PROPER
    + r"|\b(?i:I|we)\s+(?i:just\s+)?moved\s+(?i:to)\s+"
    + _PROPER
    + r"|\b(?i:mudei-me|me\s+mud[eé])\s+(?i:para|a)\s+"
    + _PROPER
)
_SELF_NAME = re.compile(
    r"(?:^|[.!?,;]\s*)(?i:hey|hi|hello|ola|olá|hola)?[\s,!]*(?i:it['\u2019]s|this\s+is|sou\s+(?:a|o)"
    r"|soy|c['\u2019]est|hier\s+ist)\s+([A-ZÀ-Ý][\w'\u2019-]+)(?=\s*(?:[!.,\n-]|here\b|$))"
)


@dataclass(frozen=True)
class SelfStatement:
    """One thing a person said of themselves: ``kind`` is ``occupation`` (``value`` the role,
    ``place`` the employer when said), ``employer``, ``home`` or ``name``."""

    kind: str
    value: str
    place: str = ""


def _is_occupation(role: str) -> bool:
    last = role.split()[-1].lower() if role.split() else ""
    if not last or last in _NOT_OCCUPATIONS:
        return False
    return last in _OCCUPATION_WORDS or last.endswith(_OCCUPATION_ENDINGS)


def self_statements(text: str) -> list[SelfStatement]:
    """What ``text`` (written by the person) says of its writer, in the order kinds are asked
    about: occupation, employer, home, name. Empty for suspicious text."""
    if not text or suspicious_text(text):
        return []
    found: list[SelfStatement] = []
    for pattern in (_WORK_AS, _I_AM):
        for match in pattern.finditer(text):
            words = match.group(1).split()
            place = (match.group(2) or "").strip()
            # The longest start of the captured words that ends in an occupation ("nurse
            # working nights" is a nurse); with "work as" any role counts.
            kept = next(
                (k for k in range(len(words), 0, -1) if _is_occupation(" ".join(words[:k]))),
                len(words) if pattern is _WORK_AS else 0,
            )
            if not kept:
                continue
            found.append(
                SelfStatement(
                    "occupation", " ".join(words[:kept]), place if kept == len(words) else ""
                )
            )
    for match in _WORK_AT.finditer(text):
        found.append(SelfStatement("employer", match.group(1).strip()))
    for match in _LIVE_IN.finditer(text):
        place = next((group for group in match.groups() if group), "")
        if place:
            found.append(SelfStatement("home", place.strip()))
    for match in _SELF_NAME.finditer(text):
        found.append(SelfStatement("name", match.group(1)))
    return found


def statement_text(statement: SelfStatement) -> str:
    """The statement in the answer's words, after the person's name ("is a physiotherapist at
    Northgate Clinic", "works at Lantern House", "lives in Fremantle")."""
    if statement.kind == "occupation":
        role = statement.value
        article = "an" if role[:1].lower() in "aeiou" else "a"
        at = f" at {statement.place}" if statement.place else ""
        return (
            f"is {article} {role}{at}"
            if not role.lower().startswith(("the ", "a ", "an "))
            else f"is {role}{at}"
        )
    if statement.kind == "employer":
        return f"works at {statement.value}"
    if statement.kind == "home":
        return f"lives in {statement.value}"
    return f"goes by {statement.value}"


# Statements of one person (or naming one name) read per question, newest first.
CLAIMS_READ = 300
# The database prefilter of ingest: a message without one of these says nothing of its
# writer (a superset of the sentence shapes above).
SELF_VOCABULARY = (
    r"(i['\u2019]?m|i am|work|live|lived|living|based|moved|trabalh|trabaj|travaill|arbeit"
    r"|sou|soy|suis|ich bin|moro|vivo|habite|je vis|wohne|lebe|mud|it['\u2019]?s"
    r"|this is|c['\u2019]est|hier ist)"
)


@dataclass(frozen=True)
class SaidOfThemselves:
    """The newest statement of one kind a person made of themselves, with its message."""

    statement: SelfStatement
    message_id: int
    sent_at: datetime
    sender_name: str


def statements_of_person(*, user: User, person_ids: Sequence[int]) -> dict[str, SaidOfThemselves]:
    """By kind (occupation, employer, home, name), the newest statement the person made of
    themselves in a chat not excluded from AI: the ``self`` claims ingest keeps of their
    messages (``MessageClaim``), read as rows. One query."""
    rows = (
        MessageClaim.objects.filter(
            user=user,
            source=MessageClaimSource.SELF,
            message__sender_person_id__in=list(person_ids),
            message__deleted_at__isnull=True,
            message__chat__is_excluded_from_ai=False,
        )
        .order_by("-message__sent_at", "-message_id", "position")
        .values_list(
            "kind",
            "value",
            "subject",
            "message_id",
            "message__sent_at",
            "message__sender_person__display_name",
        )[:CLAIMS_READ]
    )
    found: dict[str, SaidOfThemselves] = {}
    for kind, value, place, message_id, sent_at, sender_name in rows:
        found.setdefault(
            kind,
            SaidOfThemselves(
                SelfStatement(kind, value, place), message_id, sent_at, sender_name or ""
            ),
        )
    return found


def people_self_named(*, user: User, name: str) -> list[int]:
    """The people who introduced themselves by ``name`` in their own messages ("it's Greta,
    new number" from a contact saved as "Bubbles 🐙"), when exactly one did: the ``name``
    claims ingest keeps (``MessageClaim``). One query."""
    first = (name or "").split()[0] if (name or "").split() else ""
    if len(first) < 3 or not first[:1].isupper():
        return []
    people = set(
        MessageClaim.objects.filter(
            user=user,
            source=MessageClaimSource.SELF,
            kind="name",
            value=first,
            message__is_from_self=False,
            message__deleted_at__isnull=True,
            message__chat__is_excluded_from_ai=False,
            message__sender_person__isnull=False,
        )
        .values_list("message__sender_person_id", flat=True)
        .distinct()[:CLAIMS_READ]
    )
    return sorted(people) if len(people) == 1 else []
