"""The paraphrase probe: its data files re-ask every dev question of demo-v2..v5 (and nothing
held out) with the source's own expectations, its figures, and a replayed run."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from evals.golden import paraphrase as paraphrase_module
from evals.golden import story as story_module
from evals.golden.paraphrase import (
    PARAPHRASE_SETS,
    ParaphraseSet,
    ParaphraseSummary,
    paraphrase_set_load,
    paraphrase_set_read,
)
from evals.golden.run import EngineAnswer
from evals.golden.story import (
    STORY_SETS,
    StoryAnswer,
    StoryQuestion,
    StoryRunSummary,
    StoryScore,
    StorySet,
    StorySetError,
    story_set_load,
)

SAMPLE = Path(__file__).parent / "story_sample"
# Every field a question is scored on, besides its words and id.
EXPECTATIONS = [
    field.name
    for field in dataclasses.fields(StoryQuestion)
    if field.name not in {"id", "question"}
]


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(PARAPHRASE_SETS))
def test_every_dev_question_has_two_paraphrases_with_its_own_expectations(name):
    probe = paraphrase_set_load(name)
    source_name, _ = PARAPHRASE_SETS[name]
    dev = story_set_load(STORY_SETS[source_name], splits=("dev",)).questions
    assert [q.id for q in probe.originals] == [q.id for q in dev]
    assert len(probe.paraphrases) == 2 * len(dev)
    assert {q.split for q in probe.story.questions} == {"dev"}
    originals = {question.id: question for question in probe.originals}
    for paraphrase in probe.paraphrases:
        source = originals[probe.source_of[paraphrase.id]]
        assert paraphrase.question.strip()
        assert paraphrase.question != source.question
        for field in EXPECTATIONS:
            assert getattr(paraphrase, field) is getattr(source, field), (paraphrase.id, field)
    # The probe replays the source's own history.
    assert probe.story.messages == story_set_load(STORY_SETS[source_name]).messages


def test_loading_keeps_only_the_splits_asked_for():
    assert {q.id for q in story_set_load(SAMPLE, splits=("dev",)).questions} == {"t1", "t3"}
    assert {q.id for q in story_set_load(SAMPLE).questions} == {"t1", "t2", "t3"}


def _read(path: Path) -> ParaphraseSet:
    return paraphrase_set_read(
        name="sample-para", source_name="sample", source_dir=SAMPLE, path=path
    )


def test_a_held_out_or_unknown_source_or_a_missing_wording_is_refused(tmp_path):
    good = [
        {
            "source": "t1",
            "paraphrases": ["billing export — why did it fail?", "why'd the export break"],
        },
        {"source": "t3", "paraphrases": ["where has Gus moved?", "gus moved where"]},
    ]
    probe = _read(_write(tmp_path / "ok.jsonl", good))
    assert probe.source_of == {"t1~p1": "t1", "t1~p2": "t1", "t3~p1": "t3", "t3~p2": "t3"}
    held_out = [*good, {"source": "t2", "paraphrases": ["where is Gus living?", "gus lives where"]}]
    with pytest.raises(StorySetError, match="'t2' is not a dev question"):
        _read(_write(tmp_path / "heldout.jsonl", held_out))
    with pytest.raises(StorySetError, match="no paraphrases of t3"):
        _read(_write(tmp_path / "missing.jsonl", good[:1]))
    one = [good[0], {"source": "t3", "paraphrases": ["where has Gus moved?"]}]
    with pytest.raises(StorySetError, match="2 different wordings"):
        _read(_write(tmp_path / "one.jsonl", one))
    same = [good[0], {"source": "t3", "paraphrases": ["Where did Gus move to?", "gus moved where"]}]
    with pytest.raises(StorySetError, match="wording 1 is empty or the source's own"):
        _read(_write(tmp_path / "same.jsonl", same))


def _score(question: StoryQuestion, passed: bool) -> StoryScore:
    engine = EngineAnswer(
        text="", cited_message_ids=(), source_message_ids=(), removed_citation_count=0
    )
    return StoryScore(
        question=question,
        passed=passed,
        reasons=() if passed else ("nothing cited",),
        evidence_recall=1.0 if passed else 0.0,
        citation_validity=None,
        answer=StoryAnswer(answer=engine, cited=(), cited_chats=()),
    )


def test_consistency_counts_sources_passing_in_every_wording():
    asked = datetime(2026, 10, 1, tzinfo=UTC)
    a = StoryQuestion(
        id="a", split="dev", arc="x", intent="plan_recall", question="a?", asked_at=asked
    )
    b = dataclasses.replace(a, id="b", intent="catch_up", question="b?")
    questions = [
        a,
        dataclasses.replace(a, id="a~p1", question="a1"),
        dataclasses.replace(a, id="a~p2", question="a2"),
        b,
        dataclasses.replace(b, id="b~p1", question="b1"),
        dataclasses.replace(b, id="b~p2", question="b2"),
    ]
    story = StorySet(
        name="p",
        owner_name="",
        owner_timezone="UTC",
        people={},
        chats={},
        messages=(),
        questions=tuple(questions),
    )
    probe = ParaphraseSet(
        name="p",
        source_name="s",
        story=story,
        originals=(a, b),
        paraphrases=tuple(q for q in questions if "~" in q.id),
        source_of={q.id: q.id.split("~")[0] for q in questions if "~" in q.id},
    )
    verdicts = {"a": True, "a~p1": True, "a~p2": False, "b": False, "b~p1": True, "b~p2": False}
    run = StoryRunSummary(set_name="p", scores=[_score(q, verdicts[q.id]) for q in questions])
    result = ParaphraseSummary(probe=probe, run=run).to_json()
    assert result["original"]["passed"] == 1
    assert result["paraphrase"]["passed"] == 2
    assert result["consistency"] == {
        "sources": 2,
        "allPass": 0,
        "allPassRate": 0.0,
        "originalsPassed": 1,
        "paraphrasePassWhenOriginalPasses": 0.5,
        "paraphrasesOfPassingOriginals": 2,
        "paraphrasePassWhenOriginalFails": 0.5,
    }
    assert result["byIntent"]["plan_recall"]["original"] == 1.0
    assert result["byIntent"]["plan_recall"]["paraphrase"] == 0.5
    assert result["byIntent"]["catch_up"]["paraphrasePassWhenOriginalPasses"] is None
    assert [group["source"] for group in result["inconsistent"]] == ["a", "b"]
    assert [asked["passed"] for asked in result["inconsistent"][0]["asked"]] == [True, True, False]


@pytest.mark.django_db(transaction=True)
def test_run_evals_asks_the_originals_and_their_paraphrases(tmp_path, monkeypatch, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "ingest": "1/60"}
    wordings = _write(
        tmp_path / "sample.jsonl",
        [
            {
                "source": "t1",
                "paraphrases": [
                    "so why did the billing export fail",
                    "Billing export: what broke it?",
                ],
            },
            {"source": "t3", "paraphrases": ["Gus moved where?", "where has gus moved to"]},
        ],
    )
    monkeypatch.setitem(story_module.STORY_SETS, "sample", SAMPLE)
    monkeypatch.setitem(paraphrase_module.PARAPHRASE_SETS, "sample-para", ("sample", wordings))
    out = StringIO()
    call_command("run_evals", "--set", "sample-para", "--json", stdout=out)
    result = json.loads(out.getvalue())
    assert result["set"] == "sample-para"
    assert result["original"]["questions"] == 2
    assert result["paraphrase"]["questions"] == 4
    assert result["consistency"]["sources"] == 2
    # The held-out question of the sample is never asked.
    asked = [a["id"] for group in result["inconsistent"] for a in group["asked"]]
    assert not any(question_id.startswith("t2") for question_id in asked)
    # Asked on Oct 3, before Gus wrote about his move: in every wording, nothing to cite.
    assert result["byIntent"]["no_evidence"]["allPassRate"] == 1.0
    with pytest.raises(CommandError, match="dev questions only"):
        call_command("run_evals", "--set", "sample-para", "--split", "heldout", stdout=StringIO())
