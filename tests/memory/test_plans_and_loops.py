from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from claire.errors import NotFound
from conversations.models import Chat, ChatKind, Person
from fixtures.services import demo_corpus_load
from retrieval.memory import services
from retrieval.memory.models import Loop, LoopKind, LoopStatus, Plan, PlanStatus, PlanStep
from retrieval.memory.selectors import open_loops_for_user, plans_for_user
from tests.memory.helpers import beat_message_ids, chat_of, ingest, message_row, say

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 3, 18, 0, tzinfo=UTC)


def _refresh(user) -> None:
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def _plan_fixture(user):
    group = chat_of("crew", "Rita", "Leo", kind=ChatKind.GROUP)
    direct = chat_of("dm-leo", "Leo", platform="telegram")
    ingest(
        user,
        group,
        say("p1", T0, "Dinner Friday at 8 at Casa Nova?", sender="Leo"),
        say("p2", T0 + timedelta(minutes=5), "Count me in!", sender="Rita", reply_to="p1"),
        say("p3", T0 + timedelta(minutes=9), "Works for me"),
    )
    ingest(
        user,
        direct,
        say(
            "c1",
            T0 + timedelta(days=1),
            "Can we move Casa Nova to Saturday at 8 instead?",
            sender="Leo",
            platform="telegram",
        ),
    )
    ingest(
        user,
        group,
        say(
            "x1",
            T0 + timedelta(days=3),
            "Sorry all, I have to cancel, Casa Nova is off",
            sender="Leo",
        ),
    )
    return group, direct


def test_plan_timeline_links_messages_across_chats_and_ends_in_the_latest_status(user):
    _plan_fixture(user)
    _refresh(user)
    (plan,) = plans_for_user(user=user)
    assert (plan.activity, plan.place, plan.event_label, plan.status) == (
        "dinner",
        "Casa Nova",
        "Saturday at 8",
        PlanStatus.CANCELLED,
    )
    assert [(step.status, step.platform) for step in plan.steps] == [
        (PlanStatus.PROPOSED, "whatsapp"),
        (PlanStatus.CONFIRMED, "whatsapp"),
        (PlanStatus.CONFIRMED, "whatsapp"),
        (PlanStatus.CHANGED, "telegram"),
        (PlanStatus.CANCELLED, "whatsapp"),
    ]
    assert plan.message_ids == tuple(
        message_row(user, chat, mid).pk
        for chat, mid in [
            ("crew", "p1"),
            ("crew", "p2"),
            ("crew", "p3"),
            ("dm-leo", "c1"),
            ("crew", "x1"),
        ]
    )
    assert plans_for_user(user=user, terms=["casa nova"]) == [plan]
    assert plans_for_user(user=user, terms=["lunch"]) == []
    assert plans_for_user(user=user, statuses=[PlanStatus.CONFIRMED]) == []


def test_plan_steps_follow_send_time_not_import_order(user):
    group = chat_of("crew", "Rita", "Leo", kind=ChatKind.GROUP)
    # The cancellation is imported first, the proposal later: send time decides the order.
    ingest(
        user,
        group,
        say("x1", T0 + timedelta(hours=5), "I have to cancel Casa Nova, sorry", sender="Leo"),
    )
    ingest(user, group, say("p1", T0, "Dinner Friday at 8 at Casa Nova?", sender="Leo"))
    _refresh(user)
    (plan,) = plans_for_user(user=user)
    assert [step.status for step in plan.steps] == [PlanStatus.PROPOSED, PlanStatus.CANCELLED]
    assert plan.status == PlanStatus.CANCELLED


def test_deleting_a_step_message_removes_its_step_at_once_and_the_status_follows(user):
    group, _ = _plan_fixture(user)
    _refresh(user)
    ingest(user, group, say("x1", T0 + timedelta(days=3), "", sender="Leo", is_deleted=True))
    cancel_id = message_row(user, "crew", "x1").pk
    assert not PlanStep.objects.filter(message_id=cancel_id).exists()
    _refresh(user)
    (plan,) = plans_for_user(user=user)
    assert plan.status == PlanStatus.CHANGED
    assert cancel_id not in plan.message_ids


def test_plans_are_scoped_to_their_user(user, other_user):
    _plan_fixture(other_user)
    _refresh(other_user)
    _refresh(user)
    assert plans_for_user(user=user) == []
    assert Plan.objects.filter(user=user).count() == 0
    assert Plan.objects.filter(user=other_user).count() == 1


def test_question_loop_opens_and_closes_when_the_user_answers(user):
    user.first_name = "Sam"
    user.save()
    chat = chat_of("dm-rita", "Rita")
    ingest(user, chat, say("0", T0 - timedelta(days=1), "hi Rita"))
    ingest(user, chat, say("1", T0, "Could you lend me your drill?", sender="Rita"))
    _refresh(user)
    (loop,) = open_loops_for_user(user=user)
    assert (loop.kind, loop.person_name, loop.opened_by_message_id) == (
        LoopKind.QUESTION_TO_USER,
        "Rita",
        message_row(user, "dm-rita", "1").pk,
    )
    ingest(user, chat, say("2", T0 + timedelta(hours=1), "Sure, come by"))
    _refresh(user)
    assert open_loops_for_user(user=user) == []
    row = Loop.objects.get(user=user)
    assert (row.status, row.resolved_by_id) == (
        LoopStatus.RESOLVED,
        message_row(user, "dm-rita", "2").pk,
    )


def test_request_and_promise_loops(user):
    chat = chat_of("dm-leo", "Leo")
    ingest(
        user,
        chat,
        say("1", T0, "Could you send me the invoice?"),
        say("2", T0 + timedelta(minutes=1), "I'll send the contract tomorrow."),
        say("3", T0 + timedelta(minutes=2), "ok!", sender="Leo"),
    )
    _refresh(user)
    # Leo's "ok!" answers the request; the promise stays open.
    (loop,) = open_loops_for_user(user=user)
    assert (loop.kind, loop.opened_by_message_id) == (
        LoopKind.PROMISE_BY_USER,
        message_row(user, "dm-leo", "2").pk,
    )
    ingest(user, chat, say("4", T0 + timedelta(days=1), "The contract is attached"))
    _refresh(user)
    assert open_loops_for_user(user=user) == []


def test_a_chat_the_user_never_wrote_in_opens_no_question_loops(user):
    chat = chat_of("dm-prizes", "Prizes")
    ingest(user, chat, say("1", T0, "Do you want to claim your prize?", sender="Prizes"))
    _refresh(user)
    assert Loop.objects.filter(user=user).count() == 0


def test_closed_by_user_stays_closed_and_closing_is_scoped(user, other_user):
    chat = chat_of("dm-leo", "Leo")
    ingest(user, chat, say("1", T0, "Could you send me the invoice?"))
    _refresh(user)
    (loop,) = open_loops_for_user(user=user)
    with pytest.raises(NotFound):
        services.loop_close(user=other_user, loop_id=loop.loop_id, now=T0)
    assert Loop.objects.get(pk=loop.loop_id).status == LoopStatus.OPEN
    services.loop_close(user=user, loop_id=loop.loop_id, now=T0 + timedelta(days=1))
    _refresh(user)
    assert open_loops_for_user(user=user) == []
    assert Loop.objects.get(pk=loop.loop_id).status == LoopStatus.CLOSED_BY_USER


def test_deleting_the_opening_message_removes_the_loop(user):
    chat = chat_of("dm-leo", "Leo")
    ingest(user, chat, say("1", T0, "Could you send me the invoice?"))
    _refresh(user)
    assert Loop.objects.filter(user=user).count() == 1
    ingest(user, chat, say("1", T0, "", is_deleted=True))
    assert Loop.objects.filter(user=user).count() == 0


def test_loops_in_excluded_chats_are_not_read(user):
    chat = chat_of("dm-leo", "Leo")
    ingest(user, chat, say("1", T0, "Could you send me the invoice?"))
    _refresh(user)
    Chat.objects.filter(user=user).update(is_excluded_from_ai=True)
    assert open_loops_for_user(user=user) == []


def test_demo_corpus_open_loops_are_exactly_the_unresolved_story(user, demo_corpus):
    user.first_name = demo_corpus.self_name.split()[0]
    user.save()
    demo_corpus_load(user=user, corpus=demo_corpus)
    _refresh(user)
    loops = open_loops_for_user(user=user, limit=100)
    by_kind: dict[LoopKind, set[int]] = {}
    for loop in loops:
        by_kind.setdefault(loop.kind, set()).add(loop.opened_by_message_id)

    def ids(*keys: str) -> set[int]:
        return set().union(*(beat_message_ids(user, demo_corpus, key) for key in keys))

    deck_promise = message_row(
        user,
        "slack:dm-priya",
        demo_corpus.story["loop.unkept_promise.deck"].platform_message_ids[0],
    ).pk
    assert by_kind[LoopKind.QUESTION_TO_USER] == ids(
        "loop.unanswered_question.ana_flat",
        "loop.unanswered_question.priya_cohort",
        "loop.unanswered_question.dmitri_coffee",
        "loop.unkept_promise.deck_followup",
    )
    assert by_kind[LoopKind.REQUEST_BY_USER] == ids(
        "loop.unanswered_request.tom_load_test", "loop.unanswered_request.landlord_boiler"
    )
    assert by_kind[LoopKind.PROMISE_BY_USER] == {deck_promise}
    kept = ids("loop.kept_promise.photos_promised", "loop.kept_promise.beta_invite")
    assert (
        Loop.objects.filter(
            user=user,
            opened_by_id__in=kept,
            kind=LoopKind.PROMISE_BY_USER,
            status=LoopStatus.RESOLVED,
        ).count()
        == 2
    )
    answered = ids("loop.answered_request.rent_receipt")
    assert Loop.objects.get(user=user, opened_by_id__in=answered).status == LoopStatus.RESOLVED


def test_demo_corpus_taberna_plan_timeline(user, demo_corpus):
    demo_corpus_load(user=user, corpus=demo_corpus)
    _refresh(user)
    (plan,) = plans_for_user(user=user, terms=["taberna"])
    assert plan.status == PlanStatus.CANCELLED
    assert plan.event_label.startswith("Saturday")
    statuses = [step.status for step in plan.steps]
    assert statuses[0] == PlanStatus.PROPOSED
    assert statuses[-1] == PlanStatus.CANCELLED
    assert PlanStatus.CONFIRMED in statuses and PlanStatus.CHANGED in statuses
    assert {step.platform for step in plan.steps} == {"whatsapp", "telegram"}
    cited = set(plan.message_ids)
    for key in ("plan.taberna.proposed", "plan.taberna.changed", "plan.taberna.cancelled"):
        first = demo_corpus.story[key].evidence[0]
        assert message_row(user, first.platform_chat_id, first.platform_message_id).pk in cited


def test_refresh_task_derives_memory_and_returns_quietly_for_a_missing_user(user):
    from retrieval.memory.tasks import memory_refresh

    chat = chat_of("dm-leo", "Leo")
    ingest(user, chat, say("1", T0, "Could you send me the invoice?"))
    chat_id = Chat.objects.get(user=user).pk
    memory_refresh(user.pk, [chat_id])
    assert Loop.objects.filter(user=user, status=LoopStatus.OPEN).count() == 1
    memory_refresh(user.pk, [chat_id])
    assert Loop.objects.filter(user=user).count() == 1
    memory_refresh(10_000_000, [chat_id])
    assert Loop.objects.count() == 1


def _refresh_requests_recorded(monkeypatch, requested):
    from retrieval.memory import receivers

    def task_send(name, *, args):
        assert name == "memory.run_job"
        requested.append(tuple(args))

    monkeypatch.setattr(receivers, "task_send", task_send)


def test_ingest_marks_the_memory_job_and_sends_it_after_commit(
    user, django_capture_on_commit_callbacks, monkeypatch
):
    from retrieval.memory.models import MemoryJob, MemoryJobState

    requested: list[tuple[int, ...]] = []
    _refresh_requests_recorded(monkeypatch, requested)
    with django_capture_on_commit_callbacks(execute=True):
        ingest(user, chat_of("dm-leo", "Leo"), say("1", T0, "Could you send me the invoice?"))
    assert requested == [(user.pk,)]
    job = MemoryJob.objects.get(user=user)
    assert job.state == MemoryJobState.QUEUED
    assert (job.pending_chat_ids, job.pending_since) == ([Chat.objects.get(user=user).pk], T0)


def test_one_refresh_per_transaction_however_many_ingests(
    user, django_capture_on_commit_callbacks, monkeypatch
):
    from django.db import transaction

    from retrieval.memory.models import MemoryJob

    requested: list[tuple[int, ...]] = []
    _refresh_requests_recorded(monkeypatch, requested)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        ingest(user, chat_of("dm-leo", "Leo"), say("1", T0, "hi", sender="Leo"))
        ingest(user, chat_of("dm-rita", "Rita"), say("1", T0, "hi", sender="Rita"))
        ingest(user, chat_of("dm-leo", "Leo"), say("2", T0, "again", sender="Leo"))
    chat_ids = sorted(Chat.objects.filter(user=user).values_list("pk", flat=True))
    assert requested == [(user.pk,)]
    assert MemoryJob.objects.get(user=user).pending_chat_ids == chat_ids


def test_plans_are_found_by_words_of_their_steps_and_by_people(user):
    _plan_fixture(user)
    _refresh(user)
    leo = Person.objects.get(user=user, display_name="Leo")
    rita = Person.objects.get(user=user, display_name="Rita")
    assert [p.place for p in plans_for_user(user=user, terms=["saturday"])] == ["Casa Nova"]
    assert plans_for_user(user=user, terms=["birthday"]) == []
    assert [p.place for p in plans_for_user(user=user, person_ids=[leo.pk])] == ["Casa Nova"]
    assert [p.place for p in plans_for_user(user=user, person_ids=[rita.pk])] == ["Casa Nova"]
