"""Stream heartbeats: one statement renews every streaming turn of a process, each only for
its owner and only while it streams."""

from __future__ import annotations

import asyncio

import pytest
from django.utils import timezone

from assistant.leases import stream_lease
from assistant.models import Turn, TurnStatus
from assistant.services import LeaseRenewal, turn_leases_renew
from tests.factories import AssistantTurnFactory, ThreadFactory, UserTurnFactory


def _streaming_turn(user):
    thread = ThreadFactory(user=user)
    return AssistantTurnFactory(
        user_turn=UserTurnFactory(thread=thread),
        status=TurnStatus.STREAMING,
        text="",
        lease_expires_at=timezone.now(),
    )


@pytest.mark.django_db
def test_one_statement_renews_every_streaming_turn_for_its_owner_only(
    user, other_user, django_assert_num_queries
):
    mine, theirs, foreign_claim = (
        _streaming_turn(user),
        _streaming_turn(other_user),
        _streaming_turn(other_user),
    )
    ended = _streaming_turn(user)
    Turn.objects.filter(pk=ended.pk).update(status=TurnStatus.COMPLETED, text="Final answer.")
    before = timezone.now()

    with django_assert_num_queries(1):
        streaming = turn_leases_renew(
            renewals=[
                LeaseRenewal(user_id=user.pk, assistant_turn_id=mine.pk, text="Dinner is"),
                LeaseRenewal(user_id=other_user.pk, assistant_turn_id=theirs.pk, text="Lunch é"),
                # Another user's id with this turn: not renewed.
                LeaseRenewal(user_id=user.pk, assistant_turn_id=foreign_claim.pk, text="x"),
                LeaseRenewal(user_id=user.pk, assistant_turn_id=ended.pk, text="Dinner"),
            ]
        )

    assert streaming == {mine.pk, theirs.pk}
    mine.refresh_from_db()
    theirs.refresh_from_db()
    foreign_claim.refresh_from_db()
    ended.refresh_from_db()
    assert (mine.text, theirs.text) == ("Dinner is", "Lunch é")
    assert mine.lease_expires_at > before and theirs.lease_expires_at > before
    assert foreign_claim.text == "" and foreign_claim.lease_expires_at <= before
    assert (ended.status, ended.text) == (TurnStatus.COMPLETED, "Final answer.")
    assert turn_leases_renew(renewals=[]) == set()


@pytest.mark.django_db(transaction=True)
def test_streams_of_one_process_share_one_heartbeat(user, other_user, settings):
    settings.ASSISTANT_STREAM_HEARTBEAT_SECONDS = 0.05
    first, second = _streaming_turn(user), _streaming_turn(other_user)
    texts = {first.pk: "One", second.pk: "Two words"}

    async def stream_both() -> None:
        async with (
            stream_lease(
                user=user, assistant_turn_id=first.pk, text_so_far=lambda: texts[first.pk]
            ),
            stream_lease(
                user=other_user, assistant_turn_id=second.pk, text_so_far=lambda: texts[second.pk]
            ),
        ):
            await asyncio.sleep(0.5)
        # Both left: nothing renews them any more.
        texts[first.pk] = texts[second.pk] = "changed after the stream"
        await asyncio.sleep(0.3)

    asyncio.run(stream_both())

    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.text, second.text) == ("One", "Two words")
