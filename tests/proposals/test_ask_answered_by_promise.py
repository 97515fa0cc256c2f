"""When the thread a request follows is their ask ("any news on the seating plan?") and the
user had already promised what they ask about in that chat, the draft owns the promise
("the seating plan is late — I'll send it …") instead of offering to check; a promise about
something else stays a separate "Also, …" line."""

from __future__ import annotations

from datetime import timedelta

import pytest

from conversations.models import Chat
from memory import services as memory_services
from tests.memory.helpers import chat_of, ingest, say
from tests.proposals.support import NOW, propose

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def promised_then_asked(user, *, promise: str, ask: str) -> None:
    """Greta asked the user for something, the user promised, and days later Greta asks
    about it again in the same direct chat."""
    ingest(
        user,
        chat_of("dm-greta", "Greta Lind"),
        say("g0", NOW - 9 * DAY, "Welcome aboard Greta!"),
        say(
            "g1",
            NOW - 6 * DAY,
            "Could you put together the seating plan for the gala?",
            sender="Greta Lind",
        ),
        say("g2", NOW - 6 * DAY + timedelta(minutes=5), promise),
        say("g3", NOW - 2 * DAY, ask, sender="Greta Lind"),
    )
    memory_services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


@pytest.mark.parametrize(
    "question",
    [
        "reply to Greta about the seating plan",
        "message greta re the seating plan",
        "write to Greta regarding the seating plan",
    ],
)
def test_their_ask_about_what_the_user_promised_is_answered_with_the_promise(user, question):
    promised_then_asked(
        user,
        promise="Of course, I'll send you the seating plan on Monday.",
        ask="Hi! Any news on the seating plan? The venue wants it soon",
    )
    view = propose(user, question)
    assert view is not None
    text = view.draft_text
    assert "the seating plan is late \u2014 I'll send it to you as soon as I can." in text
    assert "I'll check" not in text
    assert "Also," not in text


def test_a_promise_about_another_thing_does_not_answer_their_ask(user):
    promised_then_asked(
        user,
        promise="Sure, I'll bring the spare projector cable on Friday.",
        ask="Hi! Any news on the seating plan? The venue wants it soon",
    )
    view = propose(user, "reply to Greta about the seating plan")
    assert view is not None
    text = view.draft_text
    assert "is late" not in text
    assert "seating plan" in text


@pytest.mark.parametrize(
    ("said", "promised"),
    [
        ("Sure, I'll send you the minutes on Monday.", "send you the minutes"),
        ("I will bring the ladder back by Friday!", "bring the ladder back"),
        ("ok I'll return the cake tin next week", "return the cake tin"),
        ("I'll print the Sunday rota", "print the Sunday rota"),
    ],
)
def test_a_day_said_with_the_promise_is_not_repeated_later(said, promised):
    from proposals.drafting.local import loop_promise

    assert loop_promise(said, question="message Greta") == promised
