"""Merges and splits of people (``PersonMerge``), by the user or derived by memory; reads group
people by the merge."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from http import HTTPStatus

from django.db import transaction

from claire.accounts.models import User
from claire.errors import CodedError, NotFound
from conversations.models import Person
from memory.models import PersonMerge

logger = logging.getLogger(__name__)


def person_merge(
    *,
    user: User,
    kept_person_id: int,
    merged_person_id: int,
    reason: str = "",
    confidence: float | None = None,
    evidence_message_ids: Sequence[int] = (),
) -> PersonMerge:
    """Record that ``merged_person_id`` is the same human as ``kept_person_id`` (a merge
    memory derives carries its ``confidence`` and the messages it read).

    Both must be the user's people (otherwise ``NotFound``, as for a missing id: a merge never
    crosses users). Merging into someone already merged goes to the person they were merged
    into; people already merged into ``merged_person_id`` follow it. Relationship counters are
    not touched: reads group by the merge."""
    if kept_person_id == merged_person_id:
        raise CodedError(code="invalid_merge", message="A person cannot be merged into themselves.")
    with transaction.atomic():
        people = {
            person.pk: person
            for person in Person.objects.select_for_update()
            .filter(user=user, pk__in=[kept_person_id, merged_person_id])
            .order_by("pk")
        }
        if len(people) != 2:
            raise NotFound(message="Person not found.")
        active = PersonMerge.objects.filter(user=user, split_at__isnull=True)
        holder = active.filter(merged_person_id=kept_person_id).first()
        kept_id = holder.kept_person_id if holder else kept_person_id
        if kept_id == merged_person_id:
            raise CodedError(code="invalid_merge", message="These people are already merged.")
        existing = active.filter(merged_person_id=merged_person_id).first()
        if existing is not None:
            if existing.kept_person_id == kept_id:
                return existing
            raise CodedError(
                code="already_merged",
                message="This person is merged into someone else; split that merge first.",
                status_code=HTTPStatus.CONFLICT,
            )
        active.filter(kept_person_id=merged_person_id).update(kept_person_id=kept_id)
        merge = PersonMerge.objects.create(
            user=user,
            kept_person_id=kept_id,
            merged_person_id=merged_person_id,
            reason=reason[:255],
            confidence=confidence,
            evidence_message_ids=list(evidence_message_ids),
        )
    logger.info(
        "memory.person_merged",
        extra={"user_id": user.pk, "merge_id": merge.pk, "kept_person_id": kept_id},
    )
    return merge


def person_split(*, user: User, merge_id: int, now: datetime) -> PersonMerge:
    """Undo a merge: the two people are read separately again. Idempotent."""
    with transaction.atomic():
        merge = PersonMerge.objects.select_for_update().filter(user=user, pk=merge_id).first()
        if merge is None:
            raise NotFound(message="Merge not found.")
        if merge.split_at is None:
            merge.split_at = now
            merge.save(update_fields=["split_at"])
    logger.info("memory.person_split", extra={"user_id": user.pk, "merge_id": merge.pk})
    return merge
