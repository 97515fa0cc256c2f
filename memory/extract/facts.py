"""Facts people state about themselves and others: where they live or work, relations,
nationality."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from memory.extract.plans import _FLAGS

RELATIONS = (
    "brother",
    "sister",
    "cousin",
    "partner",
    "wife",
    "husband",
    "girlfriend",
    "boyfriend",
    "fiancé",
    "fiancée",
    "mum",
    "mom",
    "mother",
    "dad",
    "father",
    "son",
    "daughter",
    "uncle",
    "aunt",
    "friend",
    "colleague",
    "coworker",
    "co-worker",
    "flatmate",
    "roommate",
    "boss",
    "manager",
    # The people around a home and a life: "our landlord Mr. Park", "my dentist Dr. Adeyemi".
    "landlord",
    "landlady",
    "neighbour",
    "neighbor",
    "doctor",
    "dentist",
    "therapist",
    "coach",
    "trainer",
    "teacher",
    "tutor",
    "babysitter",
    "nanny",
    "cleaner",
    "accountant",
    "lawyer",
    "mentor",
)
# Relations of work: "my boss Sam" with two Sams means the one the user works with.
WORK_RELATIONS = frozenset({"boss", "colleague"})
# Titles said before a surname ("Mr. Park", "Dr Adeyemi").
_TITLE = r"(?:(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof)\.?\s+)"

_NAME = r"([A-ZÀ-Ý][\w'\u2019&.-]*(?:\s+(?:de\s+|da\s+|del\s+)?[A-ZÀ-Ý][\w'\u2019&.-]*){0,3})"
_ORIGIN = re.compile(
    r"\bI['\u2019]?m (?:originally )?from " + _NAME + r"|\bI am (?:originally )?from " + _NAME
)
_LIVES = re.compile(
    r"\bI(?:['\u2019]ve| have)? (?:lived|been living) in "
    + _NAME
    + r"|\bI live in "
    + _NAME
    + r"|\bI['\u2019]?m based in "
    + _NAME
    + r"|\bbought a (?:house|flat|place|home) in "
    + _NAME
)
_MOVED = re.compile(r"\bmoved (?:from " + _NAME + r" )?to " + _NAME + r"(?: from " + _NAME + r")?")
# "Made it to Portland!! The apartment's tiny": an arrival said with a new home is a move.
_ARRIVED = re.compile(r"\b(?:[Mm]ade it to|[Aa]rrived in|[Ss]ettled in(?:to)?) " + _NAME)
_NEW_HOME = re.compile(
    r"\b(?:(?:the|our|my) (?:apartment|flat)['\u2019]?s?|new (?:apartment|flat|house|place|home)"
    r"|movers|moving truck"
    r"|unpacking|unpacked|new lease)\b",
    re.IGNORECASE,
)
_THIRD_PERSON_BEFORE = re.compile(r"\b(?:he|she|they)\s+(?:\w+\s+){0,2}$", _FLAGS)
_LEAVING = re.compile(r"\bleaving " + _NAME)
_WORKS = re.compile(
    r"\baccepted (?:the|an|their) (?:job )?offer (?:from|at) "
    + _NAME
    + r"|\bI work (?:at|for) "
    + _NAME
    + r"|\bI run (?:a|an) (?:[\w-]+ ){0,3}(?:there |here )?(?:called|named) "
    + _NAME
)
# "I got the offer from Nordvik Games!! Lead designer, starting next month": an offer counts as
# the new employer only when the same message says the job starts.
_OFFER_STARTING = re.compile(
    r"\b(?:got|received|have) (?:the|an|a|their) (?:job )?offer (?:from|at) " + _NAME
)
_STARTING = re.compile(r"\bstart(?:ing|s)? (?:next|on|in|this|from)\b", re.IGNORECASE)
_MET = re.compile(
    r"\b(?:great|nice|lovely|good|so nice|so good) (?:meeting|to meet|to have met) you at "
    r"(?:the )?([^.,!?;\n\u2014\u2013]+?)"
    r"(?=\s+(?:yesterday|today|last \w+)\b|[.,!?;\n\u2014\u2013]|$)",
    _FLAGS,
)
_RELATION_WORDS = "|".join(RELATIONS)
# "meet my brother Bruno", "my sister Clara": the relation word in any case, the name
# capitalised (so "my friend said" names nobody) and right after it ("how is your mum, Rosa?"
# speaks to Rosa).
_INTRODUCTION = re.compile(r"\b(?i:meet my (" + _RELATION_WORDS + r")) ([A-ZÀ-Ý][\w'\u2019-]+)")
_RELATIVE_NAME = r"(" + _TITLE + r")?(?!I\b|I['\u2019])([A-ZÀ-Ý][\w'\u2019-]+)"
# "my sister Clara", "our landlord Mr. Park": the user's when the user says it, and when
# someone else says "our" to the user.
_MY_RELATION = re.compile(r"\b(?i:(my|our) (" + _RELATION_WORDS + r")) " + _RELATIVE_NAME)
_YOUR_RELATION = re.compile(r"\b(?i:your (" + _RELATION_WORDS + r")) " + _RELATIVE_NAME)
# Case-sensitive on purpose: the place names must be capitalised.
_THIRD_PERSON_MOVED = re.compile(
    r"\b(?:[Hh]e|[Ss]he|[Tt]hey)\s+(?:just |finally |recently )*moved to "
    + _NAME
    + r"(?: from "
    + _NAME
    + r")?"
)
_TRAILING_PLACE = re.compile(r"\s+in\s+[A-ZÀ-Ý][\w\s'-]*$")


@dataclass(frozen=True)
class FactClaim:
    """One fact a message states. ``subject`` is "sender" (the message's author), "counterpart"
    (the other person of a direct chat) or "named:<First name>" (someone the message
    introduces). ``previous`` is a value the fact replaces ("moved from Porto to Berlin").
    A relationship is to the message's author (``related_to_sender``: "meet my brother Bruno")
    or to the user (``related_to_user``: the user's "my sister Clara", or "your sister Clara"
    said to the user)."""

    subject: str
    kind: str
    value: str
    previous: str = ""
    related_to_sender: bool = False
    related_to_user: bool = False


def _place(phrase: str | None) -> str:
    """The city a captured phrase starts with, or "" when it is not a known place."""
    from memory.places import city_of, nationality_of_place

    if not phrase:
        return ""
    city = city_of(phrase)
    if city:
        return city
    return phrase.strip() if nationality_of_place(phrase) else ""


def relation_canonical(word: str) -> str:
    """The canonical relation ("mum" and "mom" are "mother", "roommate" is "flatmate")."""
    from retrieval.lexicon import DESCRIPTOR_FORMS, fold_text

    folded = fold_text(word)
    return DESCRIPTOR_FORMS.get(folded, folded)


def _organisation(phrase: str | None) -> str:
    return _TRAILING_PLACE.sub("", (phrase or "").strip()).strip().rstrip(".-&'\u2019")


def fact_claims(text: str, *, is_from_self: bool, is_direct: bool) -> list[FactClaim]:
    """The facts a message states about its author, the other person of a direct chat, or
    someone it introduces. General first-person and introduction patterns only."""
    claims: list[FactClaim] = []
    if not is_from_self:
        for match in _ORIGIN.finditer(text):
            place = _place(match.group(1) or match.group(2))
            if place:
                claims.append(FactClaim("sender", "origin", place))
        for match in _LIVES.finditer(text):
            place = _place(next((group for group in match.groups() if group), None))
            if place:
                previous = _place(left.group(1)) if (left := _LEAVING.search(text)) else ""
                claims.append(FactClaim("sender", "lives_in", place, previous=previous))
        for match in _MOVED.finditer(text):
            if _THIRD_PERSON_BEFORE.search(text[: match.start()]):
                continue
            place = _place(match.group(2))
            if place:
                previous = _place(match.group(1) or match.group(3))
                claims.append(FactClaim("sender", "lives_in", place, previous=previous))
        if _NEW_HOME.search(text):
            for match in _ARRIVED.finditer(text):
                place = _place(match.group(1))
                if place and not _THIRD_PERSON_BEFORE.search(text[: match.start()]):
                    claims.append(FactClaim("sender", "lives_in", place))
        for match in _WORKS.finditer(text):
            organisation = _organisation(next((group for group in match.groups() if group), None))
            if organisation:
                claims.append(FactClaim("sender", "works_at", organisation))
        if _STARTING.search(text):
            for match in _OFFER_STARTING.finditer(text):
                organisation = _organisation(match.group(1))
                if organisation:
                    claims.append(FactClaim("sender", "works_at", organisation))
        for match in _INTRODUCTION.finditer(text):
            named = f"named:{match.group(2)}"
            claims.append(
                FactClaim(
                    named,
                    "relationship",
                    relation_canonical(match.group(1)),
                    related_to_sender=True,
                )
            )
            moved = _THIRD_PERSON_MOVED.search(text, match.end())
            if moved and _place(moved.group(1)):
                claims.append(
                    FactClaim(
                        named, "lives_in", _place(moved.group(1)), previous=_place(moved.group(2))
                    )
                )
    claims.extend(_relation_claims(text, is_from_self=is_from_self))
    claims.extend(_engagement_claims(text, is_from_self=is_from_self))
    if is_direct:
        for match in _MET.finditer(text):
            where = match.group(1).strip()
            if where:
                subject = "counterpart" if is_from_self else "sender"
                claims.append(FactClaim(subject, "met_at", where))
    return claims


def _relation_claims(text: str, *, is_from_self: bool) -> list[FactClaim]:
    """Relationships stated with a possessive: the user's own "my sister Clara" and another
    person's "your sister Clara" relate Clara to the user; another person's "my brother Bruno"
    relates Bruno to that person (unless an introduction already said so)."""
    claims: list[FactClaim] = []
    introduced = {match.group(2) for match in _INTRODUCTION.finditer(text)}
    for match in _MY_RELATION.finditer(text):
        is_ours = match.group(1).lower() == "our"
        subject = _named_subject(title=match.group(3), name=match.group(4))
        relation = relation_canonical(match.group(2))
        if is_from_self or is_ours:
            claims.append(FactClaim(subject, "relationship", relation, related_to_user=True))
        elif match.group(4) not in introduced:
            claims.append(FactClaim(subject, "relationship", relation, related_to_sender=True))
    if not is_from_self:
        for match in _YOUR_RELATION.finditer(text):
            claims.append(
                FactClaim(
                    _named_subject(title=match.group(2), name=match.group(3)),
                    "relationship",
                    relation_canonical(match.group(1)),
                    related_to_user=True,
                )
            )
    return claims


# An engagement announced by one of the two: "Hana and I got engaged!", "I proposed to Hana",
# "she said yes 💍" with the name ("Hana said yes!! 💍").
_ENGAGED = re.compile(
    r"\b([A-ZÀ-Ý][\w'\u2019-]+) and I (?:just |finally |are |have )*(?:got |gotten )?engaged\b"
    r"|\bI (?:just |finally )*proposed to ([A-ZÀ-Ý][\w'\u2019-]+)"
    r"|\b([A-ZÀ-Ý][\w'\u2019-]+) said yes\b(?=.*(?:\U0001F48D|\bring\b|\bengaged\b|\bproposed\b))",
    re.DOTALL,
)


def _engagement_claims(text: str, *, is_from_self: bool) -> list[FactClaim]:
    """The person the author says they got engaged to: their fiancé(e), related to the
    author (the user, when the user says it)."""
    claims = []
    for match in _ENGAGED.finditer(text):
        name = next(group for group in match.groups() if group)
        if name in ("I", "We", "She", "He", "They"):
            continue
        claims.append(
            FactClaim(
                f"named:{name}",
                "relationship",
                "fiance",
                related_to_sender=not is_from_self,
                related_to_user=is_from_self,
            )
        )
    return claims


def _named_subject(*, title: str | None, name: str) -> str:
    """ "named:Clara", or "titled:Park" for a name said after a title ("Mr. Park": a
    surname)."""
    return f"titled:{name}" if title else f"named:{name}"


# "I'm ..." / "I am ...": every nationality statement starts so (a cheap test first).
_SELF_STATEMENT = re.compile(r"\bI['\u2019]?m |\bI am ", _FLAGS)


@functools.cache
def _nationality_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each nationality with one pattern for all its forms (compiled once)."""
    from retrieval.lexicon import NATIONALITIES

    patterns = []
    for canonical, forms in NATIONALITIES.items():
        alternation = "|".join(re.escape(form) for form in forms)
        patterns.append(
            (
                canonical,
                re.compile(
                    rf"\bI['\u2019]?m (?:{alternation})\b|\bI am (?:{alternation})\b", _FLAGS
                ),
            )
        )
    return tuple(patterns)


def nationality_claims(text: str) -> list[str]:
    """Nationalities an author states about themselves ("I'm Brazilian"). Sensitive: kept
    only when the user's memory policy allows it."""
    if not _SELF_STATEMENT.search(text):
        return []
    return [canonical for canonical, pattern in _nationality_patterns() if pattern.search(text)]
