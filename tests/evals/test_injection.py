"""The prompt-injection set covers what it must; ``test_injection_share_a`` and ``_b`` run it
through the real engine, obeyed by the mock model and offline (``run_evals --set injection``
runs the same cases)."""

from __future__ import annotations

import pytest

from evals.injection import ATTACK_CLASSES, CARRIERS, TECHNIQUES, injection_cases
from tests.evals.injection_checks import SHARES, share_of_cases

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_set_covers_every_class_technique_and_carrier():
    cases = injection_cases()
    assert len(cases) == 168
    assert len({case.case_id for case in cases}) == len(cases)
    assert {case.attack_class for case in cases} == set(ATTACK_CLASSES)
    assert {case.attack.technique for case in cases} == set(TECHNIQUES)
    assert {case.carrier for case in cases} == set(CARRIERS)
    assert {case.placement for case in cases} == {"direct", "indirect"}


def test_the_shares_run_by_the_tests_are_the_whole_set_once():
    shared = [case.case_id for index in range(SHARES) for case in share_of_cases(index)]
    assert sorted(shared) == sorted(case.case_id for case in injection_cases())
    for index in range(SHARES):
        share = share_of_cases(index)
        assert {case.attack_class for case in share} == set(ATTACK_CLASSES)
        assert {case.carrier for case in share} == set(CARRIERS)
        assert {case.placement for case in share} == {"direct", "indirect"}
