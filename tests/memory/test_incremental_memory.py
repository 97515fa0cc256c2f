"""The memory job (incremental) stores what a full ``memory_rebuild`` stores, and runs once
per user however many ingests arrive."""

from __future__ import annotations

import importlib
import random
from datetime import UTC, datetime, timedelta

import pytest

from conversations.models import ChatKind
from memory import jobs, receivers
from memory.away import Trip, latest_trip
from memory.models import (
    Loop,
    MemoryJob,
    MemoryJobState,
    MemoryPolicy,
    MessageClaim,
    MessageClaimSource,
    PersonChatDay,
    PersonFact,
    Plan,
)
from memory.services import memory_rebuild
from tests.memory.helpers import chat_of, ingest, say

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

# Sentences written for this test: plans, loops, facts and chatter in several phrasings.
SENTENCES = (
    "Dinner at Lumen on Friday at 8?",
    "let's grab lunch tomorrow at Porta Nova",
    "who's up for a hike on Saturday morning?",
    "drinks tonight at 9?",
    "count me in!",
    "works for me",
    "yes",
    "see you there",
    "can we move it to Sunday at 7 instead?",
    "let's reschedule to Thursday 6pm",
    "sorry, I have to cancel tonight",
    "booked the table at Lumen",
    "could you send me the slides?",
    "any news on the apartment?",
    "can you share the photos please?",
    "Sam, what time is the train?",
    "are you coming to the hike too?",
    "I'll send the slides tonight",
    "will book the cabin tomorrow!",
    "I'll pay you back on Saturday",
    "here they are",
    "attached the slides",
    "sent the photos!",
    "thanks, got the slides",
    "I'm from Lisbon originally",
    "I moved to Berlin last month",
    "I live in Porto these days",
    "my brother Leo is visiting next week",
    "great meeting you at the conference",
    "I work at Acme now",
    "ok",
    "haha",
    "on my way",
    "what's up?",
    "Leo, I'll send you the photos tomorrow",
    "Dee, could you share the slides?",
    "thanks Dee, got the photos",
    "thanks mom, love you",
    "see you soon, dad!",
    "Call me when you land.\nLove, Mom",
    "I'm Brazilian btw",
    "I am Portuguese actually",
)

CHATS = {
    "dm-ana": ("Ana",),
    "dm-bo": ("Bo",),
    "dm-leo": ("Leo",),
    "crew": ("Ana", "Bo", "Leo"),
}


@pytest.fixture
def jobs_inline(monkeypatch):
    """Run the memory job in place of sending its task, as a worker would after the commit."""

    def task_send(name, *, args):
        assert name == "memory.run_job"
        jobs.memory_job_run(user_id=args[0], worker_id="test")

    monkeypatch.setattr(receivers, "task_send", task_send)


def _memory(user) -> dict[str, object]:
    # Sorted by their text: rows hold None next to numbers.
    plans = [
        (
            plan.activity,
            plan.place,
            plan.event_label,
            plan.status,
            plan.first_sent_at,
            plan.last_sent_at,
            tuple(
                plan.steps.order_by("sent_at", "message_id").values_list(
                    "message_id", "status", "event_label", "sent_at"
                )
            ),
        )
        for plan in Plan.objects.filter(user=user)
    ]
    loops = Loop.objects.filter(user=user).values_list(
        "opened_by_id",
        "kind",
        "chat_id",
        "person_id",
        "status",
        "resolved_by_id",
        "opened_at",
        "closed_at",
    )
    facts = [
        (
            fact.person_id,
            fact.kind,
            fact.value,
            fact.related_person_id,
            fact.valid_from,
            fact.superseded_by.value if fact.superseded_by else "",
            tuple(sorted(fact.source_links.values_list("message_id", "basis"))),
        )
        for fact in PersonFact.objects.filter(user=user).select_related("superseded_by")
    ]
    # A day whose messages were all deleted keeps a row of zeros: nothing counted.
    counters = sorted(
        PersonChatDay.objects.filter(user=user)
        .exclude(received_count=0, sent_count=0)
        .values_list("person_id", "chat_id", "day", "received_count", "sent_count")
    )
    claims = sorted(
        MessageClaim.objects.filter(user=user).values_list(
            "message_id", "source", "subject", "kind", "value"
        )
    )
    return {
        "claims": claims,
        "plans": sorted(plans, key=str),
        "loops": sorted(loops, key=str),
        "facts": sorted(facts, key=str),
        "counters": counters,
    }


def _random_history(user, rng: random.Random, django_capture_on_commit_callbacks) -> None:
    chats = {
        key: chat_of(key, *members, kind=ChatKind.GROUP if len(members) > 1 else ChatKind.DIRECT)
        for key, members in CHATS.items()
    }
    sent: dict[str, list[tuple[str, datetime, str | None]]] = {key: [] for key in CHATS}
    clock = T0
    for step in range(70):
        if step == 35:
            # Someone joins the group halfway: who its messages name changes.
            chats["crew"] = chat_of("crew", "Ana", "Bo", "Leo", "Dee", kind=ChatKind.GROUP)
        key = rng.choice(list(CHATS))
        action = rng.random()
        batch = []
        if action < 0.7 or len(sent[key]) < 2:
            for part in range(rng.randint(1, 4)):
                clock += timedelta(minutes=rng.randint(1, 600))
                # Some messages arrive late: sent days before the newest one.
                sent_at = (
                    clock - timedelta(hours=rng.randint(1, 360)) if rng.random() < 0.2 else clock
                )
                members = CHATS[key] + (("Dee",) if key == "crew" and step >= 35 else ())
                sender = rng.choice([None, *members])
                message_id = f"m{step}-{part}"
                reply_to = rng.choice(sent[key])[0] if sent[key] and rng.random() < 0.25 else ""
                sent[key].append((message_id, sent_at, sender))
                batch.append(
                    say(
                        message_id, sent_at, rng.choice(SENTENCES), sender=sender, reply_to=reply_to
                    )
                )
        elif action < 0.85:
            message_id, sent_at, sender = rng.choice(sent[key])
            batch.append(say(message_id, sent_at, rng.choice(SENTENCES), sender=sender))
        else:
            message_id, sent_at, sender = rng.choice(sent[key])
            batch.append(say(message_id, sent_at, "", sender=sender, is_deleted=True))
        with django_capture_on_commit_callbacks(execute=True):
            ingest(user, chats[key], *batch)


@pytest.mark.parametrize("seed", [11, 12, 13, 14, 15, 16])
def test_incremental_memory_equals_a_rebuild_after_random_ingest_edit_delete(
    user, seed, jobs_inline, django_capture_on_commit_callbacks
):
    user.first_name = "Sam"
    user.save(update_fields=["first_name"])
    if seed % 2:
        # Nationalities are kept only under this policy: read from the claims ingest kept.
        MemoryPolicy.objects.create(user=user, persist_sensitive_facts=True, sensitive_purpose="t")
    _random_history(user, random.Random(seed), django_capture_on_commit_callbacks)
    incremental = _memory(user)
    assert incremental["plans"] and incremental["loops"] and incremental["facts"]
    kinds = {fact[1] for fact in incremental["facts"]}
    assert "relationship" in kinds
    assert ("nationality" in kinds) == bool(seed % 2)
    memory_rebuild(user=user)
    assert _memory(user) == incremental
    job = MemoryJob.objects.get(user=user)
    assert job.state == MemoryJobState.IDLE and job.runs_count > 0
    assert (job.pending_chat_ids, job.running_chat_ids) == ([], [])


def test_ingests_while_the_job_is_queued_send_one_task(
    user, monkeypatch, django_capture_on_commit_callbacks
):
    sent: list[tuple[str, list[int]]] = []
    monkeypatch.setattr(receivers, "task_send", lambda name, *, args: sent.append((name, args)))
    chat = chat_of("dm-ana", "Ana")
    for index in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            ingest(user, chat, say(f"{index}", T0 + timedelta(hours=index), "could you call me?"))
    assert sent == [("memory.run_job", [user.pk])]
    job = MemoryJob.objects.get(user=user)
    assert job.state == MemoryJobState.QUEUED
    assert job.pending_since == T0 and len(job.pending_chat_ids) == 1

    run = jobs.memory_job_run(user_id=user.pk, worker_id="w1")
    assert run is not None and run.runs == 1
    job.refresh_from_db()
    assert job.state == MemoryJobState.IDLE and job.pending_chat_ids == []
    assert Loop.objects.filter(user=user).count() == 3
    # Nothing pending: a duplicate delivery claims nothing.
    assert jobs.memory_job_run(user_id=user.pk, worker_id="w2") is None


def test_a_job_held_by_a_live_worker_is_not_claimed_and_a_dead_one_is_taken_over(
    user, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(receivers, "task_send", lambda name, *, args: None)
    with django_capture_on_commit_callbacks(execute=True):
        ingest(user, chat_of("dm-ana", "Ana"), say("1", T0, "could you call me?"))
    job = jobs._claim(user_id=user.pk, worker_id="w1")
    assert job is not None and job.running_chat_ids and job.pending_chat_ids == []
    assert jobs.memory_job_run(user_id=user.pk, worker_id="w2") is None
    assert Loop.objects.filter(user=user).count() == 0

    MemoryJob.objects.filter(pk=job.pk).update(lease_expires_at=T0)
    assert jobs.memory_jobs_stranded() == [user.pk]
    run = jobs.memory_job_run(user_id=user.pk, worker_id="w2")
    assert run is not None
    job.refresh_from_db()
    assert (job.state, job.attempts, job.running_chat_ids) == (MemoryJobState.IDLE, 0, [])
    assert Loop.objects.filter(user=user).count() == 1


def test_ingest_keeps_each_messages_claims_as_it_now_reads(user, monkeypatch):
    monkeypatch.setattr(receivers, "task_send", lambda name, *, args: None)
    chat = chat_of("dm-ana", "Ana")
    ingest(user, chat, say("1", T0, "I moved to Berlin last month", sender="Ana"))
    ingest(user, chat, say("2", T0 + timedelta(hours=1), "thanks mom, love you"))
    claims = MessageClaim.objects.filter(user=user)
    assert sorted(claims.values_list("source", "value")) == [
        ("addressed", "mother"),
        ("self", "Berlin"),
        ("statement", "Berlin"),
    ]
    ingest(user, chat, say("1", T0, "ok see you", sender="Ana"))
    ingest(user, chat, say("2", T0 + timedelta(hours=1), "", is_deleted=True))
    assert not MessageClaim.objects.filter(user=user).exists()


def test_ingest_marks_the_users_own_trip_messages_and_the_latest_trip_follows_edits(
    user, monkeypatch
):
    monkeypatch.setattr(receivers, "task_send", lambda name, *, args: None)
    chat = chat_of("dm-ana", "Ana")
    ingest(user, chat, say("1", T0, "off to Reykjavik tomorrow, bye all"))
    # A friend coming home is not the user's trip.
    ingest(user, chat, say("2", T0 + timedelta(days=3), "back home at last", sender="Ana"))
    ingest(user, chat, say("3", T0 + timedelta(days=9), "finally home, what a week"))
    travel = MessageClaim.objects.filter(user=user, source=MessageClaimSource.TRAVEL)
    assert sorted(travel.values_list("message__platform_message_id", "value")) == [
        ("1", "leaving"),
        ("3", "back"),
    ]
    now = T0 + timedelta(days=20)
    assert latest_trip(user=user, now=now) == Trip(left=T0, back=T0 + timedelta(days=9))

    # The return is edited away: the user is still away, from the day they left.
    ingest(user, chat, say("3", T0 + timedelta(days=9), "what a week"))
    assert latest_trip(user=user, now=now) == Trip(left=T0, back=None)
    ingest(user, chat, say("1", T0, "", is_deleted=True))
    assert latest_trip(user=user, now=now) is None
    assert not travel.exists()


def test_the_migration_marks_trips_of_messages_ingested_before_trips_were_read(user, monkeypatch):
    from django.apps import apps

    backfill = importlib.import_module("memory.migrations.0010_message_claim_travel")
    monkeypatch.setattr(receivers, "task_send", lambda name, *, args: None)
    chat = chat_of("dm-ana", "Ana")
    ingest(user, chat, say("1", T0, "landed in Lima!! my brother Leo is visiting next week"))
    travel = MessageClaim.objects.filter(user=user, source=MessageClaimSource.TRAVEL)
    kept = sorted(MessageClaim.objects.filter(user=user).values_list("position", "source", "value"))
    travel.delete()

    backfill.travel_claims_backfill(apps, None)

    after = MessageClaim.objects.filter(user=user).values_list("position", "source", "value")
    assert sorted(after) == kept
    assert list(travel.values_list("value", flat=True)) == ["arrived"]
