"""Message windows: neighbours in the same chat, overlaps merged, one query."""

import datetime as dt

import pytest
from django.utils import timezone

from retrieval.windows import SELF_SENDER_NAME, windows_expand
from tests.factories import ChatFactory, MessageFactory

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


def _chat_messages(chat, count, start=T0):
    return [
        MessageFactory(chat=chat, text=f"message {n}", sent_at=start + dt.timedelta(minutes=n))
        for n in range(count)
    ]


def test_window_has_neighbours_in_reading_order(user):
    chat = ChatFactory(user=user, title="Family")
    messages = _chat_messages(chat, 10)
    MessageFactory(chat=ChatFactory(user=user), sent_at=T0 + dt.timedelta(minutes=5))

    [window] = windows_expand(user=user, message_ids=[messages[5].pk], before=2, after=1)

    assert window.message_ids == tuple(m.pk for m in messages[3:7])
    assert window.hit_message_ids == (messages[5].pk,)
    assert window.primary_message_id == messages[5].pk
    assert [m.is_hit for m in window.messages] == [False, False, True, False]
    assert window.chat_id == chat.pk
    assert window.chat_title == "Family"
    assert window.platform == chat.platform


def test_window_stops_at_chat_edges(user):
    chat = ChatFactory(user=user)
    messages = _chat_messages(chat, 3)

    [window] = windows_expand(user=user, message_ids=[messages[0].pk], before=2, after=5)

    assert window.message_ids == tuple(m.pk for m in messages)


def test_same_timestamp_neighbours_are_ordered_by_id(user):
    chat = ChatFactory(user=user)
    same_time = [MessageFactory(chat=chat, sent_at=T0, text=f"burst {n}") for n in range(4)]

    [window] = windows_expand(user=user, message_ids=[same_time[1].pk], before=1, after=1)

    assert window.message_ids == (same_time[0].pk, same_time[1].pk, same_time[2].pk)


def test_overlapping_windows_merge_and_keep_hit_ranks(user):
    chat = ChatFactory(user=user)
    messages = _chat_messages(chat, 12)

    windows = windows_expand(
        user=user,
        message_ids=[messages[6].pk, messages[10].pk, messages[4].pk],
        before=1,
        after=1,
    )

    # Windows 3-5 and 5-7 share message 5 and merge; 9-11 stays apart.
    assert [w.message_ids for w in windows] == [
        tuple(m.pk for m in messages[3:8]),
        tuple(m.pk for m in messages[9:12]),
    ]
    assert windows[0].hit_message_ids == (messages[6].pk, messages[4].pk)
    assert windows[0].best_rank == 0
    assert windows[1].best_rank == 1


def test_windows_of_different_chats_never_merge(user):
    first, second = ChatFactory(user=user), ChatFactory(user=user)
    a = _chat_messages(first, 3)
    b = _chat_messages(second, 3)

    windows = windows_expand(user=user, message_ids=[a[1].pk, b[1].pk], before=1, after=1)

    assert [w.chat_id for w in windows] == [first.pk, second.pk]


def test_deleted_neighbours_are_skipped(user):
    chat = ChatFactory(user=user)
    messages = _chat_messages(chat, 5)
    messages[3].deleted_at = timezone.now()
    messages[3].save(update_fields=["deleted_at"])

    [window] = windows_expand(user=user, message_ids=[messages[2].pk], before=1, after=1)

    assert window.message_ids == (messages[1].pk, messages[2].pk, messages[4].pk)


def test_foreign_deleted_and_excluded_hits_are_dropped(user, other_user):
    foreign = MessageFactory(chat=ChatFactory(user=other_user))
    deleted = MessageFactory(chat=ChatFactory(user=user), deleted_at=timezone.now())
    excluded = MessageFactory(chat=ChatFactory(user=user, is_excluded_from_ai=True))

    windows = windows_expand(
        user=user, message_ids=[foreign.pk, deleted.pk, excluded.pk], before=2, after=2
    )

    assert windows == []


def test_sender_names_and_self(user):
    chat = ChatFactory(user=user)
    other = MessageFactory(chat=chat, sender_name="Ana", sent_at=T0)
    mine = MessageFactory(
        chat=chat,
        sender_person=None,
        sender_name="",
        is_from_self=True,
        sent_at=T0 + dt.timedelta(1),
    )

    [window] = windows_expand(user=user, message_ids=[other.pk], before=0, after=1)

    assert [(m.message_id, m.sender_name, m.is_from_self) for m in window.messages] == [
        (other.pk, "Ana", False),
        (mine.pk, SELF_SENDER_NAME, True),
    ]


def test_one_query_for_many_hits(user, django_assert_num_queries):
    chat = ChatFactory(user=user)
    messages = _chat_messages(chat, 40)

    with django_assert_num_queries(1):
        windows = windows_expand(
            user=user, message_ids=[m.pk for m in messages[::5]], before=2, after=2
        )

    assert len(windows) == 8


def test_ranked_message_ids_put_hits_first_then_nearest(user):
    chat = ChatFactory(user=user)
    messages = _chat_messages(chat, 7)

    [window] = windows_expand(user=user, message_ids=[messages[3].pk], before=2, after=2)

    assert window.ranked_message_ids() == [
        messages[3].pk,
        messages[2].pk,
        messages[4].pk,
        messages[1].pk,
        messages[5].pk,
    ]


def test_no_hits_no_query(user, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert windows_expand(user=user, message_ids=[], before=2, after=2) == []


def test_separate_hits_of_one_merged_window_each_lead_their_own_window(user):
    chat = ChatFactory(user=user)
    messages = _chat_messages(chat, 10)
    first, second, other = messages[3].pk, messages[6].pk, messages[5].pk

    windows = windows_expand(
        user=user,
        message_ids=[second, other, first],
        before=2,
        after=2,
        separate_ids=[first, second],
    )

    # Merged, the three hits span messages 1..8; cut at the two separate hits, each message
    # joins the nearer one (4 and 5 are nearer 3 and 6 respectively, 5 is a plain hit).
    assert [window.primary_message_id for window in windows] == [second, first]
    by_primary = {window.primary_message_id: window for window in windows}
    assert by_primary[first].message_ids == tuple(m.pk for m in messages[1:5])
    assert by_primary[second].message_ids == tuple(m.pk for m in messages[5:9])
    assert by_primary[second].hit_message_ids == (second, other)
    assert [window.best_rank for window in windows] == [0, 2]
    assert sorted(mid for window in windows for mid in window.message_ids) == sorted(
        m.pk for m in messages[1:9]
    )


def test_a_single_separate_hit_leaves_the_merged_window_whole(user):
    chat = ChatFactory(user=user)
    messages = _chat_messages(chat, 8)

    [window] = windows_expand(
        user=user,
        message_ids=[messages[2].pk, messages[4].pk],
        before=1,
        after=1,
        separate_ids=[messages[4].pk],
    )

    assert window.message_ids == tuple(m.pk for m in messages[1:6])
    assert window.primary_message_id == messages[2].pk
