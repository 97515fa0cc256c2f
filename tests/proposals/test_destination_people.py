"""Who a message goes to: the contact the question names in full, in their own direct chat."""

from __future__ import annotations

from datetime import timedelta

import pytest

from proposals.models import Proposal
from retrieval.memory import services as memory_services
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
