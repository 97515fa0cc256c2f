"""A platform said as the verb of a request ("slack Ilse that …", "whatsapp Ilse …", "signal
Odo to say …") or as what is sent ("send Ilse a whatsapp"): an action request to that person,
on that platform when the user has a chat with them there, and said honestly when not."""

from __future__ import annotations

from datetime import timedelta

import pytest

from conversations.models import Chat
from memory import services as memory_services
from memory.recipient import platforms_asked, recipient_slot
from proposals.models import Proposal
from retrieval.compile import classify_intent, platform_verb
from retrieval.lexicon import fold_text
from retrieval.types import Intent
from tests.memory.helpers import chat_of, ingest, say
from tests.proposals.support import NOW, propose
from tests.proposals.test_recipients import groups_history

DAY = timedelta(days=1)


def two_platforms(user) -> None:
    """Ilse on WhatsApp (where the budget was discussed) and on Slack (newest, lunch); Odo on
    WhatsApp only; a Signal group with Odo in it."""
    ingest(
        user,
        chat_of("wa-ilse", "Ilse Marr"),
        say("w1", NOW - 8 * DAY, "Hi Ilse, the quarterly budget sheet is shared"),
        say("w2", NOW - 8 * DAY + timedelta(hours=1), "Thanks, will read", sender="Ilse Marr"),
    )
    ingest(
        user,
        chat_of("sl-ilse", "Ilse Marr", platform="slack"),
        say("s1", NOW - DAY, "Hey Ilse, lunch today?", platform="slack"),
        say("s2", NOW - DAY + timedelta(minutes=5), "Sure", sender="Ilse Marr", platform="slack"),
    )
    ingest(
        user,
        chat_of("wa-odo", "Odo Brandt"),
        say("o1", NOW - 3 * DAY, "Yo Odo, boat trip still on?"),
        say("o2", NOW - 3 * DAY + timedelta(minutes=2), "Yes", sender="Odo Brandt"),
    )
    memory_services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def proposal_of(view) -> Proposal:
    assert view is not None
    return Proposal.objects.select_related("destination_chat").get(pk=view.proposal_id)


@pytest.mark.parametrize(
    ("question", "platform"),
    [
        ("slack Ilse that the deploy moved to Friday", "slack"),
        ("Can you whatsapp Odo about the boat?", "whatsapp"),
        ("signal Odo to say I'm running late", "signal"),
        ("imessage Odo happy birthday", "imessage"),
        ("telegram Odo about the boat", "telegram"),
        ("sms Odo that I'm outside", "sms"),
        ("please Slack Ilse: the build is green", "slack"),
        ("send Ilse a whatsapp about lunch", "whatsapp"),
        ("shoot Odo a quick signal message saying hi", "signal"),
        ("Mándale un whatsapp a Odo que llego tarde", "whatsapp"),
    ],
)
def test_a_platform_said_as_the_verb_is_an_action_request_on_that_platform(question, platform):
    intent, _ = classify_intent(fold_text(question))
    assert intent == Intent.ACTION_REQUEST
    assert platform_verb(fold_text(question)) == platform
    assert platforms_asked(question) == {platform}


@pytest.mark.parametrize(
    "question",
    [
        "whatsapp messages from Odo last week",
        "slack channel updates?",
        "signal group plans this week",
        "Signal: did Odo reply?",
        "slack ilse's last message",
        "whatsapp today?",
        "telegram chats with Ilse",
    ],
)
def test_a_platform_named_as_what_to_search_is_no_request(question):
    intent, _ = classify_intent(fold_text(question))
    assert intent != Intent.ACTION_REQUEST
    assert platform_verb(fold_text(question)) is None


@pytest.mark.parametrize(
    "question",
    ["tell Odo the signal is weak up here", "text Odo a signal was down all day", "ping Odo"],
)
def test_a_platform_word_inside_what_to_say_asks_for_no_platform(question):
    assert platforms_asked(question) == set()


def test_the_recipient_follows_the_platform_verb():
    slot = recipient_slot("could you slack ilse that the deploy moved")
    assert slot is not None and slot.word == "ilse"
    slot = recipient_slot("whatsapp odo about the boat")
    assert slot is not None and slot.word == "odo"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "chat_id"),
    [
        # WhatsApp is where the budget was discussed, but Slack is asked for.
        ("slack Ilse about the quarterly budget", "sl-ilse"),
        # Slack is the newest chat and where lunch was discussed, but WhatsApp is asked for.
        ("whatsapp Ilse that lunch is on me", "wa-ilse"),
        ("send Ilse a whatsapp about lunch", "wa-ilse"),
        ("Whatsapp Odo about the boat", "wa-odo"),
    ],
)
def test_the_chat_on_the_platform_asked_for_is_the_destination(user, question, chat_id):
    two_platforms(user)
    view = propose(user, question)
    proposal = proposal_of(view)
    assert proposal.destination_chat.platform_chat_id == chat_id
    assert proposal.destination_person is not None
    assert proposal.destination_person.display_name in {"Ilse Marr", "Odo Brandt"}
    assert view.note == ""


@pytest.mark.django_db
def test_a_platform_the_recipient_is_not_on_is_said_and_the_best_chat_proposed(user):
    two_platforms(user)
    view = propose(user, "signal Odo to say I'm running late")
    proposal = proposal_of(view)
    assert proposal.destination_chat.platform_chat_id == "wa-odo"
    assert view.note == (
        "You have no Signal chat with Odo Brandt: the draft is for your WhatsApp chat instead."
    )
    assert "I'm running late." in view.draft_text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "line"),
    [
        ("slack Ilse that the deploy moved to Friday", "The deploy moved to Friday."),
        ("signal Odo to say I'm running late", "I'm running late."),
        ("Whatsapp Odo: the trailer is hitched", "The trailer is hitched."),
    ],
)
def test_what_to_say_after_a_platform_verb_is_the_message(user, question, line):
    two_platforms(user)
    view = propose(user, question)
    assert view is not None
    assert line in view.draft_text
    assert "slack" not in view.draft_text.casefold()
    assert "whatsapp" not in view.draft_text.casefold()


@pytest.mark.django_db
def test_a_group_reached_by_a_platform_verb_says_when_it_is_elsewhere(user):
    groups_history(user)
    on_whatsapp = propose(user, "whatsapp the Crag Rats that I'm in for Sunday")
    assert proposal_of(on_whatsapp).destination_chat.platform_chat_id == "grp-crag"
    assert on_whatsapp.note == ""
    assert "I'm in for Sunday." in on_whatsapp.draft_text
    on_telegram = propose(
        user, "telegram the Crag Rats that I'm bringing the rope", request_id="r2"
    )
    assert proposal_of(on_telegram).destination_chat.platform_chat_id == "grp-crag"
    assert on_telegram.note == (
        "Crag Rats \U0001f9d7 is not one of your Telegram chats: the draft is for it on "
        "WhatsApp instead."
    )
