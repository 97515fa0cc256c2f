from __future__ import annotations

from datetime import UTC, datetime

import pytest

from evals.golden import DEMO_V1, GOLDEN_SETS, GoldenQuestion
from evals.golden.run import EngineAnswer, RunSummary, answer_score
from fixtures.demo_corpus import build_demo_corpus
from fixtures.demo_questions import Intent


@pytest.fixture(scope="module")
def corpus():
    return build_demo_corpus(now=datetime(2026, 5, 20, 10, 0, tzinfo=UTC), seed=7)


def test_demo_set_has_sixty_questions_over_every_intent_and_platform(corpus):
    questions = DEMO_V1.questions
    assert len(questions) >= 60
    assert len({q.question for q in questions}) == len(questions)
    assert {q.intent for q in questions} == set(Intent.ALL)
    platforms = {
        ref.platform for q in questions for key in q.evidence for ref in corpus.story[key].evidence
    }
    assert platforms == {chat.platform for chat in corpus.chats}
    assert GOLDEN_SETS["demo-v1"] is DEMO_V1


def test_every_expectation_names_real_story_beats_people_and_chats(corpus):
    cast = {person.key for person in corpus.people}
    chats = {chat.platform_chat_id for chat in corpus.chats}
    for question in DEMO_V1.questions:
        assert set(question.evidence) <= set(corpus.story), question.question
        assert set(question.people) <= cast, question.question
        assert not question.scope_chat_id or question.scope_chat_id in chats
        assert question.expects_no_evidence == (
            not question.evidence and question.intent == Intent.NO_EVIDENCE
        )


QUESTION = GoldenQuestion(
    question="What happened with the dinner?",
    intent=Intent.PLAN_RECALL,
    evidence=("plan.a", "plan.b"),
    people=("marco",),
    plan_status="cancelled",
)
BEATS = {"plan.a": {1, 2}, "plan.b": {3}}
NAMES = {"marco": "Marco"}


def _answer(text: str, cited: tuple[int, ...], removed: int = 0) -> EngineAnswer:
    return EngineAnswer(
        text=text, cited_message_ids=cited, source_message_ids=cited, removed_citation_count=removed
    )


def test_a_complete_answer_passes():
    score = answer_score(
        question=QUESTION,
        answer=_answer("Marco cancelled it [S1][S2]", (2, 3)),
        beat_message_ids=BEATS,
        first_names=NAMES,
    )
    assert (score.passed, score.evidence_recall, score.citation_validity) == (True, 1.0, 1.0)


@pytest.mark.parametrize(
    ("answer", "missing_beats", "missing_people", "status_stated", "validity"),
    [
        (_answer("Marco cancelled it", (1,)), ("plan.b",), (), True, 1.0),
        (_answer("It was cancelled", (1, 3)), (), ("marco",), True, 1.0),
        (_answer("Marco moved it", (1, 3)), (), (), False, 1.0),
        (_answer("Marco cancelled it", (1, 3), removed=1), (), (), True, 2 / 3),
    ],
)
def test_each_shortfall_fails_the_answer(
    answer, missing_beats, missing_people, status_stated, validity
):
    score = answer_score(
        question=QUESTION, answer=answer, beat_message_ids=BEATS, first_names=NAMES
    )
    assert score.passed is False
    assert (score.missing_beats, score.missing_people, score.status_stated) == (
        missing_beats,
        missing_people,
        status_stated,
    )
    assert score.citation_validity == pytest.approx(validity)


def test_a_scoped_question_fails_when_it_cites_outside_its_chat():
    question = GoldenQuestion(
        question="What does Prize Desk want?",
        intent=Intent.CONVERSATION_QA,
        evidence=("plan.b",),
        scope_chat_id="telegram:prize-desk",
    )

    def scored(chats: tuple[str, ...]):
        answer = EngineAnswer(
            text="A voucher [S1][S2]",
            cited_message_ids=(3, 4),
            source_message_ids=(3, 4),
            removed_citation_count=0,
            cited_chat_ids=chats,
        )
        return answer_score(
            question=question, answer=answer, beat_message_ids=BEATS, first_names={}
        )

    inside = scored(("telegram:prize-desk", "telegram:prize-desk"))
    outside = scored(("telegram:prize-desk", "slack:dm-priya"))
    assert (inside.passed, inside.out_of_scope_citations) == (True, 0)
    assert (outside.passed, outside.out_of_scope_citations) == (False, 1)


def test_no_evidence_questions_pass_only_without_citations():
    question = GoldenQuestion(question="When is my dentist appointment?", intent=Intent.NO_EVIDENCE)
    silent = answer_score(
        question=question, answer=_answer("Nothing found.", ()), beat_message_ids={}, first_names={}
    )
    cited = answer_score(
        question=question, answer=_answer("Maybe [S1]", (9,)), beat_message_ids={}, first_names={}
    )
    assert (silent.passed, silent.no_evidence_correct) == (True, True)
    assert (cited.passed, cited.no_evidence_correct) == (False, False)


def test_summary_reports_per_intent_and_thresholds():
    summary = RunSummary(set_name="demo-v1")
    summary.scores.append(
        answer_score(
            question=QUESTION,
            answer=_answer("Marco cancelled it", (1, 3)),
            beat_message_ids=BEATS,
            first_names=NAMES,
        )
    )
    summary.scores.append(
        answer_score(
            question=QUESTION,
            answer=_answer("no idea", ()),
            beat_message_ids=BEATS,
            first_names=NAMES,
        )
    )
    assert summary.pass_rate == 0.5
    assert summary.pass_rate_by_intent() == {Intent.PLAN_RECALL: 0.5}
    assert summary.evidence_recall == 0.5
    assert summary.below_thresholds(DEMO_V1) == [
        "pass rate 0.500 < 1.000",
        "evidence recall 0.500 < 1.000",
    ]
    assert summary.to_json()["failures"] == [
        {
            "question": QUESTION.question,
            "intent": Intent.PLAN_RECALL,
            "missingBeats": ["plan.a", "plan.b"],
            "missingPeople": ["marco"],
            "statusStated": False,
            "outOfScopeCitations": 0,
            "error": "",
        }
    ]


def test_questions_are_asked_at_the_corpus_anchor_and_time_still_runs():
    from django.utils import timezone

    from evals.golden.run import asked_at_anchor

    real_now = timezone.now
    anchor = datetime(2026, 5, 20, 10, 0, tzinfo=UTC)
    with asked_at_anchor(anchor):
        first = timezone.now()
        second = timezone.now()
    assert abs((first - anchor).total_seconds()) < 60
    assert second >= first
    # Outside the block the clock is the real one again.
    assert timezone.now is real_now


def test_people_are_named_by_the_first_name_the_cast_uses():
    from fixtures.demo_cast import CAST

    olu = next(member for member in CAST if member.key == "olu")
    question = GoldenQuestion("Who owns the dashboard?", Intent.CONVERSATION_QA, people=("olu",))
    answer = EngineAnswer(
        text="Olu owns the launch dashboard [S1]",
        cited_message_ids=(1,),
        source_message_ids=(1,),
        removed_citation_count=0,
    )
    score = answer_score(
        question=question,
        answer=answer,
        beat_message_ids={},
        first_names={olu.key: olu.first_name},
    )
    assert olu.first_name == "Olu"
    assert score.passed


def test_run_evals_asks_at_a_fixed_anchor_unless_told_otherwise(monkeypatch):
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    from evals.golden import DEFAULT_ANCHOR
    from evals.management.commands import run_evals

    anchors: list[datetime] = []

    def prepare(*, email, now, seed, report):
        anchors.append(now)
        return object(), object()

    def run(*, golden, user, corpus, report):
        summary = RunSummary(set_name=golden.name)
        summary.scores.append(
            answer_score(
                question=QUESTION,
                answer=_answer("Marco cancelled it [S1][S2]", (2, 3)),
                beat_message_ids=BEATS,
                first_names=NAMES,
            )
        )
        return summary

    monkeypatch.setattr(run_evals, "golden_user_prepare", prepare)
    monkeypatch.setattr(run_evals, "golden_run", run)
    call_command("run_evals", stdout=StringIO())
    call_command("run_evals", now="2026-06-01T08:00:00+01:00", stdout=StringIO())
    assert anchors == [DEFAULT_ANCHOR, datetime(2026, 6, 1, 7, 0, tzinfo=UTC)]
    assert DEFAULT_ANCHOR.weekday() == 2  # a Wednesday: "this week" has days behind it
    with pytest.raises(CommandError, match="UTC offset"):
        call_command("run_evals", now="2026-06-01T08:00:00")
