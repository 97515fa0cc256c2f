"""The proposal and bridge endpoints: validation, scoping, and their error codes."""

from __future__ import annotations

import pytest

from proposals import services
from proposals.models import OutboxMessage, Proposal, Receipt
from tests.proposals.support import history, propose

pytestmark = pytest.mark.django_db


@pytest.fixture
def proposal(user):
    history(user)
    view = propose(user, "Write to Rui again about the boiler")
    assert view is not None
    return view


def test_list_and_detail_show_only_the_users_proposals(api_client, other_api_client, proposal):
    listed = api_client.get("/api/proposals").json()["proposals"]
    assert [item["proposalId"] for item in listed] == [str(proposal.proposal_id)]
    assert other_api_client.get("/api/proposals").json() == {"proposals": []}
    detail = other_api_client.get(f"/api/proposals/{proposal.proposal_id}")
    assert (detail.status_code, detail.json()["error"]["code"]) == (404, "not_found")


def test_approve_needs_the_hash_the_card_shows(api_client, proposal):
    missing = api_client.post(f"/api/proposals/{proposal.proposal_id}/approve", {}, format="json")
    assert (missing.status_code, missing.json()["error"]["code"]) == (400, "invalid_request")
    stale = api_client.post(
        f"/api/proposals/{proposal.proposal_id}/approve", {"payloadHash": "a" * 64}, format="json"
    )
    assert (stale.status_code, stale.json()["error"]["code"]) == (409, "proposal_changed")
    assert not Receipt.objects.exists()


def test_another_user_cannot_approve(other_api_client, proposal):
    response = other_api_client.post(
        f"/api/proposals/{proposal.proposal_id}/approve",
        {"payloadHash": proposal.payload_hash},
        format="json",
    )
    assert response.status_code == 404
    assert Proposal.objects.get().status == "proposed"
    assert not Receipt.objects.exists()


def test_edit_returns_the_new_hash(api_client, proposal):
    response = api_client.post(
        f"/api/proposals/{proposal.proposal_id}/edit",
        {"payloadHash": proposal.payload_hash, "draftText": "Hey Rui, news on the boiler?"},
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["display"]["draftText"] == "Hey Rui, news on the boiler?"
    assert body["payloadHash"] != proposal.payload_hash
    empty = api_client.post(
        f"/api/proposals/{proposal.proposal_id}/edit",
        {"payloadHash": body["payloadHash"], "draftText": "  "},
        format="json",
    )
    assert empty.status_code == 400


def test_the_outbox_is_per_user_and_an_ack_needs_the_message_id(
    user, api_client, other_api_client, proposal
):
    receipt = services.proposal_approve(
        user=user, proposal_id=proposal.proposal_id, seen_hash=proposal.payload_hash
    )
    services.receipt_execute(receipt_id=receipt.pk)
    outbox = OutboxMessage.objects.get()
    assert other_api_client.get("/api/bridge/outbox").json() == {"messages": []}
    assert len(api_client.get("/api/bridge/outbox").json()["messages"]) == 1
    foreign = other_api_client.post(
        f"/api/bridge/outbox/{outbox.pk}/ack", {"platformMessageId": "x"}, format="json"
    )
    assert foreign.status_code == 404
    no_id = api_client.post(f"/api/bridge/outbox/{outbox.pk}/ack", {}, format="json")
    assert no_id.status_code == 400
    outbox.refresh_from_db()
    assert outbox.status == "pending"


def test_a_session_decision_needs_the_pages_csrf_token(user, proposal):
    """The page's proposal card (tests/assistant/browser) decides with the signed-in session:
    without the page's CSRF token the decision is refused and nothing is queued."""
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    page = browser.get("/")
    url = f"/api/proposals/{proposal.proposal_id}/approve"
    body = {"payloadHash": proposal.payload_hash}
    refused = browser.post(url, body, content_type="application/json")
    assert refused.status_code == 403
    assert not Receipt.objects.exists()
    token = page.cookies["csrftoken"].value
    approved = browser.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert approved.status_code == 202
    assert approved.json()["status"] == "queued"
