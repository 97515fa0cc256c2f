"""What the user's messages say about one person, for "where is X from?", "what's X's job?",
"what is X allergic to?", "what's X's real name?".

Stored facts (``PersonFact``) hold what people state about themselves in first-person sentences;
much of what a user knows about someone is said less directly ("my mum called from Lyon",
"first week back teaching", "took a Benadryl after the walnut brownie") and often by someone
else. This reads the messages **about** the person — their own, the ones in a direct chat with
them, and others' messages that name them — and keeps those that use the vocabulary of the
attribute asked, best first:

- origin ("where … from", "originally", "hometown"): a known place name, with family words
  (mum, parents, home) counting most;
- job ("job", "work", "do for a living"): words of occupations and workplaces;
- allergy ("allerg…"): allergy words and common allergens, read as allergen groups;
- pet ("cat", "dog", "pet"): pet words and emoji;
- name ("real/full/actual/last name", "surname"): the contact name when it has a surname,
  else another contact's full name said in a group chat named after the person (a
  nickname's owner is often saved again under their real name: an email address, another
  platform);
- who ("who is X?", "how do I know X?"): plain statements from the messages that name them --
  whose relative or partner they are ("my cousin X" said by someone), an engagement
  announced ("X said yes 💍"), where they work and where they live or moved -- each citing
  its message (``who_statements``).

Each result is a ``Finding`` whose first sentence states what was found, citing the message.
Pure rules, bounded reads, user-scoped; deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from claire.accounts.models import User
from claire.ai.suspicious import suspicious_text
from conversations.models import ChatKind, ChatParticipant, Message, Person
from memory.findings import Finding, moment_text
from memory.links import linked_full_name
from memory.models import FactKind
from memory.selectors import PersonFactView, person_facts_for_user
from memory.selfdescribed import (
    SaidOfThemselves,
    statement_text,
    statements_of_person,
)
from retrieval.gazetteer import CITY_FORMS
from retrieval.lexicon import fold_text

# Messages about the person read per question, newest first.
ABOUT_MESSAGES_READ = 400
# Messages cited per answer.
ABOUT_CITED = 2

_ATTRIBUTES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("name", re.compile(r"\b(?:real|full|last|sur|actual|proper|legal)\s*name\b|\bsurname\b")),
    (
        "who",
        re.compile(
            r"^\W*(?:who\s+(?:is|was)|who's|whos|quem\s+e|quien\s+es|qui\s+est|wer\s+ist)\b"
            r"|\bhow\s+do\s+i\s+know\b"
        ),
    ),
    (
        "home",
        re.compile(
            r"\bwhere\b.*\b(?:live|lives|living|based|stay|staying)\b|\baddress\b"
            r"|\b(?:onde|donde|ou)\b.*\b(?:mora|vive|habite)\b|\bwo\s+wohnt\b"
        ),
    ),
    ("allergy", re.compile(r"\ballerg")),
    ("pet", re.compile(r"\b(?:cat|dog|pet|kitten|puppy)s?\b")),
    ("origin", re.compile(r"\bwhere\b.*\bfrom\b|\boriginally\b|\bhometown\b|\bgr[eo]w\s+up\b")),
    (
        "job",
        re.compile(
            r"\bjob\b|\bwork\b|\bfor\s+a\s+living\b|\bprofession\b|\boccupation\b"
            r"|\bwhat\s+does\s+(?:\S+\s+){1,3}?do(?:\s+for\s+(?:a\s+living|work))?\W*$"
            r"|\b(?:faz|trabalha|dedica|trabaja|hace|travaille|metier|arbeitet|beruf)\b"
        ),
    ),
)
_CUES: dict[str, re.Pattern[str]] = {
    "origin": re.compile(
        r"\b(?:from|mum|mom|mother|dad|father|parents|family|home|hometown|originally|grew\s+up"
        r"|back\s+home)\b"
    ),
    "job": re.compile(
        r"\b(?:teach\w*|nurs\w*|engineer\w*|doctor|shifts?|patients?|students?|class(?:es)?"
        r"|school|office|hospital|clinic|lab|job|work(?:ing)?|career|hired|interview\w*|manager"
        r"|designer|developer|lawyer|chem\w*|sophomores?|freshm[ae]n|teacher|professor)\b"
    ),
    "allergy": re.compile(
        r"\b(?:allerg\w*|itchy|reaction|benadryl|epi-?pen|hives|anaphyla\w*|nuts?|peanuts?"
        r"|walnuts?|almonds?|cashews?|pecans?|pistachios?|hazelnuts?|shellfish|shrimp|gluten"
        r"|lactose|dairy|penicillin)\b"
    ),
    "pet": re.compile(
        r"\b(?:cat|dog|kitten|puppy|pet|gato|gata|perro)s?\b|[\U0001F408\U0001F415\U0001F431\U0001F436]"
    ),
}
# Allergens as the groups people name them by.
_ALLERGEN_GROUPS = (
    ("tree nut", re.compile(r"\b(?:walnut|almond|cashew|pecan|pistachio|hazelnut|tree\s+nut)s?\b")),
    ("peanut", re.compile(r"\bpeanuts?\b")),
    ("shellfish", re.compile(r"\b(?:shellfish|shrimp|prawns?|crab|lobster)\b")),
    ("gluten", re.compile(r"\b(?:gluten|wheat)\b")),
    ("dairy", re.compile(r"\b(?:lactose|dairy)\b")),
    ("penicillin", re.compile(r"\bpenicillin\b")),
)


# Occupation words as the person who does the work is called ("teaching" -> "a teacher").
_ROLES = (
    (re.compile(r"\bteach(?:es|ing|er|ers)?\b|\btaught\b"), "a teacher"),
    (re.compile(r"\bnurs(?:e|es|ing)\b"), "a nurse"),
    (re.compile(r"\bengineer(?:s|ing)?\b"), "an engineer"),
    (re.compile(r"\bprofessor\b|\blectur(?:er|ing)\b"), "a professor or lecturer"),
    (re.compile(r"\bdoctor\b|\bphysician\b"), "a doctor"),
    (re.compile(r"\blawyer\b|\battorney\b"), "a lawyer"),
    (re.compile(r"\bdesigner\b"), "a designer"),
    (re.compile(r"\bdeveloper\b|\bprogrammer\b"), "a developer"),
    (re.compile(r"\bvet\s+tech\b|\bvet(?:erinarian)?\b"), "in veterinary care"),
    (re.compile(r"\bchef\b|\bcook(?:ing)?\s+at\b"), "a cook"),
)


def job_role(text: str) -> str:
    """The occupation a message's words name ("first week back teaching": "a teacher"), or ""."""
    folded = fold_text(text)
    return next((role for pattern, role in _ROLES if pattern.search(folded)), "")


def asked_attribute(question: str) -> str:
    """The attribute an identity question about a named person asks for, or ""."""
    folded = fold_text(question)
    return next((name for name, pattern in _ATTRIBUTES if pattern.search(folded)), "")


@dataclass(frozen=True)
class _About:
    pk: int
    text: str
    sender_name: str
    is_from_self: bool
    is_by_person: bool
    chat_title: str
    sent_at: object


def about_findings(
    *, user: User, person_ids: Sequence[int], name: str, question: str
) -> tuple[list[Finding], list[int]]:
    """The findings that answer ``question`` about the person, and the message ids to cite
    (best first); nothing when no message about them uses the attribute's words."""
    attribute = asked_attribute(question)
    if not attribute or not person_ids:
        return [], []
    if attribute == "name":
        return _name_findings(user=user, person_ids=person_ids, name=name, question=question)
    if attribute == "who":
        return _who_findings(user=user, person_ids=person_ids, name=name)
    if attribute in ("job", "home"):
        told = _told_of_themselves(user=user, person_ids=person_ids, name=name, attribute=attribute)
        if told is not None or attribute == "home":
            return ([told], list(told.message_ids)) if told is not None else ([], [])
    cue = _CUES[attribute]
    rows = _about_rows(user=user, person_ids=person_ids, name=name)
    scored = []
    for row in rows:
        folded = fold_text(row.text)
        cues = {match.group(0).lower() for match in cue.finditer(folded)}
        if attribute == "origin":
            # A place named counts once: a list of places to visit is no origin.
            if not any(re.search(rf"\b{re.escape(form)}\b", folded) for form in CITY_FORMS):
                continue
            cues.add("a place")
        if not cues or suspicious_text(row.text):
            continue
        scored.append((len(cues) + int(row.is_by_person), row))
    if not scored:
        return [], []
    scored.sort(key=lambda item: (-item[0], item[1].sent_at), reverse=False)
    best = [row for _, row in scored[:ABOUT_CITED]]
    zone = user.zoneinfo
    top = best[0]
    who = "you" if top.is_from_self else (top.sender_name or "someone")
    lead = name or "They"
    said = f"{who} wrote on {moment_text(top.sent_at, zone)} in {top.chat_title}"  # type: ignore[arg-type]
    text = " ".join(top.text.split())
    if attribute == "allergy":
        groups = [group for group, pattern in _ALLERGEN_GROUPS if pattern.search(fold_text(text))]
        head = (
            f"{lead} has a {groups[0]} allergy, as far as your messages show"
            if groups
            else f"What your messages say about {lead} and allergies"
        )
    elif attribute == "job" and (role := job_role(text)):
        head = f"{lead} is most likely {role}, as your messages tell it"
    else:
        head = {
            "origin": f"Where {lead} is from, as your messages tell it",
            "job": f"What {lead} does, as your messages tell it",
            "pet": f"About {lead}'s pet",
        }[attribute]
    finding = Finding(text=f"{head}: {said}: {text}", message_ids=tuple(row.pk for row in best))
    return [finding], [row.pk for row in best]


def outdated(said: SaidOfThemselves, facts: Sequence[PersonFactView]) -> bool:
    """Whether memory holds a newer word than the person's own statement: a current fact of
    that kind from later ("moved from Porto to Berlin" after "I live in Porto"), or the
    statement's value is one a later fact superseded."""
    for fact in facts:
        if fact.is_current and fact.valid_from > said.sent_at:
            return True
        if not fact.is_current and fold_text(fact.value) in fold_text(said.statement.value):
            return True
    return False


def _told_of_themselves(
    *, user: User, person_ids: Sequence[int], name: str, attribute: str
) -> Finding | None:
    """The person's job or home as they said it themselves ("I work as a … at …", "moro em
    …"), else as a current fact of memory says it, stated first and cited; ``None`` when
    neither tells it."""
    lead = name or "They"
    own = statements_of_person(user=user, person_ids=person_ids)
    kinds = ("occupation", "employer") if attribute == "job" else ("home",)
    fact_kind = FactKind.WORKS_AT if attribute == "job" else FactKind.LIVES_IN
    facts = person_facts_for_user(user=user, person_ids=person_ids, kinds=[fact_kind])
    said = [own[kind] for kind in kinds if kind in own and not outdated(own[kind], facts)]
    if said:
        parts = [statement_text(item.statement) for item in said]
        first = said[0]
        when = moment_text(first.sent_at, user.zoneinfo)
        writer = lead if fold_text(lead) in fold_text(first.sender_name) else first.sender_name
        return Finding(
            text=f"{lead} {' and '.join(dict.fromkeys(parts))}, as {writer or lead} "
            f"wrote on {when}.",
            message_ids=tuple(dict.fromkeys(item.message_id for item in said)),
        )
    for fact in facts:
        if fact.is_current and fact.source_message_ids:
            verb = "works at" if attribute == "job" else "lives in"
            return Finding(
                text=f"{lead} {verb} {fact.value}, as your messages tell it.",
                message_ids=fact.source_message_ids[:ABOUT_CITED],
            )
    return None


# Statements of who someone is, one per kind, each read from one message that names them.
WHO_STATEMENTS = 3
_WHO_RELATIONS = (
    "brother|sister|cousin|partner|wife|husband|girlfriend|boyfriend|fiancée|fiancee|fiancé"
    "|fiance|mum|mom|mother|dad|father|son|daughter|uncle|aunt|niece|nephew|grandma|grandpa"
    "|friend|best friend|colleague|coworker|co-worker|flatmate|roommate|boss|neighbour|neighbor"
    "|manager|teammate"
)
# A capitalised place or organisation of up to four words ("the Riverside Dental Clinic").
_PROPER = r"((?:[A-ZÀ-Ý][\w'\u2019&.-]*)(?:\s+(?:of\s+|de\s+)?[A-ZÀ-Ý][\w'\u2019&.-]*){0,3})"
_ENGAGED = re.compile(
    r"\b(?:said\s+yes|got\s+engaged|are\s+engaged|is\s+engaged|just\s+engaged|proposed)\b"
    r"|\U0001F48D",
    re.IGNORECASE,
)


# Capitalised words of an engagement message that name nobody.
_NOT_PARTNER_WORDS = frozenset(
    [
        "omg",
        "wow",
        "congrats",
        "congratulations",
        "yes",
        "she",
        "he",
        "they",
        "we",
        "our",
        "my",
        "the",
        "and",
        "just",
        "finally",
        "big",
        "news",
        "engaged",
        "said",
        "proposed",
    ]
)


def who_statements(
    *, text: str, name: str, sender: str, is_from_self: bool
) -> list[tuple[str, str]]:
    """What one message says of who ``name`` is, as (kind, plain statement) pairs: whose
    relative or partner they are ("my cousin Ana" by Rui: "Ana is Rui's cousin"), an
    engagement ("Ana said yes 💍" by Rui: "Ana got engaged to Rui"), where they work ("Ana got a
    job at the City Library") and where they live or moved. ``sender`` wrote ``text`` (the
    user when ``is_from_self``); empty when the message names them without saying any of it."""
    first = (name or "").split()[0] if (name or "").split() else ""
    if len(first) < 2:
        return []
    who = "(?i:" + re.escape(first) + ")"
    found: list[tuple[str, str]] = []
    owner = "your" if is_from_self else (f"{sender}'s" if sender else "")
    relation = re.search(
        rf"\b(?i:my)\s+(?i:({_WHO_RELATIONS}))[,:]?\s+{who}\b"
        rf"|\b{who},?\s+(?i:(?:is\s+)?my)\s+(?i:({_WHO_RELATIONS}))\b",
        text,
    )
    if relation and owner:
        word = (relation.group(1) or relation.group(2)).lower()
        found.append(("relation", f"{first} is {owner} {word}"))
    if re.search(rf"\b{who}\b", text) and _ENGAGED.search(text):
        # The partner is the other name the sentence says ("Jonah got engaged to Mireille"
        # by Mum: Mireille and Jonah), else whoever wrote it ("Ana said yes 💍" by Rui).
        others = [
            word
            for word in re.findall(r"(?<![\w'])[A-ZÀ-Ý][a-zà-ÿ]{2,}\b", text)
            if fold_text(word) != fold_text(first) and fold_text(word) not in _NOT_PARTNER_WORDS
        ]
        partner = others[0] if others else ("you" if is_from_self else sender)
        is_other = partner and fold_text(partner).split()[0] != fold_text(first)
        found.append(
            ("engaged", f"{first} got engaged to {partner}" if is_other else f"{first} got engaged")
        )
    work = re.search(
        rf"\b{who}\b[^.!?\n]*?\b(got\s+a\s+(?:new\s+)?job|started(?:\s+a\s+new\s+job)?|works|"
        rf"is\s+working|started\s+working)\s+(?:at|for|with)\s+((?:the\s+)?{_PROPER})",
        text,
    )
    if work:
        found.append(("work", f"{first} {work.group(1)} at {work.group(2)}"))
    home = re.search(
        rf"\b{who}\b[^.!?\n]*?\b(lives\s+in|moved\s+to|is\s+moving\s+to|living\s+in)\s+"
        rf"{_PROPER}",
        text,
    )
    if home:
        found.append(("home", f"{first} {home.group(1)} {home.group(2)}"))
    return found


def _who_findings(
    *, user: User, person_ids: Sequence[int], name: str
) -> tuple[list[Finding], list[int]]:
    """Who the person is, one plain statement per kind (the newest message saying it), each
    citing its message; nothing when no message about them says any (``who_statements``)."""
    statements: dict[str, Finding] = {}
    for row in _about_rows(user=user, person_ids=person_ids, name=name):
        if row.is_by_person or suspicious_text(row.text):
            continue
        for kind, statement in who_statements(
            text=row.text, name=name, sender=row.sender_name, is_from_self=row.is_from_self
        ):
            if kind not in statements and len(statements) < WHO_STATEMENTS:
                statements[kind] = Finding(text=f"{statement}.", message_ids=(row.pk,))
    findings = list(statements.values())
    return findings, [pk for finding in findings for pk in finding.message_ids]


def _about_rows(*, user: User, person_ids: Sequence[int], name: str) -> list[_About]:
    """Messages by the person, in a direct chat with them, or naming them."""
    direct_chats = list(
        ChatParticipant.objects.filter(
            chat__user=user, chat__kind=ChatKind.DIRECT, person_id__in=list(person_ids)
        ).values_list("chat_id", flat=True)
    )
    first = (name or "").split()[0] if (name or "").split() else ""
    rows = Message.objects.filter(
        user=user, deleted_at__isnull=True, chat__is_excluded_from_ai=False
    ).select_related("chat", "sender_person")
    from django.db.models import Q

    where = Q(sender_person_id__in=list(person_ids)) | Q(chat_id__in=direct_chats)
    if len(first) >= 3:
        where |= Q(text__iregex=rf"(^|[^[:alnum:]]){re.escape(first)}([^[:alnum:]]|$)")
    found = []
    for row in rows.filter(where).order_by("-sent_at", "-pk")[:ABOUT_MESSAGES_READ]:
        if not row.text:
            continue
        found.append(
            _About(
                pk=row.pk,
                text=row.text,
                sender_name=row.sender_person.display_name if row.sender_person else "",
                is_from_self=row.is_from_self,
                is_by_person=row.sender_person_id in person_ids,
                chat_title=row.chat.title,
                sent_at=row.sent_at,
            )
        )
    return found


# A message of this many distinct words (three letters or more) says something.
TELLING_WORDS = 5
_WORD = re.compile(r"[^\W\d_]{3,}")
_LAST_NAME = re.compile(r"\b(?:last|family|sur)\s*name\b|\bsurname\b")


def _name_findings(
    *, user: User, person_ids: Sequence[int], name: str, question: str = ""
) -> tuple[list[Finding], list[int]]:
    """The person's full name: their contact name when it has a surname; else a full name of
    another contact said in a group chat the person is in (a nickname's owner is often
    another contact under their real name: an email address, another platform)."""
    people = list(Person.objects.filter(user=user, pk__in=list(person_ids)))
    # The contact the question calls by ``name`` decides: a nickname is asked about as such.
    asked = fold_text(name).split()
    named = [
        p for p in people if asked and asked[0] in fold_text(" ".join(_name_words(p.display_name)))
    ] or people
    full = next((p.display_name for p in named if len(_name_words(p.display_name)) >= 2), "")
    if full:
        texts = Message.objects.filter(
            user=user,
            sender_person_id__in=list(person_ids),
            deleted_at__isnull=True,
            chat__is_excluded_from_ai=False,
        ).values_list("pk", "text", "chat__kind")[:ABOUT_MESSAGES_READ]
        # Their messages that say something, in a direct chat first (where the name is
        # shown), fullest first: the ones most worth reading beside the name.
        ids = [
            pk
            for pk, text, kind in sorted(
                texts,
                key=lambda row: (
                    len(set(_WORD.findall(fold_text(row[1] or "")))) < TELLING_WORDS,
                    row[2] != ChatKind.DIRECT,
                    -len(row[1] or ""),
                ),
            )
            if not suspicious_text(text or "")
        ][:ABOUT_CITED]
        words = _name_words(full)
        first = words[0]
        if _LAST_NAME.search(fold_text(question)) and len(words) >= 2:
            text = f"{first}'s last name is {' '.join(words[1:])}: the contact is saved as {full}."
        else:
            text = f"{first}'s full name is {full}."
        return [Finding(text=text, message_ids=tuple(ids))], ids
    under = _sent_under_full_name(user=user, person_ids=person_ids, asked=asked)
    if under is not None:
        display, title, ids = under
        # The contact as saved, its emoji left out ("Bix 🐝" is "Bix").
        lead = " ".join(_name_words(named[0].display_name)) or name
        where = f" in {title}" if title else ""
        text = f"{lead} is {display}: the same contact writes as {display}{where}"
        stated = _name_stated(user=user, person_ids=person_ids, full_name=display)
        if stated is not None:
            # A message that says the name is what proves it; the sender label only shows it.
            pk, sender, stated_title = stated
            text += f", and {sender} calls them {display}" + (
                f" in {stated_title}" if stated_title else ""
            )
            ids = [pk, *(i for i in ids if i != pk)]
        return [Finding(text=text + ".", message_ids=tuple(ids))], ids
    linked = linked_full_name(user=user, person_ids=person_ids, lead=name or named[0].display_name)
    if linked is not None:
        ids = list(linked.message_ids)
        stated = _name_stated(user=user, person_ids=person_ids, full_name=linked.full_name)
        if stated is not None:
            ids = [stated[0], *(i for i in ids if i != stated[0])]
        return [Finding(text=linked.sentence + ".", message_ids=tuple(ids))], ids
    said = _full_name_said(user=user, person_ids=person_ids, people=named)
    if said is None:
        return _called_name_findings(user=user, person_ids=person_ids, name=name)
    display, pk = said
    lead = name or "They"
    finding = Finding(
        text=f"{lead} is most likely {display}: that full name is said in a group chat named"
        f" after {lead}, and you also have {display} as a contact.",
        message_ids=(pk,),
    )
    return [finding], [pk]


def _called_name_findings(
    *, user: User, person_ids: Sequence[int], name: str
) -> tuple[list[Finding], list[int]]:
    """A contact saved under a nickname is often called by their name in their own chat
    ("thanks Lucy!!" to "Peanut 🥜"): that name, with the message that says it."""
    from memory.callnames import call_names_of

    called = call_names_of(user=user, person_ids=person_ids)
    if not called:
        return [], []
    called_name, pk = called[0]
    lead = name or "They"
    finding = Finding(
        text=f"{lead} is most likely called {called_name}: that is the name used in your"
        f" direct chat with {lead}.",
        message_ids=(pk,),
    )
    return [finding], [pk]


def _sent_under_full_name(
    *, user: User, person_ids: Sequence[int], asked: Sequence[str]
) -> tuple[str, str, list[int]] | None:
    """The full name the person's own messages came under elsewhere (one number saved under a
    nickname that writes in a group under its owner's name), the chat where it shows most
    often, and up to ``ABOUT_CITED`` of those messages; None when every name they wrote
    under is a nickname or the name asked."""
    rows = list(
        Message.objects.filter(
            user=user,
            sender_person_id__in=list(person_ids),
            deleted_at__isnull=True,
            chat__is_excluded_from_ai=False,
        )
        .exclude(sender_name="")
        .order_by("-sent_at", "-pk")
        .values_list("pk", "sender_name", "chat__title", "text")[:ABOUT_MESSAGES_READ]
    )
    counts: dict[str, int] = {}
    for _pk, sender_name, _title, text in rows:
        words = [fold_text(word) for word in _name_words(sender_name)]
        if (
            len(words) >= 2
            and not set(asked) & set(words)
            and not suspicious_text(sender_name)
            and not suspicious_text(text or "")
        ):
            counts[sender_name] = counts.get(sender_name, 0) + 1
    if not counts:
        return None
    display = max(counts, key=lambda key: (counts[key], key))
    under = [(pk, title) for pk, sender_name, title, _text in rows if sender_name == display]
    return display, under[0][1], [pk for pk, _title in under[:ABOUT_CITED]]


def _name_stated(
    *, user: User, person_ids: Sequence[int], full_name: str
) -> tuple[int, str, str] | None:
    """The first message by someone other than the person, in a chat the person is in, whose
    text says ``full_name`` as whole words ("OLA NOVAK IS 30??" in the birthday group): the
    message that states a nickname's real name. Its id, who wrote it ("you" for the user) and
    its chat's title; ``None`` when no such message says it."""
    words = [fold_text(word) for word in _name_words(full_name)]
    if len(words) < 2:
        return None
    chats = ChatParticipant.objects.filter(
        chat__user=user, chat__is_excluded_from_ai=False, person_id__in=list(person_ids)
    ).values_list("chat_id", flat=True)
    pattern = (
        r"(^|[^[:alnum:]])" + r"\s+".join(re.escape(word) for word in words) + r"([^[:alnum:]]|$)"
    )
    rows = (
        Message.objects.filter(
            user=user, chat_id__in=list(chats), deleted_at__isnull=True, text__iregex=pattern
        )
        .exclude(sender_person_id__in=list(person_ids))
        .select_related("sender_person", "chat")
        .order_by("sent_at", "pk")[:ABOUT_MESSAGES_READ]
    )
    for row in rows:
        if suspicious_text(row.text or ""):
            continue
        sender = (
            "you"
            if row.is_from_self
            else " ".join(_name_words(row.sender_person.display_name if row.sender_person else ""))
            or "someone"
        )
        return row.pk, sender, row.chat.title
    return None


def _full_name_said(
    *, user: User, person_ids: Sequence[int], people: Sequence[Person]
) -> tuple[str, int] | None:
    """A full name of another contact said in a group chat named after the person, with the
    message that says it."""
    group_chats = _titled_groups(user=user, person_ids=person_ids, people=people)
    if not group_chats:
        return None
    members = set(
        ChatParticipant.objects.filter(chat_id__in=group_chats).values_list("person_id", flat=True)
    )
    known = {
        fold_text(display): display
        for display in Person.objects.filter(user=user)
        .exclude(pk__in=members)
        .values_list("display_name", flat=True)
        if len(_name_words(display)) >= 2
    }
    for pk, text in (
        Message.objects.filter(user=user, chat_id__in=group_chats, deleted_at__isnull=True)
        .order_by("sent_at", "pk")
        .values_list("pk", "text")[:ABOUT_MESSAGES_READ]
    ):
        folded = fold_text(text or "")
        for key, display in known.items():
            if re.search(rf"(?<!\w){re.escape(key)}(?!\w)", folded):
                return display, pk
    return None


def _name_words(name: str) -> list[str]:
    return re.findall(r"[^\W\d_][\w'-]*", name or "")


def _titled_groups(*, user: User, person_ids: Sequence[int], people: Sequence[Person]) -> list[int]:
    """The group chats the person is in whose title names them ("Ana's 30th"): what is said
    there is most likely about them."""
    names = {fold_text(word) for p in people for word in _name_words(p.display_name)}
    return [
        chat_id
        for chat_id, title in ChatParticipant.objects.filter(
            chat__user=user, chat__kind=ChatKind.GROUP, person_id__in=list(person_ids)
        ).values_list("chat_id", "chat__title")
        if any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", fold_text(title)) for name in names)
    ]


def alias_person_ids(*, user: User, person_ids: Sequence[int]) -> list[int]:
    """Other contacts that are most likely the same human as ``person_ids``: a contact saved
    under a one-word nickname whose titled group chat says this person's full name ("Biscuit"
    in "Biscuit's 30th", where someone writes "Tomas Reyes"), and the other way round."""
    people = list(Person.objects.filter(user=user, pk__in=list(person_ids)))
    linked: set[int] = set()
    for person in people:
        words = _name_words(person.display_name)
        if len(words) >= 2:
            key = fold_text(person.display_name)
            pattern = r"(^|[^[:alnum:]])" + re.escape(key) + r"([^[:alnum:]]|$)"
            chats = set(
                Message.objects.filter(
                    user=user,
                    deleted_at__isnull=True,
                    chat__kind=ChatKind.GROUP,
                    text__iregex=pattern,
                ).values_list("chat_id", "chat__title")[:ABOUT_MESSAGES_READ]
            )
            for chat_id, title in chats:
                for pid, display in ChatParticipant.objects.filter(chat_id=chat_id).values_list(
                    "person_id", "person__display_name"
                ):
                    nick = _name_words(display)
                    if (
                        pid != person.pk
                        and len(nick) == 1
                        and re.search(
                            rf"(?<!\w){re.escape(fold_text(nick[0]))}(?!\w)", fold_text(title)
                        )
                    ):
                        linked.add(pid)
        elif len(words) == 1:
            said = _full_name_said(user=user, person_ids=[person.pk], people=[person])
            if said is not None:
                linked.update(
                    Person.objects.filter(user=user, display_name=said[0]).values_list(
                        "pk", flat=True
                    )
                )
    return sorted(linked - set(person_ids))


_CAPITALISED = re.compile(r"(?<![\w'])([A-ZÀ-Ý][a-zà-ÿ]{2,})(?:['\u2019]s)?\b")


def people_called(*, user: User, question: str) -> tuple[str, list[int]]:
    """A name in the question that is no contact's ("Tomas") but is said in a group chat
    named after a contact saved under a one-word nickname ("Biscuit's 30th"): that contact,
    with the name as asked. ``("", [])`` when there is none."""
    from retrieval.lexicon import STOP_WORDS

    groups: dict[int, list[int]] = {}
    for chat_id, title, person_id, display in ChatParticipant.objects.filter(
        chat__user=user, chat__kind=ChatKind.GROUP, chat__is_excluded_from_ai=False
    ).values_list("chat_id", "chat__title", "person_id", "person__display_name"):
        words = _name_words(display)
        if len(words) == 1 and re.search(
            rf"(?<!\w){re.escape(fold_text(words[0]))}(?!\w)", fold_text(title or "")
        ):
            groups.setdefault(chat_id, []).append(person_id)
    if not groups:
        return "", []
    for token in _CAPITALISED.findall(question):
        if fold_text(token) in STOP_WORDS:
            continue
        pattern = r"(^|[^[:alnum:]])" + re.escape(fold_text(token)) + r"([^[:alnum:]]|$)"
        chats = set(
            Message.objects.filter(
                user=user, chat_id__in=list(groups), deleted_at__isnull=True, text__iregex=pattern
            ).values_list("chat_id", flat=True)
        )
        found = sorted({pid for chat_id in chats for pid in groups[chat_id]})
        if len(found) == 1:
            return token, found
    return "", []


# Read by ``memory.who`` ("who is X?", "how do I know X?").
AboutMessage = _About
about_rows = _about_rows
who_statement_findings = _who_findings
