import json
from datetime import UTC, datetime, timedelta, timezone

import pytest

from conversations.identities import IncomingIdentity
from conversations.importers import ImportFormatError
from conversations.importers.jsonl import parse_jsonl
from conversations.models import ChatKind, MessageKind, Platform
from conversations.services import IncomingChat, IncomingMessage
from tests.conversations.importers.conftest import SAMPLES, lisbon_options

SAMPLE = SAMPLES / "jsonl" / "chats.jsonl"
PLUS_ONE = timezone(timedelta(hours=1))
MINUS_FOUR = timezone(timedelta(hours=-4))


def _line(**fields) -> str:
    base: dict[str, object] = {
        "conversation_id": "c1",
        "message_id": "m1",
        "sender": "Ana",
        "text": "hello",
        "sent_at": "2024-05-03T18:00:00+01:00",
    }
    base.update(fields)
    return json.dumps({key: value for key, value in base.items() if value is not ...})


def _write(tmp_path, *lines: str):
    path = tmp_path / "messages.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _error(path) -> str:
    with pytest.raises(ImportFormatError) as raised:
        list(parse_jsonl(path, options=lisbon_options()).messages)
    return str(raised.value)


def test_sample_parses_into_chats_and_messages():
    parsed = parse_jsonl(SAMPLE, options=lisbon_options())

    assert parsed.chats == (
        IncomingChat(
            platform=Platform.SIGNAL,
            platform_chat_id="trip-2024",
            title="Porto trip 🚆",
            kind=ChatKind.GROUP,
        ),
        IncomingChat(
            platform=Platform.OTHER,
            platform_chat_id="mum",
            title="Mum, Sam Rivera",
            kind=ChatKind.DIRECT,
        ),
    )
    assert parsed.message_count == 7
    ana = IncomingIdentity(
        platform=Platform.SIGNAL, platform_user_id="+351910000001", display_name="Ana Silva"
    )
    jo = IncomingIdentity(
        platform=Platform.SIGNAL, platform_user_id="+821012345678", display_name="Jo Park"
    )
    assert list(parsed.messages) == [
        (
            "trip-2024",
            IncomingMessage(
                platform_message_id="1",
                sent_at=datetime(2024, 5, 3, 18, 0, tzinfo=PLUS_ONE),
                text="Train tickets booked for Saturday 08:10",
                sender=ana,
            ),
        ),
        (
            "trip-2024",
            IncomingMessage(
                platform_message_id="2",
                sent_at=datetime(2024, 5, 3, 18, 2, tzinfo=PLUS_ONE),
                text="Great, I'll bring snacks",
                sender=IncomingIdentity(platform=Platform.SIGNAL, display_name="Sam Rivera"),
                is_from_self=True,
                reply_to_platform_message_id="1",
            ),
        ),
        (
            "trip-2024",
            IncomingMessage(
                platform_message_id="3",
                sent_at=datetime(2024, 5, 3, 18, 5, tzinfo=PLUS_ONE),
                text="Which station?\nSanta Apolónia or Oriente?",
                sender=jo,
                edited_at=datetime(2024, 5, 3, 18, 6, 30, tzinfo=PLUS_ONE),
            ),
        ),
        (
            "trip-2024",
            IncomingMessage(
                platform_message_id="4",
                sent_at=datetime(2024, 5, 3, 18, 7, tzinfo=PLUS_ONE),
                text="",
                sender=ana,
                is_deleted=True,
            ),
        ),
        (
            "trip-2024",
            IncomingMessage(
                platform_message_id="5",
                sent_at=datetime(2024, 5, 3, 17, 9, tzinfo=UTC),
                text="photo.jpg",
                sender=jo,
                kind=MessageKind.MEDIA,
            ),
        ),
        (
            "mum",
            IncomingMessage(
                platform_message_id="m-1",
                sent_at=datetime(2024, 5, 4, 12, 30, tzinfo=MINUS_FOUR),
                text="Did you eat? 🍲",
                sender=IncomingIdentity(platform=Platform.OTHER, display_name="Mum"),
            ),
        ),
        (
            "mum",
            IncomingMessage(
                platform_message_id="m-2",
                sent_at=datetime(2024, 5, 4, 12, 31, tzinfo=MINUS_FOUR),
                text="Yes mum",
                sender=IncomingIdentity(platform=Platform.OTHER, display_name="Sam Rivera"),
            ),
        ),
    ]


def test_self_option_marks_the_users_messages_and_leaves_them_out_of_the_title():
    parsed = parse_jsonl(SAMPLE, options=lisbon_options(self_name="sam rivera"))

    assert parsed.chats[1].title == "Mum"
    assert [(m.platform_message_id, m.is_from_self) for _, m in parsed.messages] == [
        ("1", False),
        ("2", True),
        ("3", False),
        ("4", False),
        ("5", False),
        ("m-1", False),
        ("m-2", True),
    ]


def test_integer_ids_and_an_explicit_conversation_kind_are_accepted(tmp_path):
    path = _write(
        tmp_path,
        _line(conversation_id=7, message_id=42, conversation_kind="group", reply_to=41),
    )

    parsed = parse_jsonl(path, options=lisbon_options())

    assert parsed.chats[0].platform_chat_id == "7"
    assert parsed.chats[0].kind == ChatKind.GROUP
    [(chat_id, message)] = list(parsed.messages)
    assert (chat_id, message.platform_message_id, message.reply_to_platform_message_id) == (
        "7",
        "42",
        "41",
    )


def test_a_system_message_has_no_sender(tmp_path):
    path = _write(tmp_path, _line(sender="", kind="system", text="Ana joined"))

    [(_, message)] = list(parse_jsonl(path, options=lisbon_options()).messages)

    assert (message.sender, message.kind, message.text) == (None, MessageKind.SYSTEM, "Ana joined")


def test_invalid_json_names_the_line(tmp_path):
    path = _write(tmp_path, _line(), "", _line(message_id="m2"), '{"conversation_id": "c1", ')

    assert _error(path) == (
        f"{path}:4: invalid JSON: Expecting property name enclosed in double quotes (column 27)"
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (_line(sent_at=...), "missing required field 'sent_at'"),
        (_line(sender=..., text=...), "missing required field 'sender', 'text'"),
        ('["not", "an", "object"]', "expected a JSON object, found list"),
        (
            _line(sent_at="2024-05-03T18:00:00"),
            "sent_at has no UTC offset: '2024-05-03T18:00:00' (write e.g. +01:00 or Z)",
        ),
        (_line(sent_at="yesterday"), "sent_at is not an ISO-8601 date-time: 'yesterday'"),
        (_line(sent_at=1714755600), "sent_at must be an ISO-8601 string, found number"),
        (
            _line(edited_at="2024-05-03T18:05:00"),
            "edited_at has no UTC offset: '2024-05-03T18:05:00' (write e.g. +01:00 or Z)",
        ),
        (_line(text=None), "text must be a string, found null"),
        (_line(message_id=""), "message_id is empty"),
        (_line(message_id=True), "message_id must be a string or an integer, found boolean"),
        (_line(deleted="yes"), "deleted must be true or false, found string"),
        (
            _line(platform="myspace"),
            "platform 'myspace' is not one of whatsapp, telegram, imessage, signal, slack, "
            "discord, sms, email, other",
        ),
        (_line(kind="sticker"), "kind 'sticker' is not one of text, media, system"),
        (
            _line(sender=""),
            "sender is empty (allowed only for system, deleted or own messages)",
        ),
    ],
)
def test_malformed_lines_name_the_line_and_the_problem(tmp_path, line, message):
    path = _write(tmp_path, _line(), _line(message_id="m2"), line)

    assert _error(path) == f"{path}:3: {message}"


def test_a_conversation_cannot_change_platform(tmp_path):
    path = _write(tmp_path, _line(platform="sms"), _line(message_id="m2", platform="whatsapp"))

    assert _error(path) == (
        f"{path}:2: conversation_id 'c1' has platform 'whatsapp' here but 'sms' on line 1"
    )


def test_the_first_pass_validates_the_whole_file_before_any_message_is_handed_out(tmp_path):
    path = _write(tmp_path, _line(), _line(message_id="m2"), _line(message_id="m3", sent_at="x"))

    with pytest.raises(ImportFormatError):
        parse_jsonl(path, options=lisbon_options())


def test_a_later_line_for_the_same_message_replaces_the_earlier_one(tmp_path):
    path = _write(
        tmp_path,
        _line(text="See you at 8"),
        _line(message_id="m2", text="ok"),
        _line(text="See you at 9", edited_at="2024-05-03T18:10:00+01:00"),
    )

    parsed = parse_jsonl(path, options=lisbon_options())

    assert parsed.message_count == 2
    assert [(m.platform_message_id, m.text, m.edited_at) for _, m in parsed.messages] == [
        ("m2", "ok", None),
        ("m1", "See you at 9", datetime(2024, 5, 3, 18, 10, tzinfo=PLUS_ONE)),
    ]
