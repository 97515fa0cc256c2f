"""Who a message goes to: the contact the question names in full, in their own direct chat."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory import services as memory_services
from proposals.models import Proposal
from tests.memory.helpers import chat_of, ingest, say
from tests.proposals.support import NOW, chat, history, person, propose

pytestmark = pytest.mark.django_db


def test_a_full_name_picks_the_contact_saved_with_its_initial(user):
    history(user)
    ingest(
        user,
        chat_of("dm-teo-n", "Teo Navarro"),
        *[say(f"n{i}", NOW - timedelta(days=3, hours=i), f"report draft {i}") for i in range(5)],
    )
    ingest(
        user,
        chat_of("dm-teo-b", "Teo B"),
        say("b1", NOW - timedelta(days=2), "see you at the track", sender="Teo B"),
    )
    view = propose(user, "Message Teo Blackwood that I'll be at his place by six")
    assert view is not None
    proposal = Proposal.objects.get(pk=view.proposal_id)
    assert proposal.destination_chat == chat(user, "dm-teo-b")
    assert proposal.destination_person == person(user, "Teo B")


def test_a_message_goes_to_the_persons_own_chat_but_a_reply_goes_where_they_asked(user):
    ingest(
        user,
        chat_of("dm-ivo", "Ivo Mares"),
        say("d1", NOW - timedelta(days=4), "thanks for the lift!"),
        say("d2", NOW - timedelta(days=4, minutes=-3), "any time", sender="Ivo Mares"),
    )
    ingest(
        user,
        chat_of("grp-band", "Ivo Mares", "Lu Tan", kind="group"),
        say("g0", NOW - timedelta(days=1, minutes=10), "I'm sorting the gear for Friday"),
        say(
            "g1",
            NOW - timedelta(days=1),
            "Can you bring the amp on Friday?",
            sender="Ivo Mares",
            reply_to="g0",
        ),
    )
    memory_services.memory_refresh(
        user=user,
        chat_ids=[chat(user, "dm-ivo").pk, chat(user, "grp-band").pk],
    )
    told = propose(user, "Text Ivo Mares that the amp is in my car", request_id="req-text")
    replied = propose(user, "Reply to Ivo about the amp", request_id="req-reply")
    assert told is not None and replied is not None
    assert Proposal.objects.get(pk=told.proposal_id).destination_chat == chat(user, "dm-ivo")
    assert Proposal.objects.get(pk=replied.proposal_id).destination_chat == chat(user, "grp-band")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Message Pia Sol on Slack that the slides are ready", "sl-pia"),
        ("Email Pia Sol that the slides are ready", "em-pia"),
        ("Message Pia Sol that the slides are ready", "wa-pia"),
        ("Tell Pia Sol that I read her email", "wa-pia"),
    ],
)
def test_a_platform_the_question_asks_for_picks_that_direct_chat(user, question, expected):
    for chat_id, platform, count in (("wa-pia", "whatsapp", 6), ("sl-pia", "slack", 2)):
        ingest(
            user,
            chat_of(chat_id, "Pia Sol", platform=platform),
            *[
                say(
                    f"{chat_id}-{i}",
                    NOW - timedelta(days=2, hours=i),
                    f"note {i}",
                    platform=platform,
                )
                for i in range(count)
            ],
        )
    ingest(
        user,
        chat_of("em-pia", "Pia Sol", platform="email"),
        say("e1", NOW - timedelta(days=9), "Slides attached", sender="Pia Sol", platform="email"),
    )
    view = propose(user, question)
    assert view is not None
    assert Proposal.objects.get(pk=view.proposal_id).destination_chat == chat(user, expected)


def test_someone_with_no_direct_chat_is_reached_in_the_group_where_they_last_wrote(user):
    ingest(
        user,
        chat_of("grp-old", "Uma Reyes", "Lu Tan", kind="group"),
        say("o1", NOW - timedelta(days=30), "old news", sender="Uma Reyes"),
    )
    ingest(
        user,
        chat_of("grp-choir", "Uma Reyes", "Lu Tan", kind="group"),
        say("c1", NOW - timedelta(days=2), "rehearsal moved to 7", sender="Uma Reyes"),
    )
    view = propose(user, "Ask Uma Reyes if she needs a lift")
    assert view is not None
    proposal = Proposal.objects.get(pk=view.proposal_id)
    assert proposal.destination_chat == chat(user, "grp-choir")
    assert proposal.destination_person == person(user, "Uma Reyes")


def test_nobody_the_user_shares_a_chat_with_gets_no_proposal(user):
    history(user)
    assert propose(user, "Ask Uma Reyes if she needs a lift") is None
