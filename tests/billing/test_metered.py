"""The one metered AI path (``billing.metered``): eligibility by the user's consent, the hold
on the costliest candidate, and the settlement priced at the model that answered."""

from __future__ import annotations

import pytest

from billing.metered import eligibility_for, metered_reserve
from billing.models import ReservationState
from billing.types import UsageTelemetry
from claire.accounts.consent import data_policy_for_user, remote_consent_set
from claire.ai.types import ChatMessage, DataPolicy, GenerationRequest, Usage
from tests.claire.ai.conftest import fake_model
from tests.factories import AiPolicyFactory, PriceBookEntryFactory, PriceBookFactory
from tests.factories.ai import verified_record_for

pytestmark = pytest.mark.django_db

CHEAP, DEAR = "fake/chat-cheap", "fake/chat-dear"


@pytest.fixture
def two_models(configure_ai, fake_openai):
    """The ``draft`` profile with two remote models, the second one dearer."""
    configure_ai(
        models={
            CHEAP: fake_model(fake_openai, "chat-cheap"),
            DEAR: fake_model(fake_openai, "chat-dear"),
        },
        profiles={"draft": {"candidates": [CHEAP, DEAR], "max_output_tokens": 200}},
    )
    verified_record_for(CHEAP)
    verified_record_for(DEAR)
    book = PriceBookFactory()
    PriceBookEntryFactory(price_book=book, provider="fake", model="chat-cheap")
    PriceBookEntryFactory(
        price_book=book,
        provider="fake",
        model="chat-dear",
        output_micro_usd_per_million=40_000_000,
    )


def _request() -> GenerationRequest:
    return GenerationRequest(
        messages=(ChatMessage(role="user", content="Write a short note to Pim about Friday."),),
        request_id="req-metered",
    )


@pytest.mark.parametrize(
    ("has_remote_consent", "policy", "eligible"),
    [(True, DataPolicy.ALLOW_REMOTE, [CHEAP, DEAR]), (False, DataPolicy.LOCAL_ONLY, [])],
)
def test_consent_decides_the_data_policy_and_the_eligible_models(
    user, two_models, has_remote_consent, policy, eligible
):
    AiPolicyFactory(user=user)
    remote_consent_set(user=user, given=has_remote_consent)

    eligibility = eligibility_for(user=user, profile="draft")

    assert data_policy_for_user(user=user) == policy
    assert eligibility.data_policy == policy
    assert [candidate.model.key for candidate in eligibility.candidates] == eligible


def test_the_hold_covers_the_dearest_candidate_and_the_answering_model_is_charged(user, two_models):
    AiPolicyFactory(user=user)
    remote_consent_set(user=user, given=True)
    eligibility = eligibility_for(user=user, profile="draft")

    call = metered_reserve(user=user, eligibility=eligibility, request=_request(), attempt=2)
    event = call.settle(
        usage=Usage(input_tokens=30, output_tokens=10),
        ending="completed",
        telemetry=UsageTelemetry(route="proposal"),
        model_key=CHEAP,
    )

    assert (call.reservation.provider, call.reservation.model) == ("fake", "chat-dear")
    assert call.reservation.attempt == 2
    assert call.reservation.state == ReservationState.SETTLED
    assert (event.provider, event.model, event.profile) == ("fake", "chat-cheap", "draft")
    assert (event.input_tokens, event.output_tokens) == (30, 10)
    assert 0 < event.settled_micro_usd < call.reservation.estimated_micro_usd


def test_a_call_that_never_ran_gives_the_whole_hold_back(user, two_models):
    AiPolicyFactory(user=user)
    remote_consent_set(user=user, given=True)
    call = metered_reserve(
        user=user, eligibility=eligibility_for(user=user, profile="draft"), request=_request()
    )

    released = call.release()

    assert released.state == ReservationState.RELEASED
    assert released.settled_micro_usd == 0
