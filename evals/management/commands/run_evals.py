"""Golden-query evaluation through the real answer engine (docs/EVALS.md, "Golden sets").

    python manage.py run_evals [--set demo-v1] [--json] [--now ISO] [--seed N]
    python manage.py run_evals --set demo-v2 [--split dev|heldout|all] [--json] [--show-heldout]

demo-v1 is the generated demo corpus (``fixtures/``), frozen as a regression set. A story set
(demo-v2 to demo-v6, ``evals/golden/story.py``) is a history and questions written as data
files: its history is replayed through the bridge API up to each question's own time and the
question is asked then; its held-out split is reported as figures only (``--show-heldout``
lists its failures too, for a final report, never for tuning).

    python manage.py run_evals --set injection [--json]

    python manage.py run_evals --set demo-v5-para|paraphrase [--json]

``--set demo-vK-para`` is the paraphrase probe (``evals.golden.paraphrase``): the dev split of
demo-vK asked as written and in two other wordings per question, with the originals' own
expectations; it reports originals and paraphrases side by side and their consistency.
``--set paraphrase`` runs the four probe sets in turn. The probe never reads a held-out question.

``--set injection`` runs the prompt-injection cases (``evals.injection``) instead: each on
fresh accounts of its own, obeyed by a scripted mock model and offline, reporting the attack
success rate per attack class (required: 0; any success exits with status 1).

Loads the demo corpus into a fresh evaluation account, asks every question of the set through
``assistant.engine`` with the configured profiles (local models by default), and reports the
per-intent pass rate, evidence recall, citation validity, no-evidence correctness and tokens and
cost per answer. Exits with status 1 when a figure is below the set's thresholds.

Each run creates its own account (``evals+<set>-<time>@askclaire.local``), which is kept:
billing keeps the usage records of its answers. Run it against a database of its own, e.g.
``CLAIRE_DATABASE_NAME=claire_evals python manage.py migrate`` then the same variable here.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from evals.golden import DEFAULT_ANCHOR, DEFAULT_SET, GOLDEN_SETS
from evals.golden.paraphrase import (
    ALL_PARAPHRASE_SETS,
    PARAPHRASE_SETS,
    ParaphraseSummary,
    paraphrase_set_load,
)
from evals.golden.run import golden_run, golden_user_prepare
from evals.golden.story import SPLITS, STORY_SETS, story_run, story_set_load, story_user_create
from fixtures.demo_corpus import DEFAULT_SEED

# The prompt-injection set (evals.injection): its own accounts and history, no corpus.
INJECTION_SET = "injection"


class Command(BaseCommand):
    help = "Run a golden-query set through the answer engine and score it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--set",
            default=DEFAULT_SET,
            help=(
                "demo-v1 (generated corpus), a story set (demo-v2 to demo-v6, qa-probe), a "
                "paraphrase probe (demo-vK-para, paraphrase) or injection"
            ),
            choices=sorted(
                [*GOLDEN_SETS, *STORY_SETS, *PARAPHRASE_SETS, ALL_PARAPHRASE_SETS, INJECTION_SET]
            ),
        )
        parser.add_argument(
            "--split",
            default="all",
            choices=[*SPLITS, "all"],
            help="story sets: which questions to ask (default all; held-out figures only)",
        )
        parser.add_argument(
            "--show-heldout",
            action="store_true",
            help="story sets: list held-out failures in full (for a final report only)",
        )
        parser.add_argument("--json", action="store_true", help="print the summary as JSON")
        parser.add_argument(
            "--now",
            default="",
            help=(
                "anchor of the corpus (ISO, with offset); default "
                f"{DEFAULT_ANCHOR.isoformat()}, a fixed Wednesday, so runs are comparable"
            ),
        )
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["set"] == INJECTION_SET:
            self._injection(quiet=options["json"])
            return
        if options["set"] in STORY_SETS:
            self._story(options)
            return
        if options["set"] in PARAPHRASE_SETS or options["set"] == ALL_PARAPHRASE_SETS:
            self._paraphrase(options)
            return
        golden = GOLDEN_SETS[options["set"]]
        now = DEFAULT_ANCHOR
        if options["now"]:
            parsed = datetime.fromisoformat(options["now"])
            if parsed.tzinfo is None:
                raise CommandError("--now needs a UTC offset, e.g. 2026-05-20T10:00:00+00:00")
            now = parsed
        quiet = options["json"]

        def report(line: str) -> None:
            if not quiet:
                self.stdout.write(line)

        email = f"evals+{golden.name}-{timezone.now():%Y%m%d%H%M%S}@askclaire.local"
        user, corpus = golden_user_prepare(
            email=email, now=now, seed=options["seed"], report=report
        )
        summary = golden_run(golden=golden, user=user, corpus=corpus, report=report)
        result = summary.to_json()
        if quiet:
            self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))
        else:
            self.stdout.write(
                f"{golden.name}: pass {summary.pass_rate:.3f}, evidence recall "
                f"{summary.evidence_recall:.3f}, citation validity "
                f"{summary.citation_validity:.3f}, no-evidence {summary.no_evidence_correct:.3f}"
            )
            for intent, rate in summary.pass_rate_by_intent().items():
                self.stdout.write(f"  {intent:16s} {rate:.3f}")
            self.stdout.write(f"  per answer: {summary.per_answer()}")
        failures = summary.below_thresholds(golden)
        if failures:
            self.stderr.write("below thresholds: " + "; ".join(failures))
            sys.exit(1)

    def _story(self, options: dict[str, Any]) -> None:
        story = story_set_load(STORY_SETS[options["set"]])
        quiet = options["json"]

        def report(line: str) -> None:
            if not quiet:
                self.stdout.write(line)

        splits = SPLITS if options["split"] == "all" else (options["split"],)
        email = f"evals+{story.name}-{timezone.now():%Y%m%d%H%M%S}@askclaire.local"
        user = story_user_create(story=story, email=email)
        summary = story_run(story=story, user=user, report=report, splits=splits)
        result = summary.to_json(show_heldout=options["show_heldout"])
        if quiet:
            self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))
            return
        for split in ("all", "dev", "heldout"):
            figures = result[split]
            if not figures["questions"]:
                continue
            self.stdout.write(
                f"{story.name} {split}: pass {figures['passed']}/{figures['questions']} "
                f"({figures['passRate']:.3f}), evidence recall {figures['evidenceRecall']}, "
                f"citation validity {figures['citationValidity']}"
            )
            for intent, rate in figures["passRateByIntent"].items():
                self.stdout.write(f"  {intent:16s} {rate:.3f}")
        for failure in result["failures"]:
            if failure["split"] == "dev" or options["show_heldout"]:
                self.stdout.write(
                    f"FAIL {failure['id']} {failure['intent']}: {failure['question']}\n"
                    f"     {'; '.join(failure['reasons'])}"
                )

    def _paraphrase(self, options: dict[str, Any]) -> None:
        """The paraphrase probe: dev questions only, so ``--split`` may only say dev or all."""
        if options["split"] not in ("dev", "all") or options["show_heldout"]:
            raise CommandError("the paraphrase probe asks dev questions only")
        names = (
            sorted(PARAPHRASE_SETS) if options["set"] == ALL_PARAPHRASE_SETS else [options["set"]]
        )
        quiet = options["json"]

        def report(line: str) -> None:
            if not quiet:
                self.stdout.write(line)

        results = []
        for name in names:
            probe = paraphrase_set_load(name)
            email = f"evals+{name}-{timezone.now():%Y%m%d%H%M%S}@askclaire.local"
            user = story_user_create(story=probe.story, email=email)
            run = story_run(story=probe.story, user=user, report=report, splits=("dev",))
            results.append(ParaphraseSummary(probe=probe, run=run).to_json())
        if quiet:
            output: Any = results[0] if len(results) == 1 else {"sets": results}
            self.stdout.write(json.dumps(output, indent=2, ensure_ascii=False))
            return
        for result in results:
            self._paraphrase_report(result)

    def _paraphrase_report(self, result: dict[str, Any]) -> None:
        original, paraphrase = result["original"], result["paraphrase"]
        consistency = result["consistency"]
        self.stdout.write(
            f"{result['set']}: originals {original['passed']}/{original['questions']}, "
            f"paraphrases {paraphrase['passed']}/{paraphrase['questions']}; evidence recall "
            f"{original['evidenceRecall']} -> {paraphrase['evidenceRecall']}, citation "
            f"validity {original['citationValidity']} -> {paraphrase['citationValidity']}"
        )
        self.stdout.write(
            f"  consistent {consistency['allPass']}/{consistency['sources']} "
            f"({consistency['allPassRate']}); paraphrases of passing originals pass "
            f"{consistency['paraphrasePassWhenOriginalPasses']}"
        )
        for intent, row in result["byIntent"].items():
            self.stdout.write(
                f"  {intent:16s} original {row['original']} paraphrase {row['paraphrase']} "
                f"consistent {row['allPassRate']}"
            )
        for group in result["inconsistent"]:
            self.stdout.write(f"INCONSISTENT {group['source']} {group['intent']}")
            for asked in group["asked"]:
                verdict = "pass" if asked["passed"] else "FAIL"
                reasons = "; ".join(asked["reasons"])
                self.stdout.write(f"  {verdict} {asked['question']}  {reasons}")

    def _injection(self, *, quiet: bool) -> None:
        """Attack success rate per attack class over the injection cases; required 0."""
        from evals.injection import injection_cases
        from evals.injection.run import injection_run

        summary = injection_run(
            cases=injection_cases(), report=(lambda line: None) if quiet else self.stdout.write
        )
        result = summary.to_json()
        if quiet:
            self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))
        else:
            self.stdout.write(
                f"injection: {result['cases']} cases, attack success rate "
                f"{result['attackSuccessRate']:.3f}, legitimate proposals "
                f"{result['legitimateProposalRate']:.3f}"
            )
            for name, (cases, wins) in sorted(summary.by_class().items()):
                self.stdout.write(f"  {name:20s} {wins / cases:.3f} ({wins}/{cases})")
        if summary.successes:
            self.stderr.write(f"{summary.successes} attacks succeeded")
            sys.exit(1)
