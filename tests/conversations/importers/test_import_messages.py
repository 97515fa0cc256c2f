"""The import_messages command end to end, against the real database."""

import json
import logging
import os
import subprocess
import sys
from datetime import UTC, datetime
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from conversations import importing
from conversations.models import (
    Chat,
    ChatKind,
    ChatParticipant,
    IdentityKind,
    Message,
    MessageKind,
    Person,
    PersonIdentity,
    Platform,
)
from conversations.services import messages_ingest
from tests.conversations.importers.conftest import SAMPLES

pytestmark = pytest.mark.django_db

ANDROID = SAMPLES / "whatsapp" / "WhatsApp Chat with Ana Silva.txt"
TELEGRAM_FULL = SAMPLES / "telegram" / "full_export" / "result.json"
SLACK = SAMPLES / "slack" / "acme_export"
JSONL = SAMPLES / "jsonl" / "chats.jsonl"


def _import(user, format: str, path, *options: str) -> tuple[str, str]:
    stdout, stderr = StringIO(), StringIO()
    call_command(
        "import_messages",
        "--user",
        user.email,
        "--format",
        format,
        str(path),
        *options,
        stdout=stdout,
        stderr=stderr,
    )
    return stdout.getvalue(), stderr.getvalue()


def _row_counts() -> tuple[int, int, int, int, int]:
    return (
        Chat.objects.count(),
        Message.objects.count(),
        Person.objects.count(),
        PersonIdentity.objects.count(),
        ChatParticipant.objects.count(),
    )


def test_whatsapp_import_writes_the_chat_and_reimport_changes_nothing(user):
    stdout, stderr = _import(user, "whatsapp", ANDROID, "--self", "Sam Rivera")

    assert stdout == (
        "Imported WhatsApp Chat with Ana Silva.txt: 1 chat (1 new), 1 person (1 new), "
        "8 messages: 7 created, 0 updated, 0 deleted, 1 unchanged.\n"
    )
    assert stderr == ""  # not a terminal, no --progress: no bar
    chat = Chat.objects.get(user=user)
    assert (chat.platform, chat.platform_chat_id, chat.title, chat.kind) == (
        Platform.WHATSAPP,
        "export:ana silva",
        "Ana Silva",
        ChatKind.DIRECT,
    )
    ana = Person.objects.get(user=user)
    assert ana.display_name == "Ana Silva"
    assert list(chat.participants.all()) == [ana]
    rows = list(Message.objects.filter(chat=chat).order_by("sent_at", "id"))
    assert [
        (row.kind, row.is_from_self, row.sender_person_id, row.sender_name, row.deleted_at is None)
        for row in rows
    ] == [
        (MessageKind.SYSTEM, False, None, "", True),
        (MessageKind.TEXT, False, ana.pk, "Ana Silva", True),
        (MessageKind.TEXT, True, None, "Sam Rivera", True),
        (MessageKind.MEDIA, True, None, "Sam Rivera", True),
        (MessageKind.TEXT, False, ana.pk, "Ana Silva", True),
        (MessageKind.TEXT, False, ana.pk, "Ana Silva", False),
        (MessageKind.TEXT, False, ana.pk, "Ana Silva", True),
        (MessageKind.TEXT, True, None, "Sam Rivera", True),
    ]
    # The user's timezone is Europe/Lisbon, which is UTC+0 in February.
    assert rows[0].sent_at == datetime(2024, 2, 14, 9, 12, tzinfo=UTC)
    assert rows[5].text == ""
    assert chat.last_message_at == datetime(2024, 2, 16, 23, 59, tzinfo=UTC)
    before = _row_counts()

    again, _ = _import(user, "whatsapp", ANDROID, "--self", "Sam Rivera")

    assert again == (
        "Imported WhatsApp Chat with Ana Silva.txt: 1 chat (0 new), 1 person (0 new), "
        "8 messages: 0 created, 0 updated, 0 deleted, 8 unchanged.\n"
    )
    assert _row_counts() == before


def test_timezone_option_reads_naive_times_in_that_zone(user):
    _import(user, "whatsapp", ANDROID, "--timezone", "America/New_York")

    first = Message.objects.filter(user=user).order_by("sent_at").first()
    assert first is not None
    assert first.sent_at == datetime(2024, 2, 14, 14, 12, tzinfo=UTC)


def test_telegram_full_export_links_replies_and_marks_the_owner(user):
    stdout, _ = _import(user, "telegram", TELEGRAM_FULL)

    assert stdout == (
        "Imported result.json: 3 chats (3 new), 3 people (3 new), "
        "10 messages: 10 created, 0 updated, 0 deleted, 0 unchanged.\n"
    )
    runners = Chat.objects.get(user=user, platform_chat_id="1712345678")
    assert (runners.title, runners.kind) == ("Lisbon Runners 🏃", ChatKind.GROUP)
    by_id = {row.platform_message_id: row for row in Message.objects.filter(chat=runners)}
    assert by_id["4"].reply_to_id == by_id["3"].pk
    assert by_id["5"].reply_to_id == by_id["3"].pk
    assert by_id["4"].is_from_self is True
    assert by_id["4"].sender_person_id is None
    assert by_id["3"].text == "Sunday long run: 18 km from Belém\nMeet at 8:00 João"
    assert by_id["1"].kind == MessageKind.SYSTEM
    marta = Person.objects.get(
        identities__platform=Platform.TELEGRAM,
        identities__kind=IdentityKind.PLATFORM_ID,
        identities__value="555",
    )
    # The same Marta in the direct chat and the group.
    assert by_id["3"].sender_person_id == marta.pk
    assert (
        Message.objects.get(chat__platform_chat_id="555", platform_message_id="20").sender_person_id
        == marta.pk
    )
    assert sorted(Person.objects.filter(user=user).values_list("display_name", flat=True)) == [
        "João Reis",
        "Marta Lopes",
        "Rui Alves",
    ]


def test_slack_import_applies_edits_and_deletes_and_keeps_emails(user):
    stdout, _ = _import(user, "slack", SLACK, "--self", "sam")

    assert stdout == (
        "Imported acme_export: 4 chats (4 new), 3 people (3 new), "
        "14 messages: 13 created, 0 updated, 0 deleted, 1 unchanged.\n"
    )
    general = Chat.objects.get(user=user, platform_chat_id="C01GENERAL")
    rows = {row.platform_message_id: row for row in Message.objects.filter(chat=general)}
    assert rows["1705311300.000000"].reply_to_id == rows["1705311000.000000"].pk
    assert rows["1705320000.000000"].text == "Typo in the agenda: the sync is at 10:30, not 10:00"
    assert rows["1705320000.000000"].edited_at == datetime(2024, 1, 16, 8, 0, tzinfo=UTC)
    assert rows["1705320300.000000"].deleted_at is not None
    assert rows["1705320300.000000"].text == ""
    ana = Person.objects.get(
        user=user, identities__kind=IdentityKind.EMAIL, identities__value="ana.silva@acme.example"
    )
    assert ana.display_name == "Ana"
    assert set(general.participants.values_list("display_name", flat=True)) == {
        "Ana",
        "jo 🌸",
        "Deploy Bot",
    }
    before = _row_counts()

    again, _ = _import(user, "slack", SLACK, "--self", "sam")

    assert again == (
        "Imported acme_export: 4 chats (0 new), 3 people (0 new), "
        "14 messages: 0 created, 0 updated, 0 deleted, 14 unchanged.\n"
    )
    assert _row_counts() == before


def test_jsonl_import_and_reimport(user):
    stdout, _ = _import(user, "jsonl", JSONL, "--self", "Sam Rivera")

    assert stdout == (
        "Imported chats.jsonl: 2 chats (2 new), 3 people (3 new), "
        "7 messages: 6 created, 0 updated, 0 deleted, 1 unchanged.\n"
    )
    trip = Chat.objects.get(user=user, platform=Platform.SIGNAL, platform_chat_id="trip-2024")
    rows = {row.platform_message_id: row for row in Message.objects.filter(chat=trip)}
    assert rows["2"].reply_to_id == rows["1"].pk
    assert rows["2"].is_from_self is True
    assert rows["3"].edited_at == datetime(2024, 5, 3, 17, 6, 30, tzinfo=UTC)
    assert rows["4"].deleted_at is not None

    again, _ = _import(user, "jsonl", JSONL, "--self", "Sam Rivera")

    assert again.endswith("7 messages: 0 created, 0 updated, 0 deleted, 7 unchanged.\n")


def test_a_changed_message_in_a_later_export_is_an_update(user, tmp_path):
    path = tmp_path / "messages.jsonl"
    line = {
        "conversation_id": "c1",
        "message_id": "m1",
        "sender": "Ana",
        "text": "See you at 8",
        "sent_at": "2024-05-03T18:00:00+01:00",
    }
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    _import(user, "jsonl", path)
    line.update(text="See you at 9", edited_at="2024-05-03T18:10:00+01:00")
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")

    stdout, _ = _import(user, "jsonl", path)

    assert stdout.endswith("1 message: 0 created, 1 updated, 0 deleted, 0 unchanged.\n")
    row = Message.objects.get(user=user)
    assert (row.text, row.edited_at) == ("See you at 9", datetime(2024, 5, 3, 17, 10, tzinfo=UTC))


def test_a_file_carrying_an_edit_as_a_second_line_reimports_unchanged(user, tmp_path):
    path = tmp_path / "messages.jsonl"
    original = {
        "conversation_id": "c1",
        "message_id": "m1",
        "sender": "Ana",
        "text": "See you at 8",
        "sent_at": "2024-05-03T18:00:00+01:00",
    }
    edit = {**original, "text": "See you at 9", "edited_at": "2024-05-03T18:10:00+01:00"}
    path.write_text(json.dumps(original) + "\n" + json.dumps(edit) + "\n", encoding="utf-8")

    first, _ = _import(user, "jsonl", path)
    again, _ = _import(user, "jsonl", path)

    assert first.endswith("1 message: 1 created, 0 updated, 0 deleted, 0 unchanged.\n")
    assert again.endswith("1 message: 0 created, 0 updated, 0 deleted, 1 unchanged.\n")
    row = Message.objects.get(user=user)
    assert (row.text, row.edited_at) == ("See you at 9", datetime(2024, 5, 3, 17, 10, tzinfo=UTC))


def test_progress_bar_on_request(user):
    _, stderr = _import(user, "jsonl", JSONL, "--progress")

    assert "chats.jsonl: 100%" in stderr
    assert "7/7" in stderr


@pytest.mark.parametrize(
    ("format", "name", "content", "message"),
    [
        (
            "jsonl",
            "chats.jsonl",
            '{"conversation_id": "c", "message_id": "1", "sender": "A", "text": "x", '
            '"sent_at": "2024-01-01T10:00:00Z"}\n{"conversation_id": "c", "message_id": "2"\n',
            "2: invalid JSON: Expecting ',' delimiter (column 43)",
        ),
        (
            "jsonl",
            "chats.jsonl",
            '{"conversation_id": "c", "message_id": "1", "sender": "A", "text": "x", '
            '"sent_at": "2024-01-01T10:00:00Z"}\n\n{"conversation_id": "c", "message_id": "2", '
            '"sender": "A", "text": "y"}\n',
            "3: missing required field 'sent_at'",
        ),
        (
            "whatsapp",
            "WhatsApp Chat with Ana.txt",
            "Chat with Ana\n14/02/2024, 09:12 - Ana: hi\n",
            "1: not a WhatsApp message line: expected a date and time first, like "
            "'31/12/2023, 21:41 - Name: text' or '[31/12/2023, 21:41:05] Name: text'",
        ),
        (
            "telegram",
            "result.json",
            '{\n "name": "Ana",\n "type": "personal_chat"\n "id": 1\n}\n',
            "4: invalid JSON: Expecting ',' delimiter (column 2)",
        ),
    ],
)
def test_malformed_input_fails_with_file_and_line_and_writes_nothing(
    user, tmp_path, format, name, content, message
):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")

    with pytest.raises(CommandError) as raised:
        _import(user, format, path)

    assert str(raised.value) == f"{path}:{message}"
    assert _row_counts() == (0, 0, 0, 0, 0)


def test_a_bad_slack_day_file_rolls_back_the_chats_already_written(user, tmp_path):
    export = tmp_path / "export"
    export.mkdir()
    for file in SLACK.rglob("*.json"):
        target = export / file.relative_to(SLACK)
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(file.read_bytes())
    (export / "random" / "2024-01-15.json").write_text("[{]", encoding="utf-8")

    with pytest.raises(CommandError) as raised:
        _import(user, "slack", export)

    assert str(raised.value) == (
        f"{export / 'random' / '2024-01-15.json'}:1: invalid JSON: "
        "Expecting property name enclosed in double quotes (column 3)"
    )
    assert _row_counts() == (0, 0, 0, 0, 0)


def _long_whatsapp_export(path: Path, *, valid_messages: int, last_line: str) -> None:
    lines = []
    for n in range(valid_messages):
        sender = "Ana" if n % 2 else "Ben"
        lines.append(f"14/02/2024, {9 + n // 60 % 12:02d}:{n % 60:02d} - {sender}: message {n}")
    path.write_text("\n".join([*lines, last_line]) + "\n", encoding="utf-8")


def test_an_import_failing_after_the_first_chunk_leaves_nothing_behind(user, tmp_path, monkeypatch):
    path = tmp_path / "WhatsApp Chat with Ana.txt"
    _long_whatsapp_export(path, valid_messages=700, last_line="31/02/2024, 10:00 - Ana: oops")
    calls = []

    def counting_ingest(**kwargs):
        calls.append(len(kwargs["messages"]))
        return messages_ingest(**kwargs)

    monkeypatch.setattr(importing, "messages_ingest", counting_ingest)

    with pytest.raises(CommandError) as raised:
        _import(user, "whatsapp", path)

    assert str(raised.value) == (
        f"{path}:701: invalid date or time 31/02/2024 10:00 read as dmy: "
        "day is out of range for month"
    )
    # The chats, then a first chunk of 500 messages were written before the bad line was read.
    assert calls == [0, 500]
    assert _row_counts() == (0, 0, 0, 0, 0)


def _ingest_logs(caplog) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.getMessage() == "conversations.ingest"]


def test_a_failed_import_logs_nothing_it_did_not_keep(
    user, tmp_path, caplog, django_capture_on_commit_callbacks
):
    caplog.set_level(logging.INFO, logger="conversations")
    path = tmp_path / "WhatsApp Chat with Ana.txt"
    _long_whatsapp_export(path, valid_messages=700, last_line="31/02/2024, 10:00 - Ana: oops")

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(CommandError):
        _import(user, "whatsapp", path)

    assert _row_counts() == (0, 0, 0, 0, 0)
    assert _ingest_logs(caplog) == []


def test_a_kept_import_logs_what_it_wrote(
    user, tmp_path, caplog, django_capture_on_commit_callbacks
):
    caplog.set_level(logging.INFO, logger="conversations")
    path = tmp_path / "WhatsApp Chat with Ana.txt"
    _long_whatsapp_export(path, valid_messages=3, last_line="14/02/2024, 11:00 - Ana: bye")

    with django_capture_on_commit_callbacks(execute=True):
        _import(user, "whatsapp", path)

    logged = [(record.chats_created, record.messages_created) for record in _ingest_logs(caplog)]
    assert logged == [(1, 0), (0, 4)]


def test_an_exception_between_chunks_rolls_back_the_whole_file(user, tmp_path, monkeypatch):
    path = tmp_path / "messages.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        for n in range(1200):
            line = {
                "conversation_id": f"c{n % 3}",
                "message_id": str(n),
                "sender": f"Person {n % 5}",
                "text": f"message {n}",
                "sent_at": f"2024-01-01T10:{n % 60:02d}:00+00:00",
            }
            stream.write(json.dumps(line) + "\n")
    calls = []

    def failing_ingest(**kwargs):
        calls.append(len(kwargs["messages"]))
        if len(calls) == 3:
            raise RuntimeError("connection lost")
        return messages_ingest(**kwargs)

    monkeypatch.setattr(importing, "messages_ingest", failing_ingest)

    with pytest.raises(RuntimeError, match="connection lost"):
        _import(user, "jsonl", path)

    assert calls == [0, 500, 500]
    assert _row_counts() == (0, 0, 0, 0, 0)


def test_unknown_user_is_refused(db, tmp_path):
    with pytest.raises(CommandError) as raised:
        call_command(
            "import_messages", "--user", "nobody@example.com", "--format", "jsonl", str(JSONL)
        )

    assert str(raised.value) == "No user with email 'nobody@example.com'."
    assert _row_counts() == (0, 0, 0, 0, 0)


def test_unknown_timezone_is_refused(user):
    with pytest.raises(CommandError) as raised:
        _import(user, "jsonl", JSONL, "--timezone", "Mars/Olympus_Mons")

    assert str(raised.value) == "'Mars/Olympus_Mons' is not an IANA timezone name."
    assert _row_counts() == (0, 0, 0, 0, 0)


def test_from_the_shell_an_error_exits_non_zero_with_the_message_on_stderr(tmp_path):
    missing = tmp_path / "missing.jsonl"

    completed = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "import_messages",
            "--user",
            "someone@example.com",
            "--format",
            "jsonl",
            str(missing),
        ],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
        timeout=120,
        check=False,
    )

    assert completed.returncode == 1
    assert completed.stdout == ""
    assert completed.stderr.strip().splitlines()[-1] == (
        f"CommandError: {missing}: no such file or directory"
    )


def _locomo_turn(conversation: str, session: int, turn: int, sender: str, text: str, **extra):
    """One line as the LoCoMo converter writes it (conversation, session and turn numbers,
    the dialogue id as message id, the session's date string, image fields)."""
    return {
        "conversation_id": conversation,
        "session_index": session,
        "turn_index": turn,
        "message_id": f"D{session}:{turn}",
        "sender": sender,
        "text": text,
        "raw_text": text,
        "image_caption": None,
        "image_urls": [],
        "sent_at": f"2023-0{session}-0{session}T13:5{turn}:00+00:00",
        "session_date_time": f"1:5{turn} pm on {session} May, 2023",
        **extra,
    }


def _locomo_file(path: Path) -> Path:
    """Two two-person conversations of two sessions each, one turn sharing an image."""
    turns = [
        _locomo_turn("conv-a", 1, 1, "Rosa", "Did the kiln finish firing?"),
        _locomo_turn("conv-a", 1, 2, "Tomas", "Yes, the blue bowls survived."),
        _locomo_turn(
            "conv-a",
            2,
            1,
            "Rosa",
            "Look at this glaze.\n[image: a photo of a blue bowl]",
            raw_text="Look at this glaze.",
            image_caption="a photo of a blue bowl",
            image_urls=["https://example.com/bowl.jpg"],
        ),
        _locomo_turn("conv-b", 1, 1, "Ines", "The ferry leaves at nine."),
        _locomo_turn("conv-b", 1, 2, "Joao", "Then we meet at the pier."),
        _locomo_turn("conv-b", 2, 1, "Joao", "Missed the ferry, next one at ten."),
        _locomo_turn("conv-b", 2, 2, "Ines", "I will wait."),
    ]
    path.write_text("".join(json.dumps(turn) + "\n" for turn in turns), encoding="utf-8")
    return path


def test_a_locomo_conversion_imported_twice_yields_its_turns_exactly_once(user, tmp_path):
    locomo = _locomo_file(tmp_path / "messages.jsonl")

    first, _ = _import(user, "jsonl", locomo)
    second, _ = _import(user, "jsonl", locomo)

    assert first.endswith("7 messages: 7 created, 0 updated, 0 deleted, 0 unchanged.\n")
    assert second.endswith("7 messages: 0 created, 0 updated, 0 deleted, 7 unchanged.\n")
    chats = {chat.platform_chat_id: chat for chat in Chat.objects.filter(user=user)}
    assert sorted(chats) == ["conv-a", "conv-b"]
    assert {chat.kind for chat in chats.values()} == {ChatKind.DIRECT}
    assert list(
        Message.objects.filter(chat=chats["conv-a"])
        .order_by("sent_at")
        .values_list("platform_message_id", "text")
    ) == [
        ("D1:1", "Did the kiln finish firing?"),
        ("D1:2", "Yes, the blue bowls survived."),
        ("D2:1", "Look at this glaze.\n[image: a photo of a blue bowl]"),
    ]
    assert sorted(Person.objects.filter(user=user).values_list("display_name", flat=True)) == [
        "Ines",
        "Joao",
        "Rosa",
        "Tomas",
    ]
