"""Two recipient and loop rules, on histories written for the tests: of the open loops with
the recipient in the chat a draft goes to, their unanswered ask is followed up first and the
user's own open request or promise there after it; and a stranger who signs with a short form
of their own name ("— Liz" from Elizabeth) is the contact that short form names, while a
stranger signing with a name that is not theirs is nobody's."""

from __future__ import annotations

from datetime import timedelta

import pytest

from conversations.models import Chat
from memory import services as memory_services
from tests.memory.helpers import chat_of, ingest, say
from tests.proposals.support import NOW, propose

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


def _refresh(user) -> None:
    memory_services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def loops_history(user) -> None:
    """Ottilie asked the user something, then the user asked her something in the same chat
    (both open); Ferran only has the user's request; the user promised Greta something, then
    she asked."""
    ingest(
        user,
        chat_of("dm-ottilie", "Ottilie Varga"),
        say("o0", NOW - 6 * DAY, "Hey Ottilie, great seeing you at the market"),
        say(
            "o1",
            NOW - 4 * DAY,
            "Can you lend me your bike pump on Thursday?",
            sender="Ottilie Varga",
        ),
        say("o2", NOW - 2 * DAY, "Also could you send me the recipe for the lentil soup?"),
    )
    ingest(
        user,
        chat_of("dm-ferran", "Ferran Soler"),
        say("f0", NOW - 6 * DAY, "Hi Ferran, thanks for the lift"),
        say("f1", NOW - 3 * DAY, "Could you check if the garage has a spare key?"),
    )
    ingest(
        user,
        chat_of("dm-greta", "Greta Lind"),
        say("g0", NOW - 6 * DAY, "Hi Greta! Back from Oslo?"),
        say("g1", NOW - 5 * DAY, "Did you find my umbrella in your car?", sender="Greta Lind"),
        say("g2", NOW - 4 * DAY, "Yes! I'll bring back your umbrella next time"),
        say(
            "g3",
            NOW - 2 * DAY,
            "Can you sing the alto part at the concert on Friday?",
            sender="Greta Lind",
        ),
    )
    _refresh(user)


@pytest.mark.parametrize(
    ("question", "first", "after"),
    [
        (
            "follow up with Ottilie",
            "Sorry for the slow reply to your question from",
            "Also, just following up on my question from",
        ),
        (
            "message ottilie",
            "I'll check whether I can lend you my bike pump on Thursday",
            "could you send me the recipe for the lentil soup?",
        ),
        (
            "text Greta",
            "I'll check whether I can sing the alto part at the concert on Friday",
            "Also, I haven't forgotten that I said I'd bring back your umbrella",
        ),
    ],
)
def test_their_ask_comes_first_and_the_users_own_loop_after(user, question, first, after):
    loops_history(user)
    view = propose(user, question)
    assert view is not None
    text = view.draft_text
    assert first in text and after in text
    assert text.index(first) < text.index(after)


def test_with_no_ask_open_the_users_own_request_is_followed_up(user):
    loops_history(user)
    view = propose(user, "follow up with Ferran")
    assert view is not None
    assert "could you check if the garage has a spare key?" in view.draft_text
    assert "Sorry for the slow reply" not in view.draft_text
    assert "Also," not in view.draft_text


def signed_history(user) -> None:
    """Strangers (never written to): Elizabeth signs "Liz", Alexis "Lexi", Katarina "Rina";
    Kevin signs "Jo", which is no form of his name. The user writes to Rui."""
    for chat_id, name, text in (
        ("dm-eliz", "Elizabeth Marsh", "Hello, is the bike still for sale?\n— Liz"),
        ("dm-alexis", "Alexis Moreau", "Hi, I found your number on the club list.\nCheers, Lexi"),
        ("dm-katarina", "Katarina Novak", "Is the room free from June?\n- Rina"),
        ("dm-kevin", "Kevin Ortiz", "Is the sofa still available?\n- Jo"),
    ):
        ingest(user, chat_of(chat_id, name), say(f"{chat_id}-1", NOW - 2 * DAY, text, sender=name))
    ingest(
        user,
        chat_of("dm-rui", "Rui Costa"),
        say("r1", NOW - 2 * DAY, "Hey Rui, how was the trip?"),
        say("r2", NOW - 2 * DAY + HOUR, "great, thanks!", sender="Rui Costa"),
    )
    _refresh(user)


@pytest.mark.parametrize(
    ("question", "chat_id", "greeting"),
    [
        ("reply to liz that the bike is sold", "dm-eliz", "Hi Liz,"),
        ("text lexi that the club meets on tuesdays", "dm-alexis", "Hi Lexi,"),
        ("tell rina the room is free from the 1st", "dm-katarina", "Hi Rina,"),
    ],
)
def test_a_stranger_signing_a_short_form_of_their_own_name_is_its_recipient(
    user, question, chat_id, greeting
):
    signed_history(user)
    view = propose(user, question)
    assert view is not None
    assert view.chat_title == Chat.objects.get(user=user, platform_chat_id=chat_id).title
    assert view.draft_text.startswith(greeting)


def test_a_stranger_signing_a_name_that_is_not_theirs_is_nobody(user):
    signed_history(user)
    assert propose(user, "reply to jo that the sofa is gone") is None
