"""The receiver of a user's deletion (conversation writes call ``indexing.hooks``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from indexing import services


def on_user_deleted(sender: Any, *, instance: Any, **kwargs: Any) -> None:
    """A deleted user's own indexes go once the deletion commits (then concurrently, without
    locking writers out of the tables)."""
    user_id = int(instance.pk)
    transaction.on_commit(lambda: services.user_indexes_drop(user_id=user_id))
