from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from conversations.models import ChatKind, Person
from fixtures.services import demo_corpus_load
from memory.models import PersonChatDay
from memory.selectors import (
    people_ranking,
    reciprocity,
    relationship_metrics_for_user,
    relationship_strength,
)
from memory.services import relationship_counters_rebuild
from retrieval.types import RankingKind
from tests.memory.conftest import DEMO_NOW
from tests.memory.helpers import chat_of, ingest, message_row, say

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def _counters(user) -> dict[tuple[int, int, object], tuple[int, int]]:
    return {
        (row.person_id, row.chat_id, row.day): (row.received_count, row.sent_count)
        for row in PersonChatDay.objects.filter(user=user)
        if row.received_count or row.sent_count
    }


def test_direct_chat_counts_both_directions_on_the_users_local_day(user):
    user.timezone = "Asia/Tokyo"
    user.save()
    chat = chat_of("dm-ana", "Ana")
    ingest(
        user,
        chat,
        say("1", datetime(2026, 3, 9, 20, 0, tzinfo=UTC), "hi", sender="Ana"),
        say("2", datetime(2026, 3, 9, 20, 5, tzinfo=UTC), "hello"),
        say("3", datetime(2026, 3, 9, 10, 0, tzinfo=UTC), "morning", sender="Ana"),
    )
    ana = Person.objects.get(user=user, display_name="Ana")
    rows = {
        row.day.isoformat(): (row.received_count, row.sent_count)
        for row in PersonChatDay.objects.filter(user=user, person=ana)
    }
    # 20:00 UTC is 05:00 the next day in Tokyo.
    assert rows == {"2026-03-10": (1, 1), "2026-03-09": (1, 0)}


def test_group_messages_count_as_received_but_the_users_count_for_no_one(user):
    chat = chat_of("crew", "Ana", "Marco", kind=ChatKind.GROUP)
    ingest(
        user,
        chat,
        say("1", NOW - timedelta(hours=3), "dinner?", sender="Ana"),
        say("2", NOW - timedelta(hours=2), "yes", sender="Marco"),
        say("3", NOW - timedelta(hours=1), "me too"),
    )
    counts = {
        row.person.display_name: (row.received_count, row.sent_count)
        for row in PersonChatDay.objects.filter(user=user).select_related("person")
    }
    assert counts == {"Ana": (1, 0), "Marco": (1, 0)}


def test_deleting_a_message_takes_it_out_of_the_counts_and_edits_change_nothing(user):
    chat = chat_of("dm-ana", "Ana")
    ingest(
        user,
        chat,
        say("1", NOW - timedelta(hours=3), "hi", sender="Ana"),
        say("2", NOW - timedelta(hours=2), "hello"),
    )
    ingest(user, chat, say("1", NOW - timedelta(hours=3), "hi again", sender="Ana"))
    assert list(
        PersonChatDay.objects.filter(user=user).values_list("received_count", "sent_count")
    ) == [(1, 1)]
    ingest(user, chat, say("2", NOW - timedelta(hours=2), "", is_deleted=True))
    assert list(
        PersonChatDay.objects.filter(user=user).values_list("received_count", "sent_count")
    ) == [(1, 0)]


def test_counters_never_mix_users(user, other_user):
    chat = chat_of("dm-ana", "Ana")
    ingest(user, chat, say("1", NOW, "hi", sender="Ana"))
    ingest(other_user, chat, say("1", NOW, "hi", sender="Ana"), say("2", NOW, "yo"))
    mine = PersonChatDay.objects.get(user=user)
    theirs = PersonChatDay.objects.get(user=other_user)
    assert (mine.received_count, mine.sent_count) == (1, 0)
    assert (theirs.received_count, theirs.sent_count) == (1, 1)
    assert mine.person.user_id == user.pk and theirs.person.user_id == other_user.pk


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_incremental_counters_equal_an_offline_recount_after_random_ingest_edit_delete(user, seed):
    rng = random.Random(seed)
    chats = [
        chat_of("dm-ana", "Ana"),
        chat_of("dm-bo", "Bo"),
        chat_of("crew", "Ana", "Bo", "Cy", kind=ChatKind.GROUP),
    ]
    members = {"dm-ana": ["Ana"], "dm-bo": ["Bo"], "crew": ["Ana", "Bo", "Cy"]}
    sent: dict[str, list[tuple[str, datetime, str | None]]] = {
        c.platform_chat_id: [] for c in chats
    }
    for step in range(120):
        chat = rng.choice(chats)
        key = chat.platform_chat_id
        action = rng.random()
        if action < 0.6 or not sent[key]:
            sender = rng.choice([None, *members[key]])
            sent_at = NOW - timedelta(days=rng.randint(0, 400), minutes=rng.randint(0, 1440))
            message_id = f"m{step}"
            sent[key].append((message_id, sent_at, sender))
            ingest(user, chat, say(message_id, sent_at, f"text {step}", sender=sender))
        elif action < 0.8:
            message_id, sent_at, sender = rng.choice(sent[key])
            ingest(user, chat, say(message_id, sent_at, f"edited {step}", sender=sender))
        else:
            message_id, sent_at, sender = rng.choice(sent[key])
            ingest(user, chat, say(message_id, sent_at, "", sender=sender, is_deleted=True))
            # Re-sending a deleted message must not count it again.
            ingest(user, chat, say(message_id, sent_at, "back", sender=sender))
    incremental = _counters(user)
    assert sum(received + sent_ for received, sent_ in incremental.values()) > 0
    relationship_counters_rebuild(user=user)
    assert _counters(user) == incremental


def test_reciprocity_and_strength_follow_the_documented_formula():
    assert reciprocity(sent=10, received=0) == 0.0
    assert reciprocity(sent=5, received=10) == 0.5
    # (0.5 ln 11 + 0.3 ln 21 + 0.2 ln 41) x (0.5 + 0.5 x 0.5)
    assert relationship_strength(
        messages_30d=10, messages_90d=20, messages_365d=40, reciprocity_365d=0.5
    ) == pytest.approx(0.75 * (0.5 * 2.397895 + 0.3 * 3.044522 + 0.2 * 3.713572), abs=1e-4)


def test_metrics_cover_windows_platforms_and_reply_latency(user):
    chat = chat_of("dm-ana", "Ana")
    ingest(
        user,
        chat,
        say("1", NOW - timedelta(days=200), "old", sender="Ana"),
        say("2", NOW - timedelta(days=60), "question", sender="Ana"),
        say("3", NOW - timedelta(days=60) + timedelta(minutes=10), "answer"),
        say("4", NOW - timedelta(days=2), "ping", sender="Ana"),
        say("5", NOW - timedelta(days=2) + timedelta(minutes=30), "pong"),
    )
    telegram = chat_of("tg-ana", "Ana", platform="telegram")
    ingest(
        user, telegram, say("1", NOW - timedelta(days=1), "tg", sender="Ana", platform="telegram")
    )
    (ranked,) = [m for m in people_ranking(user=user, now=NOW, limit=5) if m.display_name == "Ana"]
    assert (ranked.received_30d, ranked.sent_30d) == (2, 1)
    assert (ranked.received_365d, ranked.sent_365d) == (4, 2)
    assert (ranked.received_90d, ranked.sent_90d) == (3, 2)
    assert ranked.active_days_90d == 3
    assert ranked.days_since_last_contact == 1
    assert ranked.platforms == ("telegram", "whatsapp")
    # Two answers inside 90 days: after 10 and after 30 minutes.
    assert ranked.reply_latency_median_seconds == pytest.approx((600 + 1800) / 2)
    assert len(ranked.representative_message_ids) == 3


def test_a_ranked_persons_messages_to_cite_come_from_their_direct_chat_first(user):
    ingest(
        user,
        chat_of("dm-ana", "Ana"),
        say("1", NOW - timedelta(days=9), "can you water the ferns?", sender="Ana"),
        say("2", NOW - timedelta(days=9) + timedelta(minutes=4), "sure thing"),
    )
    # Later, and more of them, in a group: the group's messages say nothing of the two of them.
    ingest(
        user,
        chat_of("choir", "Ana", "Bo", kind=ChatKind.GROUP),
        *[
            say(f"g{i}", NOW - timedelta(hours=i + 1), f"rehearsal note {i}", sender="Ana")
            for i in range(4)
        ],
    )
    (ana,) = [m for m in people_ranking(user=user, now=NOW, limit=5) if m.display_name == "Ana"]
    direct = {
        message_row(user, "dm-ana", "1").pk,
        message_row(user, "dm-ana", "2").pk,
    }
    assert set(ana.representative_message_ids[:2]) == direct


def test_without_a_direct_chat_a_ranked_persons_group_messages_are_cited(user):
    ingest(
        user,
        chat_of("choir", "Ana", "Bo", kind=ChatKind.GROUP),
        say("g1", NOW - timedelta(hours=3), "rehearsal moved to the hall", sender="Ana"),
    )
    (ana,) = [m for m in people_ranking(user=user, now=NOW, limit=5) if m.display_name == "Ana"]
    assert ana.representative_message_ids == (message_row(user, "choir", "g1").pk,)


def test_demo_corpus_ranks_partner_then_best_friend_and_cites_their_messages(user, demo_corpus):
    demo_corpus_load(user=user, corpus=demo_corpus)
    ranked = people_ranking(user=user, now=DEMO_NOW, limit=3)
    assert [item.display_name for item in ranked[:2]] == ["Inês Carvalho", "Jonas Lindqvist"]
    ines = ranked[0]
    assert ines.platforms == ("imessage", "whatsapp")
    assert ines.reciprocity_365d > 0.8
    for item in ranked:
        assert 1 <= len(item.representative_message_ids) <= 3
    # The incremental counters at load equal an offline recount of the same messages.
    before = _counters(user)
    relationship_counters_rebuild(user=user)
    assert _counters(user) == before
    neglected = people_ranking(user=user, now=DEMO_NOW, kind=RankingKind.NEGLECTED, limit=10)
    assert all(item.days_since_last_contact >= 30 for item in neglected)
    assert "Inês Carvalho" not in {item.display_name for item in neglected}


def test_metrics_are_scoped_to_the_user(user, other_user):
    ingest(other_user, chat_of("dm-ana", "Ana"), say("1", NOW, "hi", sender="Ana"))
    assert relationship_metrics_for_user(user=user, now=NOW) == []
    assert people_ranking(user=user, now=NOW) == []


def test_ranking_reads_a_fixed_number_of_statements_however_many_people_it_shows(
    user, django_assert_max_num_queries
):
    for name in ("Ana", "Bo", "Cy", "Di", "Ed", "Flo"):
        chat = chat_of(f"dm-{name}", name)
        ingest(
            user,
            chat,
            say("1", NOW - timedelta(days=3), "are you around?", sender=name),
            say("2", NOW - timedelta(days=3) + timedelta(minutes=5), "yes, what's up"),
        )
    with django_assert_max_num_queries(4):
        ranked = people_ranking(user=user, now=NOW, limit=6)
    assert len(ranked) == 6
    for item in ranked:
        assert item.reply_latency_median_seconds == pytest.approx(300)
        assert len(item.representative_message_ids) == 2
