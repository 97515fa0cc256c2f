"""Reads of the indexing app, scoped by user.

Retrieval reads the index through three functions:

* ``active_index_version()`` — the single version searches use (or None before the first).
* ``index_status_for_user(user=...)`` — counters from one progress row, no COUNT(*): safe to
  call on every answer request.
* ``vector_search(user=..., query_vector=..., ...)`` — nearest messages in the active version.
  The query vector must come from the version's own model: embed the question with
  ``claire.ai.embeddings.embed_many([question], profile=version.profile)`` and check that
  the result's dimensions equal ``version.dimensions``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import QuerySet

from claire.accounts.models import User
from indexing.models import (
    MAINTAINED_VERSION_STATES,
    OPEN_JOB_STATES,
    EntryState,
    IndexJob,
    IndexProgress,
    IndexVersion,
    IndexVersionState,
    JobState,
    MessageEmbedding,
)
from indexing.search_indexes import search_index_expression, user_search_index_expression
from indexing.sql import sql


def active_index_version() -> IndexVersion | None:
    return IndexVersion.objects.filter(state=IndexVersionState.ACTIVE).first()


@dataclass(frozen=True)
class UserSearchVersion:
    """The active version and the vector search plan it gives one user."""

    version: IndexVersion
    plan: SearchPlan


def active_search_version(*, user: User) -> UserSearchVersion | None:
    """``active_index_version()`` and the plan ``vector_search`` would choose for ``user``
    (from the user's progress row), in one query instead of two: the search hot path needs
    both."""
    rows = list(
        IndexVersion.objects.raw(
            sql(
                """
                SELECT v.*, p.embedded AS user_embedded,
                       p.search_index_built_at AS user_index_built_at
                FROM {version} v
                LEFT JOIN {progress} p ON p.index_version_id = v.id AND p.user_id = %s
                WHERE v.state = %s
                ORDER BY v.id
                LIMIT 1
                """
            ),
            [user.pk, IndexVersionState.ACTIVE.value],
        )
    )
    if not rows:
        return None
    version = rows[0]
    embedded = getattr(version, "user_embedded", None)
    built_at = getattr(version, "user_index_built_at", None)
    return UserSearchVersion(
        version=version,
        plan=_plan_for(version, embedded=embedded or 0, has_user_index=built_at is not None),
    )


def maintained_index_versions() -> list[IndexVersion]:
    return list(IndexVersion.objects.filter(state__in=MAINTAINED_VERSION_STATES).order_by("pk"))


class IndexState(StrEnum):
    NOT_STARTED = "not_started"  # no progress yet for this user in this version
    BUILDING = "building"  # entries still pending (or pre-existing messages not seeded yet)
    READY = "ready"  # every eligible message embedded
    PARTIAL = "partial"  # nothing pending, some messages failed permanently


@dataclass(frozen=True)
class IndexStatus:
    """A user's index in one version, from counters kept by the writes themselves."""

    version: int
    provider: str
    model: str
    dimensions: int
    version_state: str
    state: IndexState
    eligible: int
    embedded: int
    failed: int
    # The cause when the user's latest job for this version failed (for example a worker
    # whose AI configuration lacks the version's profile); nothing moves until it is fixed.
    job_error: str = ""

    @property
    def pending(self) -> int:
        return max(self.eligible - self.embedded - self.failed, 0)

    @property
    def is_searchable(self) -> bool:
        return self.embedded > 0


def _status_from(
    version: IndexVersion, progress: IndexProgress | None, *, job_error: str = ""
) -> IndexStatus:
    if progress is None:
        state = IndexState.NOT_STARTED
        eligible = embedded = failed = 0
    else:
        eligible, embedded, failed = progress.eligible, progress.embedded, progress.failed
        if not progress.is_complete:
            state = IndexState.BUILDING
        elif failed:
            state = IndexState.PARTIAL
        else:
            state = IndexState.READY
    return IndexStatus(
        version=version.version,
        provider=version.provider,
        model=version.model,
        dimensions=version.dimensions,
        version_state=version.state,
        state=state,
        eligible=eligible,
        embedded=embedded,
        failed=failed,
        job_error=job_error if state != IndexState.READY else "",
    )


def index_status_for_user(*, user: User) -> IndexStatus | None:
    """The user's status in the active version (None when no version exists yet). Two indexed
    single-row reads; never counts messages or embeddings."""
    version = active_index_version()
    if version is None:
        return None
    progress = IndexProgress.objects.filter(user=user, index_version=version).first()
    return _status_from(version, progress)


def index_statuses_for_user(*, user: User) -> list[IndexStatus]:
    """The user's status in every maintained version: the active one first, then building."""
    versions = maintained_index_versions()
    progress = {
        row.index_version_id: row
        for row in IndexProgress.objects.filter(user=user, index_version__in=versions)
    }
    ordered = sorted(versions, key=lambda v: (v.state != IndexVersionState.ACTIVE, v.version))
    errors = failed_job_errors(user_ids=[user.pk], index_versions=versions)
    return [
        _status_from(
            version, progress.get(version.pk), job_error=errors.get((user.pk, version.pk), "")
        )
        for version in ordered
    ]


def failed_job_errors(
    *, user_ids: Sequence[int], index_versions: Sequence[IndexVersion]
) -> dict[tuple[int, int], str]:
    """``last_error`` of each (user, version) whose latest job failed."""
    latest = (
        IndexJob.objects.filter(user_id__in=user_ids, index_version__in=index_versions)
        .order_by("user_id", "index_version_id", "-pk")
        .distinct("user_id", "index_version_id")
        .values_list("user_id", "index_version_id", "state", "last_error")
    )
    return {
        (user_id, version_id): last_error
        for user_id, version_id, state, last_error in latest
        if state == JobState.FAILED
    }


def embedding_failures_for_user(
    *, user: User, index_version: IndexVersion | None = None
) -> QuerySet[MessageEmbedding]:
    """The user's permanently failed entries, newest first (by id, for keyset pages)."""
    queryset = MessageEmbedding.objects.filter(user=user, state=EntryState.FAILED)
    if index_version is not None:
        queryset = queryset.filter(index_version=index_version)
    return queryset.select_related("index_version").order_by("-pk")


def index_jobs_for_user(*, user: User) -> QuerySet[IndexJob]:
    return IndexJob.objects.filter(user=user).select_related("index_version").order_by("-pk")


@dataclass(frozen=True)
class PendingEntry:
    entry_id: int
    message_id: int
    entry_hash: str
    message_hash: str
    text: str


def pending_entries_for_job(
    *, user_id: int, index_version_id: int, after_message_id: int, limit: int
) -> list[PendingEntry]:
    """The next pending entries of one user and version, in message order, with the message's
    current text (used only in memory, for the provider request)."""
    with connection.cursor() as cursor:
        cursor.execute(
            sql("""
            SELECT e.id, e.message_id, e.content_hash, m.content_hash, m.text
            FROM {entry} e JOIN {message} m ON m.id = e.message_id
            WHERE e.index_version_id = %s AND e.user_id = %s AND e.state = %s
              AND e.message_id > %s
            ORDER BY e.message_id
            LIMIT %s
            """),
            [index_version_id, user_id, EntryState.PENDING.value, after_message_id, limit],
        )
        return [
            PendingEntry(
                entry_id=int(row[0]),
                message_id=int(row[1]),
                entry_hash=str(row[2]),
                message_hash=str(row[3]),
                text=str(row[4]),
            )
            for row in cursor.fetchall()
        ]


def has_pending_entries(*, user_id: int, index_version_id: int) -> bool:
    return MessageEmbedding.objects.filter(
        user_id=user_id, index_version_id=index_version_id, state=EntryState.PENDING
    ).exists()


# --- vector search ----------------------------------------------------------------------------


@dataclass(frozen=True)
class VectorHit:
    message_id: int
    distance: float  # cosine distance: 0 identical, 2 opposite

    @property
    def similarity(self) -> float:
        return 1.0 - self.distance


class SearchPlan(StrEnum):
    EXACT = "exact"
    HNSW = "hnsw"  # the version's index, filtered to the user
    USER_HNSW = "user_hnsw"  # the user's own index in the version


def vector_search_plan(
    *, embedded: int, has_user_index: bool = False, has_version_index: bool = True
) -> SearchPlan:
    """Exact scans are faster and perfectly accurate for a user's few thousand vectors; above
    the measured threshold (docs/INDEXING.md) the user's own graph, then the version's."""
    if embedded <= settings.INDEXING_EXACT_SEARCH_MAX_VECTORS:
        return SearchPlan.EXACT
    if has_user_index:
        return SearchPlan.USER_HNSW
    if has_version_index:
        return SearchPlan.HNSW
    return SearchPlan.EXACT


def _plan_for(version: IndexVersion, *, embedded: int, has_user_index: bool) -> SearchPlan:
    """The default plan: exact until the version's index exists, then by the user's progress."""
    if not version.has_search_index:
        return SearchPlan.EXACT
    return vector_search_plan(embedded=embedded, has_user_index=has_user_index)


def _vector_literal(values: Sequence[float]) -> str:
    return "[" + ",".join(f"{float(value):.7g}" for value in values) + "]"


def vector_search(
    *,
    user: User,
    query_vector: Sequence[float],
    limit: int = 50,
    chat_ids: Sequence[int] | None = None,
    time_range: tuple[dt.datetime | None, dt.datetime | None] | None = None,
    index_version: IndexVersion | None = None,
    plan: SearchPlan | None = None,
) -> list[VectorHit]:
    """The user's ``limit`` nearest embedded messages to ``query_vector`` in the active version
    (or ``index_version``), nearest first. Only live, eligible messages have vectors (deletes and
    exclusions remove them in their own transaction), so no join is needed to filter them.

    ``chat_ids`` restricts to those chats (the caller has checked ownership; the user filter
    applies regardless). ``time_range`` is [start, end) on ``sent_at``, either end optional.
    ``plan`` forces a plan; by default the user's progress row decides (``vector_search_plan``:
    exact for few vectors or while the version has no index yet, else the user's own index when
    built, else the version's).
    """
    version = index_version or active_index_version()
    if version is None or limit <= 0:
        return []
    if len(query_vector) != version.dimensions:
        raise ValueError(
            f"query vector has {len(query_vector)} dimensions; version {version.version} "
            f"has {version.dimensions}"
        )
    if chat_ids is not None and not chat_ids:
        return []
    if plan is None:
        if version.has_search_index:
            # Until the version's index exists (its initial backfill is running), every user is
            # searched exactly and no progress row is read.
            progress = IndexProgress.objects.filter(user=user, index_version=version).first()
            plan = _plan_for(
                version,
                embedded=progress.embedded if progress else 0,
                has_user_index=progress is not None and progress.search_index_built_at is not None,
            )
        else:
            plan = SearchPlan.EXACT

    dimensions = int(version.dimensions)
    if plan == SearchPlan.USER_HNSW:
        # Literals, not parameters: the planner matches both against the user's partial index.
        user_condition = f"e.user_id = {int(user.pk)}"
        user_params: list[Any] = []
    else:
        user_condition = "e.user_id = %s"
        user_params = [user.pk]
    conditions = [
        # A literal, not a parameter: the planner matches it against the partial index.
        f"e.index_version_id = {int(version.pk)}",
        user_condition,
        "e.state = %s",
    ]
    params: list[Any] = [*user_params, EntryState.EMBEDDED.value]
    if chat_ids is not None:
        conditions.append("e.chat_id = ANY(%s)")
        params.append([int(chat_id) for chat_id in chat_ids])
    if time_range is not None:
        start, end = time_range
        if start is not None:
            conditions.append("e.sent_at >= %s")
            params.append(start)
        if end is not None:
            conditions.append("e.sent_at < %s")
            params.append(end)
    where = " AND ".join(conditions)
    query = _vector_literal(query_vector)

    if plan == SearchPlan.EXACT:
        # Ordering by the uncast column keeps the planner off the HNSW index: this reads the
        # user's rows through the btree index and sorts them exactly.
        statement = sql(
            """
            SELECT e.message_id, e.embedding <=> %s::vector AS distance
            FROM {entry} e WHERE {where}
            ORDER BY distance, e.message_id LIMIT %s
        """,
            where=where,
        )
        with connection.cursor() as cursor:
            cursor.execute(statement, [query, *params, limit])
            rows = cursor.fetchall()
    else:
        expression = search_index_expression(index_version=version).replace(
            "embedding", "e.embedding"
        )
        if plan == SearchPlan.USER_HNSW:
            # The user's own graph has an expression of its own (same values).
            order_expression = user_search_index_expression(index_version=version).replace(
                "embedding", "e.embedding"
            )
        else:
            order_expression = expression
        # Iterative scans keep walking the graph until enough rows pass the user (and chat,
        # time) filters; relaxed order needs the outer re-sort.
        statement = sql(
            """
            WITH nearest AS MATERIALIZED (
                SELECT e.message_id, {expression} <=> %s::vector({dimensions}) AS distance
                FROM {entry} e WHERE {where}
                ORDER BY {order_expression} <=> %s::vector({dimensions})
                LIMIT %s
            )
            SELECT message_id, distance FROM nearest ORDER BY distance, message_id
        """,
            expression=expression,
            order_expression=order_expression,
            dimensions=str(dimensions),
            where=where,
        )
        if plan == SearchPlan.USER_HNSW:
            ef_search = settings.INDEXING_USER_HNSW_EF_SEARCH
        else:
            ef_search = settings.INDEXING_HNSW_EF_SEARCH
        # One round trip: the settings and the search go as one multi-statement query (the
        # cursor binds parameters client-side), which PostgreSQL runs as one transaction, so
        # the settings are local to it (or to the caller's transaction) and need no BEGIN and
        # COMMIT of their own.
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                "set_config('hnsw.ef_search', %s, true), "
                "set_config('hnsw.max_scan_tuples', %s, true);\n" + statement,
                [
                    str(max(ef_search, limit)),
                    str(settings.INDEXING_HNSW_MAX_SCAN_TUPLES),
                    query,
                    *params,
                    query,
                    limit,
                ],
            )
            cursor.nextset()
            rows = cursor.fetchall()
    return [VectorHit(message_id=int(row[0]), distance=float(row[1])) for row in rows]


def open_index_job(*, user_id: int, index_version_id: int) -> IndexJob | None:
    return IndexJob.objects.filter(
        user_id=user_id, index_version_id=index_version_id, state__in=OPEN_JOB_STATES
    ).first()
