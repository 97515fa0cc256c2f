"""SQL shared by the services: table names and the one definition of an eligible message.

Eligibility is written once, here, and used by ingestion receivers, seeding jobs and the
offline recount alike, so that the counters and the recount can never disagree on it.
"""

from __future__ import annotations

from conversations.models import Chat, Message, MessageKind
from indexing.models import IndexJob, IndexProgress, IndexVersion, MessageEmbedding

ENTRY_TABLE = MessageEmbedding._meta.db_table
PROGRESS_TABLE = IndexProgress._meta.db_table
JOB_TABLE = IndexJob._meta.db_table
VERSION_TABLE = IndexVersion._meta.db_table
MESSAGE_TABLE = Message._meta.db_table
CHAT_TABLE = Chat._meta.db_table

# ``m`` is the message and ``c`` its chat. Whitespace-only text has nothing to embed.
ELIGIBLE_MESSAGE_SQL = (
    "m.deleted_at IS NULL "
    f"AND m.kind = '{MessageKind.TEXT.value}' "
    "AND m.text ~ '[^[:space:]]' "
    "AND NOT c.is_excluded_from_ai"
)

# Single-bigint advisory lock key (a key space separate from the two-int4 provider slots).
# Held shared by every transaction that maintains entries for "the maintained versions", and
# exclusively by version changes, so a version never appears or stops being maintained halfway
# through an ingest transaction.
VERSION_SET_LOCK_KEY = 0x1D30_5E75_0001

# Two-int4 advisory key (namespace, version id) held while a version's HNSW index is built.
SEARCH_INDEX_BUILD_LOCK_NAMESPACE = 0x1D31_0001

# Two-int4 advisory key (namespace, user id) held while one of a user's own HNSW indexes is built.
USER_SEARCH_INDEX_BUILD_LOCK_NAMESPACE = 0x1D31_0002

_NAMES = {
    "entry": ENTRY_TABLE,
    "progress": PROGRESS_TABLE,
    "job": JOB_TABLE,
    "version": VERSION_TABLE,
    "message": MESSAGE_TABLE,
    "chat": CHAT_TABLE,
    "eligible": ELIGIBLE_MESSAGE_SQL,
}


def sql(template: str, **fragments: str) -> str:
    """A query from a template whose ``{entry}``, ``{message}``... name this module's tables and
    whose other placeholders are SQL fragments built in code (never input). Values always
    travel as query parameters."""
    return template.format_map({**_NAMES, **fragments})
