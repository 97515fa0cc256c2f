"""How much the loop rules read: the cross-chat pass reads what every loop needs once (one
candidate read per loop, whatever the number of people and deliveries), and a loop half a
year old is answered in its chat only by a reply to it, the same whether the chat is read
whole or from a new batch on."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from conversations.models import ChatKind
from memory import services
from memory.closure import loops_close_across_chats
from memory.models import Loop, LoopKind, LoopStatus
from tests.memory.helpers import chat_of, ingest, say

pytestmark = pytest.mark.django_db

START = datetime(2026, 5, 4, 10, 0, tzinfo=UTC)
FRIENDS = ("Odile", "Brann", "Cosmo", "Delphine", "Evander", "Fenna")


def _promises_in_groups(user, names):
    """Each friend asks in a group for a different thing and the user promises it; each
    friend also has a direct chat with the user where nothing is delivered."""
    for index, name in enumerate(names):
        at = START + timedelta(hours=index)
        group = chat_of(f"club-{name}", name, "Zora", kind=ChatKind.GROUP)
        ingest(
            user,
            group,
            say(
                f"{name}-ask", at, f"could you lend me the tripod{index} for saturday?", sender=name
            ),
            say(f"{name}-promise", at + timedelta(minutes=5), f"yes I'll bring the tripod{index}"),
        )
        ingest(user, chat_of(f"dm-{name}", name), say(f"{name}-hi", at, "hey, long time!"))
    services.loops_refresh(user=user, chat_ids=[chat.pk for chat in user.chats.all()])


def _statements_of_the_cross_chat_pass(user) -> int:
    with CaptureQueriesContext(connection) as captured:
        loops_close_across_chats(user=user)
    return len(captured.captured_queries)


def test_the_cross_chat_pass_reads_once_per_loop(user):
    _promises_in_groups(user, FRIENDS[:2])
    two = Loop.objects.filter(user=user, status=LoopStatus.OPEN).count()
    with_two = _statements_of_the_cross_chat_pass(user)
    _promises_in_groups(user, FRIENDS[2:])
    six = Loop.objects.filter(user=user, status=LoopStatus.OPEN).count()
    with_six = _statements_of_the_cross_chat_pass(user)
    assert (two, six) == (2, 6)
    # One candidate read per loop; names, answered messages and deliveries read once.
    assert with_six - with_two == six - two


def _old_question(user):
    chat = chat_of("dm-ottilie", "Ottilie")
    ingest(
        user,
        chat,
        say("hello", START, "hi Ottilie!"),
        say(
            "ask",
            START + timedelta(hours=1),
            "could you send me the scan of the deed?",
            sender="Ottilie",
        ),
    )
    services.loops_refresh(user=user, chat_ids=[c.pk for c in user.chats.all()])
    return chat


def _question_loop(user):
    return Loop.objects.get(user=user, kind=LoopKind.QUESTION_TO_USER)


def test_a_message_half_a_year_later_answers_no_old_question(user):
    chat = _old_question(user)
    later = START + timedelta(days=200)
    ingest(user, chat, say("later", later, "happy new year!"))
    services.loops_update(user=user, chat_ids=[_question_loop(user).chat_id], since=later)
    assert _question_loop(user).status == LoopStatus.OPEN
    services.loops_refresh(user=user, chat_ids=[_question_loop(user).chat_id])
    assert _question_loop(user).status == LoopStatus.OPEN


def test_a_reply_to_an_old_question_still_answers_it(user):
    chat = _old_question(user)
    later = START + timedelta(days=200)
    ingest(user, chat, say("later", later, "sorry, found it at last", reply_to="ask"))
    services.loops_update(user=user, chat_ids=[_question_loop(user).chat_id], since=later)
    loop = _question_loop(user)
    assert loop.status == LoopStatus.RESOLVED
    assert loop.resolved_by.text == "sorry, found it at last"
    services.loops_refresh(user=user, chat_ids=[loop.chat_id])
    assert _question_loop(user).resolved_by_id == loop.resolved_by_id


def test_a_message_within_the_horizon_still_answers(user):
    chat = _old_question(user)
    later = START + timedelta(days=20)
    ingest(user, chat, say("later", later, "here, sorry for the wait"))
    services.loops_update(user=user, chat_ids=[_question_loop(user).chat_id], since=later)
    assert _question_loop(user).status == LoopStatus.RESOLVED


def _loops(user):
    return sorted(
        Loop.objects.filter(user=user).values_list(
            "opened_by_id", "kind", "status", "resolved_by_id"
        )
    )


def test_a_chat_the_user_never_wrote_in_is_not_read_until_they_do(user):
    chat = chat_of("dm-quillon", "Quillon")
    ingest(
        user,
        chat,
        say("q1", START, "could you send me your postal address?", sender="Quillon"),
        say("q2", START + timedelta(hours=1), "are you free on friday?", sender="Quillon"),
    )
    chat_id = user.chats.get().pk
    later = START + timedelta(days=1)
    ingest(user, chat, say("q3", later, "can you call me back tonight?", sender="Quillon"))
    # Nobody owes a reply where the user never wrote: nothing of the chat is read.
    assert services.loops_update(user=user, chat_ids=[chat_id], since=later) == 0
    assert _loops(user) == []

    # The user's first message there: the questions before it are asked of them.
    first = START + timedelta(days=2)
    ingest(user, chat, say("me", first, "hi! who is this, sorry?"))
    services.loops_update(user=user, chat_ids=[chat_id], since=first)
    incremental = _loops(user)
    assert {kind for _, kind, _, _ in incremental} == {LoopKind.QUESTION_TO_USER}
    services.loops_refresh(user=user, chat_ids=[chat_id])
    assert _loops(user) == incremental

    # Their only message there deleted: the chat owes nothing again.
    ingest(user, chat, say("me", first, "", is_deleted=True))
    assert services.loops_update(user=user, chat_ids=[chat_id], since=first) == 0
    assert _loops(user) == []
