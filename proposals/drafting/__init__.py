"""Draft text for an outreach proposal.

The local drafter is deterministic and needs no model: a short, polite message in the user's
voice built from the question (what to say, to whom) and the open loop it follows up (who
asked whom, since when). It never copies text from other people's messages, so nothing a
message says can reach the draft. The user's voice is their usual greeting to this person,
learned from the user's own messages to them: the greeting they open with (from a fixed list;
none when they open with the name alone) and the name they call them by.

A model draft (the ``draft`` profile, when configured) gets the same inputs and must pass
``draft_is_safe``: no link, address, phone or account number, sum of money or handle that
the question itself does not contain. Otherwise the local draft is used.
"""

from proposals.drafting.asks import Ask, ask_of, written_out
from proposals.drafting.context import (
    DEFAULT_GREETING,
    GREETINGS,
    GROUP_ADDRESSES,
    MAX_DRAFT_CHARS,
    VOICE_SAMPLE,
    DraftContext,
    DraftGround,
)
from proposals.drafting.languages import ENGLISH, FRAMES, Frame, greeting_default, request_language
from proposals.drafting.local import (
    addressed_as,
    asked_as_mine,
    local_draft,
    loop_step,
    next_step,
    salutation,
)
from proposals.drafting.model import DRAFT_SYSTEM_PROMPT, draft_prompt
from proposals.drafting.relayed import MIN_RELAYED_WORDS, RELAYED_SENTENCES, relayed_sentences
from proposals.drafting.safety import draft_is_safe
from proposals.drafting.voice import Voice, address_names, calendar_capitalised, voice_for

__all__ = [
    "DEFAULT_GREETING",
    "DRAFT_SYSTEM_PROMPT",
    "ENGLISH",
    "FRAMES",
    "GREETINGS",
    "GROUP_ADDRESSES",
    "MAX_DRAFT_CHARS",
    "MIN_RELAYED_WORDS",
    "RELAYED_SENTENCES",
    "VOICE_SAMPLE",
    "Ask",
    "DraftContext",
    "DraftGround",
    "Frame",
    "Voice",
    "address_names",
    "addressed_as",
    "ask_of",
    "asked_as_mine",
    "calendar_capitalised",
    "draft_is_safe",
    "draft_prompt",
    "greeting_default",
    "local_draft",
    "loop_step",
    "next_step",
    "relayed_sentences",
    "request_language",
    "salutation",
    "voice_for",
    "written_out",
]
