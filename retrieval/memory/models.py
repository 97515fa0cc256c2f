"""Structured personal memory, derived from messages and always traceable back to them.

* ``PersonChatDay``: message counters per person, chat and day (the user's local day), moved
  with ``F()`` inside the ingest transaction. Relationship metrics and the relationship-strength
  score are sums over these rows, never a scan of messages.
* ``Plan`` / ``PlanStep``: a plan (an activity with a time or place) and the messages that
  proposed, confirmed, changed or cancelled it, possibly across chats.
* ``Loop``: an open thread (a question to the user, a request the user made, a promise the
  user made) with the message that opened it and, once resolved, the one that closed it.

Every row carries its owner (``user``); every read goes through ``retrieval.memory.selectors``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from conversations.models import Chat, Message, Person


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
        indexes = [models.Index(fields=["user", "day"], name="person_chat_day_user_day")]

    def __str__(self) -> str:
        return (
            f"{self.person_id}@{self.chat_id} {self.day}: +{self.received_count}/-{self.sent_count}"
        )


class PlanStatus(models.TextChoices):
    PROPOSED = "proposed", "Proposed"
    CONFIRMED = "confirmed", "Confirmed"
    CHANGED = "changed", "Changed"
    CANCELLED = "cancelled", "Cancelled"


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
