"""Embedding index versions, per-message index entries, per-user jobs and progress counters.

One ``MessageEmbedding`` row exists per *eligible* message (live, text, non-empty, chat not
excluded from AI) and per maintained index version (building or active). The row is the
message's index entry: ``pending`` until its vector is written, ``embedded`` once it is,
``failed`` when the provider refused it permanently. Rows appear, change state and disappear in
the same transactions as the message changes that cause them, so ``IndexProgress`` counters
(moved with ``F()`` in those transactions) always equal a recount of these rows.

The ``embedding`` column has no fixed dimensions so that versions of different models share the
table; each version gets its own partial expression HNSW index
(``(embedding::vector(D)) ... WHERE index_version_id = N``), and each large user one more,
restricted to their own rows (``... AND user_id = U``, see ``indexing.search_indexes``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from pgvector.django import VectorField


class IndexVersionState(models.TextChoices):
    BUILDING = "building", "Building"
    ACTIVE = "active", "Active"
    RETIRING = "retiring", "Retiring"
    RETIRED = "retired", "Retired"


# Versions whose entries are kept up to date by ingestion and jobs.
MAINTAINED_VERSION_STATES = (IndexVersionState.BUILDING, IndexVersionState.ACTIVE)


class IndexVersion(models.Model):
    """One embedding space: a provider model at fixed dimensions. Vectors of two versions are
    never compared; searches read the single active version."""

    version = models.PositiveIntegerField(unique=True)
    profile = models.CharField(max_length=64, default="embed")
    provider = models.CharField(max_length=64)
    model = models.CharField(max_length=255)
    dimensions = models.PositiveIntegerField()
    state = models.CharField(
        max_length=16, choices=IndexVersionState.choices, default=IndexVersionState.BUILDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    activated_at = models.DateTimeField(null=True, blank=True)
    retired_at = models.DateTimeField(null=True, blank=True)
    search_index_built_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the version's HNSW index was built (after its backfill, not before: "
        "one bulk build is far cheaper than maintaining the graph through a backfill).",
    )

    class Meta:
        ordering = ["-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["state"],
                condition=Q(state="active"),
                name="index_version_single_active",
            ),
            models.CheckConstraint(
                condition=Q(dimensions__gte=1) & Q(dimensions__lte=16000),
                name="index_version_dimensions_range",
            ),
        ]

    def __str__(self) -> str:
        return f"v{self.version} {self.provider}/{self.model} ({self.dimensions}d, {self.state})"

    @property
    def is_maintained(self) -> bool:
        return self.state in MAINTAINED_VERSION_STATES

    @property
    def has_search_index(self) -> bool:
        return self.search_index_built_at is not None


class EntryState(models.TextChoices):
    PENDING = "pending", "Pending"
    EMBEDDED = "embedded", "Embedded"
    FAILED = "failed", "Failed"


class MessageEmbedding(models.Model):
    """The index entry of one eligible message in one index version.

    ``content_hash`` is the hash of the message content the entry stands for: an edit resets
    the entry to ``pending`` with the new hash and clears the stale vector, and a job only
    writes a vector if the hash it embedded still matches.
    """

    # No single-column indexes where a composite one leads with the column: every index is
    # written again for each vector, so fewer indexes is a faster backfill.
    message = models.ForeignKey(
        "conversations.Message",
        on_delete=models.CASCADE,
        related_name="index_entries",
        db_index=False,  # (message, index_version) unique
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="message_embeddings"
    )
    # Denormalised from the message (neither changes after ingest) so that vector searches
    # filter by chat and time without a join.
    chat = models.ForeignKey(
        "conversations.Chat",
        on_delete=models.CASCADE,
        related_name="message_embeddings",
        db_index=False,  # (chat, index_version)
    )
    sent_at = models.DateTimeField()
    index_version = models.ForeignKey(
        IndexVersion, on_delete=models.PROTECT, related_name="embeddings"
    )
    state = models.CharField(max_length=16, choices=EntryState.choices, default=EntryState.PENDING)
    content_hash = models.CharField(max_length=64)
    embedding = VectorField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    error_code = models.CharField(max_length=64, blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    embedded_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["message", "index_version"], name="message_embedding_unique_version"
            ),
            models.CheckConstraint(
                condition=~Q(state="embedded") | Q(embedding__isnull=False),
                name="message_embedding_embedded_has_vector",
            ),
        ]
        indexes = [
            # Exact searches scan one user's vectors of one version.
            models.Index(
                fields=["index_version", "user", "sent_at"],
                name="embedding_version_user_time",
                condition=Q(state="embedded"),
            ),
            # Jobs walk a user's pending entries in message order.
            models.Index(
                fields=["index_version", "user", "message"],
                name="embedding_pending_by_message",
                condition=Q(state="pending"),
            ),
            models.Index(
                fields=["user", "id"], name="embedding_failed_by_user", condition=Q(state="failed")
            ),
            models.Index(fields=["chat", "index_version"], name="embedding_chat_version"),
        ]

    def __str__(self) -> str:
        return f"message {self.message_id} in v{self.index_version_id} ({self.state})"


class EmbeddingFailure(MessageEmbedding):
    """Entries the provider refused permanently; the admin lists them with a retry action."""

    class Meta:
        proxy = True
        verbose_name = "embedding failure"


class IndexProgress(models.Model):
    """Per user and version: how many entries exist (eligible), are embedded and failed.

    Moved with ``F()`` in the transactions that change entries; never recounted on a request.
    ``is_seeded`` turns true once a job has created the entries of messages that existed
    before the version did; until then ``eligible`` is a lower bound.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="index_progress"
    )
    index_version = models.ForeignKey(
        IndexVersion, on_delete=models.CASCADE, related_name="progress"
    )
    eligible = models.BigIntegerField(default=0)
    embedded = models.BigIntegerField(default=0)
    failed = models.BigIntegerField(default=0)
    is_seeded = models.BooleanField(default=False)
    search_index_built_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the user's own HNSW index in this version was built (users above "
        "INDEXING_USER_SEARCH_INDEX_MIN_VECTORS vectors get one; see indexing.search_indexes).",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "index progress"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "index_version"], name="index_progress_unique_user_version"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} v{self.index_version_id}: {self.embedded}/{self.eligible}"

    @property
    def pending(self) -> int:
        return max(self.eligible - self.embedded - self.failed, 0)

    @property
    def is_complete(self) -> bool:
        return self.is_seeded and self.pending == 0


class JobState(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


OPEN_JOB_STATES = (JobState.QUEUED, JobState.RUNNING)


class JobPhase(models.TextChoices):
    SEED = "seed", "Creating entries"
    EMBED = "embed", "Embedding"


class IndexJob(models.Model):
    """The durable state of one user's indexing run for one version.

    At most one open (queued or running) job exists per user and version. A worker holds the
    job through a lease it renews after every batch; a job whose lease expired (its worker
    died) is claimed again and resumes from ``cursor``. ``rerun_requested`` is set when new
    work arrives while the job runs, so that the job does not finish before seeing it.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="index_jobs"
    )
    index_version = models.ForeignKey(IndexVersion, on_delete=models.CASCADE, related_name="jobs")
    state = models.CharField(max_length=16, choices=JobState.choices, default=JobState.QUEUED)
    phase = models.CharField(max_length=16, choices=JobPhase.choices, default=JobPhase.SEED)
    cursor = models.BigIntegerField(
        default=0, help_text="Last message id the current phase has processed."
    )
    cursor_sent_at = models.DateTimeField(
        null=True, blank=True, help_text="Seeding walks messages in (sent_at, id) order."
    )
    rerun_requested = models.BooleanField(default=False)
    seeded_count = models.BigIntegerField(default=0)
    embedded_count = models.BigIntegerField(default=0)
    failed_count = models.BigIntegerField(default=0)
    skipped_count = models.BigIntegerField(
        default=0, help_text="Entries changed or removed while they were being embedded."
    )
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=255, blank=True)
    lease_owner = models.CharField(max_length=64, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "index_version"],
                condition=Q(state__in=["queued", "running"]),
                name="index_job_single_open",
            ),
        ]
        indexes = [
            models.Index(
                fields=["state", "lease_expires_at"],
                name="index_job_open_lease",
                condition=Q(state__in=["queued", "running"]),
            ),
            models.Index(fields=["user", "-created_at"], name="index_job_user_recent"),
        ]

    def __str__(self) -> str:
        return f"job {self.pk} user {self.user_id} v{self.index_version_id} ({self.state})"
