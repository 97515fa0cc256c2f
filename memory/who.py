"""Who someone is to the user, and how to reach them: "who is X?", "how do I know X?",
"what's X's number / email / handle?".

A person is often several contacts: the same human on WhatsApp and by email, an old and a new
phone number (``conversations.identities`` makes one person of one number written two ways;
memory merges a contact that wrote "it's Dana, new phone"). Both answers read every contact of
the human (``person_ids`` comes expanded with merges and aliases):

- **who**: the relationships memory holds (to the user: "your flatmate"; to someone else:
  "Omar's sister"), each with the message that says it, then where the user and the person
  talk (platforms, group chats) and since when;
- **contact**: the identity values of the kind asked (phone numbers, emails, handles), the
  newest first: the contact that wrote last, with the message that introduced it when it says
  so ("new number").

Pure reads, user-scoped, a handful of queries; deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from django.db.models import Max, Min

from claire.accounts.models import User
from claire.ai.suspicious import SUSPICION_LABELS, suspicion_kind, suspicious_text
from conversations.identities import phone_same_number
from conversations.models import (
    ChatKind,
    ChatParticipant,
    IdentityKind,
    Message,
    Person,
    PersonIdentity,
    Platform,
)
from memory.about import AboutMessage, about_rows, outdated, who_statement_findings
from memory.findings import Finding, moment_text
from memory.introductions import name_words
from memory.links import handle_link_clause, linked_full_name
from memory.models import FactKind
from memory.selectors import person_facts_for_user
from memory.selfdescribed import SaidOfThemselves, statement_text, statements_of_person
from retrieval.lexicon import ROLES, fold_text

_WHO = re.compile(
    r"^\W*(?:so\s+|and\s+|wait\s+)?who(?:'s|\s+is|\s+was|\s+are)\s+(?!the\b|that\b|this\b|a\b|an\b)"
    r"|\bhow\s+(?:do|did)\s+(?:i|we)\s+(?:know|meet)\b"
    r"|\bwho\s+is\s+[\w' -]+?\s+to\s+me\b"
    r"|\bhow\s+(?:am\s+i|are\s+we)\s+(?:related|connected)\b"
    r"|\b(?:remind\s+me\s+who|do\s+you\s+know\s+who)\s+(?!the\b|that\b)"
    r"|^\W*(?:quem\s+e|quien\s+es|qui\s+est|wer\s+ist)\s+"
    r"|\bcomo\s+(?:e\s+que\s+)?conhe[cç]o\b|\bde\s+que\s+conozco\b"
)
_CONTACT_KINDS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (
        re.compile(r"\b(?:e-?mail|mail)(?:\s+address)?\b"),
        (IdentityKind.EMAIL,),
    ),
    (
        re.compile(r"\b(?:phone|number|mobile|cell|whatsapp\s+number|tel)\b"),
        (IdentityKind.PHONE,),
    ),
    (
        re.compile(r"\b(?:handle|username|user\s+name|insta\w*|ig|twitter)\b|@"),
        (IdentityKind.HANDLE,),
    ),
    (
        re.compile(r"\b(?:contact\s+(?:details|info)|how\s+(?:do|can)\s+i\s+reach)\b"),
        (IdentityKind.PHONE, IdentityKind.EMAIL, IdentityKind.HANDLE),
    ),
)
# A message that hands over a way to reach its sender.
_INTRODUCES_CONTACT = re.compile(
    r"\b(?:new|my|this\s+is\s+my)\s+(?:number|phone|mobile|cell|email|e-mail|sim|account)\b"
    r"|\b(?:new\s+phone|changed\s+(?:my\s+)?number|save\s+(?:this|my)\s+number)\b"
)
_RELATION_TEXT = {"ex": "ex", "in-laws": "in-law"}
# Words of relations and roles in a message about someone.
KIN_AND_ROLE_FORMS = frozenset(form for forms in ROLES.values() for form in forms)
_RELATION_CUES = re.compile(
    r"\b(?:"
    + "|".join(sorted({re.escape(form) for form in KIN_AND_ROLE_FORMS}, key=len, reverse=True))
    + r"|engaged|fiance\w*|married|wedding|dating|proposed|introduc\w*|works?\s+(?:with|at|for)"
    r"|met\s+(?:at|in|through)|from\s+(?:work|the\s+office|school|uni|college)"
    r")\b|\U0001F48D"
)
RELATED_CITED = 2
# The words news of someone's life is told with.
_NEWS = re.compile(
    r"\b(?:got\s+(?:a|the|her|his|their)\s+(?:new\s+)?(?:job|offer|place|flat|apartment|dog|cat)"
    r"|new\s+job|started\s+(?:at|a|her|his|their)|hired|promoted|promotion|graduated"
    r"|moved\s+(?:to|in)|moving\s+to|engaged|married|pregnant|expecting|had\s+(?:a|the)\s+baby"
    r"|retired|quit|laid\s+off|accepted)\b"
)
GROUPS_NAMED = 3
QUOTE_CHARS = 140
SENDER_NAMES_READ = 20
LATEST_READ = 60
# A message of this many distinct words (three letters or more) tells something.
TELLING_WORDS = 5
_TELLING_WORD = re.compile(r"[^\W\d_]{3,}")


def asked_who(question: str) -> bool:
    """ "who is X?", "how do I know X?", "who's X to me?"."""
    return bool(_WHO.search(fold_text(question)))


def asked_contact_kinds(question: str) -> tuple[str, ...]:
    """The identity kinds a question asks for ("what's X's number?": phones), or ()."""
    folded = fold_text(question)
    for pattern, kinds in _CONTACT_KINDS:
        if pattern.search(folded):
            return kinds
    return ()


@dataclass(frozen=True)
class _Contact:
    """One contact of the human, with its first and last message (``None``: it never wrote)."""

    person_id: int
    first_at: datetime | None
    last_at: datetime | None


def who_findings(
    *, user: User, person_ids: Sequence[int], name: str
) -> tuple[list[Finding], list[int]]:
    """What the user's messages say the person is to the user (or to someone), and where they
    talk; nothing when the user has never exchanged a message with them."""
    if not person_ids:
        return [], []
    zone = user.zoneinfo
    lead = name or _display_name(user=user, person_ids=person_ids) or "They"
    stranger = unknown_sender_finding(user=user, person_ids=person_ids, lead=lead)
    if stranger is not None:
        return [stranger], list(stranger.message_ids)
    sentences: list[str] = []
    cited: list[int] = []
    facts = [
        fact
        for fact in person_facts_for_user(user=user, person_ids=person_ids)
        if fact.kind == FactKind.RELATIONSHIP and fact.is_current and fact.source_message_ids
    ]
    related_names = dict(
        Person.objects.filter(
            user=user, pk__in=[f.related_person_id for f in facts if f.related_person_id]
        ).values_list("pk", "display_name")
    )
    seen: set[str] = set()
    for fact in facts:
        relation = _RELATION_TEXT.get(fact.value, fact.value)
        owner = (
            "your"
            if fact.related_person_id is None
            else f"{_first(related_names.get(fact.related_person_id, ''))}'s"
        )
        phrase = f"{owner} {relation}"
        if owner == "'s":
            continue
        if fact.value == "fiance":
            # Said the way people say it: "Hana is engaged to Otto".
            phrase = "engaged to " + ("you" if owner == "your" else owner.removesuffix("'s"))
        if phrase in seen:
            continue
        seen.add(phrase)
        message_id = fact.source_message_ids[0]
        sentences.append(f"{lead} is {phrase} ({_said(user=user, message_id=message_id)})")
        cited.append(message_id)
    if not cited:
        # No relation stated the way facts read it: plain statements of the messages that
        # name them (``about.who_statements``: "Ana is Rui's cousin", where they work), else
        # the messages about them that use the words of relations.
        statements, statement_ids = who_statement_findings(
            user=user, person_ids=person_ids, name=lead
        )
        sentences.extend(finding.text for finding in statements)
        cited.extend(statement_ids)
    for sentence, message_id in _told_sentences(user=user, person_ids=person_ids, lead=lead):
        sentences.append(sentence)
        if message_id not in cited:
            cited.append(message_id)
    leading = len(sentences)
    if not cited:
        for row in _related_rows(user=user, person_ids=person_ids, name=lead):
            who = "you" if row.is_from_self else (row.sender_name or "someone")
            when = moment_text(row.sent_at, zone)  # type: ignore[arg-type]
            text = " ".join(row.text.split())
            where = f" in {row.chat_title}" if row.chat_title else ""
            sentences.append(f"About {lead}, {who} wrote on {when}{where}: {text}")
            cited.append(row.pk)
    news = _latest_news(user=user, person_ids=person_ids, name=lead, cited=cited)
    if news is not None:
        who = "you" if news.is_from_self else (news.sender_name or "someone")
        when = moment_text(news.sent_at, zone)  # type: ignore[arg-type]
        sentences.append(f"Latest news of {lead}: {who} wrote on {when}: “{_quote(news.text)}”")
        cited.append(news.pk)
    also = _other_names(user=user, person_ids=person_ids, lead=lead)
    if also:
        # After what they are to the user (a relation, a job, where they met), which the
        # question asks first; before everything else.
        sentences.insert(
            leading, f"{lead} is also saved as {_and(also)}{_tied_by(user, person_ids)}"
        )
    linked = linked_full_name(user=user, person_ids=person_ids, lead=lead)
    if linked is not None:
        # A nickname's full name, as memory linked the two contacts, is who they are first.
        sentences.insert(0, linked.sentence)
        cited[:0] = [pk for pk in linked.message_ids if pk not in cited]
    where, first_id = _where_you_talk(user=user, person_ids=person_ids, lead=lead, zone=zone)
    if where:
        sentences.append(where)
        if not cited and first_id is not None and not _is_suspicious(user=user, pk=first_id):
            # Nothing says more of them than the first message exchanged, and the latest
            # thing they told the user.
            cited.append(first_id)
            latest = _latest_own_words(user=user, person_ids=person_ids)
            if latest is not None and latest[0] not in cited:
                when = moment_text(latest[1], zone)
                sentences.append(f"Latest from {lead}, on {when}: “{_quote(latest[2])}”")
                cited.append(latest[0])
    if not sentences:
        return [], []
    text = " ".join(s if s.endswith((".", "!", "?")) else s + "." for s in sentences)
    return [Finding(text=text, message_ids=tuple(cited))], cited


def _told_sentences(*, user: User, person_ids: Sequence[int], lead: str) -> list[tuple[str, int]]:
    """What the person is, as facts and their own words tell it, each with the message that
    says it: where the user met them (a ``met_at`` fact), their occupation or employer and
    where they live (their own statements, ``selfdescribed``; else the current facts)."""
    told: list[tuple[str, int]] = []
    every_fact = person_facts_for_user(user=user, person_ids=person_ids)
    facts = [fact for fact in every_fact if fact.is_current and fact.source_message_ids]
    for fact in facts:
        if fact.kind == FactKind.MET_AT:
            message_id = fact.source_message_ids[0]
            told.append(
                (
                    f"You met {lead} at {fact.value} ({_said(user=user, message_id=message_id)})",
                    message_id,
                )
            )
            break
    own = statements_of_person(user=user, person_ids=person_ids)
    named = own.get("name")
    if named is not None and named.statement.value.casefold() not in fold_text(lead):
        # A contact saved under a nickname or emoji who said who they are ("it's Greta").
        when = moment_text(named.sent_at, user.zoneinfo)
        told.append(
            (
                f"{lead} introduced themselves as {named.statement.value} (on {when})",
                named.message_id,
            )
        )
    works = [fact for fact in every_fact if fact.kind == FactKind.WORKS_AT]
    homes = [fact for fact in every_fact if fact.kind == FactKind.LIVES_IN]
    work = next(
        (
            own[kind]
            for kind in ("occupation", "employer")
            if kind in own and not outdated(own[kind], works)
        ),
        None,
    )
    if work is not None:
        told.append((_own_words(user, lead, work), work.message_id))
    else:
        told.extend(
            _fact_sentence(user, lead, fact) for fact in facts if fact.kind == FactKind.WORKS_AT
        )
    home = own.get("home")
    if home is not None and not outdated(home, homes):
        told.append((_own_words(user, lead, home), home.message_id))
    else:
        told.extend(
            _fact_sentence(user, lead, fact) for fact in facts if fact.kind == FactKind.LIVES_IN
        )
    return told[:4]


def _own_words(user: User, lead: str, said: SaidOfThemselves) -> str:
    when = moment_text(said.sent_at, user.zoneinfo)
    return (
        f"{lead} {statement_text(said.statement)} (as {_first(said.sender_name) or lead} "
        f"wrote on {when})"
    )


def _fact_sentence(user: User, lead: str, fact) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    verb = "works at" if fact.kind == FactKind.WORKS_AT else "lives in"
    message_id = fact.source_message_ids[0]
    return f"{lead} {verb} {fact.value} ({_said(user=user, message_id=message_id)})", message_id


def _latest_news(
    *, user: User, person_ids: Sequence[int], name: str, cited: Sequence[int]
) -> AboutMessage | None:
    """The newest message about the person, by someone else, that tells news of a life
    ("Hana got a job at the library!!", "Leo just moved to Lisbon"), not cited yet."""
    first = _first(name).casefold()
    for row in about_rows(user=user, person_ids=person_ids, name=name):
        if row.pk in cited or row.is_by_person or suspicious_text(row.text):
            continue
        folded = fold_text(row.text)
        if first and re.search(rf"\b{re.escape(first)}\b", folded) and _NEWS.search(folded):
            return row
    return None


def _related_rows(*, user: User, person_ids: Sequence[int], name: str) -> list[AboutMessage]:
    """Up to ``RELATED_CITED`` messages about the person that use the words of relations,
    most such words first, then the ones naming them, then the newest."""
    scored = []
    first = _first(name).casefold()
    for row in about_rows(user=user, person_ids=person_ids, name=name):
        folded = fold_text(row.text)
        cues = {match.group(0) for match in _RELATION_CUES.finditer(folded)}
        # Their own "my flatmate Jo" is about someone else.
        if not cues or row.is_by_person or suspicious_text(row.text):
            continue
        names_them = bool(first) and re.search(rf"\b{re.escape(first)}\b", folded) is not None
        scored.append((len(cues) + int(names_them), row.sent_at, row))
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [row for _, _, row in scored[:RELATED_CITED]]


def contact_findings(
    *, user: User, person_ids: Sequence[int], name: str, kinds: Sequence[str]
) -> tuple[list[Finding], list[int]]:
    """The person's phone numbers, emails or handles (``kinds``), the newest contact first,
    each with the message that introduced it or the last one it wrote."""
    if not person_ids or not kinds:
        return [], []
    contacts = _contacts(user=user, person_ids=person_ids)
    values: dict[int, list[tuple[str, str]]] = {}
    for person_id, kind, value in (
        PersonIdentity.objects.filter(
            user=user, person_id__in=[c.person_id for c in contacts], kind__in=list(kinds)
        )
        .order_by("person_id", "pk")
        .values_list("person_id", "kind", "value")
    ):
        values.setdefault(person_id, []).append((kind, value))
    lead = name or _display_name(user=user, person_ids=person_ids) or "They"
    zone = user.zoneinfo
    parts: list[str] = []
    cited: list[int] = []
    shown: list[str] = []
    for index, contact in enumerate(contacts):
        fresh: list[str] = []
        for kind, value in values.get(contact.person_id, []):
            if not _already_shown(kind, value, [*shown, *fresh]):
                fresh.append(value)
        if not fresh:
            continue
        shown.extend(fresh)
        message_id, text = _introducing_message(user=user, person_id=contact.person_id)
        notes = ["the newest"] if index == 0 and len(contacts) > 1 else []
        if contact.first_at is not None:
            said = f"first used {moment_text(contact.first_at, zone)}"
            notes.append(said + (f": “{_quote(text)}”" if text else ""))
        parts.append(" / ".join(fresh) + (f" ({'; '.join(notes)})" if notes else ""))
        if message_id is not None:
            cited.append(message_id)
    if not parts:
        return [], []
    noun = _kind_noun(kinds, plural=len(shown) > 1)
    text = f"{lead}'s {noun}, as your messages show: " + "; then ".join(parts) + "."
    return [Finding(text=text, message_ids=tuple(cited))], cited


def _already_shown(kind: str, value: str, shown: Sequence[str]) -> bool:
    if kind == IdentityKind.PHONE:
        return any(phone_same_number(value, other) for other in shown)
    return value in shown


def _kind_noun(kinds: Sequence[str], *, plural: bool) -> str:
    if len(kinds) > 1:
        return "contact details"
    nouns: dict[str, str] = {
        IdentityKind.PHONE: "number",
        IdentityKind.EMAIL: "email address",
        IdentityKind.HANDLE: "handle",
    }
    noun = nouns.get(kinds[0], "contact")
    if not plural:
        return noun
    return noun + ("es" if noun.endswith("ss") else "s")


def _contacts(*, user: User, person_ids: Sequence[int]) -> list[_Contact]:
    """The person's contacts with their first and last message, the latest-writing first
    (a contact that never wrote comes last)."""
    spans = {
        row["sender_person_id"]: row
        for row in Message.objects.filter(
            user=user,
            sender_person_id__in=list(person_ids),
            deleted_at__isnull=True,
            chat__is_excluded_from_ai=False,
        )
        .values("sender_person_id")
        .annotate(first=Min("sent_at"), last=Max("sent_at"))
    }
    written = sorted(spans.items(), key=lambda item: item[1]["last"], reverse=True)
    contacts = [
        _Contact(person_id=pk, first_at=row["first"], last_at=row["last"]) for pk, row in written
    ]
    silent = sorted(set(person_ids) - set(spans))
    return contacts + [_Contact(person_id=pk, first_at=None, last_at=None) for pk in silent]


def _introducing_message(*, user: User, person_id: int) -> tuple[int | None, str]:
    """The contact's message that hands over its number or address ("new phone!"), else its
    first message; ``(None, "")`` when it wrote nothing."""
    rows = list(
        Message.objects.filter(
            user=user,
            sender_person_id=person_id,
            deleted_at__isnull=True,
            chat__is_excluded_from_ai=False,
        )
        .order_by("sent_at", "pk")
        .values_list("pk", "text")[:50]
    )
    for pk, text in rows:
        if text and _INTRODUCES_CONTACT.search(fold_text(text)) and not suspicious_text(text):
            return pk, text
    if rows:
        return rows[0][0], ""
    return None, ""


def _where_you_talk(
    *, user: User, person_ids: Sequence[int], lead: str, zone: ZoneInfo
) -> tuple[str, int | None]:
    """ "You talk with Leo on Email and WhatsApp, and in “Marsh family”, since Mon 2 March,
    19:00": the platforms of their direct chats, the groups you share, and the first message
    exchanged (theirs, or the user's in a direct chat with them), with that message's id."""
    memberships = list(
        ChatParticipant.objects.filter(
            chat__user=user, chat__is_excluded_from_ai=False, person_id__in=list(person_ids)
        )
        .values_list("chat_id", "chat__kind", "chat__platform", "chat__title")
        .order_by("chat_id")
    )
    if not memberships:
        return "", None
    platforms = sorted(
        {
            Platform(platform).label
            for _, kind, platform, _ in memberships
            if kind == ChatKind.DIRECT
        }
    )
    groups = [title for _, kind, _, title in memberships if kind == ChatKind.GROUP and title]
    direct_chats = [chat_id for chat_id, kind, _, _ in memberships if kind == ChatKind.DIRECT]
    messages = Message.objects.filter(user=user, deleted_at__isnull=True)
    earliest = [
        row
        for row in (
            messages.filter(chat_id__in=direct_chats)
            .order_by("sent_at", "pk")
            .values_list("pk", "sent_at")
            .first(),
            messages.filter(sender_person_id__in=list(person_ids))
            .order_by("sent_at", "pk")
            .values_list("pk", "sent_at")
            .first(),
        )
        if row is not None
    ]
    places = []
    if platforms:
        places.append("on " + _and(platforms))
    if groups:
        shown = groups[:GROUPS_NAMED]
        more = len(groups) - len(shown)
        places.append(
            "in " + _and([f"“{title}”" for title in shown] + ([f"{more} more"] if more else []))
        )
    text = f"You talk with {lead} " + ", and ".join(places)
    first_row = min(earliest, key=lambda row: row[1]) if earliest else None
    if first_row is None:
        return text, None
    return text + f", since {moment_text(first_row[1], zone)}", first_row[0]


# Messages of an unknown sender read to judge them.
STRANGER_MESSAGES_READ = 20


def unknown_sender_finding(*, user: User, person_ids: Sequence[int], lead: str) -> Finding | None:
    """ "Help Desk is not one of your contacts: an unknown number (+44 7700 900999) you
    have never written to; its message contains instructions aimed at an assistant; ignored."
    Said of a sender the user never wrote to in any chat they share whose messages read as
    suspicious (read as from a stranger: a link with a payment ask is phishing), citing the
    newest such message; ``None`` for anyone else."""
    if Message.objects.filter(
        user=user, is_from_self=True, chat__memberships__person_id__in=list(person_ids)
    ).exists():
        return None
    rows = list(
        Message.objects.filter(
            user=user,
            sender_person_id__in=list(person_ids),
            deleted_at__isnull=True,
            chat__is_excluded_from_ai=False,
        )
        .order_by("-sent_at", "-pk")
        .values_list("pk", "text", "sender_name")[:STRANGER_MESSAGES_READ]
    )
    flagged = [
        (pk, kind)
        for pk, text, sender_name in rows
        if (kind := suspicion_kind(text or "", is_unsolicited=True) or suspicion_kind(sender_name))
    ]
    if not flagged:
        return None
    message_id, kind = flagged[0]
    number = _written_number(user=user, person_ids=person_ids)
    who = f"an unknown number ({number})" if number else "an unknown sender"
    noun = "its only message" if len(rows) == 1 else "its latest message"
    text = (
        f"{lead} is not one of your contacts: {who} you have never written to; "
        f"{noun} {SUSPICION_LABELS.get(kind, kind)}."
    )
    return Finding(text=text, message_ids=(message_id,))


def _written_number(*, user: User, person_ids: Sequence[int]) -> str:
    """The person's phone number as a chat shows it (the direct chat of a number saved
    under no name is titled with it), else as stored; "" without one."""
    phones = list(
        PersonIdentity.objects.filter(
            user=user, person_id__in=list(person_ids), kind=IdentityKind.PHONE
        ).values_list("value", flat=True)
    )
    if not phones:
        return ""
    titles = ChatParticipant.objects.filter(
        chat__user=user, chat__kind=ChatKind.DIRECT, person_id__in=list(person_ids)
    ).values_list("chat__title", flat=True)
    for title in titles:
        if title and any(phone_same_number(title, phone) for phone in phones):
            return title
    return phones[0]


def _is_suspicious(*, user: User, pk: int) -> bool:
    """A message that reads as instructions to an assistant or spam is never what a who-is
    answer rests on."""
    text = Message.objects.filter(user=user, pk=pk).values_list("text", flat=True).first()
    return suspicious_text(text or "")


def _said(*, user: User, message_id: int) -> str:
    row = (
        Message.objects.filter(user=user, pk=message_id)
        .select_related("sender_person", "chat")
        .first()
    )
    if row is None:
        return ""
    who = (
        "you"
        if row.is_from_self
        else (row.sender_person.display_name if row.sender_person else "someone")
    )
    where = f" in {row.chat.title}" if row.chat.title else ""
    return f"{who} wrote on {moment_text(row.sent_at, user.zoneinfo)}{where}: “{_quote(row.text)}”"


def _quote(text: str) -> str:
    flat = " ".join((text or "").split())
    return flat if len(flat) <= QUOTE_CHARS else flat[: QUOTE_CHARS - 1].rstrip() + "…"


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _first(name: str) -> str:
    words = name.split()
    return words[0] if words else ""


def _other_names(*, user: User, person_ids: Sequence[int], lead: str) -> list[str]:
    """The human's other names ("Lofty" is also saved as "Tom Reyes"): contact names,
    and the names their messages came under on other platforms, with a letter, other than the
    one asked about; decoration (emoji) aside, each once."""
    asked = set(name_words(lead))
    contact_names = (
        Person.objects.filter(user=user, pk__in=list(person_ids))
        .order_by("pk")
        .values_list("display_name", flat=True)
    )
    sender_names = (
        Message.objects.filter(user=user, sender_person_id__in=list(person_ids))
        .exclude(sender_name="")
        .values_list("sender_name", flat=True)
        .distinct()
        .order_by("sender_name")[:SENDER_NAMES_READ]
    )
    others: list[str] = []
    seen: set[tuple[str, ...]] = set()
    for display in [*contact_names, *sender_names]:
        words = name_words(display)
        key = tuple(words)
        if (
            words
            and set(words) != asked
            and not set(words) <= asked
            and key not in seen
            and not suspicious_text(display)
        ):
            seen.add(key)
            others.append(display)
    return others


def _tied_by(user: User, person_ids: Sequence[int]) -> str:
    """ " (one phone number: +61…)" when a phone number ties the names together, " (memory
    linked them: the handle … is a form of the name …)" when a handle link does."""
    linked = handle_link_clause(user=user, person_ids=person_ids)
    if linked:
        return f" (memory linked them: {linked})"
    phone = (
        PersonIdentity.objects.filter(
            user=user, person_id__in=list(person_ids), kind=IdentityKind.PHONE
        )
        .order_by("pk")
        .values_list("value", flat=True)
        .first()
    )
    return f" (one phone number: {phone})" if phone else ""


def _latest_own_words(*, user: User, person_ids: Sequence[int]) -> tuple[int, datetime, str] | None:
    """The newest message the person sent that says something (``TELLING_WORDS`` words or
    more, not suspicious), preferring their direct chats with the user."""
    rows = list(
        Message.objects.filter(
            user=user,
            sender_person_id__in=list(person_ids),
            deleted_at__isnull=True,
            chat__is_excluded_from_ai=False,
        )
        .order_by("-sent_at", "-pk")
        .values_list("pk", "sent_at", "text", "chat__kind")[:LATEST_READ]
    )
    telling = [
        (pk, sent_at, text)
        for pk, sent_at, text, kind in sorted(rows, key=lambda row: row[3] != ChatKind.DIRECT)
        if len(set(_TELLING_WORD.findall(fold_text(text or "")))) >= TELLING_WORDS
        and not suspicious_text(text or "")
    ]
    return telling[0] if telling else None


def _display_name(*, user: User, person_ids: Sequence[int]) -> str:
    names = list(
        Person.objects.filter(user=user, pk__in=list(person_ids))
        .order_by("pk")
        .values_list("display_name", flat=True)
    )
    return next((n for n in names if re.search(r"[^\W\d_]", n)), "")
