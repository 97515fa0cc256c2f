"""Paraphrase probe: every dev question of a story set asked again in two other wordings.

A dev split that passes while its held-out split does not says the product's rules fit the
exact words of the dev questions. The held-out splits measure that, but each look at them
spends them. The probe measures the same failure on the dev split: each dev question of
demo-v2..v5 is asked as written and in two natural rewordings (``paraphrases/<set>.jsonl``,
written blind to the product code), on the same history, at the same moment, against the same
expectations. A rule that only recognises the dev wording passes the original and fails a
paraphrase.

A paraphrase is its source question with another ``question`` text and id
(``<source id>~p<n>``): every expectation field is the source question's own object, not a copy.
Only the dev split of a source set is loaded; held-out questions are never read past their
split.

Figures (``ParaphraseSummary.to_json``): the originals and the paraphrases each as a story run
(pass rate, per intent, evidence recall, citation validity), and consistency: the share of
source questions whose original and both paraphrases pass, and the pass rate of paraphrases
whose original passes.
"""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evals.golden.story import (
    STORY_SETS,
    STORY_SETS_DIR,
    StoryQuestion,
    StoryRunSummary,
    StoryScore,
    StorySet,
    StorySetError,
    story_set_load,
)

PARAPHRASES_DIR = STORY_SETS_DIR / "paraphrases"
# Probe set name -> (source story set, file of paraphrases).
PARAPHRASE_SETS: dict[str, tuple[str, Path]] = {
    f"{source}-para": (source, PARAPHRASES_DIR / f"{source.replace('-', '_')}.jsonl")
    for source in ("demo-v2", "demo-v3", "demo-v4", "demo-v5")
}
# Runs every probe set in turn.
ALL_PARAPHRASE_SETS = "paraphrase"
PARAPHRASES_PER_QUESTION = 2
SOURCE_SPLIT = "dev"


@dataclass(frozen=True)
class ParaphraseSet:
    name: str
    source_name: str
    # The source set's history with its dev questions and their paraphrases as the questions.
    story: StorySet
    originals: tuple[StoryQuestion, ...]
    paraphrases: tuple[StoryQuestion, ...]
    # Paraphrase id -> source question id.
    source_of: dict[str, str]


def paraphrase_id(source_id: str, number: int) -> str:
    return f"{source_id}~p{number}"


def paraphrase_set_load(name: str) -> ParaphraseSet:
    """The probe set ``name``: its source set's dev split plus the paraphrases of each question.
    A line naming a question that is not a dev question of the source, a source without exactly
    two wordings, or a wording equal to its source raises ``StorySetError``."""
    source_name, path = PARAPHRASE_SETS[name]
    return paraphrase_set_read(
        name=name, source_name=source_name, source_dir=STORY_SETS[source_name], path=path
    )


def paraphrase_set_read(
    *, name: str, source_name: str, source_dir: Path, path: Path
) -> ParaphraseSet:
    """The probe of the story set in ``source_dir`` whose wordings ``path`` holds."""
    source = story_set_load(source_dir, splits=(SOURCE_SPLIT,))
    originals = {question.id: question for question in source.questions}
    paraphrases: list[StoryQuestion] = []
    source_of: dict[str, str] = {}
    seen: set[str] = set()
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                raw = json.loads(line)
                source_id = raw["source"]
                wordings = raw["paraphrases"]
            except (KeyError, TypeError, ValueError) as error:
                raise StorySetError(f"{where}: {error}") from error
            original = originals.get(source_id)
            if original is None:
                raise StorySetError(
                    f"{where}: {source_id!r} is not a dev question of {source_name}"
                )
            if source_id in seen:
                raise StorySetError(f"{where}: {source_id!r} is paraphrased twice")
            seen.add(source_id)
            if len(wordings) != PARAPHRASES_PER_QUESTION or len(set(wordings)) != len(wordings):
                raise StorySetError(f"{where}: {PARAPHRASES_PER_QUESTION} different wordings")
            for index, wording in enumerate(wordings, start=1):
                if not str(wording).strip() or wording == original.question:
                    raise StorySetError(f"{where}: wording {index} is empty or the source's own")
                question = dataclasses.replace(
                    original, id=paraphrase_id(source_id, index), question=str(wording)
                )
                paraphrases.append(question)
                source_of[question.id] = source_id
    unparaphrased = sorted(set(originals) - seen)
    if unparaphrased:
        raise StorySetError(f"{path}: no paraphrases of {', '.join(unparaphrased)}")
    story = dataclasses.replace(source, name=name, questions=(*source.questions, *paraphrases))
    return ParaphraseSet(
        name=name,
        source_name=source_name,
        story=story,
        originals=source.questions,
        paraphrases=tuple(paraphrases),
        source_of=source_of,
    )


def _rate(passed: int, total: int) -> float | None:
    return round(passed / total, 4) if total else None


@dataclass
class ParaphraseSummary:
    """A probe run's scores, split into originals and paraphrases."""

    probe: ParaphraseSet
    run: StoryRunSummary

    def _scores(self, *, paraphrased: bool) -> list[StoryScore]:
        return [
            score
            for score in self.run.scores
            if (score.question.id in self.probe.source_of) == paraphrased
        ]

    def _figures(self, scores: list[StoryScore]) -> dict[str, Any]:
        return StoryRunSummary(set_name=self.probe.name, scores=scores).figures()

    def consistency(self, scores: Sequence[StoryScore] | None = None) -> dict[str, Any]:
        """Over the source questions of ``scores`` (default all): how many pass as written and
        in both wordings; how the paraphrases of passing and of failing originals fare."""
        scores = list(self.run.scores if scores is None else scores)
        passed = {score.question.id: score.passed for score in scores}
        wordings: dict[str, list[bool]] = defaultdict(list)
        for score in scores:
            source_id = self.probe.source_of.get(score.question.id)
            if source_id is not None:
                wordings[source_id].append(score.passed)
        sources = [source_id for source_id in wordings if source_id in passed]
        all_pass = sum(1 for s in sources if passed[s] and all(wordings[s]))
        after_pass = [ok for s in sources if passed[s] for ok in wordings[s]]
        after_fail = [ok for s in sources if not passed[s] for ok in wordings[s]]
        return {
            "sources": len(sources),
            "allPass": all_pass,
            "allPassRate": _rate(all_pass, len(sources)),
            "originalsPassed": sum(1 for s in sources if passed[s]),
            "paraphrasePassWhenOriginalPasses": _rate(sum(after_pass), len(after_pass)),
            "paraphrasesOfPassingOriginals": len(after_pass),
            "paraphrasePassWhenOriginalFails": _rate(sum(after_fail), len(after_fail)),
        }

    def by_intent(self) -> dict[str, dict[str, Any]]:
        """Per intent: original pass rate, paraphrase pass rate and consistency."""
        intents = sorted({question.intent for question in self.probe.originals})
        table: dict[str, dict[str, Any]] = {}
        for intent in intents:
            scores = [s for s in self.run.scores if s.question.intent == intent]
            originals = [s for s in scores if s.question.id not in self.probe.source_of]
            paraphrases = [s for s in scores if s.question.id in self.probe.source_of]
            consistency = self.consistency(scores)
            table[intent] = {
                "questions": len(originals),
                "original": _rate(sum(s.passed for s in originals), len(originals)),
                "paraphrase": _rate(sum(s.passed for s in paraphrases), len(paraphrases)),
                "allPassRate": consistency["allPassRate"],
                "paraphrasePassWhenOriginalPasses": consistency["paraphrasePassWhenOriginalPasses"],
            }
        return table

    def to_json(self) -> dict[str, Any]:
        """Figures, then each source question that is not consistent: the original's and each
        wording's verdict, reasons and answer (all dev questions)."""
        by_id = {score.question.id: score for score in self.run.scores}
        inconsistent: list[dict[str, Any]] = []
        for original in self.probe.originals:
            if original.id not in by_id:
                continue
            group = [by_id[original.id]] + [
                by_id[paraphrase_id(original.id, n)]
                for n in range(1, PARAPHRASES_PER_QUESTION + 1)
                if paraphrase_id(original.id, n) in by_id
            ]
            if all(score.passed for score in group):
                continue
            inconsistent.append(
                {
                    "source": original.id,
                    "intent": original.intent,
                    "asked": [
                        {
                            "id": score.question.id,
                            "question": score.question.question,
                            "passed": score.passed,
                            "reasons": list(score.reasons),
                            "answer": score.answer.answer.text,
                        }
                        for score in group
                    ],
                }
            )
        return {
            "set": self.probe.name,
            "source": self.probe.source_name,
            "split": SOURCE_SPLIT,
            "original": self._figures(self._scores(paraphrased=False)),
            "paraphrase": self._figures(self._scores(paraphrased=True)),
            "consistency": self.consistency(),
            "byIntent": self.by_intent(),
            "inconsistent": inconsistent,
        }
