"""Model drafts: the system prompt and the request the ``draft`` profile gets."""

from __future__ import annotations

from memory.models import LoopKind
from proposals.drafting.context import DraftContext
from proposals.drafting.local import addressed_as, salutation, short_day

DRAFT_SYSTEM_PROMPT = """You write one short, polite message that the user will send to a \
contact after reviewing it. Write in the first person, as the user, in the language of the \
user's request. Use only the request and the facts below; add no links, phone numbers, \
addresses, account numbers, sums of money or other recipients. Output only the message text."""


def draft_prompt(context: DraftContext) -> str:
    since = (
        short_day(context.loop_opened_at, context.timezone)
        if context.loop_opened_at is not None
        else "unknown"
    )
    loop = {
        LoopKind.QUESTION_TO_USER: "they asked the user something the user has not answered",
        LoopKind.REQUEST_BY_USER: "the user asked them something and has had no reply",
        LoopKind.PROMISE_BY_USER: "the user promised them something not yet done",
    }.get(LoopKind(context.loop_kind) if context.loop_kind else None, "none")  # type: ignore[arg-type]
    answers = (
        f"The reply answers a question {context.asked_by} asked in the group on "
        f"{short_day(context.asked_at, context.timezone)}\n"
        if context.asked_by and context.asked_at is not None
        else ""
    )
    return (
        f"Recipient: {context.recipient_name}\n"
        f"The user usually opens with: {salutation(context.greeting, addressed_as(context)[0])}\n"
        f"Open thread with them: {loop} (since {since})\n"
        f"{answers}"
        f"The user's request: {context.question}"
    )
