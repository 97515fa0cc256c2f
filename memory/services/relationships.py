"""Relationship counters (``PersonChatDay``): moved inside each ingest transaction, recounted
from the live messages after a merge or to repair."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.db import transaction

from claire.accounts.models import User
from conversations.models import Message
from memory.metrics import counter_deltas, counters_add
from memory.models import PersonChatDay

logger = logging.getLogger(__name__)


def relationship_counters_apply(
    *, user: User, created_ids: Sequence[int], deleted_ids: Sequence[int]
) -> None:
    """Move the relationship counters for messages that just arrived or were just deleted.

    Runs inside the ingest transaction (the counters commit or roll back with the messages).
    Edits change no counter: a message's sender, chat and send time never change.
    """
    deltas = counter_deltas(user=user, message_ids=created_ids, sign=1)
    for key, delta in counter_deltas(user=user, message_ids=deleted_ids, sign=-1).items():
        deltas[key].received += delta.received
        deltas[key].sent += delta.sent
    counters_add(user_id=user.pk, deltas=deltas)


@transaction.atomic
def relationship_counters_rebuild(*, user: User) -> int:
    """Recount the user's counters from their live messages (after a merge, or to repair).
    Returns the number of counter rows."""
    PersonChatDay.objects.filter(user=user).delete()
    live_ids = list(
        Message.objects.filter(user=user, deleted_at__isnull=True).values_list("pk", flat=True)
    )
    deltas = counter_deltas(user=user, message_ids=live_ids, sign=1)
    counters_add(user_id=user.pk, deltas=deltas)
    rows = PersonChatDay.objects.filter(user=user).count()
    logger.info("memory.counters_rebuilt", extra={"user_id": user.pk, "rows": rows})
    return rows
