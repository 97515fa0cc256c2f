import zipfile
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from conversations.identities import IncomingIdentity
from conversations.importers import ImportFormatError
from conversations.importers.whatsapp import parse_whatsapp
from conversations.models import ChatKind, MessageKind, Platform
from conversations.services import IncomingChat
from tests.conversations.importers.conftest import LISBON, SAMPLES, lisbon_options

ANDROID = SAMPLES / "whatsapp" / "WhatsApp Chat with Ana Silva.txt"
ANDROID_US_GROUP = SAMPLES / "whatsapp" / "WhatsApp Chat with Weekend Trip.txt"
IOS_FOLDER = SAMPLES / "whatsapp" / "WhatsApp Chat - Book Club"
AMBIGUOUS = SAMPLES / "whatsapp" / "WhatsApp Chat with Jo Park.txt"


def _name(name: str) -> IncomingIdentity:
    return IncomingIdentity(platform=Platform.WHATSAPP, display_name=name)


def _phone(number: str) -> IncomingIdentity:
    return IncomingIdentity(platform=Platform.WHATSAPP, phone=number, display_name=number)


def test_android_export_day_first_with_multiline_media_edits_and_deletes():
    parsed = parse_whatsapp(ANDROID, options=lisbon_options(self_name="Sam Rivera"))

    assert parsed.chats == (
        IncomingChat(
            platform=Platform.WHATSAPP,
            platform_chat_id="export:ana silva",
            title="Ana Silva",
            kind=ChatKind.DIRECT,
        ),
    )
    assert parsed.message_count == 8
    messages = [message for _, message in parsed.messages]
    assert [
        (m.sent_at, m.sender, m.is_from_self, m.kind, m.text, m.is_deleted) for m in messages
    ] == [
        (
            datetime(2024, 2, 14, 9, 12, tzinfo=LISBON),
            None,
            False,
            MessageKind.SYSTEM,
            "Messages and calls are end-to-end encrypted. No one outside of this chat, not even "
            "WhatsApp, can read or listen to them. Tap to learn more.",
            False,
        ),
        (
            datetime(2024, 2, 14, 9, 12, tzinfo=LISBON),
            _name("Ana Silva"),
            False,
            MessageKind.TEXT,
            "Bom dia! Are we still on for dinner on Friday? 🍝",
            False,
        ),
        (
            datetime(2024, 2, 14, 9, 15, tzinfo=LISBON),
            _name("Sam Rivera"),
            True,
            MessageKind.TEXT,
            "Yes! 20:00 at Cervejaria Ramiro.\n\n"
            "I booked a table for 4:\n- you and Tiago\n- me and Jo",
            False,
        ),
        (
            datetime(2024, 2, 14, 9, 15, tzinfo=LISBON),
            _name("Sam Rivera"),
            True,
            MessageKind.MEDIA,
            "<Media omitted>",
            False,
        ),
        (
            datetime(2024, 2, 14, 9, 16, tzinfo=LISBON),
            _name("Ana Silva"),
            False,
            MessageKind.TEXT,
            "Perfeito 👌 see you there",
            False,
        ),
        (
            datetime(2024, 2, 14, 21, 40, tzinfo=LISBON),
            _name("Ana Silva"),
            False,
            MessageKind.TEXT,
            "",
            True,
        ),
        (
            datetime(2024, 2, 15, 8, 2, tzinfo=LISBON),
            _name("Ana Silva"),
            False,
            MessageKind.TEXT,
            'Tiago says: "bring the board game"',
            False,
        ),
        (
            datetime(2024, 2, 16, 23, 59, tzinfo=LISBON),
            _name("Sam Rivera"),
            True,
            MessageKind.TEXT,
            "Leaving now",
            False,
        ),
    ]


def test_message_ids_are_stable_across_parses_and_distinct_within_a_minute():
    first = [
        m.platform_message_id for _, m in parse_whatsapp(ANDROID, options=lisbon_options()).messages
    ]
    again = [
        m.platform_message_id for _, m in parse_whatsapp(ANDROID, options=lisbon_options()).messages
    ]

    assert first == again
    assert len(set(first)) == 8
    assert all(len(message_id) == 32 for message_id in first)


def test_message_ids_do_not_depend_on_the_timezone_used():
    lisbon = parse_whatsapp(ANDROID, options=lisbon_options())
    new_york = parse_whatsapp(
        ANDROID, options=lisbon_options(timezone=ZoneInfo("America/New_York"))
    )

    lisbon_messages = [m for _, m in lisbon.messages]
    new_york_messages = [m for _, m in new_york.messages]
    assert [m.platform_message_id for m in lisbon_messages] == [
        m.platform_message_id for m in new_york_messages
    ]
    assert new_york_messages[0].sent_at == datetime(
        2024, 2, 14, 9, 12, tzinfo=ZoneInfo("America/New_York")
    )


def test_android_us_group_is_month_first_with_12_hour_times_and_system_lines():
    parsed = parse_whatsapp(ANDROID_US_GROUP, options=lisbon_options(self_name="sam rivera"))

    assert parsed.chats[0].kind == ChatKind.GROUP
    assert parsed.chats[0].title == "Weekend Trip"
    messages = [message for _, message in parsed.messages]
    assert [(m.sent_at, m.sender, m.kind, m.text) for m in messages] == [
        (
            datetime(2024, 3, 8, 10, 2, tzinfo=LISBON),
            None,
            MessageKind.SYSTEM,
            'Jo Park created group "Lisbon weekend"',
        ),
        (datetime(2024, 3, 8, 10, 2, tzinfo=LISBON), None, MessageKind.SYSTEM, "Jo Park added you"),
        (
            datetime(2024, 3, 8, 10, 3, tzinfo=LISBON),
            None,
            MessageKind.SYSTEM,
            "Messages and calls are end-to-end encrypted. No one outside of this chat, not even "
            "WhatsApp, can read or listen to them. Tap to learn more.",
        ),
        (
            datetime(2024, 3, 8, 10, 5, tzinfo=LISBON),
            None,
            MessageKind.SYSTEM,
            'Jo Park changed the subject from "Lisbon weekend" to "Weekend Trip: Lisbon"',
        ),
        (
            datetime(2024, 3, 8, 10, 6, tzinfo=LISBON),
            _name("Jo Park"),
            MessageKind.TEXT,
            "Flights are booked ✈️",
        ),
        (
            datetime(2024, 3, 8, 10, 6, tzinfo=LISBON),
            _name("Sam Rivera"),
            MessageKind.TEXT,
            "Amazing",
        ),
        (
            datetime(2024, 3, 8, 12, 30, tzinfo=LISBON),
            _phone("+351 912 345 678"),
            MessageKind.TEXT,
            "Hi all, it's Miguel (new number)",
        ),
        (
            datetime(2024, 3, 13, 21, 41, tzinfo=LISBON),
            _name("Jo Park"),
            MessageKind.MEDIA,
            "IMG-20240313-WA0007.jpg (file attached)\nthe view from the hotel",
        ),
        (
            datetime(2024, 3, 14, 0, 5, tzinfo=LISBON),
            None,
            MessageKind.SYSTEM,
            "Jo Park added Tiago Costa",
        ),
        (
            datetime(2024, 3, 14, 7, 15, tzinfo=LISBON),
            _name("Tiago Costa"),
            MessageKind.TEXT,
            "Obrigado! 🙏",
        ),
        (datetime(2024, 3, 14, 7, 20, tzinfo=LISBON), None, MessageKind.SYSTEM, "Tiago Costa left"),
    ]
    assert [m.is_from_self for m in messages] == [False] * 5 + [True] + [False] * 5


def test_ios_export_with_invisible_marks_crlf_and_seconds():
    parsed = parse_whatsapp(
        IOS_FOLDER / "_chat.txt", options=lisbon_options(self_name="Sam Rivera")
    )

    assert parsed.chats[0].platform_chat_id == "export:book club"
    assert parsed.chats[0].title == "Book Club"
    assert parsed.chats[0].kind == ChatKind.GROUP
    messages = [message for _, message in parsed.messages]
    phone = _phone("+49 151 2345 6789")
    assert [(m.sent_at, m.sender, m.kind, m.text, m.is_deleted) for m in messages] == [
        (
            datetime(2024, 1, 2, 18, 30, 12, tzinfo=LISBON),
            None,
            MessageKind.SYSTEM,
            "Messages and calls are end-to-end encrypted. No one outside of this chat, not even "
            "WhatsApp, can read or listen to them.",
            False,
        ),
        (
            datetime(2024, 1, 2, 18, 30, 12, tzinfo=LISBON),
            None,
            MessageKind.SYSTEM,
            "Lena Fischer created group “Book Club”",
            False,
        ),
        (
            datetime(2024, 1, 2, 18, 31, 40, tzinfo=LISBON),
            None,
            MessageKind.SYSTEM,
            "Lena Fischer added you",
            False,
        ),
        (
            datetime(2024, 1, 2, 18, 35, 3, tzinfo=LISBON),
            _name("Lena Fischer"),
            MessageKind.TEXT,
            "First pick: “Klara and the Sun” by Kazuo Ishiguro.\nDiscussion on the 20th?",
            False,
        ),
        (
            datetime(2024, 1, 2, 18, 36, 27, tzinfo=LISBON),
            _name("Sam Rivera"),
            MessageKind.TEXT,
            "Works for me 👍",
            False,
        ),
        (
            datetime(2024, 1, 2, 18, 37, 10, tzinfo=LISBON),
            _name("Lena Fischer"),
            MessageKind.MEDIA,
            "image omitted",
            False,
        ),
        (
            datetime(2024, 1, 3, 9, 14, 55, tzinfo=LISBON),
            phone,
            MessageKind.MEDIA,
            "<attached: 00000042-PHOTO-2024-01-03-09-14-55.jpg>",
            False,
        ),
        (
            datetime(2024, 1, 3, 9, 15, 20, tzinfo=LISBON),
            phone,
            MessageKind.TEXT,
            "Sorry, wrong chat 🙈",
            False,
        ),
        (datetime(2024, 1, 3, 9, 16, 2, tzinfo=LISBON), phone, MessageKind.TEXT, "", True),
        (
            datetime(2024, 1, 20, 19, 2, 44, tzinfo=LISBON),
            _name("Sam Rivera"),
            MessageKind.TEXT,
            "I loved the ending",
            False,
        ),
        (
            datetime(2024, 1, 20, 19, 5, 0, tzinfo=LISBON),
            None,
            MessageKind.SYSTEM,
            "Missed voice call",
            False,
        ),
    ]


def test_ios_zip_reads_the_chat_inside_and_names_it_after_the_zip(tmp_path):
    archive_path = tmp_path / "WhatsApp Chat - Book Club.zip"
    with zipfile.ZipFile(archive_path, "w") as archive:
        archive.write(IOS_FOLDER / "_chat.txt", "_chat.txt")
        archive.writestr("00000042-PHOTO-2024-01-03-09-14-55.jpg", b"\xff\xd8\xff\xe0")

    from_zip = parse_whatsapp(archive_path, options=lisbon_options())
    from_folder = parse_whatsapp(IOS_FOLDER / "_chat.txt", options=lisbon_options())

    assert from_zip.chats == from_folder.chats
    assert list(from_zip.messages) == list(from_folder.messages)


def test_dates_without_a_component_above_12_default_to_day_first_for_24_hour_times():
    messages = [m for _, m in parse_whatsapp(AMBIGUOUS, options=lisbon_options()).messages]

    assert [m.sent_at for m in messages] == [
        datetime(2024, 6, 5, 10, 0, tzinfo=LISBON),
        datetime(2024, 6, 5, 10, 1, tzinfo=LISBON),
    ]


def test_date_order_override_reads_month_first():
    parsed = parse_whatsapp(AMBIGUOUS, options=lisbon_options(date_order="mdy"))

    assert [m.sent_at for _, m in parsed.messages] == [
        datetime(2024, 5, 6, 10, 0, tzinfo=LISBON),
        datetime(2024, 5, 6, 10, 1, tzinfo=LISBON),
    ]


def test_ambiguous_12_hour_dates_default_to_month_first(tmp_path):
    path = tmp_path / "WhatsApp Chat with Jo Park.txt"
    path.write_text("5/6/24, 9:00 AM - Jo Park: Morning\n", encoding="utf-8")

    messages = [m for _, m in parse_whatsapp(path, options=lisbon_options()).messages]

    assert messages[0].sent_at == datetime(2024, 5, 6, 9, 0, tzinfo=LISBON)


def test_two_senders_make_a_direct_chat_and_more_make_a_group(tmp_path):
    path = tmp_path / "WhatsApp Chat with Jo Park.txt"
    path.write_text(
        "05/06/2024, 10:00 - Jo Park: hi\n05/06/2024, 10:01 - Sam Rivera: hello\n",
        encoding="utf-8",
    )
    assert parse_whatsapp(path, options=lisbon_options()).chats[0].kind == ChatKind.DIRECT

    with path.open("a", encoding="utf-8") as stream:
        stream.write("05/06/2024, 10:02 - Ana Silva: hey both\n")
    assert parse_whatsapp(path, options=lisbon_options()).chats[0].kind == ChatKind.GROUP


def test_a_first_line_that_is_not_a_message_header_names_the_line(tmp_path):
    path = tmp_path / "WhatsApp Chat with Jo Park.txt"
    path.write_text(
        "\nChat history with Jo Park\n05/06/2024, 10:00 - Jo Park: hi\n", encoding="utf-8"
    )

    with pytest.raises(ImportFormatError) as raised:
        parse_whatsapp(path, options=lisbon_options())

    assert str(raised.value) == (
        f"{path}:2: not a WhatsApp message line: expected a date and time first, like "
        "'31/12/2023, 21:41 - Name: text' or '[31/12/2023, 21:41:05] Name: text'"
    )


def test_dates_that_are_both_day_first_and_month_first_ask_for_a_date_order(tmp_path):
    path = tmp_path / "WhatsApp Chat with Jo Park.txt"
    path.write_text(
        "13/01/2024, 10:00 - Jo Park: a\n01/02/2024, 10:00 - Jo Park: b\n"
        "01/14/2024, 10:00 - Jo Park: c\n",
        encoding="utf-8",
    )

    with pytest.raises(ImportFormatError) as raised:
        parse_whatsapp(path, options=lisbon_options())

    assert str(raised.value) == (
        f"{path}:3: dates are month-first here but day-first on line 1; "
        "pass --date-order dmy or mdy"
    )


def test_an_impossible_date_names_its_line(tmp_path):
    path = tmp_path / "WhatsApp Chat with Jo Park.txt"
    path.write_text(
        "28/02/2024, 10:00 - Jo Park: a\nstill a\n31/02/2024, 10:00 - Jo Park: b\n",
        encoding="utf-8",
    )
    parsed = parse_whatsapp(path, options=lisbon_options())

    with pytest.raises(ImportFormatError) as raised:
        list(parsed.messages)

    assert str(raised.value) == (
        f"{path}:3: invalid date or time 31/02/2024 10:00 read as dmy: "
        "day is out of range for month"
    )


def test_bytes_that_are_not_utf8_name_their_line(tmp_path):
    path = tmp_path / "WhatsApp Chat with Jo Park.txt"
    path.write_bytes(b"05/06/2024, 10:00 - Jo Park: hi\n05/06/2024, 10:01 - Jo Park: caf\xe9\n")

    with pytest.raises(ImportFormatError) as raised:
        parse_whatsapp(path, options=lisbon_options())

    assert str(raised.value) == f"{path}:2: not UTF-8 text: invalid continuation byte"


def test_a_zip_without_a_chat_file_is_refused(tmp_path):
    archive_path = tmp_path / "WhatsApp Chat - Empty.zip"
    with zipfile.ZipFile(archive_path, "w") as archive:
        archive.writestr("IMG-0001.jpg", b"\xff\xd8")

    with pytest.raises(ImportFormatError) as raised:
        parse_whatsapp(archive_path, options=lisbon_options())

    assert str(raised.value) == f"{archive_path}: no _chat.txt (or single .txt chat) in the zip"


def test_an_empty_export_is_refused(tmp_path):
    path = tmp_path / "WhatsApp Chat with Jo Park.txt"
    path.write_text("\n", encoding="utf-8")

    with pytest.raises(ImportFormatError) as raised:
        parse_whatsapp(path, options=lisbon_options())

    assert str(raised.value) == f"{path}: no messages: the chat export is empty"
