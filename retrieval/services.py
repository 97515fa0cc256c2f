"""Writes of the retrieval app."""

from __future__ import annotations

from django.db import transaction

from claire.accounts.models import User
from retrieval.evidence import EvidencePack
from retrieval.models import EvidencePackRecord, EvidenceSourceRecord


@transaction.atomic
def evidence_pack_save(*, user: User, pack: EvidencePack, route: str) -> EvidencePackRecord:
    """Store ``pack``'s sources under a new opaque id; two queries whatever the pack size."""
    record = EvidencePackRecord.objects.create(
        user=user,
        route=route,
        source_count=len(pack.sources),
        token_estimate=pack.token_estimate,
    )
    EvidenceSourceRecord.objects.bulk_create(
        [
            EvidenceSourceRecord(
                pack=record,
                user=user,
                source_id=source.source_id,
                position=position,
                primary_message_id=source.primary_message_id,
                message_ids=list(source.message_ids),
                chat_id=source.chat_id,
                chat_title=source.chat_title[:512],
                platform=source.platform,
                sender_name=source.sender_name[:255],
                sent_at=source.sent_at,
            )
            for position, source in enumerate(pack.sources)
        ]
    )
    return record
