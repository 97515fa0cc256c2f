"""Phone numbers written nationally and internationally; names a contact gives itself; names
the user calls a contact by."""

from __future__ import annotations

import pytest

from conversations.identities import national_digits, phone_same_number
from memory.callnames import _patterns
from memory.introductions import names_match, self_introduction
from retrieval.lexicon import fold_text


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("07700 900123", "+44 7700 900123"),
        ("(312) 555-0199", "+1 312 555 0199"),
        ("1 312 555 0199", "+1-312-555-0199"),
        ("0612 345 678", "0031 612 345 678"),
        ("06 1234 5678", "+39 06 1234 5678"),
        ("+351 912 345 678", "+351912345678"),
    ],
)
def test_one_number_written_two_ways_is_the_same(first, second):
    assert phone_same_number(first, second)
    assert phone_same_number(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("+44 7700 900123", "+1 7700 900123"),
        ("07700 900123", "07700 900124"),
        ("555 0199", "+1 312 555 0199"),
        ("07700 900123", "+44 7700 900124"),
        ("", ""),
    ],
)
def test_different_numbers_are_not_the_same(first, second):
    assert not phone_same_number(first, second)


def test_national_digits_drop_the_trunk_prefix_only_from_national_numbers():
    assert national_digits("07700 900123") == "7700900123"
    assert national_digits("+44 7700 900123") == "447700900123"


@pytest.mark.parametrize(
    ("text", "name", "says_new"),
    [
        ("hey it's Dana btw, new phone!", "Dana", True),
        ("Hi! This is Priya Shah, I got a new number", "Priya Shah", True),
        ("New number, Tom here 👋", "Tom", True),
        ("It is Rafa. Changed my number last week", "Rafa", True),
        ("hey, Jo here! lost my phone at the gig", "Jo", True),
        ("it's Marco", "Marco", False),
        ("Bea here! this is my signal, save it", "Bea", True),
        ("it's Odile, this is my other account", "Odile", True),
    ],
)
def test_a_message_saying_who_its_sender_is(text, name, says_new):
    said = self_introduction(text)
    assert said is not None
    assert (said.name, said.says_new_contact) == (name, says_new)


@pytest.mark.parametrize(
    "text", ["it's fine, new phone who dis", "this is great", "Lisbon here is hot", "it's me!"]
)
def test_messages_that_name_no_sender(text):
    said = self_introduction(text)
    assert said is None or not names_match(said.name, "Dana Whitfield")


def test_a_given_name_matches_the_contact_name_whole_or_by_first_name():
    assert names_match("Dana", "Dana Whitfield")
    assert names_match("Dana Whitfield", "Dana Whitfield 🌻")
    assert not names_match("Dana Lee", "Dana Whitfield")
    assert not names_match("Dan", "Dana Whitfield")


@pytest.mark.parametrize(
    "text",
    [
        "Happy birthday Maya!! 🎂",
        "thanks Maya",
        "hey maya how's the new flat",
        "Maya, are you coming?",
        "see you at 6, Maya!",
    ],
)
def test_ways_the_user_addresses_someone(text):
    addressed, _signed = _patterns("maya")
    assert addressed.search(fold_text(text))


@pytest.mark.parametrize(
    "text", ["I love Maya", "thanks Maya's mum for the cake", "Maya said no", "did Maya call?"]
)
def test_talking_about_someone_is_no_address(text):
    addressed, _signed = _patterns("maya")
    assert not addressed.search(fold_text(text))


@pytest.mark.parametrize(
    ("text", "is_signed"),
    [
        ("see you soon!!\nlove, Lucy", True),
        ("Notes attached.\n\n\u2013 Lucy", True),
        ("Cheers,\nLucy", True),
        ("can't wait xx Lucy", True),
        ("I love Lucy", False),
        ("Lucy is coming too", False),
    ],
)
def test_signatures(text, is_signed):
    _addressed, signed = _patterns("lucy")
    assert bool(signed.search(fold_text(text))) is is_signed


@pytest.mark.django_db
def test_a_contact_known_by_its_number_takes_the_name_another_platform_shows(user):
    from datetime import UTC, datetime

    from conversations.identities import IncomingIdentity
    from conversations.models import Person
    from conversations.services import IncomingChat, IncomingMessage, messages_ingest

    def ingest(platform: str, who: IncomingIdentity) -> None:
        chat = IncomingChat(
            platform=platform, platform_chat_id=f"{platform}-1", participants=(who,)
        )
        message = IncomingMessage(
            platform_message_id="1", sent_at=datetime(2026, 5, 1, tzinfo=UTC), text="hi", sender=who
        )
        messages_ingest(user=user, chats=[chat], messages=[(chat.platform_chat_id, message)])

    ingest("sms", IncomingIdentity(platform="sms", phone="(312) 555-0144"))
    assert list(Person.objects.filter(user=user).values_list("display_name", flat=True)) == [
        "(312) 555-0144"
    ]
    ingest(
        "whatsapp",
        IncomingIdentity(platform="whatsapp", phone="+1 312 555 0144", display_name="Wren T"),
    )
    ingest(
        "signal", IncomingIdentity(platform="signal", phone="+13125550144", display_name="Wren 🐦")
    )
    # One person, named by the first platform that showed a name; a later name renames nobody.
    assert list(Person.objects.filter(user=user).values_list("display_name", flat=True)) == [
        "Wren T"
    ]
