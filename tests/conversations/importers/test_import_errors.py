"""import_messages on hostile or damaged files: one line naming the file, the line (where the
format has lines) and the reason; nothing written; never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection

from conversations.models import Chat, Message, Person
from tests.conversations.importers.conftest import SAMPLES

pytestmark = pytest.mark.django_db

TELEGRAM = SAMPLES / "telegram" / "single_chat" / "result.json"
SLACK = SAMPLES / "slack" / "acme_export"


def _import(user, format: str, path: Path) -> tuple[str, str]:
    stdout, stderr = StringIO(), StringIO()
    call_command(
        "import_messages",
        "--user",
        user.email,
        "--format",
        format,
        str(path),
        stdout=stdout,
        stderr=stderr,
    )
    return stdout.getvalue(), stderr.getvalue()


def _failure(user, format: str, path: Path) -> str:
    with pytest.raises(CommandError) as raised:
        _import(user, format, path)
    assert (Chat.objects.count(), Message.objects.count(), Person.objects.count()) == (0, 0, 0)
    message = str(raised.value)
    assert "\n" not in message
    return message


def _jsonl_line(n: int, **overrides: object) -> str:
    line: dict[str, object] = {
        "conversation_id": "c1",
        "message_id": str(n),
        "sender": "Ana",
        "text": f"line {n}",
        "sent_at": "2024-01-01T10:00:00+00:00",
    }
    line.update(overrides)
    return json.dumps(line)


def _jsonl(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "messages.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_jsonl_nul_byte_names_its_line(user, tmp_path):
    path = _jsonl(tmp_path, _jsonl_line(1), _jsonl_line(2, text="a\x00b"))
    assert _failure(user, "jsonl", path) == f"{path}:2: text contains a NUL byte"


def test_jsonl_lone_surrogate_names_its_line(user, tmp_path):
    path = _jsonl(tmp_path, _jsonl_line(1, sender="Ana\ud800"), _jsonl_line(2))
    assert _failure(user, "jsonl", path) == (
        f"{path}:1: sender contains a lone surrogate (not valid Unicode text)"
    )


def test_jsonl_huge_text_names_its_line(user, tmp_path, settings):
    settings.INGEST_MAX_TEXT_CHARS = 1000
    path = _jsonl(tmp_path, _jsonl_line(1), _jsonl_line(2), _jsonl_line(3, text="x" * 1001))
    assert _failure(user, "jsonl", path) == (
        f"{path}:3: text is 1001 characters long; at most 1000 are imported"
    )


def test_jsonl_deep_json_names_its_line(user, tmp_path):
    path = _jsonl(tmp_path, _jsonl_line(1), "[" * 100_000 + "]" * 100_000)
    assert _failure(user, "jsonl", path) == f"{path}:2: invalid JSON: nested too deeply"


def test_jsonl_time_past_the_supported_range_names_its_line(user, tmp_path):
    path = _jsonl(tmp_path, _jsonl_line(1, sent_at="9999-12-31T23:59:59+00:00"))
    assert _failure(user, "jsonl", path) == (
        f"{path}:1: time 9999-12-31T23:59:59+00:00 is outside 1900-2199"
    )


def test_telegram_deep_json_is_one_line(user, tmp_path):
    path = tmp_path / "result.json"
    path.write_text('{"messages": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    assert _failure(user, "telegram", path) == f"{path}: invalid JSON: nested too deeply"


@pytest.mark.parametrize(
    ("unixtime", "reason"),
    [
        ("99999999999999999999", "date is not a time: '99999999999999999999'"),
        ("99999999999", "message 1: time 5138-11-16T09:46:39+00:00 is outside 1900-2199"),
    ],
)
def test_telegram_huge_unix_time_is_one_line(user, tmp_path, unixtime, reason):
    export = json.loads(TELEGRAM.read_text(encoding="utf-8"))
    export["messages"][0]["date_unixtime"] = unixtime
    path = tmp_path / "result.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    message = _failure(user, "telegram", path)
    assert message.startswith(f"{path}: ")
    assert message.endswith(reason)


def test_slack_huge_ts_is_one_line(user, tmp_path):
    export = tmp_path / "export"
    shutil.copytree(SLACK, export)
    day = export / "random" / "2024-01-15.json"
    messages = json.loads(day.read_text(encoding="utf-8"))
    messages[0]["ts"] = "9" * 40 + ".000001"
    day.write_text(json.dumps(messages), encoding="utf-8")
    message = _failure(user, "slack", export)
    assert message.startswith(f"{day}: ")
    assert message.endswith("is out of range")


def test_whatsapp_nul_byte_names_its_line(user, tmp_path):
    path = tmp_path / "WhatsApp Chat with Ana.txt"
    path.write_text(
        "14/02/2024, 09:12 - Ana: hi\n14/02/2024, 09:13 - Ben: a\x00b\n", encoding="utf-8"
    )
    assert _failure(user, "whatsapp", path) == f"{path}:2: text contains a NUL byte"


def test_truncated_whatsapp_export_imports_the_complete_messages_and_says_so(user, tmp_path):
    path = tmp_path / "WhatsApp Chat with Ana.txt"
    path.write_text(
        "14/02/2024, 09:12 - Ana: are we still on for the lake\n"
        "14/02/2024, 09:13 - Ben: yes, bring the\nbig tent and the stove and the blue c",
        encoding="utf-8",
    )
    stdout, stderr = _import(user, "whatsapp", path)
    assert list(Message.objects.values_list("text", flat=True)) == ["are we still on for the lake"]
    assert "1 message: 1 created" in stdout
    assert stderr.strip() == (
        f"warning: {path}:3: the file ends mid-line, so the export looks cut short: 1 messages "
        "were imported; the last message (from line 2) was not. Export the chat again to "
        "import it."
    )


def test_whatsapp_export_cut_inside_its_only_message_is_refused(user, tmp_path):
    path = tmp_path / "WhatsApp Chat with Ana.txt"
    path.write_text("14/02/2024, 09:12 - Ana: are we still", encoding="utf-8")
    assert _failure(user, "whatsapp", path) == (
        f"{path}:1: the file ends mid-line and holds no complete message"
    )


@pytest.mark.django_db(transaction=True)
def test_from_the_shell_a_hostile_file_prints_one_line_without_a_traceback(user, tmp_path):
    path = _jsonl(tmp_path, "[" * 100_000 + "]" * 100_000)
    completed = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "import_messages",
            "--user",
            user.email,
            "--format",
            "jsonl",
            str(path),
        ],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "PYTHONWARNINGS": "ignore",
            "CLAIRE_DATABASE_NAME": connection.settings_dict["NAME"],
        },
        timeout=120,
        check=False,
    )
    assert completed.returncode == 1
    assert "Traceback" not in completed.stderr
    assert completed.stderr.strip().splitlines()[-1] == (
        f"CommandError: {path}:1: invalid JSON: nested too deeply"
    )
