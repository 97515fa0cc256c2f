"""Message claims (``MessageClaim``): what the rules read in each message, kept per message by
ingest, so facts are assembled without reading every message again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from claire.accounts.models import User
from conversations.models import ChatKind, Message, MessageKind
from memory.away import TRAVEL_VOCABULARY, travel_kind
from memory.extract import RELATIONS, fact_claims, nationality_claims
from memory.kinship import KINSHIP_VOCABULARY, addressed_relation, signed_relation
from memory.models import MessageClaim, MessageClaimSource
from memory.selfdescribed import SELF_VOCABULARY, self_statements

# A cheap database-side filter: a message matching none of these states no fact
# (``memory.extract.fact_claims`` reads the rest).
_FACT_VOCABULARY = (
    r"from|live|based|moved|bought a|offer|work|run an? |meet|i'm |i am |made it to|arrived in"
    r"|settled in|engaged|proposed to|said yes"
    r"|(my|our|your) (" + "|".join(RELATIONS) + ") "
)


def _message_claims_read(*, user: User, message_ids: Sequence[int] | None) -> list[MessageClaim]:
    """The claims the rules read from the user's live text messages (``message_ids`` only,
    when given): those matching the fact vocabulary give ``fact_claims`` and
    ``nationality_claims``, those matching the kinship vocabulary their relation words, and
    the user's own messages of leaving, arriving and coming back their trips
    (``away.travel_kind``)."""
    live = Message.objects.filter(user=user, deleted_at__isnull=True, kind=MessageKind.TEXT)
    if message_ids is not None:
        live = live.filter(pk__in=list(message_ids))
    found: dict[int, list[dict[str, Any]]] = {}
    for message_id, text, is_from_self, chat_kind in live.filter(
        text__iregex=_FACT_VOCABULARY
    ).values_list("pk", "text", "is_from_self", "chat__kind"):
        is_direct = chat_kind == ChatKind.DIRECT
        claims = found.setdefault(message_id, [])
        claims.extend(
            {
                "source": MessageClaimSource.STATEMENT,
                "subject": claim.subject,
                "kind": claim.kind,
                "value": claim.value,
                "previous": claim.previous,
                "related_to_sender": claim.related_to_sender,
            }
            for claim in fact_claims(text, is_from_self=is_from_self, is_direct=is_direct)
        )
        claims.extend(
            {"source": MessageClaimSource.NATIONALITY, "value": nationality}
            for nationality in nationality_claims(text)
        )
    for message_id, text in live.filter(
        is_from_self=False, sender_person__isnull=False, text__iregex=SELF_VOCABULARY
    ).values_list("pk", "text"):
        found.setdefault(message_id, []).extend(
            {
                "source": MessageClaimSource.SELF,
                "kind": statement.kind,
                "value": statement.value,
                "subject": statement.place,
            }
            for statement in self_statements(text)
        )
    for message_id, text in live.filter(text__iregex=KINSHIP_VOCABULARY).values_list("pk", "text"):
        for source, relation in (
            (MessageClaimSource.ADDRESSED, addressed_relation(text)),
            (MessageClaimSource.SIGNED, signed_relation(text)),
        ):
            if relation is not None:
                found.setdefault(message_id, []).append({"source": source, "value": relation})
    for message_id, text in live.filter(
        is_from_self=True, text__iregex=TRAVEL_VOCABULARY
    ).values_list("pk", "text"):
        travel = travel_kind(text)
        if travel:
            found.setdefault(message_id, []).append(
                {"source": MessageClaimSource.TRAVEL, "value": travel}
            )
    return [
        MessageClaim(user=user, message_id=message_id, position=position, **fields)
        for message_id, claims in sorted(found.items())
        for position, fields in enumerate(claims)
    ]


def message_claims_refresh(*, user: User, message_ids: Sequence[int]) -> None:
    """Read the claims of these messages again (created, edited or deleted ones), inside the
    ingest transaction: what ``facts_assemble`` reads stays what the messages say."""
    if not message_ids:
        return
    MessageClaim.objects.filter(user=user, message_id__in=list(message_ids)).delete()
    MessageClaim.objects.bulk_create(_message_claims_read(user=user, message_ids=message_ids))


def message_claims_rebuild(*, user: User) -> None:
    """Read the claims of every message of the user again."""
    MessageClaim.objects.filter(user=user).delete()
    MessageClaim.objects.bulk_create(
        _message_claims_read(user=user, message_ids=None), batch_size=2000
    )
