"""Reads of the retrieval app, always scoped by the owner."""

from __future__ import annotations

import uuid

from claire.accounts.models import User
from claire.errors import NotFound
from retrieval.models import EvidencePackRecord, EvidenceSourceRecord


def evidence_pack_get_for_user(*, user: User, pack_id: uuid.UUID | str) -> EvidencePackRecord:
    try:
        return EvidencePackRecord.objects.get(user=user, pk=uuid.UUID(str(pack_id)))
    except (EvidencePackRecord.DoesNotExist, ValueError):
        raise NotFound(message="Evidence not found.") from None


def evidence_sources_for_pack(
    *, user: User, pack_id: uuid.UUID | str
) -> list[EvidenceSourceRecord]:
    """The sources of one of ``user``'s packs in citation order; ``NotFound`` for another
    user's pack or a malformed id."""
    pack = evidence_pack_get_for_user(user=user, pack_id=pack_id)
    return list(EvidenceSourceRecord.objects.filter(user=user, pack=pack).order_by("position"))
