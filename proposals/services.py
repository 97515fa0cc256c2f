"""Writes: the capability registry, grants, proposals, approval, execution and receipts.

A proposal is prepared for a compiled action request (``proposal_prepare`` decides whether one
is due and what a draft may be written from; ``proposal_record`` stores it). Approval
(``proposal_approve``) reloads the proposal under a row lock and verifies owner, payload hash,
destination and grant before it queues execution; execution (``receipt_execute``, a Celery
task) is idempotent on ``proposal id + payload hash`` and only puts the approved text in the
outbox, which the messaging bridge drains and acknowledges (``outbox_acknowledge``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from claire.accounts.models import User
from claire.celery import task_send
from claire.errors import CodedError, NotFound
from conversations.models import Chat, Message
from memory.models import PlanStatus
from memory.recipient import topic_words
from memory.selectors import plans_for_user
from proposals import registry
from proposals.destination import Destination, destination_is_valid, destination_resolve
from proposals.drafting import (
    DraftContext,
    DraftGround,
    draft_is_safe,
    greeting_default,
    local_draft,
    voice_for,
)
from proposals.errors import (
    CapabilityNotGranted,
    DestinationInvalid,
    OutboxAckConflict,
    ProposalChanged,
    ProposalExpired,
    ProposalNotPending,
)
from proposals.hashing import intent_key, payload_hash
from proposals.models import (
    Capability,
    CapabilityGrant,
    OutboxMessage,
    OutboxStatus,
    Plugin,
    Proposal,
    ProposalStatus,
    Receipt,
    ReceiptStatus,
)
from proposals.selectors import capability_is_granted, proposal_view_of
from proposals.types import ProposalView
from retrieval.lexicon import fold_text

logger = logging.getLogger(__name__)

ACTIVE_STATUSES = (ProposalStatus.PROPOSED, ProposalStatus.APPROVED, ProposalStatus.SENT)


# --- the registry ----------------------------------------------------------------------------


def capabilities_ensure() -> None:
    """Create the built-in plugin and capabilities when missing; changes nothing an operator
    set (enabled flags, grants). Idempotent."""
    spec = registry.BUILTIN_PLUGIN
    plugin, _ = Plugin.objects.get_or_create(
        key=spec.key,
        defaults={
            "name": spec.name,
            "version": spec.version,
            "is_builtin": True,
            "data_policy": spec.data_policy,
            "manifest": spec.manifest(),
        },
    )
    for capability in spec.capabilities:
        Capability.objects.get_or_create(
            key=capability.key,
            defaults={
                "plugin": plugin,
                "kind": capability.kind,
                "label": capability.label,
                "description": capability.description,
                "requires_approval": capability.requires_approval,
                "is_granted_by_default": capability.is_granted_by_default,
            },
        )


def capability_get(*, key: str) -> Capability:
    capability = Capability.objects.select_related("plugin").filter(key=key).first()
    if capability is None:
        capabilities_ensure()
        capability = Capability.objects.select_related("plugin").get(key=key)
    return capability


def grant_set(*, user: User, capability_key: str, is_granted: bool) -> CapabilityGrant:
    capability = capability_get(key=capability_key)
    grant, _ = CapabilityGrant.objects.update_or_create(
        user=user, capability=capability, defaults={"is_granted": is_granted}
    )
    logger.info(
        "proposals.grant_set",
        extra={"user_id": user.pk, "capability": capability.key, "is_granted": is_granted},
    )
    return grant


# --- proposing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class DraftNeeded:
    """A proposal is due: what its draft may be written from and where it would go."""

    capability_key: str
    intent_key: str
    destination: Destination
    context: DraftContext
    local_text: str


@dataclass(frozen=True)
class NoProposal:
    # not_requested, not_granted, no_destination, rejected
    reason: str


PrepareResult = ProposalView | DraftNeeded | NoProposal


def requested_capability(compiled_query: Mapping[str, Any]) -> str:
    """The capability an action request asks for ("" when none). Only the question's own
    compiled form decides: message text never reaches the compiler's requested action."""
    action = compiled_query.get("requestedAction")
    if not isinstance(action, dict):
        return ""
    if action.get("type") == registry.DRAFT_OUTREACH:
        return registry.DRAFT_OUTREACH
    return ""


def _people(compiled_query: Mapping[str, Any]) -> list[dict[str, Any]]:
    people = compiled_query.get("people") or []
    return (
        [person for person in people if isinstance(person, dict)]
        if isinstance(people, list)
        else []
    )


def _plan_of(*, user: User, chat: Chat, question: str, names: Sequence[str]) -> Any:
    """The plan in the destination chat the request is about; None when none, or when it is
    cancelled or has no time."""
    words = topic_words(question, names)
    if not words:
        return None
    for plan in plans_for_user(user=user, terms=words, chat_ids=[chat.pk], limit=3):
        if plan.status == PlanStatus.CANCELLED or not plan.event_label:
            continue
        return plan
    return None


def plan_summary(*, user: User, chat: Chat, question: str, names: Sequence[str]) -> str:
    """The plan in the destination chat the request is about, as the draft can say it
    ("climbing on Saturday at 9 at Redstone"); "" when none, or when cancelled or unsafe."""
    plan = _plan_of(user=user, chat=chat, question=question, names=names)
    if plan is None:
        return ""
    place = f" at {plan.place}" if plan.place else ""
    summary = " ".join(f"{plan.activity} {plan.event_label}{place}".split())
    return summary if draft_is_safe(summary, question=question) else ""


def plan_activity(*, user: User, chat: Chat, question: str, names: Sequence[str]) -> str:
    """That plan's activity ("game night") when the question says a word of it: what a message
    to the chat is about when its own words do not say."""
    plan = _plan_of(user=user, chat=chat, question=question, names=names)
    if plan is None or not plan.activity:
        return ""
    asked = set(re.findall(r"[a-z]{3,}", fold_text(question)))
    activity = " ".join(str(plan.activity).split())
    said = set(re.findall(r"[a-z]{3,}", fold_text(activity)))
    if not said & asked or not draft_is_safe(activity, question=question):
        return ""
    return activity


def _others(compiled_query: Mapping[str, Any], destination: Destination) -> tuple[str, ...]:
    """The names of the other people the question names, as it wrote them."""
    recipient = destination.person.pk if destination.person is not None else None
    return tuple(
        str(person.get("name"))
        for person in _people(compiled_query)
        if person.get("name")
        and person.get("personIds")
        and recipient not in (person.get("personIds") or [])
    )


def _loop_text(*, user: User, destination: Destination) -> str:
    """The message that opened the loop the draft follows up: their question (read only for
    what the user will do about it and which question it was) or the user's own request or
    promise (read for what is followed up)."""
    loop = destination.loop
    if loop is None or destination.asked is not None:
        return ""
    text = (
        Message.objects.filter(user=user, pk=loop.opened_by_message_id, deleted_at__isnull=True)
        .values_list("text", flat=True)
        .first()
    )
    return text or ""


def _also_text(*, user: User, destination: Destination) -> tuple[str, str, Any]:
    """The user's own open request or promise followed up after their ask: its kind, the
    text of the user's message that opened it, and when."""
    also = destination.also
    if also is None:
        return "", "", None
    text = (
        Message.objects.filter(
            user=user, pk=also.opened_by_message_id, is_from_self=True, deleted_at__isnull=True
        )
        .values_list("text", flat=True)
        .first()
    )
    return (str(also.kind), text, also.opened_at) if text else ("", "", None)


def _named_as(compiled_query: Mapping[str, Any], person_id: int) -> str:
    for person in compiled_query.get("people") or []:
        if isinstance(person, dict) and person_id in (person.get("personIds") or []):
            return str(person.get("name") or "")
    return ""


def proposal_prepare(
    *,
    user: User,
    request_id: str,
    question: str,
    compiled_query: Mapping[str, Any],
    scope_chat_ids: Sequence[int] = (),
    now: datetime | None = None,
    grounds: Sequence[DraftGround] = (),
) -> PrepareResult:
    """Decide whether this answer carries a proposal: the one this request already made, the
    one this intent already has (one per intent; a rejection is final), or a new draft."""
    now = now or timezone.now()
    capability_key = requested_capability(compiled_query)
    if not capability_key:
        return NoProposal("not_requested")
    capability = capability_get(key=capability_key)
    if not capability_is_granted(user=user, capability=capability):
        return NoProposal("not_granted")
    existing = Proposal.objects.filter(user=user, request_id=request_id).first()
    if existing is not None:
        return proposal_view_of(existing)
    destination = destination_resolve(
        user=user,
        compiled_query=compiled_query,
        question=question,
        scope_chat_ids=scope_chat_ids,
        now=now,
    )
    if destination is None:
        return NoProposal("no_destination")
    key = intent_key(
        user_id=user.pk,
        capability_key=capability_key,
        person_id=destination.person.pk if destination.person is not None else None,
        question=question,
    )
    same_intent = Proposal.objects.filter(user=user, intent_key=key).first()
    if same_intent is not None:
        if same_intent.status == ProposalStatus.REJECTED:
            return NoProposal("rejected")
        if same_intent.status != ProposalStatus.PROPOSED or same_intent.expires_at > now:
            return proposal_view_of(same_intent)
    said_names = [str(person.get("name") or "") for person in _people(compiled_query)]
    voice = voice_for(
        chat=destination.chat, person=destination.person, default=greeting_default(question)
    )
    context = DraftContext(
        plan=plan_summary(user=user, chat=destination.chat, question=question, names=said_names),
        plan_activity=plan_activity(
            user=user, chat=destination.chat, question=question, names=said_names
        ),
        question=question,
        recipient_name=destination.recipient_name,
        named_as=(
            (_named_as(compiled_query, destination.person.pk) or destination.named_as)
            if destination.person is not None
            else destination.named_as
        ),
        is_group=destination.is_group,
        loop_kind=str(destination.loop.kind) if destination.loop is not None else "",
        loop_opened_at=destination.loop.opened_at if destination.loop is not None else None,
        greeting=voice.greeting,
        address=voice.address,
        asked_by=destination.asked.asker_name if destination.asked is not None else "",
        asked=destination.asked.text if destination.asked is not None else "",
        asked_at=destination.asked.sent_at if destination.asked is not None else None,
        loop_asked=_loop_text(user=user, destination=destination),
        also=_also_text(user=user, destination=destination),
        others=_others(compiled_query, destination),
        loop_on_topic=destination.on_topic,
        timezone=user.timezone,
        grounds=tuple(grounds),
    )
    return DraftNeeded(
        capability_key=capability_key,
        intent_key=key,
        destination=destination,
        context=context,
        local_text=local_draft(context),
    )


def _payload_for(*, destination: Destination, text: str, capability_key: str) -> dict[str, Any]:
    return {
        "capability": capability_key,
        "chatId": destination.chat.pk,
        "personId": destination.person.pk if destination.person is not None else None,
        "platform": str(destination.chat.platform),
        "text": text,
    }


def proposal_record(
    *,
    user: User,
    request_id: str,
    draft: DraftNeeded,
    text: str,
    draft_source: str,
    now: datetime | None = None,
) -> ProposalView:
    """Store the proposal (or refresh an expired one of the same intent). A concurrent request
    for the same intent gets the proposal the first one stored."""
    now = now or timezone.now()
    capability = capability_get(key=draft.capability_key)
    payload = _payload_for(
        destination=draft.destination, text=text, capability_key=draft.capability_key
    )
    expires_at = now + timedelta(seconds=settings.PROPOSAL_TTL_SECONDS)
    try:
        with transaction.atomic():
            proposal = (
                Proposal.objects.select_for_update()
                .filter(user=user, intent_key=draft.intent_key)
                .first()
            )
            if proposal is not None and not (
                proposal.status == ProposalStatus.PROPOSED and proposal.expires_at <= now
            ):
                return proposal_view_of(proposal)
            if proposal is None:
                proposal = Proposal(user=user, capability=capability, intent_key=draft.intent_key)
            else:
                proposal.revision += 1
            proposal.request_id = request_id
            proposal.destination_chat = draft.destination.chat
            proposal.destination_person = draft.destination.person
            proposal.payload = payload
            proposal.payload_hash = ""
            proposal.draft_source = draft_source
            proposal.status = ProposalStatus.PROPOSED
            proposal.expires_at = expires_at
            proposal.save()
            proposal.payload_hash = payload_hash(
                proposal_id=proposal.pk,
                revision=proposal.revision,
                capability_key=capability.key,
                payload=payload,
            )
            proposal.save(update_fields=["payload_hash", "updated_at"])
    except IntegrityError:
        proposal = Proposal.objects.get(user=user, intent_key=draft.intent_key)
    logger.info(
        "proposals.proposed",
        extra={
            "user_id": user.pk,
            "proposal_id": proposal.pk,
            "capability": capability.key,
            "draft_source": draft_source,
        },
    )
    return replace(proposal_view_of(proposal), note=draft.destination.note)


# --- deciding --------------------------------------------------------------------------------


def _proposal_lock(*, user: User, proposal_id: int) -> Proposal:
    """The user's proposal, locked for the decision; 404 for anyone else's."""
    proposal = (
        Proposal.objects.select_for_update()
        .select_related("capability", "capability__plugin", "destination_chat")
        .filter(user=user, pk=proposal_id)
        .first()
    )
    if proposal is None:
        raise NotFound()
    return proposal


def _verify_payload(proposal: Proposal, *, seen_hash: str) -> None:
    stored = payload_hash(
        proposal_id=proposal.pk,
        revision=proposal.revision,
        capability_key=proposal.capability.key,
        payload=proposal.payload,
    )
    if seen_hash != proposal.payload_hash or stored != proposal.payload_hash:
        raise ProposalChanged()
    payload = proposal.payload
    if (
        payload.get("chatId") != proposal.destination_chat_id
        or payload.get("personId") != proposal.destination_person_id
        or payload.get("capability") != proposal.capability.key
    ):
        raise ProposalChanged()


def proposal_approve(
    *, user: User, proposal_id: int, seen_hash: str, now: datetime | None = None
) -> Receipt:
    """Approve the payload the user saw (``seen_hash``) and queue its execution after commit.

    Idempotent: approving an approved proposal again with the same hash returns its receipt
    and queues nothing new. Raises ``ProposalChanged`` (409 ``proposal_changed``) when the
    hash differs from the stored payload's, ``ProposalExpired``, ``ProposalNotPending`` (a
    rejection is final), ``DestinationInvalid`` and ``CapabilityNotGranted``, changing nothing.
    """
    now = now or timezone.now()
    with transaction.atomic():
        proposal = _proposal_lock(user=user, proposal_id=proposal_id)
        idempotency = f"{proposal.pk}:{seen_hash}"
        existing = Receipt.objects.filter(user=user, idempotency_key=idempotency).first()
        if existing is not None:
            return existing
        if proposal.status != ProposalStatus.PROPOSED:
            raise ProposalNotPending()
        _verify_payload(proposal, seen_hash=seen_hash)
        if proposal.expires_at <= now:
            raise ProposalExpired()
        if not destination_is_valid(
            user=user,
            chat_id=proposal.destination_chat_id,
            person_id=proposal.destination_person_id,
        ):
            raise DestinationInvalid()
        if not capability_is_granted(user=user, capability=proposal.capability):
            raise CapabilityNotGranted()
        proposal.status = ProposalStatus.APPROVED
        proposal.decided_at = now
        proposal.save(update_fields=["status", "decided_at", "updated_at"])
        receipt = Receipt.objects.create(
            user=user,
            proposal=proposal,
            idempotency_key=idempotency,
            payload_hash=proposal.payload_hash,
        )
        receipt_id = receipt.pk
        transaction.on_commit(
            lambda: task_send(
                "proposals.receipt_execute",
                args=[receipt_id],
                queue=settings.PROPOSALS_CELERY_QUEUE,
            )
        )
    logger.info(
        "proposals.approved",
        extra={"user_id": user.pk, "proposal_id": proposal.pk, "receipt_id": receipt.pk},
    )
    return receipt


def proposal_reject(*, user: User, proposal_id: int, now: datetime | None = None) -> Proposal:
    """Reject for good: the same intent is never proposed again. Idempotent."""
    with transaction.atomic():
        proposal = _proposal_lock(user=user, proposal_id=proposal_id)
        if proposal.status == ProposalStatus.REJECTED:
            return proposal
        if proposal.status not in (ProposalStatus.PROPOSED, ProposalStatus.EXPIRED):
            raise ProposalNotPending()
        proposal.status = ProposalStatus.REJECTED
        proposal.decided_at = now or timezone.now()
        proposal.save(update_fields=["status", "decided_at", "updated_at"])
    logger.info("proposals.rejected", extra={"user_id": user.pk, "proposal_id": proposal.pk})
    return proposal


def proposal_edit(
    *, user: User, proposal_id: int, seen_hash: str, text: str, now: datetime | None = None
) -> Proposal:
    """Replace the draft text (only the text: the destination stays the resolved one); the
    payload gets a new hash, which the next approval must name."""
    now = now or timezone.now()
    text = text.strip()
    if not text:
        raise CodedError(code="invalid_request", message="The draft text is empty.")
    with transaction.atomic():
        proposal = _proposal_lock(user=user, proposal_id=proposal_id)
        if proposal.status != ProposalStatus.PROPOSED:
            raise ProposalNotPending()
        _verify_payload(proposal, seen_hash=seen_hash)
        if proposal.expires_at <= now:
            raise ProposalExpired()
        proposal.payload = {**proposal.payload, "text": text}
        proposal.revision += 1
        proposal.payload_hash = payload_hash(
            proposal_id=proposal.pk,
            revision=proposal.revision,
            capability_key=proposal.capability.key,
            payload=proposal.payload,
        )
        proposal.draft_source = "edited by the user"
        proposal.save(
            update_fields=["payload", "payload_hash", "revision", "draft_source", "updated_at"]
        )
    logger.info("proposals.edited", extra={"user_id": user.pk, "proposal_id": proposal.pk})
    return proposal


# --- execution and the outbox ----------------------------------------------------------------


def receipt_execute(*, receipt_id: int) -> Receipt | None:
    """Put an approved payload in the outbox. Safe to run twice (a receipt past ``queued``
    is left alone); re-verifies the payload hash and the grant; None when the row is gone."""
    with transaction.atomic():
        receipt = (
            Receipt.objects.select_for_update()
            .select_related("proposal", "proposal__capability", "proposal__capability__plugin")
            .filter(pk=receipt_id)
            .first()
        )
        if receipt is None:
            return None
        if receipt.status != ReceiptStatus.QUEUED:
            return receipt
        proposal = receipt.proposal
        user = proposal.user
        stored = payload_hash(
            proposal_id=proposal.pk,
            revision=proposal.revision,
            capability_key=proposal.capability.key,
            payload=proposal.payload,
        )
        verdict = ""
        if stored != receipt.payload_hash or proposal.payload_hash != receipt.payload_hash:
            verdict = "proposal_changed"
        elif not capability_is_granted(user=user, capability=proposal.capability):
            verdict = "capability_not_granted"
        elif not destination_is_valid(
            user=user,
            chat_id=proposal.destination_chat_id,
            person_id=proposal.destination_person_id,
        ):
            verdict = "destination_invalid"
        if verdict:
            receipt.status = ReceiptStatus.FAILED
            receipt.error_code = verdict
            receipt.save(update_fields=["status", "error_code", "updated_at"])
            Proposal.objects.filter(pk=proposal.pk).update(
                status=ProposalStatus.FAILED, updated_at=timezone.now()
            )
            logger.warning(
                "proposals.execution_refused",
                extra={"receipt_id": receipt.pk, "code": verdict},
            )
            return receipt
        chat = proposal.destination_chat
        OutboxMessage.objects.get_or_create(
            receipt=receipt,
            defaults={
                "user": user,
                "chat": chat,
                "platform": str(chat.platform),
                "platform_chat_id": chat.platform_chat_id,
                "text": str(proposal.payload["text"]),
            },
        )
        receipt.status = ReceiptStatus.OUTBOXED
        receipt.save(update_fields=["status", "updated_at"])
    logger.info("proposals.outboxed", extra={"receipt_id": receipt.pk})
    return receipt


def outbox_acknowledge(
    *,
    user: User,
    outbox_id: int,
    is_delivered: bool,
    platform_message_id: str = "",
    error_code: str = "",
    now: datetime | None = None,
) -> Receipt:
    """The bridge's word on one outbox message: delivered (with the platform's message id) or
    failed. Idempotent for the same outcome; another outcome is ``OutboxAckConflict``."""
    now = now or timezone.now()
    with transaction.atomic():
        message = OutboxMessage.objects.select_for_update().filter(user=user, pk=outbox_id).first()
        if message is None:
            raise NotFound()
        outcome = OutboxStatus.DELIVERED if is_delivered else OutboxStatus.FAILED
        receipt = Receipt.objects.select_for_update().get(pk=message.receipt_id)
        if message.status != OutboxStatus.PENDING:
            if message.status == outcome and message.platform_message_id == platform_message_id:
                return receipt
            raise OutboxAckConflict()
        message.status = outcome
        message.platform_message_id = platform_message_id
        message.acked_at = now
        message.save(update_fields=["status", "platform_message_id", "acked_at"])
        receipt.status = ReceiptStatus.SENT if is_delivered else ReceiptStatus.FAILED
        receipt.platform_message_id = platform_message_id
        receipt.error_code = "" if is_delivered else (error_code or "delivery_failed")[:64]
        receipt.save(update_fields=["status", "platform_message_id", "error_code", "updated_at"])
        Proposal.objects.filter(pk=receipt.proposal_id, user=user).update(
            status=ProposalStatus.SENT if is_delivered else ProposalStatus.FAILED,
            updated_at=now,
        )
    logger.info(
        "proposals.outbox_acknowledged",
        extra={"user_id": user.pk, "outbox_id": outbox_id, "delivered": is_delivered},
    )
    return receipt
