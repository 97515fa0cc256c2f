"""The proposal step of an answer, for the answer engine.

``proposal_for_answer`` runs after the answer text: it asks ``proposal_prepare`` whether the
question is an action request that is due a proposal, drafts it (the ``draft`` profile when a
model is configured for the user's data policy, under its own budget reservation; otherwise,
or when the model's draft is unsafe or fails, the local drafter) and stores it. The database
steps run through the caller's ``run_sync`` (the engine's worker threads).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from billing.metered import MeteredCall, eligibility_for, metered_reserve, metered_text
from billing.types import UsageTelemetry
from claire.accounts.models import User
from claire.ai.types import ChatMessage, GenerationRequest
from claire.errors import CodedError
from proposals.drafting import (
    DRAFT_SYSTEM_PROMPT,
    DraftContext,
    DraftGround,
    draft_is_safe,
    draft_prompt,
)
from proposals.services import DraftNeeded, NoProposal, proposal_prepare, proposal_record
from proposals.tools import ToolDraft, tool_draft
from proposals.types import ProposalView
from retrieval.evidence import EvidenceSource
from retrieval.memory.followup import follow_up_role

logger = logging.getLogger(__name__)

RunSync = Callable[..., Awaitable[Any]]

DRAFT_PROFILE = "draft"
# The answer's own model call is attempt 1 of its request id; the draft is billed as 2.
DRAFT_ATTEMPT = 2
LOCAL_DRAFTER = "local drafter"


@dataclass(frozen=True)
class ModelDraft:
    text: str
    model_key: str


async def proposal_for_answer(
    *,
    user: User,
    request_id: str,
    question: str,
    compiled_query: Mapping[str, Any],
    scope_chat_ids: Sequence[int],
    run_sync: RunSync,
    grounds: Sequence[DraftGround] = (),
) -> ProposalView | None:
    prepared = await run_sync(
        proposal_prepare,
        user=user,
        request_id=request_id,
        question=question,
        compiled_query=compiled_query,
        scope_chat_ids=scope_chat_ids,
        grounds=grounds,
    )
    if isinstance(prepared, NoProposal):
        logger.info("proposals.none", extra={"user_id": user.pk, "reason": prepared.reason})
        return None
    if isinstance(prepared, ProposalView):
        return prepared
    assert isinstance(prepared, DraftNeeded)
    text, source = prepared.local_text, LOCAL_DRAFTER
    loop = await tool_draft(
        user=user,
        request_id=request_id,
        context=prepared.context,
        destination=prepared.destination,
        run_sync=run_sync,
    )
    drafted: ModelDraft | ToolDraft | None = loop.draft
    if not loop.ran:
        drafted = await model_draft(
            user=user, request_id=request_id, context=prepared.context, run_sync=run_sync
        )
    if drafted is not None:
        if draft_is_safe(drafted.text, question=question):
            text, source = drafted.text.strip(), drafted.model_key
        else:
            logger.warning("proposals.model_draft_refused", extra={"user_id": user.pk})
    view: ProposalView = await run_sync(
        proposal_record,
        user=user,
        request_id=request_id,
        draft=prepared,
        text=text,
        draft_source=source,
    )
    return view


def draft_grounds(
    *, sources: Sequence[EvidenceSource], memory_notes: Mapping[str, str]
) -> tuple[DraftGround, ...]:
    """The cited messages an action request follows up (``retrieval.memory.followup``), with
    their roles, in the order memory ranked them."""
    grounds: list[DraftGround] = []
    for source in sources:
        role = follow_up_role(memory_notes.get(source.source_id, ""))
        if role is None:
            continue
        grounds.append(
            DraftGround(
                role=str(role),
                text=source.primary.text,
                sender=source.sender_name,
                label=source.source_id,
            )
        )
    return tuple(grounds)


def _draft_reserve(user: User, request: GenerationRequest) -> MeteredCall | None:
    """The metered path's eligibility and reservation for the draft call; None when no model
    serves the ``draft`` profile for this user (the local drafter is used then)."""
    eligibility = eligibility_for(user=user, profile=DRAFT_PROFILE)
    if not eligibility.candidates:
        return None
    return metered_reserve(
        user=user, eligibility=eligibility, request=request, attempt=DRAFT_ATTEMPT
    )


async def model_draft(
    *, user: User, request_id: str, context: DraftContext, run_sync: RunSync
) -> ModelDraft | None:
    """The ``draft`` profile's text, reserved and settled through the metered path; None
    when no model is configured, the budget refuses, or the call fails."""
    request = GenerationRequest(
        messages=(ChatMessage(role="user", content=draft_prompt(context)),),
        system=DRAFT_SYSTEM_PROMPT,
        question=context.question,
        timezone=context.timezone,
        request_id=request_id,
    )
    try:
        call = await run_sync(_draft_reserve, user, request)
    except CodedError as error:
        logger.info("proposals.draft_not_reserved", extra={"code": error.code})
        return None
    if call is None:
        return None
    result = await metered_text(
        call=call, telemetry=UsageTelemetry(route="proposal"), run_sync=run_sync
    )
    if result.error is not None or result.finish is None:
        return None
    return ModelDraft(text=result.text, model_key=result.finish.model_key)


_PLATFORM_LABELS = {
    "whatsapp": "WhatsApp",
    "imessage": "iMessage",
    "sms": "SMS",
    "email": "email",
    "slack": "Slack",
    "telegram": "Telegram",
    "signal": "Signal",
}
_SOURCE_MARK = re.compile(r"\s*\[S\d+(?:\s*,\s*S\d+)*\]")


def proposal_paragraph(view: ProposalView, *, grounds: Sequence[DraftGround] = ()) -> str:
    """How the answer text shows its proposal: to whom, where, and the draft itself, waiting
    for the user's decision (the card carries the same draft with Approve / Edit / Reject),
    with the messages it follows up cited. Never a word that would say it went out."""
    platform = _PLATFORM_LABELS.get(view.platform, view.platform)
    # A message to a whole group is "for" the group: its title is said once.
    is_group = view.is_group
    where = f"{view.chat_title}, {platform}" if view.chat_title and not is_group else platform
    recipient = f"the group {view.recipient_name}" if is_group else view.recipient_name
    draft = _SOURCE_MARK.sub("", view.draft_text).strip()
    labels = list(dict.fromkeys(ground.label for ground in grounds if ground.label))
    written_from = (
        " It follows up " + "".join(f"[{label}]" for label in labels) + "." if labels else ""
    )
    note = f" {view.note}" if view.note else ""
    return (
        f"\n\n**Draft for {recipient}** ({where}), waiting for your approval; "
        f"nothing goes out unless you approve it.{written_from}{note}\n\n{draft}"
    )
