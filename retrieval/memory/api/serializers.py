"""Request shapes of the personal-memory API; responses are built from selector dataclasses."""

from __future__ import annotations

from rest_framework import serializers


class PersonMergeCreateSerializer(serializers.Serializer):
    keepPersonId = serializers.IntegerField(min_value=1)
    mergePersonId = serializers.IntegerField(min_value=1)
