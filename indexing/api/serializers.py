"""Wire formats of the indexing API (camelCase)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from indexing.models import MessageEmbedding


class EmbeddingFailureSerializer(serializers.ModelSerializer[MessageEmbedding]):
    messageId = serializers.IntegerField(source="message_id")
    chatId = serializers.IntegerField(source="chat_id")
    version = serializers.IntegerField(source="index_version.version")
    errorCode = serializers.CharField(source="error_code")
    lastAttemptAt = serializers.DateTimeField(source="last_attempt_at", allow_null=True)

    class Meta:
        model = MessageEmbedding
        fields = ["id", "messageId", "chatId", "version", "errorCode", "attempts", "lastAttemptAt"]


# --- Documented response shapes -------------------------------------------------------------


class IndexVersionStatusSerializer(serializers.Serializer[Any]):
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
    jobError = serializers.CharField(allow_null=True)


class IndexStatusSerializer(serializers.Serializer[Any]):
    active = IndexVersionStatusSerializer(allow_null=True)
    versions = IndexVersionStatusSerializer(many=True)


class EmbeddingFailurePageSerializer(serializers.Serializer[Any]):
    failures = EmbeddingFailureSerializer(many=True)
    nextCursor = serializers.CharField(required=False, help_text="Absent on the last page.")
