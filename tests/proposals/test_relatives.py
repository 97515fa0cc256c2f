"""An action request to a relative: "mom" is the person memory knows as the user's mother."""

from __future__ import annotations

from datetime import timedelta

import pytest

from conversations.models import Chat
from memory import services as memory_services
from proposals.models import Proposal
from tests.assistant.conftest import ask
from tests.memory.helpers import chat_of, ingest, say
from tests.proposals.support import T0, chat, person

pytestmark = pytest.mark.django_db(transaction=True)


def _family(user) -> None:
    ingest(
        user,
        chat_of("dm-parent", "Hanna Berg"),
        say("h0", T0 - timedelta(days=3), "Mum, did you get home ok?"),
        say(
            "h1",
            T0,
            "What does Pia want for her birthday? Could you tell me before Friday?\nLove, Mom",
            sender="Hanna Berg",
        ),
    )
    ingest(
        user,
        chat_of("dm-pia", "Pia Holm"),
        say(
            "p1", T0 - timedelta(days=1), "I really want new running headphones", sender="Pia Holm"
        ),
    )
    memory_services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def test_reply_to_mom_goes_to_the_users_mother_and_the_answer_shows_the_draft(user):
    _family(user)
    reply = ask(user, question="reply to mom about what Pia wants for her birthday")
    chunks = reply.chunks
    proposals = [c for c in chunks if c["type"] == "data-proposal"]
    assert len(proposals) == 1
    stored = Proposal.objects.get(user=user)
    assert stored.destination_person == person(user, "Hanna Berg")
    assert stored.destination_chat == chat(user, "dm-parent")
    text = "".join(c["delta"] for c in chunks if c["type"] == "text-delta")
    assert "**Draft for Hanna Berg**" in text
    assert proposals[0]["data"]["display"]["draftText"] in text
    assert "waiting for your approval" in text
    assert "Hey Hanna" in text or "Hi Hanna" in text


def test_with_no_known_mother_there_is_no_proposal(user):
    ingest(
        user,
        chat_of("dm-pia", "Pia Holm"),
        say("p1", T0, "I really want new running headphones", sender="Pia Holm"),
    )
    reply = ask(user, question="reply to mom about what Pia wants for her birthday")
    assert not [c for c in reply.chunks if c["type"] == "data-proposal"]
    assert not Proposal.objects.filter(user=user).exists()
