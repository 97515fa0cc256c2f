"""Factories for release baselines, gate runs, rollouts and their events, alert rules and
their firings."""

from __future__ import annotations

import datetime as dt

import factory
from factory.django import DjangoModelFactory

from observability.models import (
    AlertFiring,
    AlertMetric,
    AlertRule,
    AlertState,
    GateRun,
    ReleaseBaseline,
    Rollout,
    RolloutEvent,
)
from tests.factories._times import ANCHOR


class ReleaseBaselineFactory(DjangoModelFactory[ReleaseBaseline]):
    class Meta:
        model = ReleaseBaseline

    label = factory.Sequence(lambda n: f"release {n}")
    window_start = ANCHOR - dt.timedelta(days=7)
    window_end = ANCHOR
    answers = 40


class GateRunFactory(DjangoModelFactory[GateRun]):
    class Meta:
        model = GateRun

    baseline = factory.SubFactory(ReleaseBaselineFactory)
    scope = "release"
    is_passed = True


class RolloutFactory(DjangoModelFactory[Rollout]):
    class Meta:
        model = Rollout

    feature = factory.Sequence(lambda n: f"feature-{n}")
    profile = "answer"
    percentage = 10


class RolloutEventFactory(DjangoModelFactory[RolloutEvent]):
    class Meta:
        model = RolloutEvent

    rollout = factory.SubFactory(RolloutFactory)
    action = "started"
    cohort = "internal"


class AlertRuleFactory(DjangoModelFactory[AlertRule]):
    class Meta:
        model = AlertRule

    name = factory.Sequence(lambda n: f"alert {n}")
    metric = AlertMetric.STREAM_FAILURE_RATE
    threshold = 0.05


class AlertFiringFactory(DjangoModelFactory[AlertFiring]):
    class Meta:
        model = AlertFiring

    rule = factory.SubFactory(AlertRuleFactory)
    state = AlertState.FIRING
    value = 0.2
    threshold = factory.SelfAttribute("rule.threshold")
    answers = 12
    webhook_status = ""
