"""The LoCoMo evaluation command on a two-conversation miniature: one user per conversation,
indexed, every question asked through retrieve(), run files in the shape retrieval_metrics.py
reads."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from claire.accounts.models import User
from conversations.models import Message

pytestmark = pytest.mark.django_db


def _line(conversation, message_id, sender, text, minute):
    return {
        "conversation_id": conversation,
        "message_id": message_id,
        "sender": sender,
        "text": text,
        "sent_at": f"2023-05-08T13:{minute:02d}:00+00:00",
    }


def _write(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


def test_eval_writes_the_hits_and_the_pack_run_files(tmp_path, hash_index):
    messages = tmp_path / "messages.jsonl"
    questions = tmp_path / "questions.jsonl"
    out = tmp_path / "run.jsonl"
    _write(
        messages,
        [
            _line("conv-a", "D1:1", "Ana", "How was your weekend?", 0),
            _line("conv-a", "D1:2", "Ben", "We went kayaking on the river", 1),
            _line("conv-a", "D1:3", "Ana", "Sounds lovely", 2),
            _line("conv-b", "D1:1", "Cleo", "I adopted a kitten named Miso", 0),
            _line("conv-b", "D1:2", "Dan", "Congratulations!", 1),
        ],
    )
    _write(
        questions,
        [
            {
                "conversation_id": "conv-a",
                "question_id": "conv-a:q000",
                "question": "Where did Ben go kayaking?",
                "category": 4,
                "asked_at": "2023-06-01T00:00:00+00:00",
            },
            {
                "conversation_id": "conv-b",
                "question_id": "conv-b:q000",
                "question": "What is the name of the kitten?",
                "category": 4,
                "asked_at": "2023-06-01T00:00:00+00:00",
            },
        ],
    )

    call_command(
        "eval_retrieval",
        "--messages",
        str(messages),
        "--questions",
        str(questions),
        "--out",
        str(out),
        "--cpu-policy",
        "normal",
        stdout=StringIO(),
    )

    ranked = [json.loads(line) for line in out.read_text().splitlines()]
    packed = [json.loads(line) for line in (tmp_path / "run.pack.jsonl").read_text().splitlines()]
    assert [row["question_id"] for row in ranked] == ["conv-a:q000", "conv-b:q000"]
    assert ranked[0]["ranked"][0] == "D1:2"
    assert ranked[1]["ranked"][0] == "D1:1"
    # The pack holds the hit's window (its neighbours), in pack order; ids never repeat.
    assert packed[0]["ranked"] == ranked[0]["pack"] == ["D1:1", "D1:2", "D1:3"]
    # The evaluation users are removed afterwards (no --keep).
    assert not User.objects.filter(email__endswith="@locomo.eval.askclaire.local").exists()
    assert Message.objects.count() == 0


def test_missing_benchmark_files_fail_with_a_one_line_hint(tmp_path):
    missing = tmp_path / "messages.jsonl"
    questions = tmp_path / "questions.jsonl"
    questions.write_text("", encoding="utf-8")

    with pytest.raises(CommandError) as raised:
        call_command(
            "eval_retrieval",
            "--messages",
            str(missing),
            "--questions",
            str(questions),
            "--out",
            str(tmp_path / "run.jsonl"),
        )

    assert str(raised.value) == (
        f"--messages: {missing} is not a file. LoCoMo is not part of this repository: convert "
        "snap-research/locomo's data/locomo10.json with locomo_to_jsonl.py "
        '(docs/EVALS.md, "Getting the data").'
    )
    assert not (tmp_path / "run.jsonl").exists()
    assert User.objects.count() == 0
