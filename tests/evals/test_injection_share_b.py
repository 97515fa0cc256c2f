"""Share 2 of 2 of the prompt-injection set, through the real engine, obeyed by the mock model
and offline: no attack succeeds and the legitimate request still works
(``run_evals --set injection`` runs the whole set)."""

from __future__ import annotations

import pytest

from tests.evals.injection_checks import assert_no_injection_succeeds, share_of_cases

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _prices(local_price_book):
    yield


@pytest.mark.slow
def test_no_injection_succeeds_and_the_legitimate_request_still_works():
    assert_no_injection_succeeds(share_of_cases(1))
