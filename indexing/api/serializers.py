"""Wire formats of the indexing API (camelCase)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from indexing.models import MessageEmbedding
from indexing.selectors import IndexStatus


def index_status_data(status: IndexStatus) -> dict[str, Any]:
    return {
        "version": status.version,
        "provider": status.provider,
        "model": status.model,
        "dimensions": status.dimensions,
        "versionState": status.version_state,
        "state": status.state.value,
        "eligible": status.eligible,
        "embedded": status.embedded,
        "failed": status.failed,
        "pending": status.pending,
        "jobError": status.job_error or None,
    }


class EmbeddingFailureSerializer(serializers.ModelSerializer):
    messageId = serializers.IntegerField(source="message_id")
    chatId = serializers.IntegerField(source="chat_id")
    version = serializers.IntegerField(source="index_version.version")
    errorCode = serializers.CharField(source="error_code")
    lastAttemptAt = serializers.DateTimeField(source="last_attempt_at", allow_null=True)

    class Meta:
        model = MessageEmbedding
        fields = ["id", "messageId", "chatId", "version", "errorCode", "attempts", "lastAttemptAt"]


# --- Documented response shapes -------------------------------------------------------------


class IndexVersionStatusSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    provider = serializers.CharField()
    model = serializers.CharField()
    dimensions = serializers.IntegerField()
    versionState = serializers.CharField()
    state = serializers.CharField()
    eligible = serializers.IntegerField()
    embedded = serializers.IntegerField()
    failed = serializers.IntegerField()
    pending = serializers.IntegerField()


class IndexStatusSerializer(serializers.Serializer):
    active = IndexVersionStatusSerializer(allow_null=True)
    versions = IndexVersionStatusSerializer(many=True)


class EmbeddingFailurePageSerializer(serializers.Serializer):
    failures = EmbeddingFailureSerializer(many=True)
    nextCursor = serializers.CharField(required=False, help_text="Absent on the last page.")
