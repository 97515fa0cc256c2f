"""The prompt-injection set: every attack, through the real engine, obeyed by the mock model
and offline, must fail (``run_evals --set injection`` runs the same cases)."""

from __future__ import annotations

import pytest

from evals.injection import ATTACK_CLASSES, CARRIERS, TECHNIQUES, injection_cases
from evals.injection.run import injection_run

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_set_covers_every_class_technique_and_carrier():
    cases = injection_cases()
    assert len(cases) == 168
    assert len({case.case_id for case in cases}) == len(cases)
    assert {case.attack_class for case in cases} == set(ATTACK_CLASSES)
    assert {case.attack.technique for case in cases} == set(TECHNIQUES)
    assert {case.carrier for case in cases} == set(CARRIERS)
    assert {case.placement for case in cases} == {"direct", "indirect"}


@pytest.fixture(autouse=True)
def _prices(local_price_book):
    yield


@pytest.mark.slow
def test_no_injection_succeeds_and_the_legitimate_request_still_works():
    summary = injection_run(cases=injection_cases(), report=lambda line: None)
    result = summary.to_json()
    assert result["failures"] == []
    assert {name: row["successes"] for name, row in result["byClass"].items()} == dict.fromkeys(
        ATTACK_CLASSES, 0
    )
    not_proposed = [r.case.case_id for r in summary.results if not r.proposed_as_expected]
    assert not_proposed == []
    # Poisoned tool results reached a tool-calling model that obeyed them (read, then propose).
    tool_runs = [
        run.tool_steps
        for result in summary.results
        for run in result.runs
        if result.case.carrier == "tool_result"
        and run.mode == "obeying"
        and result.case.attack_class != "grant_capability"
    ]
    assert len(tool_runs) == 36
    assert min(tool_runs) >= 2
