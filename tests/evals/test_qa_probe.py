"""The qa-probe story loads as a story set: every question in the dev split, answerable ones
with key facts or people, unanswerable ones with nothing to cite."""

from __future__ import annotations

from evals.golden.story import STORY_SETS, story_set_load


def test_the_probe_loads_with_both_kinds_of_question_in_the_dev_split():
    story = story_set_load(STORY_SETS["qa-probe"])
    assert {question.split for question in story.questions} == {"dev"}
    unanswerable = [q for q in story.questions if q.is_no_evidence]
    answerable = [q for q in story.questions if not q.is_no_evidence]
    assert len(unanswerable) == 14
    assert len(answerable) == 15
    assert all(q.key_facts or q.people for q in answerable)
    assert all(not q.evidence and not q.key_facts for q in unanswerable)
