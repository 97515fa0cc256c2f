"""Signals sent by conversation writes, inside the writing transaction.

Receivers run in that transaction, so what they record (index progress counters, dirty
marks) commits or rolls back with the data; anything slow they must defer with
``transaction.on_commit``.
"""

from django.dispatch import Signal

# kwargs: user_id, created_ids, changed_ids (text changed), deleted_ids — message primary keys.
messages_changed = Signal()

# kwargs: user_id, chat_id, is_excluded.
chat_ai_exclusion_changed = Signal()
