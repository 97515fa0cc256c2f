"""A request that names a topic ("about the budget sheet", "re the sheets", "regarding the
budget", "on the garage keys") follows the open loop with that person whose text says it, in
the chat where it was raised, whatever their newest ask elsewhere; and a draft for the user's
own promise owns it. With no loop saying the topic, their unanswered ask comes first."""

from __future__ import annotations

from datetime import timedelta

import pytest

from conversations.models import Chat
from memory import services as memory_services
from proposals.drafting.local import owned_promise
from tests.memory.helpers import chat_of, ingest, say
from tests.proposals.support import NOW, propose

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def topic_history(user) -> None:
    """The user promised Odalys the budget sheet in the choir group; later, in their direct
    chat, Odalys asked the user about the sheet music. The user asked Bertil, in the flat
    group, to return the garage keys; Bertil later asked something in their direct chat."""
    ingest(
        user,
        chat_of("dm-odalys", "Odalys Brandt"),
        say("d0", NOW - 6 * DAY, "Hi Odalys, lovely to meet you at the fair"),
        say(
            "d1",
            NOW - 2 * DAY,
            "Hey, can you pick up the sheet music from the library on Thursday?",
            sender="Odalys Brandt",
        ),
    )
    ingest(
        user,
        chat_of("group-choir", "Odalys Brandt", "Pim Vos", kind="group"),
        say("c0", NOW - 4 * DAY, "Rehearsal moved to 7", sender="Pim Vos"),
        say("c1", NOW - 4 * DAY + timedelta(hours=2), "Thanks Pim, I'll be there"),
        say("c2", NOW - 3 * DAY, "Could you share last year's figures?", sender="Odalys Brandt"),
        say(
            "c3",
            NOW - 3 * DAY + timedelta(hours=1),
            "Sure Odalys! I'll send you the budget sheet tomorrow",
        ),
    )
    ingest(
        user,
        chat_of("group-flat", "Bertil Ek", "Pim Vos", kind="group"),
        say("f0", NOW - 6 * DAY, "Welcome to the flat chat", sender="Pim Vos"),
        say("f1", NOW - 5 * DAY, "Bertil, could you return the garage keys to me this week?"),
    )
    ingest(
        user,
        chat_of("dm-bertil", "Bertil Ek"),
        say("b0", NOW - 7 * DAY, "Hi Bertil, welcome to the building"),
        say("b1", NOW - 2 * DAY, "Are you coming to the barbecue on Sunday?", sender="Bertil Ek"),
    )
    memory_services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def _chat_id(view) -> str:
    return Chat.objects.get(pk=view.chat_id).platform_chat_id


@pytest.mark.parametrize(
    "question",
    [
        "Draft a reply to Odalys about the budget sheet",
        "message Odalys re the budget sheets",
        "write to odalys regarding the budget",
    ],
)
def test_a_named_topic_follows_the_promise_that_says_it_and_owns_it(user, question):
    topic_history(user)
    view = propose(user, question)
    assert view is not None
    assert _chat_id(view) == "group-choir"
    text = view.draft_text
    assert "Sorry, the budget sheet is late \u2014 I'll send it to you as soon as I can." in text
    assert "sheet music" not in text and "I'll check" not in text


@pytest.mark.parametrize(
    "question", ["nudge Bertil on the garage keys", "remind Bertil about the keys for the garage"]
)
def test_a_named_topic_follows_the_users_request_in_the_group_it_was_raised(user, question):
    topic_history(user)
    view = propose(user, question)
    assert view is not None
    assert _chat_id(view) == "group-flat"
    assert "barbecue" not in view.draft_text


def test_with_no_loop_saying_the_topic_their_ask_comes_first(user):
    topic_history(user)
    view = propose(user, "reply to Odalys about the ferry timetable")
    assert view is not None
    assert _chat_id(view) == "dm-odalys"
    assert "budget" not in view.draft_text


@pytest.mark.parametrize(
    ("promised", "owned"),
    [
        ("send the deck", "Sorry, the deck is late \u2014 I'll send it as soon as I can."),
        (
            "send you the photos",
            "Sorry, the photos are late \u2014 I'll send them to you as soon as I can.",
        ),
        (
            "bring back your umbrella",
            "Sorry this is taking me a while \u2014 I'll bring back your umbrella as soon as I"
            " can.",
        ),
        (
            "return your drill to the shed",
            "Sorry, your drill is late \u2014 I'll return it to the shed as soon as I can.",
        ),
    ],
)
def test_a_promise_is_owned(promised, owned):
    assert owned_promise(promised) == owned
