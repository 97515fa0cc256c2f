"""Stored evidence packs, so the citations of an answer stay valid after it was written.

A pack is referenced by an opaque id (a UUID, never guessable from another user's ids). Each
source keeps what a citation needs to render and navigate — message ids, chat, sender, time,
platform — and no message text: the text stays in ``conversations`` alone, so deleting a
message there removes it from every later rendering of a citation too.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models


class EvidencePackRecord(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="evidence_packs"
    )
    route = models.CharField(max_length=32)
    source_count = models.PositiveSmallIntegerField()
    token_estimate = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "-created_at"], name="evidence_pack_user_recent")]

    def __str__(self) -> str:
        return f"{self.pk} ({self.source_count} sources)"


class EvidenceSourceRecord(models.Model):
    pack = models.ForeignKey(EvidencePackRecord, on_delete=models.CASCADE, related_name="sources")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="evidence_sources"
    )
    source_id = models.CharField(max_length=8, help_text="S1, S2, … as cited in the answer.")
    position = models.PositiveSmallIntegerField()
    # Plain ids rather than foreign keys: a citation outlives the message (deleted or
    # re-imported), and resolving it goes through the conversations selectors, which hide
    # what is gone.
    primary_message_id = models.BigIntegerField()
    message_ids = ArrayField(models.BigIntegerField())
    chat_id = models.BigIntegerField()
    chat_title = models.CharField(max_length=512, blank=True)
    platform = models.CharField(max_length=16)
    sender_name = models.CharField(max_length=255, blank=True)
    sent_at = models.DateTimeField()

    class Meta:
        ordering = ["pack", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["pack", "source_id"], name="evidence_source_unique_id_in_pack"
            )
        ]

    def __str__(self) -> str:
        return f"{self.pack_id}/{self.source_id}"

    @property
    def navigation_target(self) -> str:
        return f"/chats/{self.chat_id}/?message={self.primary_message_id}"
