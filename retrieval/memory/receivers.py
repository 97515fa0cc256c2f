"""Receivers of conversation signals. They run inside the ingest transaction: counters move
with the data; extraction of plans and loops is requested once the data commits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from claire.accounts.models import User
from retrieval.memory import services


def on_messages_changed(
    sender: Any,
    *,
    user_id: int,
    created_ids: Sequence[int] = (),
    changed_ids: Sequence[int] = (),
    deleted_ids: Sequence[int] = (),
    **kwargs: Any,
) -> None:
    user = User.objects.get(pk=user_id)
    services.relationship_counters_apply(
        user=user, created_ids=created_ids, deleted_ids=deleted_ids
    )
