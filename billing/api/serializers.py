"""Wire formats of the billing API (camelCase). Amounts are integers of micro-USD; the
``*Display`` strings are the same amounts formatted as dollars for people."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from billing.money import format_micro_usd
from billing.types import PeriodSpend, SpendSummary


class PeriodSpendSerializer(serializers.Serializer[Any]):
    period = serializers.CharField(source="kind")
    startsOn = serializers.DateField(source="starts_on")
    resetsAt = serializers.DateTimeField(source="resets_at")
    limitMicroUsd = serializers.IntegerField(source="limit_micro_usd")
    spentMicroUsd = serializers.IntegerField(source="spent_micro_usd")
    reservedMicroUsd = serializers.IntegerField(source="reserved_micro_usd")
    remainingMicroUsd = serializers.IntegerField(source="remaining_micro_usd")
    limitDisplay = serializers.SerializerMethodField()
    spentDisplay = serializers.SerializerMethodField()
    remainingDisplay = serializers.SerializerMethodField()

    def get_limitDisplay(self, period: PeriodSpend) -> str:
        return format_micro_usd(period.limit_micro_usd)

    def get_spentDisplay(self, period: PeriodSpend) -> str:
        return format_micro_usd(period.spent_micro_usd)

    def get_remainingDisplay(self, period: PeriodSpend) -> str:
        return format_micro_usd(period.remaining_micro_usd)


class SpendSerializer(serializers.Serializer[Any]):
    aiEnabled = serializers.BooleanField(source="policy.is_ai_enabled")
    remoteConsent = serializers.SerializerMethodField()
    remainingMicroUsd = serializers.IntegerField(source="remaining_micro_usd")
    remainingDisplay = serializers.SerializerMethodField()
    day = PeriodSpendSerializer()
    month = PeriodSpendSerializer()

    def get_remainingDisplay(self, summary: SpendSummary) -> str:
        return format_micro_usd(summary.remaining_micro_usd)

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_remoteConsent(self, summary: SpendSummary) -> bool:
        """The user's consent, passed by the view (``claire.accounts.consent``)."""
        return bool(self.context["remote_consent"])


class PolicyUpdateSerializer(serializers.Serializer[Any]):
    remoteConsent = serializers.BooleanField()
