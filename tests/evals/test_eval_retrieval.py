"""``eval_retrieval`` asks through ``retrieve`` (memory, the answerability check, the pack) and
writes run files of a fixed shape. The slice in ``locomo_slice/`` is written for this test in
LoCoMo's JSONL format: six short two-person conversations, questions of every category."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from claire.accounts.models import User
from claire.ai.config import ai_config_reset
from evals.locomo import EVAL_EMAIL_DOMAIN

pytestmark = pytest.mark.django_db

SLICE = Path(__file__).parent / "locomo_slice"
HIT_KEYS = {"question_id", "ranked", "pack", "route", "category", "gate"}


@pytest.fixture(autouse=True)
def hash_embed_profile():
    embed = {"candidates": ["local/hash-embed"], "retry_max_attempts": 1}
    with override_settings(AI_PROFILES={**settings.AI_PROFILES, "embed": embed}):
        ai_config_reset()
        yield
    ai_config_reset()


def _eval(out: Path, *args: str) -> str:
    stdout = StringIO()
    call_command(
        "eval_retrieval",
        "--messages",
        str(SLICE / "messages.jsonl"),
        "--questions",
        str(SLICE / "questions.jsonl"),
        "--out",
        str(out),
        "--cpu-policy",
        "normal",
        *args,
        stdout=stdout,
    )
    return stdout.getvalue()


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _dia_ids(conversation_id: str) -> set[str]:
    return {
        line["message_id"]
        for line in _lines(SLICE / "messages.jsonl")
        if line["conversation_id"] == conversation_id
    }


def test_every_question_goes_through_retrieve_and_the_run_files_have_their_shape(tmp_path):
    output = _eval(tmp_path / "run.jsonl")

    questions = _lines(SLICE / "questions.jsonl")
    hits = _lines(tmp_path / "run.jsonl")
    assert [line["question_id"] for line in hits] == [q["question_id"] for q in questions]
    for line, question in zip(hits, questions, strict=True):
        assert set(line) == HIT_KEYS
        assert line["category"] == question["category"]
        assert set(line["gate"]) == {"checked", "fired", "rule", "strength", "weak"}
        # Strength is judged only for answers the check read, and weak only when judged.
        assert line["gate"]["strength"] is None or line["gate"]["checked"]
        assert not line["gate"]["weak"] or line["gate"]["strength"] is not None
        # The answerability check runs unless personal memory answered.
        assert line["gate"]["checked"] or line["route"] != "no_evidence"
        assert line["gate"]["fired"] == (line["gate"]["rule"] is not None)
        dia_ids = _dia_ids(question["conversation_id"])
        assert set(line["ranked"]) <= dia_ids
        assert set(line["pack"]) <= dia_ids
        assert len(line["ranked"]) == len(set(line["ranked"]))
        if line["route"] == "no_evidence":
            assert (line["ranked"], line["pack"]) == ([], [])
        else:
            assert line["ranked"] and line["pack"]
    # Questions about the history that memory has nothing on go through the check.
    omar = next(line for line in hits if line["question_id"] == "slice-2:q000")
    assert omar["gate"]["checked"] is True
    # A topic neither speaker ever mentions has no evidence.
    dentist = next(line for line in hits if line["question_id"] == "slice-1:q003")
    assert dentist["route"] == "no_evidence"

    pack = _lines(tmp_path / "run.pack.jsonl")
    assert [(line["question_id"], line["ranked"]) for line in pack] == [
        (line["question_id"], line["pack"]) for line in hits
    ]
    searched = _lines(tmp_path / "run.search.jsonl")
    assert [line["question_id"] for line in searched] == [line["question_id"] for line in hits]
    # The diagnostic is search's own ranking: the answer's hits are memory's messages and that
    # ranking, or nothing.
    for line, search_line in zip(hits, searched, strict=True):
        assert line["ranked"] == [] or set(search_line["ranked"]) <= set(line["ranked"])
    assert _lines(tmp_path / "run.questions.jsonl") == questions

    assert "retrieve hits" in output and "retrieve pack" in output
    assert "diagnostic: search" in output
    assert "no evidence: answerable" in output
    assert "weak evidence (answered, saying it may not answer): answerable" in output
    # Deleted afterwards without --keep.
    assert not User.objects.filter(email__endswith=EVAL_EMAIL_DOMAIN).exists()


def test_the_test_split_runs_only_the_last_five_conversations(tmp_path):
    _eval(tmp_path / "run.jsonl", "--split", "test", "--keep")

    hits = _lines(tmp_path / "run.jsonl")
    assert {line["question_id"].split(":")[0] for line in hits} == {"slice-6"}
    assert {q["conversation_id"] for q in _lines(tmp_path / "run.questions.jsonl")} == {"slice-6"}
    assert list(
        User.objects.filter(email__endswith=EVAL_EMAIL_DOMAIN).values_list("email", flat=True)
    ) == [f"slice-6@{EVAL_EMAIL_DOMAIN}"]

    _eval(tmp_path / "again.jsonl", "--split", "test", "--reuse")
    assert _lines(tmp_path / "again.jsonl") == hits
