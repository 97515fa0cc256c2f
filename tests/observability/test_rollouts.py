"""Rollout by account: cohorts, the profile hook, and the automatic rollback on a regression.

The forced regression runs real answers through the engine: the rolled-out profile's model
(a scripted mock) breaks every stream after its first delta, so the internal cohort's answers
end as stream failures; the beat task sees the stream-error gate fail and rolls back, and the
next answer is served by the previous profile again."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.admin.sites import site
from django.utils import timezone

from billing.models import Ending, UsageEvent
from claire.ai.config import ai_config_reset
from observability.gates import baseline_capture
from observability.models import GateRun, Rollout, RolloutEvent, RolloutStatus
from observability.rollouts import (
    ANSWER_PROFILE_FEATURE,
    cohort_for,
    hash_bucket,
    profile_for_user,
)
from observability.tasks import rollouts_evaluate_task
from tests.assistant.conftest import ask
from tests.factories import UserFactory

NEXT_PROFILE = "answer-next"


@pytest.fixture
def next_profile(settings, answer_models):
    settings.AI_PROFILES = {
        **settings.AI_PROFILES,
        "answer": {"candidates": ["local/extractive"]},
        NEXT_PROFILE: {"kind": "generation", "candidates": ["local/mock"]},
    }
    settings.RELEASE_GATE_MIN_ANSWERS = 3
    ai_config_reset()
    return answer_models


@pytest.mark.django_db
def test_cohorts_internal_named_accounts_then_stable_hash_percentage():
    staff, named, other = UserFactory(is_staff=True), UserFactory(), UserFactory()
    rollout = Rollout.objects.create(feature="f", profile=NEXT_PROFILE, percentage=0)
    rollout.accounts.add(named)
    assert cohort_for(rollout=rollout, user=staff) == "internal"
    assert cohort_for(rollout=rollout, user=named) == "accounts"
    assert cohort_for(rollout=rollout, user=other) == ""
    rollout.percentage = hash_bucket(feature="f", user_id=other.pk) + 1
    assert cohort_for(rollout=rollout, user=other) == "percentage"
    assert hash_bucket(feature="f", user_id=other.pk) == hash_bucket(feature="f", user_id=other.pk)
    rollout.includes_internal = False
    assert cohort_for(rollout=rollout, user=staff) != "internal"


@pytest.mark.django_db
def test_the_profile_hook_keeps_the_previous_profile_outside_and_after_rollback():
    staff, other = UserFactory(is_staff=True), UserFactory()
    assert profile_for_user(feature=ANSWER_PROFILE_FEATURE, user=staff, default="answer") == (
        "answer"
    )
    rollout = Rollout.objects.create(
        feature=ANSWER_PROFILE_FEATURE, profile=NEXT_PROFILE, previous_profile="answer-v1"
    )
    assert profile_for_user(feature=ANSWER_PROFILE_FEATURE, user=staff, default="x") == (
        NEXT_PROFILE
    )
    assert profile_for_user(feature=ANSWER_PROFILE_FEATURE, user=other, default="x") == "answer-v1"
    Rollout.objects.filter(pk=rollout.pk).update(status=RolloutStatus.ROLLED_BACK)
    assert profile_for_user(feature=ANSWER_PROFILE_FEATURE, user=staff, default="x") == "answer-v1"


@pytest.mark.django_db(transaction=True)
def test_a_stream_error_regression_rolls_the_rollout_back_automatically(
    next_profile, dinner_chat, user
):
    # The baseline: answers of the current profile, all completed.
    for _ in range(3):
        assert ask(user, accept="application/json").status == 200
    assert set(UsageEvent.objects.values_list("profile", "ending")) == {("answer", "completed")}
    now = timezone.now()
    baseline_capture(start=now - dt.timedelta(hours=1), end=now + dt.timedelta(seconds=1))

    # The rollout: internal accounts get the next profile, whose streams break.
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    rollout = Rollout.objects.create(
        feature=ANSWER_PROFILE_FEATURE, profile=NEXT_PROFILE, previous_profile="answer"
    )
    breaking = next_profile.script(deltas=("Friday ", "at 8 [S1]."), fail_after_deltas=1)
    for _ in range(3):
        ask(user)
    assert breaking.call_count == 3
    assert (
        list(UsageEvent.objects.filter(profile=NEXT_PROFILE).values_list("ending", flat=True))
        == [Ending.PARTIAL] * 3
    )

    # The beat task: the internal cohort regressed on stream errors; rolled back.
    assert rollouts_evaluate_task() == 1
    rollout.refresh_from_db()
    assert rollout.status == RolloutStatus.ROLLED_BACK
    run = GateRun.objects.get(scope=f"{ANSWER_PROFILE_FEATURE}:internal")
    assert run.is_passed is False
    assert [r["gate"] for r in run.results if not r["is_passed"]] == ["stream_error"]
    events = list(rollout.events.order_by("pk").values_list("action", "cohort"))
    assert events == [("gate_regression", "internal"), ("rolled_back", "")]
    # Other cohorts had no answers: evaluated, nothing to judge, passed.
    assert GateRun.objects.get(scope=f"{ANSWER_PROFILE_FEATURE}:percentage").is_passed

    # The next answer is the previous profile's again; the watcher leaves it alone now.
    reply = ask(user, accept="application/json")
    assert reply.status == 200
    assert reply.json()["status"] == "completed"
    assert breaking.call_count == 3
    assert UsageEvent.objects.latest("created_at").profile == "answer"
    assert rollouts_evaluate_task() == 0
    assert RolloutEvent.objects.count() == 2


@pytest.mark.django_db
def test_healthy_cohorts_keep_the_rollout(settings):
    settings.RELEASE_GATE_MIN_ANSWERS = 3
    from tests.observability.factories import answers

    staff = UserFactory(is_staff=True)
    now = timezone.now()
    answers(5, at=now - dt.timedelta(days=2), user=staff)
    baseline_capture(start=now - dt.timedelta(days=3), end=now - dt.timedelta(days=1))
    rollout = Rollout.objects.create(feature=ANSWER_PROFILE_FEATURE, profile=NEXT_PROFILE)
    answers(5, at=now - dt.timedelta(minutes=10), user=staff, profile=NEXT_PROFILE)
    assert rollouts_evaluate_task() == 0
    rollout.refresh_from_db()
    assert rollout.status == RolloutStatus.ACTIVE
    assert GateRun.objects.get(scope=f"{ANSWER_PROFILE_FEATURE}:internal").is_passed


@pytest.mark.django_db
def test_admin_changes_are_audited(admin_client, admin_user):
    assert site.is_registered(Rollout)
    response = admin_client.post(
        "/admin/observability/rollout/add/",
        {
            "feature": "answer-profile",
            "profile": NEXT_PROFILE,
            "previous_profile": "answer",
            "status": "active",
            "includes_internal": "on",
            "percentage": "5",
            "events-TOTAL_FORMS": "0",
            "events-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302
    event = RolloutEvent.objects.get()
    assert (event.action, event.actor) == ("changed", admin_user)
    assert event.detail["changes"]["created"] is True
    assert (
        admin_client.get(f"/admin/observability/rollout/{event.rollout_id}/change/").status_code
        == 200
    )
