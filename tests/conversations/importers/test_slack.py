import shutil
import zipfile
from datetime import UTC, datetime

import pytest

from conversations.identities import IncomingIdentity
from conversations.importers import ImportFormatError
from conversations.importers.slack import parse_slack
from conversations.models import ChatKind, MessageKind, Platform
from conversations.services import IncomingChat, IncomingMessage
from tests.conversations.importers.conftest import SAMPLES, lisbon_options

EXPORT = SAMPLES / "slack" / "acme_export"

ANA = IncomingIdentity(
    platform=Platform.SLACK,
    platform_user_id="U01ANA",
    handle="ana.silva",
    email="ana.silva@acme.example",
    display_name="Ana",
)
SAM = IncomingIdentity(
    platform=Platform.SLACK,
    platform_user_id="U02SAM",
    handle="sam",
    email="sam.rivera@acme.example",
    display_name="Sam Rivera",
)
JO = IncomingIdentity(
    platform=Platform.SLACK,
    platform_user_id="U03JO",
    handle="jo.park",
    email="jo.park@acme.example",
    display_name="jo 🌸",
)
DEPLOY_BOT = IncomingIdentity(
    platform=Platform.SLACK, platform_user_id="B01DEPLOY", display_name="Deploy Bot"
)


def _at(iso: str) -> datetime:
    return datetime.fromisoformat(iso).replace(tzinfo=UTC)


def test_conversations_come_from_the_lists_with_members_as_participants():
    parsed = parse_slack(EXPORT, options=lisbon_options(self_name="Sam Rivera"))

    assert parsed.chats == (
        IncomingChat(
            platform=Platform.SLACK,
            platform_chat_id="C01GENERAL",
            title="#general",
            kind=ChatKind.GROUP,
            participants=(ANA, JO),
        ),
        IncomingChat(
            platform=Platform.SLACK,
            platform_chat_id="C02RANDOM",
            title="#random",
            kind=ChatKind.GROUP,
            participants=(ANA,),
        ),
        IncomingChat(
            platform=Platform.SLACK,
            platform_chat_id="G01MPIM",
            title="Ana, jo 🌸",
            kind=ChatKind.GROUP,
            participants=(ANA, JO),
        ),
        IncomingChat(
            platform=Platform.SLACK,
            platform_chat_id="D01ANASAM",
            title="Ana",
            kind=ChatKind.DIRECT,
            participants=(ANA,),
        ),
    )
    assert parsed.message_count is None


def test_messages_with_threads_edits_files_bots_mentions_and_events():
    parsed = parse_slack(EXPORT, options=lisbon_options(self_name="sam"))

    assert list(parsed.messages) == [
        (
            "C01GENERAL",
            IncomingMessage(
                platform_message_id="1705309200.000000",
                sent_at=_at("2024-01-15T09:00:00"),
                text="@jo 🌸 has joined the channel",
                kind=MessageKind.SYSTEM,
            ),
        ),
        (
            "C01GENERAL",
            IncomingMessage(
                platform_message_id="1705311000.000000",
                sent_at=_at("2024-01-15T09:30:00"),
                text="@Sam Rivera can you review the Q1 deck before Friday? "
                "I <3 the new charts & tables",
                sender=ANA,
            ),
        ),
        (
            "C01GENERAL",
            IncomingMessage(
                platform_message_id="1705311300.000000",
                sent_at=_at("2024-01-15T09:35:00"),
                text="Sure, on it. Slide 7 needs the revenue split",
                sender=SAM,
                is_from_self=True,
                reply_to_platform_message_id="1705311000.000000",
                edited_at=_at("2024-01-15T09:36:10"),
            ),
        ),
        (
            "C01GENERAL",
            IncomingMessage(
                platform_message_id="1705311660.000000",
                sent_at=_at("2024-01-15T09:41:00"),
                text="I'll add the Seoul numbers 🇰🇷",
                sender=JO,
                reply_to_platform_message_id="1705311000.000000",
            ),
        ),
        (
            "C01GENERAL",
            IncomingMessage(
                platform_message_id="1705312920.000120",
                sent_at=datetime(2024, 1, 15, 10, 2, 0, 120, tzinfo=UTC),
                text="Q1 deck v2",
                sender=SAM,
                is_from_self=True,
                kind=MessageKind.MEDIA,
            ),
        ),
        (
            "C01GENERAL",
            IncomingMessage(
                platform_message_id="1705316400.000000",
                sent_at=_at("2024-01-15T11:00:00"),
                text="Deployed `web` to production (build 1432)",
                sender=DEPLOY_BOT,
            ),
        ),
        (
            # Edited the next day through a message_changed event.
            "C01GENERAL",
            IncomingMessage(
                platform_message_id="1705320000.000000",
                sent_at=_at("2024-01-15T12:00:00"),
                text="Typo in the agenda: the sync is at 10:30, not 10:00",
                sender=ANA,
                edited_at=_at("2024-01-16T08:00:00"),
            ),
        ),
        (
            # Removed the next day through a message_deleted event.
            "C01GENERAL",
            IncomingMessage(
                platform_message_id="1705320300.000000",
                sent_at=_at("2024-01-15T12:05:00"),
                text="lunch?",
                sender=JO,
                is_deleted=True,
            ),
        ),
        (
            "C01GENERAL",
            IncomingMessage(
                platform_message_id="1705395600.000000",
                sent_at=_at("2024-01-16T09:00:00"),
                text="@Ana set the channel topic: Q1 planning",
                kind=MessageKind.SYSTEM,
            ),
        ),
        (
            "C02RANDOM",
            IncomingMessage(
                platform_message_id="1705323600.000000",
                sent_at=_at("2024-01-15T13:00:00"),
                text="@here the notes are in the doc, context in #general and "
                "https://example.com/raw",
                sender=SAM,
                is_from_self=True,
            ),
        ),
        (
            "C02RANDOM",
            IncomingMessage(
                platform_message_id="1705323660.000000",
                sent_at=_at("2024-01-15T13:01:00"),
                text="_thanks!_ :tada:",
                sender=ANA,
            ),
        ),
        (
            "G01MPIM",
            IncomingMessage(
                platform_message_id="1705564800.000000",
                sent_at=_at("2024-01-18T08:00:00"),
                text="Offsite dates: 12\u201314 March?",
                sender=JO,
            ),
        ),
        (
            "D01ANASAM",
            IncomingMessage(
                platform_message_id="1705503600.000000",
                sent_at=_at("2024-01-17T15:00:00"),
                text="Are you free for a call at 4?",
                sender=ANA,
            ),
        ),
        (
            "D01ANASAM",
            IncomingMessage(
                platform_message_id="1705503690.000000",
                sent_at=_at("2024-01-17T15:01:30"),
                text="Yes, ping me",
                sender=SAM,
                is_from_self=True,
            ),
        ),
    ]


def test_a_zip_of_the_export_reads_the_same_as_the_folder(tmp_path):
    archive_path = tmp_path / "Acme Slack export Jan 1 2024 - Jan 31 2024.zip"
    with zipfile.ZipFile(archive_path, "w") as archive:
        for file in sorted(EXPORT.rglob("*.json")):
            archive.write(file, file.relative_to(EXPORT).as_posix())
    wrapped_path = tmp_path / "wrapped.zip"
    with zipfile.ZipFile(wrapped_path, "w") as archive:
        for file in sorted(EXPORT.rglob("*.json")):
            archive.write(file, "acme_export/" + file.relative_to(EXPORT).as_posix())

    folder = parse_slack(EXPORT, options=lisbon_options())
    expected_messages = list(folder.messages)
    for path in (archive_path, wrapped_path):
        zipped = parse_slack(path, options=lisbon_options())
        assert zipped.chats == folder.chats
        assert list(zipped.messages) == expected_messages


def test_invalid_json_in_a_day_file_names_the_file_and_line(tmp_path):
    export = tmp_path / "export"
    shutil.copytree(EXPORT, export)
    day_file = export / "random" / "2024-01-15.json"
    lines = day_file.read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3].rstrip(",")  # the comma after "type": "message"
    day_file.write_text("\n".join(lines), encoding="utf-8")
    parsed = parse_slack(export, options=lisbon_options())

    with pytest.raises(ImportFormatError) as raised:
        list(parsed.messages)

    assert str(raised.value) == (f"{day_file}:5: invalid JSON: Expecting ',' delimiter (column 9)")


def test_a_folder_without_users_json_is_not_a_slack_export(tmp_path):
    with pytest.raises(ImportFormatError) as raised:
        parse_slack(tmp_path, options=lisbon_options())

    assert str(raised.value) == f"{tmp_path}: not a Slack export: users.json is missing"


def test_a_message_without_ts_names_its_file_and_position(tmp_path):
    export = tmp_path / "export"
    shutil.copytree(EXPORT, export)
    day_file = export / "D01ANASAM" / "2024-01-17.json"
    day_file.write_text(
        '[{"type": "message", "user": "U01ANA", "text": "no ts"}]', encoding="utf-8"
    )
    parsed = parse_slack(export, options=lisbon_options())

    with pytest.raises(ImportFormatError) as raised:
        list(parsed.messages)

    assert str(raised.value) == f"{day_file}: [0]: a message needs 'ts'"
