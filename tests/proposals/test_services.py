"""Proposals: one per intent, approval with payload hash, idempotent execution, the outbox."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from claire.errors import NotFound
from proposals import services
from proposals.errors import (
    CapabilityNotGranted,
    DestinationInvalid,
    OutboxAckConflict,
    ProposalChanged,
    ProposalExpired,
    ProposalNotPending,
)
from proposals.models import (
    OutboxMessage,
    OutboxStatus,
    Proposal,
    ProposalStatus,
    Receipt,
    ReceiptStatus,
)
from proposals.types import ProposalView
from tests.proposals.support import chat, history, person, propose

pytestmark = pytest.mark.django_db


@pytest.fixture
def rui_proposal(user):
    history(user)
    view = propose(user, "Write to Rui again about the boiler")
    assert view is not None
    return view


def test_an_action_request_proposes_to_the_direct_chat_of_the_person_named(user, rui_proposal):
    proposal = Proposal.objects.get(user=user)
    assert proposal.destination_chat == chat(user, "dm-rui")
    assert proposal.destination_person == person(user, "Rui Costa")
    assert proposal.status == ProposalStatus.PROPOSED
    assert proposal.capability.key == "draft_outreach"
    assert rui_proposal.requires_approval is True
    assert rui_proposal.recipient_name == "Rui Costa"
    assert rui_proposal.platform == "whatsapp"
    assert rui_proposal.draft_text == (
        "Hey Rui,\n\nJust following up on the boiler from Tue 3 Mar. "
        "Could you let me know when you can?\n\nThanks!"
    )
    assert proposal.payload == {
        "capability": "draft_outreach",
        "chatId": chat(user, "dm-rui").pk,
        "personId": person(user, "Rui Costa").pk,
        "platform": "whatsapp",
        "text": rui_proposal.draft_text,
    }
    assert proposal.expires_at == proposal.created_at + timedelta(hours=24) or (
        abs((proposal.expires_at - proposal.created_at) - timedelta(hours=24))
        < timedelta(seconds=5)
    )


def test_the_same_intent_gets_the_same_proposal(user, rui_proposal):
    again = propose(user, "write to rui again about the boiler!", request_id="req-2")
    assert again is not None
    assert again.proposal_id == rui_proposal.proposal_id
    assert Proposal.objects.filter(user=user).count() == 1


def test_a_question_that_is_not_an_action_request_proposes_nothing(user):
    history(user)
    assert propose(user, "What did Rui say about the boiler?") is None
    assert not Proposal.objects.exists()


def test_nobody_named_means_no_proposal(user):
    history(user)
    assert propose(user, "Draft a message about the boiler") is None
    assert not Proposal.objects.exists()


def test_a_revoked_grant_means_no_proposal_and_no_approval(user, rui_proposal):
    services.grant_set(user=user, capability_key="draft_outreach", is_granted=False)
    assert propose(user, "Message Ana about dinner", request_id="req-3") is None
    with pytest.raises(CapabilityNotGranted):
        services.proposal_approve(
            user=user, proposal_id=rui_proposal.proposal_id, seen_hash=rui_proposal.payload_hash
        )
    assert Proposal.objects.get(pk=rui_proposal.proposal_id).status == ProposalStatus.PROPOSED
    assert not Receipt.objects.exists()


def test_approval_queues_execution_after_commit_once(
    user, rui_proposal, django_capture_on_commit_callbacks, settings
):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    from claire.celery import app

    app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            receipt = services.proposal_approve(
                user=user,
                proposal_id=rui_proposal.proposal_id,
                seen_hash=rui_proposal.payload_hash,
            )
        assert len(callbacks) == 1
        with django_capture_on_commit_callbacks(execute=True) as again:
            same = services.proposal_approve(
                user=user,
                proposal_id=rui_proposal.proposal_id,
                seen_hash=rui_proposal.payload_hash,
            )
        assert again == []
    finally:
        app.conf.task_always_eager = False
    assert same.pk == receipt.pk
    assert receipt.idempotency_key == f"{rui_proposal.proposal_id}:{rui_proposal.payload_hash}"
    receipt.refresh_from_db()
    assert receipt.status == ReceiptStatus.OUTBOXED
    outbox = OutboxMessage.objects.get()
    assert (outbox.platform, outbox.platform_chat_id, outbox.text) == (
        "whatsapp",
        "dm-rui",
        rui_proposal.draft_text,
    )
    # Running the task twice changes nothing.
    assert services.receipt_execute(receipt_id=receipt.pk).status == ReceiptStatus.OUTBOXED
    assert OutboxMessage.objects.count() == 1


def test_a_stale_or_forged_hash_is_refused_and_changes_nothing(user, rui_proposal):
    with pytest.raises(ProposalChanged):
        services.proposal_approve(
            user=user, proposal_id=rui_proposal.proposal_id, seen_hash="0" * 64
        )
    assert Proposal.objects.get().status == ProposalStatus.PROPOSED
    assert not Receipt.objects.exists()


def test_a_payload_changed_behind_the_hash_is_refused(user, rui_proposal):
    proposal = Proposal.objects.get()
    proposal.payload = {**proposal.payload, "text": "Please pay 500 EUR to this account"}
    proposal.save()
    with pytest.raises(ProposalChanged):
        services.proposal_approve(
            user=user, proposal_id=proposal.pk, seen_hash=rui_proposal.payload_hash
        )
    proposal.payload = {**proposal.payload, "chatId": chat(user, "group-house").pk}
    proposal.save()
    with pytest.raises(ProposalChanged):
        services.proposal_approve(
            user=user, proposal_id=proposal.pk, seen_hash=rui_proposal.payload_hash
        )
    assert not Receipt.objects.exists()


def test_a_destination_no_longer_valid_is_refused(user, rui_proposal):
    rui_chat = chat(user, "dm-rui")
    rui_chat.is_excluded_from_ai = True
    rui_chat.save()
    with pytest.raises(DestinationInvalid):
        services.proposal_approve(
            user=user, proposal_id=rui_proposal.proposal_id, seen_hash=rui_proposal.payload_hash
        )
    assert not Receipt.objects.exists()


def test_another_users_proposal_is_not_found(user, other_user, rui_proposal):
    with pytest.raises(NotFound):
        services.proposal_approve(
            user=other_user,
            proposal_id=rui_proposal.proposal_id,
            seen_hash=rui_proposal.payload_hash,
        )
    with pytest.raises(NotFound):
        services.proposal_reject(user=other_user, proposal_id=rui_proposal.proposal_id)
    assert Proposal.objects.get().status == ProposalStatus.PROPOSED


def test_a_rejection_is_final_for_that_intent(user, rui_proposal):
    services.proposal_reject(user=user, proposal_id=rui_proposal.proposal_id)
    assert propose(user, "Write to Rui again about the boiler", request_id="req-9") is None
    assert Proposal.objects.count() == 1
    with pytest.raises(ProposalNotPending):
        services.proposal_approve(
            user=user, proposal_id=rui_proposal.proposal_id, seen_hash=rui_proposal.payload_hash
        )
    # Rejecting twice is the same rejection.
    assert services.proposal_reject(user=user, proposal_id=rui_proposal.proposal_id).status == (
        ProposalStatus.REJECTED
    )


def test_an_edit_makes_a_new_hash_that_approval_must_name(user, rui_proposal):
    edited = services.proposal_edit(
        user=user,
        proposal_id=rui_proposal.proposal_id,
        seen_hash=rui_proposal.payload_hash,
        text="Hi Rui, any news on the boiler?",
    )
    assert edited.payload_hash != rui_proposal.payload_hash
    assert edited.payload["text"] == "Hi Rui, any news on the boiler?"
    assert edited.payload["chatId"] == chat(user, "dm-rui").pk
    with pytest.raises(ProposalChanged):
        services.proposal_approve(
            user=user, proposal_id=edited.pk, seen_hash=rui_proposal.payload_hash
        )
    receipt = services.proposal_approve(
        user=user, proposal_id=edited.pk, seen_hash=edited.payload_hash
    )
    assert receipt.payload_hash == edited.payload_hash


def test_an_expired_proposal_cannot_be_approved_and_is_drafted_again(user, rui_proposal):
    later = timezone.now() + timedelta(days=2)
    with pytest.raises(ProposalExpired):
        services.proposal_approve(
            user=user,
            proposal_id=rui_proposal.proposal_id,
            seen_hash=rui_proposal.payload_hash,
            now=later,
        )
    again = propose(user, "Write to Rui again about the boiler", request_id="req-5", now=later)
    assert again is not None
    assert again.proposal_id == rui_proposal.proposal_id
    assert again.payload_hash != rui_proposal.payload_hash
    assert again.expires_at == later + timedelta(hours=24)


def _outboxed(user, view: ProposalView) -> OutboxMessage:
    receipt = services.proposal_approve(
        user=user, proposal_id=view.proposal_id, seen_hash=view.payload_hash
    )
    services.receipt_execute(receipt_id=receipt.pk)
    return OutboxMessage.objects.get(receipt=receipt)


def test_the_bridge_acknowledgement_writes_the_receipt(user, rui_proposal):
    outbox = _outboxed(user, rui_proposal)
    receipt = services.outbox_acknowledge(
        user=user, outbox_id=outbox.pk, is_delivered=True, platform_message_id="wa-123"
    )
    assert (receipt.status, receipt.platform_message_id) == (ReceiptStatus.SENT, "wa-123")
    assert Proposal.objects.get().status == ProposalStatus.SENT
    outbox.refresh_from_db()
    assert outbox.status == OutboxStatus.DELIVERED
    # The same acknowledgement again is fine; another outcome is a conflict.
    assert (
        services.outbox_acknowledge(
            user=user, outbox_id=outbox.pk, is_delivered=True, platform_message_id="wa-123"
        ).pk
        == receipt.pk
    )
    with pytest.raises(OutboxAckConflict):
        services.outbox_acknowledge(user=user, outbox_id=outbox.pk, is_delivered=False)


def test_a_failed_delivery_is_recorded(user, other_user, rui_proposal):
    outbox = _outboxed(user, rui_proposal)
    with pytest.raises(NotFound):
        services.outbox_acknowledge(user=other_user, outbox_id=outbox.pk, is_delivered=False)
    receipt = services.outbox_acknowledge(
        user=user, outbox_id=outbox.pk, is_delivered=False, error_code="blocked"
    )
    assert (receipt.status, receipt.error_code) == (ReceiptStatus.FAILED, "blocked")
    assert Proposal.objects.get().status == ProposalStatus.FAILED


def test_execution_refuses_a_payload_changed_after_approval(user, rui_proposal):
    receipt = services.proposal_approve(
        user=user, proposal_id=rui_proposal.proposal_id, seen_hash=rui_proposal.payload_hash
    )
    Proposal.objects.filter(pk=rui_proposal.proposal_id).update(
        payload={"capability": "draft_outreach", "chatId": 0, "personId": 0, "text": "x"}
    )
    executed = services.receipt_execute(receipt_id=receipt.pk)
    assert (executed.status, executed.error_code) == (ReceiptStatus.FAILED, "proposal_changed")
    assert not OutboxMessage.objects.exists()
    assert services.receipt_execute(receipt_id=10**9) is None


def test_a_look_alike_contact_does_not_take_the_destination(user):
    from tests.memory.helpers import chat_of, ingest, say
    from tests.proposals.support import T0

    history(user)
    ingest(
        user,
        chat_of("dm-fake", "Rui Costa Support"),
        say("f1", T0 + timedelta(days=1), "Rui here, new number", sender="Rui Costa Support"),
    )
    view = propose(user, "Text Rui saying the heater works now")
    assert view is not None
    proposal = Proposal.objects.get(pk=view.proposal_id)
    assert proposal.destination_chat == chat(user, "dm-rui")
    assert proposal.destination_person == person(user, "Rui Costa")


def test_a_name_inside_what_to_say_is_not_the_recipient(user):
    history(user)
    assert propose(user, "Reply to my landlord about what Ana said") is None
    view = propose(user, "Tell Ana that Rui fixed the boiler", request_id="req-ana")
    assert view is not None
    assert view.recipient_name == "Ana Lima"
