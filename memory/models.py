"""Structured personal memory, derived from messages and always traceable back to them.

* ``PersonChatDay``: message counters per person, chat and day (the user's local day), moved
  with ``F()`` inside the ingest transaction. Relationship metrics and the relationship-strength
  score are sums over these rows, never a scan of messages.
* ``Plan`` / ``PlanStep``: a plan (an activity with a time or place) and the messages that
  proposed, confirmed, changed or cancelled it, possibly across chats.
* ``Loop``: an open thread (a question to the user, a request the user made, a promise the
  user made) with the message that opened it and, once resolved, the one that closed it.

Every row carries its owner (``user``); every read goes through ``memory.selectors``.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q

from conversations.models import Chat, Message, Person

# Plans and compiled questions share one set of statuses.
from retrieval.types import PlanStatus as PlanStatus


class PersonChatDay(models.Model):
    """Messages exchanged with one person in one chat on one local day of the user.

    ``received_count``: messages the person sent (any chat). ``sent_count``: the user's messages
    in a direct chat with the person (in a group the user's message is addressed to nobody in
    particular, so it counts for no one).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="person_chat_days"
    )
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="chat_days")
    chat = models.ForeignKey(Chat, on_delete=models.CASCADE, related_name="person_days")
    day = models.DateField()
    received_count = models.IntegerField(default=0)
    sent_count = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["person", "chat", "day"], name="person_chat_day_unique")
        ]
        indexes = [
            # Covering: the rankings' aggregates over a window of days read the index alone.
            models.Index(
                fields=["user", "day"],
                include=["person", "chat", "received_count", "sent_count"],
                name="person_chat_day_user_day_cover",
            )
        ]

    def __str__(self) -> str:
        return (
            f"{self.person_id}@{self.chat_id} {self.day}: +{self.received_count}/-{self.sent_count}"
        )


class Plan(models.Model):
    """One plan, linked across messages and chats. ``status``, ``event_label`` and ``place`` are
    those of the latest step (later messages override earlier ones)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="plans"
    )
    activity = models.CharField(max_length=64)
    place = models.CharField(max_length=128, blank=True)
    event_label = models.CharField(
        max_length=128, blank=True, help_text="The time as the messages said it ('Saturday at 8')."
    )
    status = models.CharField(max_length=16, choices=PlanStatus.choices)
    first_sent_at = models.DateTimeField()
    last_sent_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "-last_sent_at"], name="plan_user_recent")]

    def __str__(self) -> str:
        return f"{self.activity} {self.place} ({self.status})".strip()


class PlanStep(models.Model):
    """One message's effect on a plan."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="plan_steps"
    )
    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="steps")
    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="plan_steps")
    status = models.CharField(max_length=16, choices=PlanStatus.choices)
    event_label = models.CharField(max_length=128, blank=True)
    sent_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["plan", "message"], name="plan_step_unique_message")
        ]
        indexes = [models.Index(fields=["plan", "sent_at"], name="plan_step_plan_time")]

    def __str__(self) -> str:
        return f"{self.plan_id}: {self.status} ({self.message_id})"


class LoopKind(models.TextChoices):
    QUESTION_TO_USER = "question_to_user", "Question to you, unanswered"
    REQUEST_BY_USER = "request_by_user", "Your request, not answered"
    PROMISE_BY_USER = "promise_by_user", "Your promise, not kept"


class LoopStatus(models.TextChoices):
    OPEN = "open", "Open"
    RESOLVED = "resolved", "Resolved by a later message"
    CLOSED_BY_USER = "closed_by_user", "Closed by you"


class Loop(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="loops"
    )
    kind = models.CharField(max_length=24, choices=LoopKind.choices)
    status = models.CharField(max_length=16, choices=LoopStatus.choices, default=LoopStatus.OPEN)
    chat = models.ForeignKey(Chat, on_delete=models.CASCADE, related_name="loops")
    person = models.ForeignKey(
        Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="loops"
    )
    opened_by = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="loops_opened")
    resolved_by = models.ForeignKey(
        Message, on_delete=models.SET_NULL, null=True, blank=True, related_name="loops_resolved"
    )
    opened_at = models.DateTimeField(help_text="The opening message's send time.")
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["opened_by", "kind"], name="loop_unique_opener")
        ]
        indexes = [
            models.Index(
                fields=["user", "-opened_at"], name="loop_user_open", condition=Q(status="open")
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} in {self.chat_id} ({self.status})"


class FactKind(models.TextChoices):
    LIVES_IN = "lives_in", "Lives in"
    ORIGIN = "origin", "Is from"
    WORKS_AT = "works_at", "Works at"
    MET_AT = "met_at", "Where the user met them"
    RELATIONSHIP = "relationship", "Relationship"
    NATIONALITY = "nationality", "Nationality (sensitive)"


# Kinds that hold one value at a time: a later different value supersedes the current one.
SINGLE_VALUED_FACT_KINDS = frozenset({FactKind.LIVES_IN, FactKind.WORKS_AT})
# Inferred attributes that are ephemeral unless the user's memory policy allows keeping them.
SENSITIVE_FACT_KINDS = frozenset({FactKind.NATIONALITY})


class FactOrigin(models.TextChoices):
    RULES = "rules", "Deterministic rules"
    MODEL = "model", "Extract model"


class PersonFact(models.Model):
    """Something messages say about a person, with the messages that say it.

    ``valid_from`` is the send time of the first supporting message (never the import time).
    ``superseded_by`` points at the fact that replaced this one ("moved to Berlin" replaces
    "lives in Lisbon"); a current fact has none. ``related_person`` is the other side of a
    relationship ("brother" of ``related_person``).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="person_facts"
    )
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="facts")
    kind = models.CharField(max_length=16, choices=FactKind.choices)
    value = models.CharField(max_length=255)
    related_person = models.ForeignKey(
        Person, on_delete=models.CASCADE, null=True, blank=True, related_name="facts_about_others"
    )
    valid_from = models.DateTimeField()
    superseded_by = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="supersedes"
    )
    is_sensitive = models.BooleanField(default=False)
    # Who read it from the messages: the rules, or the ``extract`` model where the rules said
    # nothing (``memory.refine``).
    origin = models.CharField(max_length=8, choices=FactOrigin.choices, default=FactOrigin.RULES)
    sources: models.ManyToManyField[Message, PersonFactSource] = models.ManyToManyField(
        Message, through="PersonFactSource", related_name="person_facts"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "person", "kind"], name="person_fact_lookup")]

    def __str__(self) -> str:
        return f"{self.person_id} {self.kind} {self.value}"


class FactBasis(models.TextChoices):
    """How a source message proves a fact."""

    STATEMENT = "statement", "The message states it"
    CONTACT_NAME = "contact_name", 'The sender is saved under a relation word ("Mom")'
    ADDRESSED = "addressed", 'The message addresses them by a relation word ("thanks dad")'
    SIGNATURE = "signature", 'They sign the message with a relation word ("Love, Mom")'


class PersonFactSource(models.Model):
    fact = models.ForeignKey(PersonFact, on_delete=models.CASCADE, related_name="source_links")
    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="fact_links")
    basis = models.CharField(max_length=16, choices=FactBasis.choices, default=FactBasis.STATEMENT)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["fact", "message"], name="person_fact_source_unique")
        ]

    def __str__(self) -> str:
        return f"{self.fact_id} <- {self.message_id}"


class MemoryPolicy(models.Model):
    """What the user allows personal memory to keep. Without a row, nothing sensitive is kept."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory_policy"
    )
    persist_sensitive_facts = models.BooleanField(
        default=False,
        help_text="Keep inferred sensitive attributes (nationality) instead of deriving them "
        "from the cited messages at answer time.",
    )
    sensitive_purpose = models.CharField(max_length=255, blank=True)
    sensitive_retention_days = models.PositiveIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "memory policies"

    def __str__(self) -> str:
        return f"memory policy of {self.user_id}"


class PersonMerge(models.Model):
    """The user's statement that two of their people are one human. Merges are explicit and
    reversible: a split stamps ``split_at`` and keeps the record. Conversation rows are never
    rewritten; memory reads treat ``merged_person`` as ``kept_person`` while the merge holds."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="person_merges"
    )
    kept_person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="merges_kept")
    merged_person = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="merges_absorbed"
    )
    reason = models.CharField(max_length=255, blank=True)
    # A merge memory derived from the messages (a contact saying who it is, a hand-off to
    # another platform): how sure the rule is (0..1) and the messages it read. ``None`` and
    # ``[]`` for a merge the user made.
    confidence = models.FloatField(null=True, blank=True)
    evidence_message_ids = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    split_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["merged_person"],
                condition=Q(split_at__isnull=True),
                name="person_merge_one_active_per_person",
            ),
            models.CheckConstraint(
                condition=~Q(kept_person=models.F("merged_person")),
                name="person_merge_distinct_people",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.merged_person_id} -> {self.kept_person_id}"


class PersonFactRejection(models.Model):
    """The user said a fact is wrong (or asked for it to be forgotten): it is deleted and never
    derived again from the same messages' wording."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="person_fact_rejections"
    )
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="fact_rejections")
    kind = models.CharField(max_length=16, choices=FactKind.choices)
    folded_value = models.CharField(max_length=255)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["person", "kind", "folded_value"], name="person_fact_rejection_unique"
            )
        ]

    def __str__(self) -> str:
        return f"not {self.kind} {self.folded_value} ({self.person_id})"


class MessageClaimSource(models.TextChoices):
    STATEMENT = "statement", "A fact the message states"
    NATIONALITY = "nationality", "A nationality the author states (sensitive)"
    ADDRESSED = "addressed", "A relation word the message addresses someone with"
    SIGNED = "signed", "A relation word the message is signed with"
    TRAVEL = "travel", "A trip the user's own message marks: leaving, arrived or back"
    SELF = "self", "What its author says of themselves"


class MessageClaim(models.Model):
    """What one message's text says toward facts, read by the rules before anyone is looked
    up: the claims of ``extract.fact_claims`` and ``nationality_claims`` and the relation
    words of ``kinship``. They depend on the message alone (its text, author side and chat
    kind), so ingest keeps them per changed message and facts are assembled from them without
    reading every message again; ``subject`` is resolved to a person when facts are derived.
    ``position`` keeps the order the rules gave within the message. A ``self`` claim is what
    a person says of themselves (``selfdescribed.self_statements``): ``kind`` occupation,
    employer, home or name, ``value`` as written, ``subject`` the workplace said with an
    occupation; answers read it instead of the person's messages."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="memory_claims")
    position = models.PositiveSmallIntegerField()
    source = models.CharField(max_length=12, choices=MessageClaimSource.choices)
    subject = models.TextField(blank=True)
    kind = models.CharField(max_length=16, blank=True)
    value = models.TextField()
    previous = models.TextField(blank=True)
    related_to_sender = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["user", "message"], name="message_claim_user_message")]

    def __str__(self) -> str:
        return f"{self.message_id} {self.source} {self.kind} {self.value}"


class FactRefinement(models.Model):
    """A message the ``extract`` model has read (so it is not sent again), and with which
    model. Deleting the message deletes it and what the model proposed from it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fact_refinements"
    )
    message = models.OneToOneField(Message, on_delete=models.CASCADE, related_name="refinement")
    model_key = models.CharField(max_length=128)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.message_id} read by {self.model_key}"


class RefinedFactClaim(models.Model):
    """A fact the ``extract`` model proposed from one message, after validation (a known kind,
    never a sensitive one; a person of the user; a value the message itself contains).
    ``facts_rebuild`` folds these in where the rules found nothing of that kind."""

    refinement = models.ForeignKey(FactRefinement, on_delete=models.CASCADE, related_name="claims")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="refined_claims")
    kind = models.CharField(max_length=16, choices=FactKind.choices)
    value = models.CharField(max_length=255)
    previous = models.CharField(max_length=255, blank=True)
    # For a relationship: whose relative (null: the user's).
    related_person = models.ForeignKey(
        Person, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )

    def __str__(self) -> str:
        return f"{self.person_id} {self.kind} {self.value} (model)"


class MemoryJobState(models.TextChoices):
    IDLE = "idle", "Idle"
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    FAILED = "failed", "Failed"


class MemoryJob(models.Model):
    """The durable state of one user's memory updates: one row per user, so at most one job is
    pending or running for them, however many ingests arrive.

    The ingest transaction marks the row dirty (``pending_*``: the chats it touched and the
    earliest send time of the messages it created, edited or deleted, and whether they can
    change facts). A worker claims the row
    through a lease, takes the pending work into ``running_*`` and updates memory from there;
    work that arrives meanwhile stays pending and is taken before the job goes idle. A worker
    that dies leaves ``running_*`` in place, so the next claim still covers it.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory_job"
    )
    state = models.CharField(
        max_length=16, choices=MemoryJobState.choices, default=MemoryJobState.IDLE
    )
    pending_since = models.DateTimeField(null=True, blank=True)
    pending_chat_ids = ArrayField(models.BigIntegerField(), default=list, blank=True)
    pending_facts = models.BooleanField(default=False)
    running_since = models.DateTimeField(null=True, blank=True)
    running_chat_ids = ArrayField(models.BigIntegerField(), default=list, blank=True)
    running_facts = models.BooleanField(default=False)
    facts_inputs_signature = models.CharField(
        max_length=64,
        blank=True,
        help_text="What facts read besides messages, when they were last derived.",
    )
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=255, blank=True)
    lease_owner = models.CharField(max_length=64, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    runs_count = models.PositiveIntegerField(default=0)
    last_run_chats = models.PositiveIntegerField(default=0)
    last_run_ms = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["state", "lease_expires_at"],
                name="memory_job_open_lease",
                condition=Q(state__in=["queued", "running"]),
            )
        ]

    def __str__(self) -> str:
        return f"memory job of user {self.user_id} ({self.state})"
