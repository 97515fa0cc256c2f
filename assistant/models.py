"""Ask Claire threads and turns.

A thread is one conversation with the assistant; a turn is one message in it. Every question
is a pair of turns written in one transaction: the user turn (which carries the client's
``request_id``, the idempotency key) and the assistant turn that answers it, created empty with
``status=streaming`` and finalized when the answer is done. This app is the only owner of these
tables and the only code that writes them (``assistant.services``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class ThreadKind(models.TextChoices):
    GLOBAL = "global", "Global"
    CHAT = "chat", "One chat"


class TurnRole(models.TextChoices):
    USER = "user", "User"
    ASSISTANT = "assistant", "Assistant"


class TurnStatus(models.TextChoices):
    STREAMING = "streaming", "Streaming"
    COMPLETED = "completed", "Completed"
    PARTIAL = "partial", "Partial"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Cancelled"


TERMINAL_STATUSES = frozenset(
    {TurnStatus.COMPLETED, TurnStatus.PARTIAL, TurnStatus.FAILED, TurnStatus.CANCELLED}
)


class Thread(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assistant_threads"
    )
    title = models.CharField(max_length=200, blank=True)
    kind = models.CharField(max_length=8, choices=ThreadKind.choices, default=ThreadKind.GLOBAL)
    chat = models.ForeignKey(
        "conversations.Chat",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="assistant_threads",
        help_text="The conversation a chat thread is about; empty for global threads.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_activity_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="global") & Q(chat__isnull=True))
                | (Q(kind="chat") & Q(chat__isnull=False)),
                name="assistant_thread_chat_matches_kind",
            )
        ]
        indexes = [
            # Keyset pagination of a user's threads, most recently active first.
            models.Index(
                fields=["user", "-last_activity_at", "-id"], name="assistant_thread_recent"
            ),
        ]

    def __str__(self) -> str:
        return self.title or f"Thread {self.pk}"


class Turn(models.Model):
    """One message of a thread.

    A user turn holds the question, the client's ``request_id`` (unique per user) and the hash
    of the request payload, so the same request replays and a different payload under a used
    ``request_id`` is refused. The assistant turn answering it points back at it through
    ``user_turn`` and holds the answer Markdown, the cited sources and the outcome.
    """

    thread = models.ForeignKey(Thread, on_delete=models.CASCADE, related_name="turns")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assistant_turns"
    )
    role = models.CharField(max_length=16, choices=TurnRole.choices)
    user_turn = models.OneToOneField(
        "self",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="assistant_turn",
        help_text="For an assistant turn: the question it answers.",
    )
    request_id = models.CharField(max_length=64, blank=True)
    request_hash = models.CharField(max_length=64, blank=True)
    status = models.CharField(max_length=16, choices=TurnStatus.choices)
    text = models.TextField(
        blank=True, help_text="The question of a user turn; the answer Markdown of an assistant."
    )
    scope = models.JSONField(default=dict, blank=True)
    route = models.CharField(max_length=64, blank=True)
    compiled_query = models.JSONField(null=True, blank=True)
    citations = models.JSONField(
        default=list, blank=True, help_text="Only the sources the answer cites."
    )
    actions = models.JSONField(default=list, blank=True)
    index_status = models.JSONField(null=True, blank=True)
    removed_citation_count = models.PositiveIntegerField(
        default=0, help_text="Citation marks that named no source and were removed."
    )
    error_code = models.CharField(max_length=64, blank=True)
    retry_of = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="retries",
        help_text="For an assistant turn: the failed answer this one retries.",
    )
    provider = models.CharField(max_length=64, blank=True)
    model = models.CharField(max_length=200, blank=True)
    finish_reason = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    lease_expires_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="A streaming answer's process renews this while it streams; once it passes, "
        "the process is gone and the sweep ends the turn as interrupted.",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "request_id"],
                condition=Q(role="user"),
                name="assistant_turn_unique_request",
            ),
            models.CheckConstraint(
                condition=(Q(role="user") & Q(user_turn__isnull=True) & ~Q(request_id=""))
                | (Q(role="assistant") & Q(user_turn__isnull=False)),
                name="assistant_turn_role_shape",
            ),
        ]
        indexes = [
            # Keyset pagination of a thread's turns and the bounded recent slice.
            models.Index(fields=["thread", "-created_at", "-id"], name="assistant_turn_recent"),
            # The orphan sweep reads only the few turns still streaming.
            models.Index(
                fields=["lease_expires_at"],
                condition=Q(status="streaming"),
                name="assistant_turn_streaming_lease",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.role} turn {self.pk}"

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL_STATUSES
