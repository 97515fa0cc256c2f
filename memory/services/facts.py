"""Person facts: assembled from the stored message claims, kinship and the ``extract`` model's
claims (``facts_assemble``, ``facts_rebuild``); whether a change can alter them
(``facts_touched``, ``facts_inputs_signature``); a fact the user rejects."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from claire.accounts.models import User
from claire.errors import NotFound
from conversations.models import (
    ChatKind,
    ChatParticipant,
    IdentityKind,
    Message,
    MessageKind,
    Person,
    PersonIdentity,
)
from memory.extract import FactClaim, fact_claims, nationality_claims
from memory.kinship import (
    KINSHIP_VOCABULARY,
    KinMessage,
    addressed_relation,
    kin_message_fields,
    kinship_claims,
    relation_of_contact_name,
    signed_relation,
)
from memory.models import (
    SINGLE_VALUED_FACT_KINDS,
    FactKind,
    FactOrigin,
    MemoryPolicy,
    MessageClaim,
    MessageClaimSource,
    PersonFact,
    PersonFactRejection,
    PersonFactSource,
    RefinedFactClaim,
)
from memory.services.claims import _FACT_VOCABULARY, message_claims_rebuild
from memory.services.fact_book import _FactBook, _facts_write
from memory.services.people import PeopleDirectory
from retrieval.lexicon import fold_text

logger = logging.getLogger(__name__)


def facts_touched(*, user: User, changed_ids: Sequence[int], deleted_ids: Sequence[int]) -> bool:
    """Whether these messages (created or edited, and deleted; called before what the deleted
    ones supported is forgotten) can change the user's facts: one states a fact or shows
    kinship (the rules find a claim in it), one was a fact's source or was read by the
    ``extract`` model, or one is from (or, the user's, to) someone saved under a relation
    word, whose first message is a kinship fact's source."""
    if not changed_ids and not deleted_ids:
        return False
    touched = [*changed_ids, *deleted_ids]
    # A reply that arrived before the message it answers is linked to it now.
    readers = (
        Message.objects.filter(user=user, deleted_at__isnull=True, kind=MessageKind.TEXT)
        .filter(Q(pk__in=list(changed_ids)) | Q(reply_to_id__in=touched))
        .filter(Q(text__iregex=_FACT_VOCABULARY) | Q(text__iregex=KINSHIP_VOCABULARY))
        .values_list("text", "is_from_self", "chat__kind")
    )
    for text, is_from_self, chat_kind in readers:
        is_direct = chat_kind == ChatKind.DIRECT
        if (
            fact_claims(text, is_from_self=is_from_self, is_direct=is_direct)
            or nationality_claims(text)
            or addressed_relation(text) is not None
            or signed_relation(text) is not None
        ):
            return True
    if PersonFactSource.objects.filter(fact__user=user, message_id__in=touched).exists():
        return True
    if RefinedFactClaim.objects.filter(
        refinement__user=user, refinement__message_id__in=touched
    ).exists():
        return True
    senders = Message.objects.filter(user=user, pk__in=touched).values("sender_person_id")
    self_chats = Message.objects.filter(user=user, pk__in=touched, is_from_self=True).values(
        "chat_id"
    )
    people = set(
        ChatParticipant.objects.filter(
            chat__user=user, chat__kind=ChatKind.DIRECT, chat_id__in=self_chats
        ).values_list("person_id", flat=True)
    ) | set(Person.objects.filter(user=user, pk__in=senders).values_list("pk", flat=True))
    names = [
        *Person.objects.filter(user=user, pk__in=people).values_list("display_name", flat=True),
        *PersonIdentity.objects.filter(
            user=user, person_id__in=people, kind=IdentityKind.NAME
        ).values_list("value", flat=True),
    ]
    return any(relation_of_contact_name(name or "") is not None for name in names)


_FACT_INPUTS_SQL = """
    SELECT md5(concat_ws('|',
        (SELECT string_agg(id || ':' || display_name, ',' ORDER BY id)
         FROM conversations_person WHERE user_id = %(user)s),
        (SELECT string_agg(person_id || ':' || value, ',' ORDER BY id)
         FROM conversations_personidentity WHERE user_id = %(user)s AND kind = %(name_kind)s),
        (SELECT string_agg(id || ':' || kind || ':' || is_excluded_from_ai || ':' || title, ','
                           ORDER BY id)
         FROM conversations_chat WHERE user_id = %(user)s),
        (SELECT string_agg(cp.chat_id || ':' || cp.person_id, ',' ORDER BY cp.id)
         FROM conversations_chatparticipant cp JOIN conversations_chat c ON c.id = cp.chat_id
         WHERE c.user_id = %(user)s),
        (SELECT string_agg(id::text, ',' ORDER BY id)
         FROM memory_personfactrejection WHERE user_id = %(user)s),
        (SELECT persist_sensitive_facts || ':' || coalesce(sensitive_retention_days, 0)
         FROM memory_memorypolicy WHERE user_id = %(user)s)
    ))
"""


# Part of ``facts_inputs_signature``: a new version of the claim rules (or their first use)
# reads every message's claims again at the next job run.
MESSAGE_CLAIMS_VERSION = "claims-3"


def facts_inputs_signature(*, user: User, today: date) -> str:
    """A digest of what facts read besides the messages: the user's people and their saved
    names, chats (kind, title, AI switch) and members, rejections and memory policy (and the
    day, when sensitive facts expire). Facts need deriving again when it changes."""
    with connection.cursor() as cursor:
        cursor.execute(_FACT_INPUTS_SQL, {"user": user.pk, "name_kind": IdentityKind.NAME})
        (digest,) = cursor.fetchone()
    policy = MemoryPolicy.objects.filter(user=user).first()
    if policy and policy.persist_sensitive_facts and policy.sensitive_retention_days:
        digest = f"{digest}:{today.isoformat()}"
    return f"{digest}:{MESSAGE_CLAIMS_VERSION}"


@transaction.atomic
def facts_rebuild(*, user: User) -> int:
    """Derive the user's person facts again from their live messages: every message's claims
    read again (``message_claims_rebuild``), then ``facts_assemble``. Returns the number of
    facts."""
    message_claims_rebuild(user=user)
    return facts_assemble(user=user)


@dataclass(frozen=True)
class _ClaimRow:
    source: str
    subject: str
    kind: str
    value: str
    previous: str
    related_to_sender: bool
    message: KinMessage


def _claim_rows(*, user: User) -> Iterator[_ClaimRow]:
    """The stored claims of the user's live text messages, in send-time order (each
    message's in the order the rules gave them), with what resolving them needs."""
    rows = (
        MessageClaim.objects.filter(
            user=user, message__deleted_at__isnull=True, message__kind=MessageKind.TEXT
        )
        # Trips and what people say of themselves are read by answers, not by facts.
        .exclude(source__in=[MessageClaimSource.TRAVEL, MessageClaimSource.SELF])
        .order_by("message__sent_at", "message_id", "position")
        .values_list(
            "source",
            "subject",
            "kind",
            "value",
            "previous",
            "related_to_sender",
            "message__chat__is_excluded_from_ai",
            *kin_message_fields("message__"),
        )
    )
    for source, subject, kind, value, previous, related, is_excluded, *fields in rows.iterator(
        chunk_size=2000
    ):
        is_kin = source in (MessageClaimSource.ADDRESSED, MessageClaimSource.SIGNED)
        if is_kin and is_excluded:
            continue
        message = KinMessage.of(
            fields,
            addressed=value if source == MessageClaimSource.ADDRESSED else None,
            signed=value if source == MessageClaimSource.SIGNED else None,
        )
        yield _ClaimRow(source, subject, kind, value, previous, related, message)


def _kin_messages_of(rows: Sequence[_ClaimRow]) -> list[KinMessage]:
    """The messages with relation words, one each (its addressed and signed words joined),
    oldest first."""
    by_message: dict[int, KinMessage] = {}
    for row in rows:
        message = row.message
        seen = by_message.get(message.message_id)
        if seen is not None:
            message = dataclasses.replace(
                seen,
                addressed=seen.addressed or message.addressed,
                signed=seen.signed or message.signed,
            )
        by_message[message.message_id] = message
    return list(by_message.values())


@transaction.atomic
def facts_assemble(*, user: User) -> int:
    """Derive the user's person facts from the stored message claims in send-time order (so
    supersession follows when things were said, never when they were imported), resolving
    who each is about with the current people and chats. Sensitive attributes are kept only
    when the user's ``MemoryPolicy`` allows it. Only the facts of people whose facts changed
    are written. Returns the number of facts."""
    policy = MemoryPolicy.objects.filter(user=user).first()
    keep_sensitive = bool(policy and policy.persist_sensitive_facts)
    # Sensitive facts older than the policy's retention are not kept.
    sensitive_since = (
        timezone.now() - timedelta(days=policy.sensitive_retention_days)
        if policy and policy.sensitive_retention_days
        else None
    )
    rejected = set(
        PersonFactRejection.objects.filter(user=user).values_list(
            "person_id", "kind", "folded_value"
        )
    )
    counterparts: dict[int, int] = {}
    for chat_id, person_id in ChatParticipant.objects.filter(
        chat__user=user, chat__kind=ChatKind.DIRECT
    ).values_list("chat_id", "person_id"):
        counterparts.setdefault(chat_id, person_id)
    people = PeopleDirectory(user=user)

    book = _FactBook()
    kin_rows: list[_ClaimRow] = []
    for row in _claim_rows(user=user):
        message = row.message
        if row.source in (MessageClaimSource.ADDRESSED, MessageClaimSource.SIGNED):
            kin_rows.append(row)
            continue
        sender_id = message.sender_id
        if row.source == MessageClaimSource.NATIONALITY:
            is_retained = sensitive_since is None or message.sent_at >= sensitive_since
            if not (
                keep_sensitive
                and is_retained
                and not message.is_from_self
                and sender_id is not None
            ):
                continue
            if (sender_id, FactKind.NATIONALITY.value, fold_text(row.value)) in rejected:
                continue
            book.add(
                person_id=sender_id,
                kind=FactKind.NATIONALITY,
                value=row.value,
                message_id=message.message_id,
                sent_at=message.sent_at,
                is_sensitive=True,
            )
            continue
        claim = FactClaim(
            row.subject, row.kind, row.value, row.previous, related_to_sender=row.related_to_sender
        )
        subject: int | None
        if claim.subject == "sender":
            subject = sender_id
        elif claim.subject == "counterpart":
            subject = counterparts.get(message.chat_id)
        else:
            subject = people.by_claim(claim, chat_id=message.chat_id)
        if subject is None:
            continue
        # A relationship to the user has no related person (the user is not a Person).
        related = sender_id if claim.related_to_sender else None
        if claim.related_to_sender and related is None:
            continue
        if (subject, claim.kind, fold_text(claim.value)) in rejected:
            continue
        book.add(
            person_id=subject,
            kind=claim.kind,
            value=claim.value,
            message_id=message.message_id,
            sent_at=message.sent_at,
            related_person_id=related,
            previous=claim.previous,
        )

    # Relationships to the user shown by contact names, forms of address and signatures.
    for kin in kinship_claims(user=user, messages=_kin_messages_of(kin_rows)):
        if (kin.person_id, FactKind.RELATIONSHIP.value, fold_text(kin.relation)) in rejected:
            continue
        book.add(
            person_id=kin.person_id,
            kind=FactKind.RELATIONSHIP,
            value=kin.relation,
            message_id=kin.message_id,
            sent_at=kin.sent_at,
            basis=kin.basis,
        )

    _model_claims_add(book=book, user=user, rejected=rejected)
    written = _facts_write(user=user, drafts=book.drafts)
    logger.info(
        "memory.facts_derived",
        extra={"user_id": user.pk, "facts": len(book.drafts), "writes": written},
    )
    return len(book.drafts)


def _model_claims_add(*, book: _FactBook, user: User, rejected: set[tuple[int, str, str]]) -> None:
    """Fold in what the ``extract`` model read (``memory.refine``), never over the
    rules: a single-valued kind the rules know for a person is theirs alone, and a value the
    rules found is not repeated. Model facts supersede each other by send time like any."""
    rule_slots = {(draft.person_id, draft.kind) for draft in book.drafts}
    rule_values = {
        (draft.person_id, draft.kind, fold_text(draft.value), draft.related_person_id)
        for draft in book.drafts
    }
    claims = (
        RefinedFactClaim.objects.filter(
            refinement__user=user,
            refinement__message__deleted_at__isnull=True,
            refinement__message__chat__is_excluded_from_ai=False,
        )
        .order_by("refinement__message__sent_at", "refinement__message_id", "pk")
        .values_list(
            "person_id",
            "kind",
            "value",
            "previous",
            "related_person_id",
            "refinement__message_id",
            "refinement__message__sent_at",
        )
    )
    for person_id, kind, value, previous, related_id, message_id, sent_at in claims:
        if kind in SINGLE_VALUED_FACT_KINDS and (person_id, kind) in rule_slots:
            continue
        if (person_id, kind, fold_text(value), related_id) in rule_values:
            continue
        if (person_id, kind, fold_text(value)) in rejected:
            continue
        book.add(
            person_id=person_id,
            kind=kind,
            value=value,
            message_id=message_id,
            sent_at=sent_at,
            related_person_id=related_id,
            previous=previous,
            origin=FactOrigin.MODEL,
        )


def person_fact_reject(*, user: User, fact_id: int) -> None:
    """The user corrects or deletes a fact: it is removed now and not derived again from the
    same wording (a later message saying something else still counts). ``NotFound`` for a
    fact that is not the user's."""
    with transaction.atomic():
        fact = PersonFact.objects.select_for_update().filter(user=user, pk=fact_id).first()
        if fact is None:
            raise NotFound(message="Fact not found.")
        PersonFactRejection.objects.get_or_create(
            user=user, person_id=fact.person_id, kind=fact.kind, folded_value=fold_text(fact.value)
        )
        # What this fact superseded becomes current again.
        PersonFact.objects.filter(user=user, superseded_by=fact).update(superseded_by=None)
        fact.delete()
    logger.info("memory.fact_rejected", extra={"user_id": user.pk, "fact_id": fact_id})
