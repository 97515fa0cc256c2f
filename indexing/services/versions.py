"""Index versions: the maintained set, creation for an embedding model, search indexes (shared
and per user), cutover and retirement."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from claire.accounts.models import User
from indexing.errors import IndexingError
from indexing.models import (
    MAINTAINED_VERSION_STATES,
    IndexProgress,
    IndexVersion,
    IndexVersionState,
)
from indexing.search_indexes import (
    search_index_drop,
    search_index_ensure,
    user_search_index_drop,
    user_search_index_ensure,
    user_text_index_drop,
    user_text_index_ensure,
)
from indexing.selectors import failed_job_errors
from indexing.services.jobs import index_jobs_close_for_version
from indexing.sql import (
    SEARCH_INDEX_BUILD_LOCK_NAMESPACE,
    USER_SEARCH_INDEX_BUILD_LOCK_NAMESPACE,
    VERSION_SET_LOCK_KEY,
    sql,
)

logger = logging.getLogger(__name__)

# --- version set ------------------------------------------------------------------------------


def maintained_version_ids() -> list[int]:
    """The building and active versions. Caller is in a transaction; the shared lock held
    until it ends keeps version changes from interleaving with its entry changes."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock_shared(%s)", [VERSION_SET_LOCK_KEY])
    return list(
        IndexVersion.objects.filter(state__in=MAINTAINED_VERSION_STATES)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def version_set_lock_exclusive() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [VERSION_SET_LOCK_KEY])


# --- versions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelIdentity:
    provider: str
    model: str
    dimensions: int


def index_version_create(*, profile: str, identity: ModelIdentity) -> IndexVersion:
    """A new version for ``identity``. It builds in parallel with the active one; the first
    version ever becomes active at once, since nothing else could answer meanwhile. Refused
    when a maintained version already has this identity."""
    with transaction.atomic():
        version_set_lock_exclusive()
        maintained = IndexVersion.objects.filter(state__in=MAINTAINED_VERSION_STATES)
        duplicate = maintained.filter(
            provider=identity.provider, model=identity.model, dimensions=identity.dimensions
        ).first()
        if duplicate is not None:
            raise IndexingError(
                "version_exists",
                f"Version {duplicate.version} already indexes {identity.provider}/"
                f"{identity.model} at {identity.dimensions} dimensions.",
            )
        last = IndexVersion.objects.order_by("-version").values_list("version", flat=True).first()
        has_active = IndexVersion.objects.filter(state=IndexVersionState.ACTIVE).exists()
        now = timezone.now()
        version = IndexVersion.objects.create(
            version=(last or 0) + 1,
            profile=profile,
            provider=identity.provider,
            model=identity.model,
            dimensions=identity.dimensions,
            state=IndexVersionState.BUILDING if has_active else IndexVersionState.ACTIVE,
            activated_at=None if has_active else now,
        )
    logger.info(
        "indexing.version_created",
        extra={
            "index_version": version.version,
            "provider": version.provider,
            "model": version.model,
            "dimensions": version.dimensions,
            "state": version.state,
        },
    )
    return version


@dataclass(frozen=True)
class CutoverBlocker:
    user_id: int
    eligible: int
    embedded: int
    failed: int
    is_seeded: bool
    # Why nothing moves, when the user's latest job for the version failed.
    job_error: str = ""


def cutover_blockers(*, index_version: IndexVersion, limit: int = 100) -> list[CutoverBlocker]:
    """Users whose index in ``index_version`` is not complete: every user with content in the
    active version, and every user with any progress in the new one, must be seeded with no
    pending entries. Reads one progress row per user (an offline check, not a request path)."""
    active = IndexVersion.objects.filter(state=IndexVersionState.ACTIVE).first()
    new_rows = {
        row.user_id: row for row in IndexProgress.objects.filter(index_version=index_version)
    }
    required_users = set(new_rows)
    if active is not None:
        required_users |= set(
            IndexProgress.objects.filter(index_version=active, eligible__gt=0).values_list(
                "user_id", flat=True
            )
        )
    blockers: list[CutoverBlocker] = []
    errors = failed_job_errors(user_ids=sorted(required_users), index_versions=[index_version])
    for user_id in sorted(required_users):
        row = new_rows.get(user_id)
        if row is not None and row.is_complete:
            continue
        blockers.append(
            CutoverBlocker(
                user_id=user_id,
                eligible=row.eligible if row else 0,
                embedded=row.embedded if row else 0,
                failed=row.failed if row else 0,
                is_seeded=row.is_seeded if row else False,
                job_error=errors.get((user_id, index_version.pk), ""),
            )
        )
        if len(blockers) >= limit:
            break
    return blockers


@contextmanager
def advisory_lock_if_free(namespace: int, key: int) -> Iterator[bool]:
    """Hold the session advisory lock (``namespace``, ``key``) for the block when nobody else
    holds it; yields whether it was taken (the block decides what to do when it was not)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [namespace, key])
        row = cursor.fetchone()
        taken = row is not None and bool(row[0])
        try:
            yield taken
        finally:
            if taken:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [namespace, key])


def index_version_search_index_build(*, index_version: IndexVersion) -> bool:
    """Build the version's HNSW index if it has none (concurrently when called outside a
    transaction). Returns False when another process is building it right now."""
    with advisory_lock_if_free(SEARCH_INDEX_BUILD_LOCK_NAMESPACE, int(index_version.pk)) as taken:
        if not taken:
            return False
        search_index_ensure(index_version=index_version)
    now = timezone.now()
    IndexVersion.objects.filter(pk=index_version.pk, search_index_built_at__isnull=True).update(
        search_index_built_at=now
    )
    index_version.search_index_built_at = index_version.search_index_built_at or now
    return True


def user_search_index_due(*, user_id: int, index_version: IndexVersion) -> bool:
    """A user of a maintained version gets an HNSW index of their own once their vectors reach
    ``INDEXING_USER_SEARCH_INDEX_MIN_VECTORS`` (checked when their job completes, so a backfill
    finishes before the graph is built in one go). One single-row read."""
    if not index_version.is_maintained:
        return False
    return IndexProgress.objects.filter(
        user_id=user_id,
        index_version=index_version,
        embedded__gte=settings.INDEXING_USER_SEARCH_INDEX_MIN_VECTORS,
        search_index_built_at__isnull=True,
    ).exists()


def user_search_index_build(*, user_id: int, index_version: IndexVersion) -> bool:
    """Build the user's own HNSW index in the version (concurrently when called outside a
    transaction) and record it on their progress row, from which searches choose their plan;
    also the user's own full-text index (once, for every version), for the lexical leg.
    Returns False when another process is building one of the user's indexes right now, or
    the version is no longer maintained."""
    with advisory_lock_if_free(USER_SEARCH_INDEX_BUILD_LOCK_NAMESPACE, int(user_id)) as taken:
        if not taken:
            return False
        version = IndexVersion.objects.get(pk=index_version.pk)
        if not version.is_maintained:
            return False
        user_search_index_ensure(index_version=version, user_id=user_id)
        user_text_index_ensure(user_id=user_id)
        version.refresh_from_db()
        if not version.is_maintained:
            # Retired while the index was being built: its retirement may have dropped the
            # version's indexes before this one existed.
            user_search_index_drop(index_version=version, user_id=user_id)
            return False
        IndexProgress.objects.filter(
            user_id=user_id, index_version=version, search_index_built_at__isnull=True
        ).update(search_index_built_at=timezone.now())
    return True


def user_search_index_remove(*, user_id: int, index_version: IndexVersion) -> None:
    """Drop the user's own index in the version: searches go back to the version's index."""
    IndexProgress.objects.filter(user_id=user_id, index_version=index_version).update(
        search_index_built_at=None
    )
    user_search_index_drop(index_version=index_version, user_id=user_id)


def user_indexes_drop(*, user_id: int) -> None:
    """Drop every index of a deleted user's own (their graph in each version, their full-text
    index): a partial index is checked on every write to its table, whoever writes."""
    for index_version in IndexVersion.objects.all():
        user_search_index_drop(index_version=index_version, user_id=user_id)
    user_text_index_drop(user_id=user_id)


def search_index_due(*, index_version: IndexVersion) -> bool:
    """The active version gets its HNSW index once its initial backfill is complete."""
    return (
        index_version.state == IndexVersionState.ACTIVE
        and not index_version.has_search_index
        and not cutover_blockers(index_version=index_version, limit=1)
    )


def index_cutover(*, to_version: IndexVersion) -> IndexVersion | None:
    """Make ``to_version`` the one searched version. Allowed only when it is complete for every
    user (``cutover_blockers`` is empty). Its HNSW index is built first (outside the switch's
    transaction, so searches and ingestion go on meanwhile). The previous active version stops
    being maintained (state retiring) and is returned, for ``index_version_retire``."""
    blockers = cutover_blockers(index_version=to_version, limit=1)
    if to_version.state == IndexVersionState.BUILDING and not blockers:
        index_version_search_index_build(index_version=to_version)
    with transaction.atomic():
        version_set_lock_exclusive()
        target = IndexVersion.objects.select_for_update().get(pk=to_version.pk)
        if target.state != IndexVersionState.BUILDING:
            raise IndexingError(
                "version_not_building", f"Version {target.version} is {target.state}."
            )
        blockers = cutover_blockers(index_version=target, limit=1)
        if blockers:
            raise IndexingError(
                "version_incomplete",
                f"Version {target.version} is not complete for every user "
                f"(first: user {blockers[0].user_id}).",
            )
        previous = (
            IndexVersion.objects.select_for_update().filter(state=IndexVersionState.ACTIVE).first()
        )
        now = timezone.now()
        if previous is not None:
            previous.state = IndexVersionState.RETIRING
            previous.save(update_fields=["state"])
            index_jobs_close_for_version(index_version=previous, reason="version_retired")
        target.state = IndexVersionState.ACTIVE
        target.activated_at = now
        target.save(update_fields=["state", "activated_at"])
    logger.info(
        "indexing.cutover",
        extra={
            "index_version": target.version,
            "previous_version": previous.version if previous else None,
        },
    )
    to_version.state, to_version.activated_at = target.state, target.activated_at
    return previous


def index_version_retire(
    *, index_version: IndexVersion, batch_size: int | None = None
) -> Iterable[int]:
    """Delete a non-active version's entries in batches (yielding how many each batch removed),
    then its progress rows and vector index. A building version can be abandoned this way."""
    batch_size = batch_size or settings.INDEXING_RETIRE_BATCH_SIZE
    with transaction.atomic():
        version_set_lock_exclusive()
        version = IndexVersion.objects.select_for_update().get(pk=index_version.pk)
        if version.state == IndexVersionState.ACTIVE:
            raise IndexingError(
                "version_active", "The active version cannot be retired; cut over first."
            )
        if version.state == IndexVersionState.BUILDING:
            version.state = IndexVersionState.RETIRING
            version.save(update_fields=["state"])
            index_jobs_close_for_version(index_version=version, reason="version_retired")
    while True:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                sql("""
                DELETE FROM {entry} WHERE id IN (
                    SELECT id FROM {entry} WHERE index_version_id = %s
                    ORDER BY id LIMIT %s
                )
                """),
                [version.pk, batch_size],
            )
            deleted = cursor.rowcount
        if deleted:
            yield deleted
        if deleted < batch_size:
            break
    with transaction.atomic():
        IndexProgress.objects.filter(index_version=version).delete()
        IndexVersion.objects.filter(pk=version.pk).update(
            state=IndexVersionState.RETIRED, retired_at=timezone.now()
        )
    search_index_drop(index_version=version)
    index_version.state = IndexVersionState.RETIRED
    logger.info("indexing.version_retired", extra={"index_version": version.version})


def users_with_messages() -> Iterable[User]:
    """Everyone who has conversation data, for backfills."""
    return User.objects.filter(chats__isnull=False).distinct().order_by("pk")
