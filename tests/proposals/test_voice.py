"""The greeting and the name a draft opens with are how the user opens messages to that
person: "Hey" or "Hi" or "Yo", the name alone ("Lou, …"), a short form ("Hey Fred")."""

from __future__ import annotations

from datetime import timedelta

import pytest

from conversations.models import Chat, Person
from proposals.drafting import DraftContext, Voice, local_draft, voice_for
from tests.memory.helpers import chat_of, ingest, say
from tests.proposals.support import NOW, propose
from tests.proposals.test_recipients import titled

pytestmark = pytest.mark.django_db

HOUR = timedelta(hours=1)


def _voice(user, chat_id: str, name: str | None) -> Voice:
    chat = Chat.objects.get(user=user, platform_chat_id=chat_id)
    person = Person.objects.get(user=user, display_name=name) if name else None
    return voice_for(chat=chat, person=person)


# (what the user wrote to them, oldest first; ``None`` as sender is the user) -> the voice.
LEARNED_VOICES = {
    "the usual greeting, whatever it is": (
        "Tarik Osei",
        (
            ("Yo Tarik, gym later?", None),
            ("ok see you there", "Tarik Osei"),
            ("yo tarik, running late", None),
            ("Hey, got the towel", None),
        ),
        Voice(greeting="Yo", address="Tarik"),
    ),
    "a word after the greeting is no name": (
        "Manon Fiske",
        (("hey man, all good?", None), ("hey how was the trip", None)),
        Voice(greeting="Hey", address=""),
    ),
    "no greeting leaves the default": (
        "Sol Reyes",
        (("morning run was great", None), ("see you at 6", None)),
        Voice(greeting="Hi", address=""),
    ),
    "a soft greeting counts only before the name or a stop": (
        "Ada Lind",
        (
            ("Morning Ada, bus is late", None),
            ("Morning! coffee?", None),
            ("morning swim cancelled", None),
        ),
        Voice(greeting="Morning", address="Ada"),
    ),
}


@pytest.mark.parametrize("case", LEARNED_VOICES)
def test_the_greeting_and_address_are_learned_from_the_users_own_openings(user, case):
    name, messages, expected = LEARNED_VOICES[case]
    ingest(
        user,
        chat_of("dm-1", name),
        *(
            say(f"m{index}", NOW - (9 - index) * HOUR, text, **({"sender": by} if by else {}))
            for index, (text, by) in enumerate(messages)
        ),
    )
    assert _voice(user, "dm-1", name) == expected


def test_opening_with_the_name_alone_is_the_users_way(user):
    ingest(
        user,
        chat_of("dm-lou", "Louisa Brand"),
        say("l1", NOW - 9 * HOUR, "Lou, did the parcel come?"),
        say("l2", NOW - 7 * HOUR, "Lou - dinner at 8?"),
        say("l3", NOW - 6 * HOUR, "Hi Lou"),
        say("l4", NOW - 5 * HOUR, "Lovely, thanks", sender="Louisa Brand"),
    )
    voice = _voice(user, "dm-lou", "Louisa Brand")
    assert voice == Voice(greeting="", address="Lou")
    view = propose(user, "Text Louisa that the parcel is here")
    assert view is not None
    assert view.draft_text.startswith("Lou,\n\nThe parcel is here.")


def test_a_short_form_after_the_greeting_is_how_the_draft_addresses_them(user):
    ingest(
        user,
        chat_of("dm-fred", "Frederica Holm"),
        say("f1", NOW - 9 * HOUR, "Hey Fred, coffee?"),
        say("f2", NOW - 8 * HOUR, "Hey Fred! on my way"),
        say("f3", NOW - 7 * HOUR, "Sure", sender="Frederica Holm"),
    )
    view = propose(user, "Tell Frederica the keys are under the mat")
    assert view is not None
    assert view.draft_text.startswith("Hey Fred,")


def test_a_greeting_from_another_chat_with_them_is_used(user):
    ingest(
        user,
        chat_of("wa-wilma", "Wilma Baptista"),
        say("w1", NOW - 9 * HOUR, "Hiya Wilma! Lunch?"),
        say("w2", NOW - 8 * HOUR, "Hiya Wilma, running late"),
    )
    ingest(
        user,
        chat_of("sl-wilma", "Wilma Baptista", platform="slack"),
        say("s1", NOW - 3 * HOUR, "deck attached", platform="slack"),
    )
    voice = _voice(user, "sl-wilma", "Wilma Baptista")
    assert voice == Voice(greeting="Hiya", address="Wilma")


def test_a_group_is_addressed_the_way_the_user_greets_it(user):
    ingest(
        user,
        titled("grp-choir", "Choir \U0001f3b6", "Ada Lind", "Sol Reyes"),
        say("c1", NOW - 9 * HOUR, "Hi everyone, rehearsal moved"),
        say("c2", NOW - 8 * HOUR, "Hi everyone! scores are in"),
    )
    assert _voice(user, "grp-choir", None) == Voice(greeting="Hi", address="Everyone")
    view = propose(user, "Tell the choir group that I'll bring the scores")
    assert view is not None
    assert view.draft_text.startswith("Hi everyone,")


def test_a_title_or_short_form_the_question_says_wins_over_the_learned_address():
    context = DraftContext(
        question="reply to dr holm about the results",
        recipient_name="Frederica Holm",
        named_as="dr holm",
        loop_kind="",
        loop_opened_at=None,
        greeting="Hey",
        address="Fred",
        timezone="UTC",
    )
    assert local_draft(context).startswith("Hey Dr Holm,")
