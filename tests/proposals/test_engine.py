"""Action requests through the real ASGI application: one ``data-proposal`` part per intent."""

from __future__ import annotations

import pytest
from django.utils import timezone

from billing.models import UsageEvent
from claire.ai.config import ai_config_reset
from claire.ai.local.mock import MockLanguageModel
from claire.ai.registry import models_overridden
from proposals.models import OutboxMessage, Proposal, Receipt
from tests.assistant.conftest import ask
from tests.proposals.support import chat, history, person

pytestmark = pytest.mark.django_db(transaction=True)

QUESTION = "Write to Rui again about the boiler"


def _proposals(chunks):
    return [chunk for chunk in chunks if chunk["type"] == "data-proposal"]


def test_an_action_request_streams_one_proposal_before_saving(user):
    history(user)
    reply = ask(user, question=QUESTION)
    assert reply.status == 200
    chunks = reply.chunks
    parts = _proposals(chunks)
    assert len(parts) == 1
    types = [chunk["type"] for chunk in chunks]
    position = types.index("data-proposal")
    assert types[position - 1] == "text-end"
    assert chunks[position + 1] == {
        "type": "data-status",
        "id": "status",
        "data": {"phase": "saving"},
    }
    proposal = Proposal.objects.get(user=user)
    data = parts[0]["data"]
    assert parts[0]["id"] == f"proposal-{proposal.pk}"
    assert data == {
        "proposalId": str(proposal.pk),
        "capabilityId": "draft_outreach",
        "requiresApproval": True,
        "status": "proposed",
        "payloadHash": proposal.payload_hash,
        "expiresAt": proposal.expires_at.isoformat(),
        "display": {
            "recipientName": "Rui Costa",
            "chat": "dm-rui",
            "platform": "whatsapp",
            "draftText": (
                "Hey Rui,\n\nJust following up on the boiler from Tue 3 Mar. "
                "Could you let me know when you can?\n\nThanks!"
            ),
        },
    }
    assert proposal.destination_chat == chat(user, "dm-rui")
    assert proposal.destination_person == person(user, "Rui Costa")
    text = "".join(c["delta"] for c in chunks if c["type"] == "text-delta").lower()
    assert " sent" not in text
    assert not Receipt.objects.exists()
    assert not OutboxMessage.objects.exists()


def test_the_json_transport_carries_the_same_proposal_and_replays_it(user):
    history(user)
    streamed = _proposals(
        ask(user, question=QUESTION, request_id="5b0c7a1e-8a51-4b1e-9a33-1f0d2c3b4a01").chunks
    )
    body = ask(
        user,
        question=QUESTION,
        accept="application/json",
        request_id="5b0c7a1e-8a51-4b1e-9a33-1f0d2c3b4a01",
    ).json()
    assert body["proposal"] == streamed[0]["data"]
    again = ask(user, question=QUESTION.lower(), accept="application/json").json()
    assert again["proposal"]["proposalId"] == streamed[0]["data"]["proposalId"]
    assert Proposal.objects.filter(user=user).count() == 1


def test_a_question_that_asks_nothing_has_no_proposal(user):
    history(user)
    body = ask(
        user, question="What did Rui say about the boiler?", accept="application/json"
    ).json()
    assert body["proposal"] is None
    assert not Proposal.objects.exists()


def test_a_rejected_intent_is_not_proposed_again(user, api_client):
    history(user)
    first = _proposals(ask(user, question=QUESTION).chunks)[0]["data"]
    response = api_client.post(f"/api/proposals/{first['proposalId']}/reject", {}, format="json")
    assert response.status_code == 200
    assert _proposals(ask(user, question=QUESTION).chunks) == []
    assert Proposal.objects.get().status == "rejected"


@pytest.fixture
def draft_model(settings):
    settings.AI_PROFILES = {**settings.AI_PROFILES, "draft": {"candidates": ["local/mock"]}}
    ai_config_reset()
    yield
    ai_config_reset()


def test_a_configured_draft_model_writes_the_draft_under_a_settled_reservation(user, draft_model):
    history(user)
    model = MockLanguageModel(deltas=("Hey Rui, any news ", "on the boiler? Thanks!"))
    with models_overridden({"local/mock": model}):
        data = _proposals(ask(user, question=QUESTION).chunks)[0]["data"]
    assert data["display"]["draftText"] == "Hey Rui, any news on the boiler? Thanks!"
    assert model.call_count == 1
    prompt = model.requests[0].messages[0].content
    assert "Recipient: Rui Costa" in prompt
    assert "could you send someone" not in prompt  # no message text goes to the drafter
    assert Proposal.objects.get().draft_source == "local/mock"
    event = UsageEvent.objects.get(user=user, attempt=2)
    assert (event.profile, event.ending) == ("draft", "completed")


def test_an_unsafe_model_draft_is_replaced_by_the_local_draft(user, draft_model):
    history(user)
    model = MockLanguageModel(
        deltas=("Hi Rui, please send 300 EUR to IBAN GB33BUKB20201555555555.",)
    )
    with models_overridden({"local/mock": model}):
        data = _proposals(ask(user, question=QUESTION).chunks)[0]["data"]
    assert data["display"]["draftText"].startswith("Hey Rui,\n\nJust following up on the boiler")
    assert Proposal.objects.get().draft_source == "local drafter"
    assert Proposal.objects.get().expires_at > timezone.now()
