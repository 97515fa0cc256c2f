import json
from datetime import UTC, datetime

import pytest

from conversations.identities import IncomingIdentity
from conversations.importers import ImportFormatError
from conversations.importers.telegram import parse_telegram
from conversations.models import ChatKind, MessageKind, Platform
from conversations.services import IncomingChat, IncomingMessage
from tests.conversations.importers.conftest import LISBON, SAMPLES, lisbon_options

SINGLE_CHAT = SAMPLES / "telegram" / "single_chat" / "result.json"
FULL_EXPORT = SAMPLES / "telegram" / "full_export" / "result.json"


def _user(user_id: str, name: str) -> IncomingIdentity:
    return IncomingIdentity(platform=Platform.TELEGRAM, platform_user_id=user_id, display_name=name)


TIAGO = _user("4815162342", "Tiago Costa")
SAM = _user("777000111", "Sam Rivera")


def test_single_chat_export_flattens_entities_and_keeps_edits_replies_media_and_services():
    parsed = parse_telegram(SINGLE_CHAT, options=lisbon_options(self_name="Sam Rivera"))

    assert parsed.chats == (
        IncomingChat(
            platform=Platform.TELEGRAM,
            platform_chat_id="4815162342",
            title="Tiago Costa",
            kind=ChatKind.DIRECT,
        ),
    )
    assert parsed.message_count == 6
    assert list(parsed.messages) == [
        (
            "4815162342",
            IncomingMessage(
                platform_message_id="101",
                sent_at=datetime(2024, 3, 1, 19, 4, 11, tzinfo=UTC),
                text="Did you see the match?",
                sender=TIAGO,
            ),
        ),
        (
            "4815162342",
            IncomingMessage(
                platform_message_id="102",
                sent_at=datetime(2024, 3, 1, 19, 5, 40, tzinfo=UTC),
                text="Yes! What a goal — check https://example.com/highlights",
                sender=SAM,
                is_from_self=True,
                reply_to_platform_message_id="101",
                edited_at=datetime(2024, 3, 1, 19, 6, 2, tzinfo=UTC),
            ),
        ),
        (
            "4815162342",
            IncomingMessage(
                platform_message_id="103",
                sent_at=datetime(2024, 3, 1, 19, 7, 30, tzinfo=UTC),
                text="Stadium view 🏟️",
                sender=TIAGO,
                kind=MessageKind.MEDIA,
            ),
        ),
        (
            "4815162342",
            IncomingMessage(
                platform_message_id="104",
                sent_at=datetime(2024, 3, 1, 21, 0, tzinfo=UTC),
                text="Tiago Costa called",
                kind=MessageKind.SYSTEM,
            ),
        ),
        (
            "4815162342",
            IncomingMessage(
                # No date_unixtime: the naive date is read in the importing user's timezone.
                platform_message_id="105",
                sent_at=datetime(2024, 7, 2, 8, 0, tzinfo=LISBON),
                text="@sam_rivera coffee later?",
                sender=TIAGO,
            ),
        ),
        (
            "4815162342",
            IncomingMessage(
                platform_message_id="106",
                sent_at=datetime(2024, 7, 2, 8, 1, 15, tzinfo=UTC),
                text="",
                sender=SAM,
                is_from_self=True,
                kind=MessageKind.MEDIA,
            ),
        ),
    ]


def test_a_folder_means_its_result_json():
    from_folder = parse_telegram(SINGLE_CHAT.parent, options=lisbon_options())
    from_file = parse_telegram(SINGLE_CHAT, options=lisbon_options())

    assert from_folder.chats == from_file.chats
    assert list(from_folder.messages) == list(from_file.messages)


def test_full_export_knows_its_owner_and_reads_left_chats():
    parsed = parse_telegram(FULL_EXPORT, options=lisbon_options())

    assert parsed.chats == (
        IncomingChat(
            platform=Platform.TELEGRAM,
            platform_chat_id="555",
            title="Marta Lopes",
            kind=ChatKind.DIRECT,
        ),
        IncomingChat(
            platform=Platform.TELEGRAM,
            platform_chat_id="1712345678",
            title="Lisbon Runners 🏃",
            kind=ChatKind.GROUP,
        ),
        IncomingChat(
            platform=Platform.TELEGRAM,
            platform_chat_id="998877",
            title="Old Flatmates",
            kind=ChatKind.GROUP,
        ),
    )
    assert parsed.message_count == 10
    messages = list(parsed.messages)
    assert [
        (chat_id, m.platform_message_id, m.sender, m.is_from_self, m.kind, m.text)
        for chat_id, m in messages
    ] == [
        (
            "555",
            "20",
            _user("555", "Marta Lopes"),
            False,
            MessageKind.TEXT,
            "Thanks for the photos!",
        ),
        ("555", "21", SAM, True, MessageKind.TEXT, "Anytime"),
        (
            "1712345678",
            "1",
            None,
            False,
            MessageKind.SYSTEM,
            'Marta Lopes created the group "Lisbon Runners 🏃"',
        ),
        (
            "1712345678",
            "2",
            None,
            False,
            MessageKind.SYSTEM,
            "Marta Lopes added João Reis, Deleted Account",
        ),
        (
            "1712345678",
            "3",
            _user("555", "Marta Lopes"),
            False,
            MessageKind.TEXT,
            "Sunday long run: 18 km from Belém\nMeet at 8:00 João",
        ),
        ("1712345678", "4", SAM, True, MessageKind.TEXT, "I'm in 💪"),
        (
            "1712345678",
            "5",
            _user("556", "João Reis"),
            False,
            MessageKind.TEXT,
            "Can't make it, knee again",
        ),
        ("1712345678", "6", _user("555", "Marta Lopes"), False, MessageKind.MEDIA, ""),
        ("1712345678", "7", SAM, True, MessageKind.TEXT, "Other group said hi"),
        ("998877", "1", _user("600", "Rui Alves"), False, MessageKind.TEXT, "Rent is due tomorrow"),
    ]
    replies = {m.platform_message_id: m.reply_to_platform_message_id for _, m in messages[4:9]}
    # Message 7 replies to a message of another chat, which this chat cannot point at.
    assert replies == {"3": "", "4": "3", "5": "3", "6": "", "7": ""}


def test_invalid_json_names_the_file_and_line(tmp_path):
    path = tmp_path / "result.json"
    path.write_text(
        '{\n "name": "Tiago Costa",\n "type": "personal_chat",\n "id": 1\n "messages": []\n}\n',
        encoding="utf-8",
    )

    with pytest.raises(ImportFormatError) as raised:
        parse_telegram(path, options=lisbon_options())

    assert str(raised.value) == f"{path}:5: invalid JSON: Expecting ',' delimiter (column 2)"


def test_a_json_file_that_is_not_a_telegram_export_is_refused(tmp_path):
    path = tmp_path / "result.json"
    path.write_text(json.dumps({"about": "something else"}), encoding="utf-8")

    with pytest.raises(ImportFormatError) as raised:
        parse_telegram(path, options=lisbon_options())

    assert str(raised.value) == (
        f"{path}: not a Telegram export: expected 'messages' (one chat) or 'chats.list' (all chats)"
    )


def test_a_message_without_a_date_names_where_it_is(tmp_path):
    path = tmp_path / "result.json"
    export = json.loads(SINGLE_CHAT.read_text(encoding="utf-8"))
    del export["messages"][2]["date"]
    del export["messages"][2]["date_unixtime"]
    path.write_text(json.dumps(export), encoding="utf-8")
    parsed = parse_telegram(path, options=lisbon_options())

    with pytest.raises(ImportFormatError) as raised:
        list(parsed.messages)

    assert str(raised.value) == (
        f"{path}: messages[2] (id 103): a message needs 'date' or 'date_unixtime'"
    )
