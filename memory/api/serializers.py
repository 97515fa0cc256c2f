"""Request shapes of the personal-memory API; responses are built from selector dataclasses."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class PersonMergeCreateSerializer(serializers.Serializer[Any]):
    keepPersonId = serializers.IntegerField(min_value=1)
    mergePersonId = serializers.IntegerField(min_value=1)


# --- Documented response shapes (the views build these bodies from selector dataclasses) -----


class OpenLoopSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    chatId = serializers.IntegerField()
    platform = serializers.CharField()
    personId = serializers.IntegerField(allow_null=True)
    personName = serializers.CharField(allow_null=True)
    messageId = serializers.IntegerField()
    openedAt = serializers.DateTimeField(allow_null=True)


class OpenLoopsSerializer(serializers.Serializer[Any]):
    loops = OpenLoopSerializer(many=True)


class LoopClosedSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.CharField()
    closedAt = serializers.DateTimeField(allow_null=True)


class PlanStepSerializer(serializers.Serializer[Any]):
    messageId = serializers.IntegerField()
    chatId = serializers.IntegerField()
    platform = serializers.CharField()
    status = serializers.CharField()
    when = serializers.CharField()
    sentAt = serializers.DateTimeField(allow_null=True)


class PlanSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    activity = serializers.CharField()
    place = serializers.CharField()
    when = serializers.CharField()
    status = serializers.CharField()
    steps = PlanStepSerializer(many=True)


class PlansSerializer(serializers.Serializer[Any]):
    plans = PlanSerializer(many=True)


class PersonFactSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    value = serializers.CharField()
    relatedPersonId = serializers.IntegerField(allow_null=True)
    validFrom = serializers.DateTimeField(allow_null=True)
    isCurrent = serializers.BooleanField()
    supersededBy = serializers.IntegerField(allow_null=True)
    sourceMessageIds = serializers.ListField(child=serializers.IntegerField())


class PersonFactsSerializer(serializers.Serializer[Any]):
    personId = serializers.IntegerField()
    facts = PersonFactSerializer(many=True)


class MessageCountsSerializer(serializers.Serializer[Any]):
    received = serializers.IntegerField()
    sent = serializers.IntegerField()


class RelationshipSerializer(serializers.Serializer[Any]):
    personId = serializers.IntegerField()
    displayName = serializers.CharField()
    strength = serializers.FloatField()
    messages30d = MessageCountsSerializer()
    messages90d = MessageCountsSerializer()
    messages365d = MessageCountsSerializer()
    reciprocity365d = serializers.FloatField()
    activeDays90d = serializers.IntegerField()
    daysSinceLastContact = serializers.IntegerField(allow_null=True)
    replyLatencyMedianSeconds = serializers.FloatField(allow_null=True)
    platforms = serializers.ListField(child=serializers.CharField())
    representativeMessageIds = serializers.ListField(child=serializers.IntegerField())


class RelationshipsSerializer(serializers.Serializer[Any]):
    people = RelationshipSerializer(many=True)


class MergeSuggestionSerializer(serializers.Serializer[Any]):
    personId = serializers.IntegerField()
    otherPersonId = serializers.IntegerField()
    displayName = serializers.CharField()
    otherDisplayName = serializers.CharField()
    reasons = serializers.ListField(child=serializers.CharField())


class MergeSuggestionsSerializer(serializers.Serializer[Any]):
    suggestions = MergeSuggestionSerializer(many=True)


class PersonMergeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    keptPersonId = serializers.IntegerField()
    mergedPersonId = serializers.IntegerField()
    reason = serializers.CharField()
    confidence = serializers.FloatField(allow_null=True)
    evidenceMessageIds = serializers.ListField(child=serializers.IntegerField())
    createdAt = serializers.DateTimeField(allow_null=True)
    splitAt = serializers.DateTimeField(allow_null=True)
