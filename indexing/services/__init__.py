"""Writes of the indexing app, one module per concept (``progress``, ``entries``, ``versions``,
``jobs``, ``batches``); the names below are the app's public write API (``from indexing import
services`` then ``services.index_job_claim(...)``).

Every function that changes entries moves the ``IndexProgress`` counters in the same
transaction, so the counters are always equal to a recount of the entries
(``reconcile_index_progress`` checks exactly that). Locks are taken in one order everywhere:
chats, then entries (by primary key), then progress rows (by version), then the job row.
"""

from indexing.errors import IndexingError
from indexing.services.batches import (
    BatchWrite,
    EntryOutcome,
    FailuresRetry,
    embedding_failures_retry,
    entries_results_write,
    entries_seed_batch,
)
from indexing.services.entries import (
    deltas_bulk,
    entries_insert_eligible,
    entries_sync_for_chat_exclusion,
    entries_sync_for_messages,
    progress_repair,
)
from indexing.services.jobs import (
    index_job_claim,
    index_job_fail,
    index_job_finish,
    index_job_heartbeat,
    index_job_release,
    index_jobs_close_for_version,
    index_jobs_mark_sent,
    index_jobs_recover,
    index_jobs_request,
    job_lease,
    job_touch,
    queued_grace,
)
from indexing.services.progress import (
    ProgressDelta,
    ProgressRecount,
    progress_apply,
    progress_recount,
)
from indexing.services.versions import (
    CutoverBlocker,
    ModelIdentity,
    advisory_lock_if_free,
    cutover_blockers,
    index_cutover,
    index_version_create,
    index_version_retire,
    index_version_search_index_build,
    maintained_version_ids,
    search_index_due,
    user_indexes_drop,
    user_search_index_build,
    user_search_index_due,
    user_search_index_remove,
    users_with_messages,
    version_set_lock_exclusive,
)

__all__ = [
    "BatchWrite",
    "CutoverBlocker",
    "EntryOutcome",
    "FailuresRetry",
    "IndexingError",
    "ModelIdentity",
    "ProgressDelta",
    "ProgressRecount",
    "advisory_lock_if_free",
    "cutover_blockers",
    "deltas_bulk",
    "embedding_failures_retry",
    "entries_insert_eligible",
    "entries_results_write",
    "entries_seed_batch",
    "entries_sync_for_chat_exclusion",
    "entries_sync_for_messages",
    "index_cutover",
    "index_job_claim",
    "index_job_fail",
    "index_job_finish",
    "index_job_heartbeat",
    "index_job_release",
    "index_jobs_close_for_version",
    "index_jobs_mark_sent",
    "index_jobs_recover",
    "index_jobs_request",
    "index_version_create",
    "index_version_retire",
    "index_version_search_index_build",
    "job_lease",
    "job_touch",
    "maintained_version_ids",
    "progress_apply",
    "progress_recount",
    "progress_repair",
    "queued_grace",
    "search_index_due",
    "user_indexes_drop",
    "user_search_index_build",
    "user_search_index_due",
    "user_search_index_remove",
    "users_with_messages",
    "version_set_lock_exclusive",
]
