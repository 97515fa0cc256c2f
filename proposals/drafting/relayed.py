"""Facts relayed from the messages a draft follows up: a sentence or two of news or an answer,
turned to speak to the recipient, never a link, code or instruction."""

from __future__ import annotations

import re

from memory.extract import is_suspicious
from memory.followup import FollowUpRole
from proposals.drafting.asks import Ask, second_person, sentence_of
from proposals.drafting.context import GREETINGS, DraftContext
from proposals.drafting.safety import draft_is_safe
from retrieval.lexicon import fold_text

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+|(?<=[.!?])(?=[A-Z])")
_EMOJI = re.compile(r"[\U0001F000-\U0001FFFF\u2600-\u27BF\uFE0F\u200D]+")
_FILLER_START = re.compile(
    r"^\s*(?:(?:fyi|btw|so|ok|okay|update|news|also|anyway|oh|ah+)\b[\s,:!.-]*)+", re.IGNORECASE
)
# "ok write this down: ..." — a short lead-in before a colon introduces what follows.
_LEAD_IN = re.compile(r"^[^:]{0,30}:\s+(?=\S)")
_GREETING_START = re.compile(
    rf"^\s*(?:{'|'.join(GREETINGS)}|dear|good\s+(?:morning|afternoon|evening))\b", re.IGNORECASE
)
# "Sam here", "it's Sam": who is writing, nothing to pass on.
_SELF_INTRODUCTION = re.compile(r"\bhere\s*[.!]?$|^it'?s\s+\w+(?:\s+\w+)?\s*[.!]?$", re.I)
# Words a relayed sentence never carries: credentials and chain requests stay where they are.
_NEVER_RELAYED = re.compile(r"\b(?:forward|password|passcode|pin|otp|code)\b", re.IGNORECASE)
_TIME_RANGE = re.compile(r"\b(\d{1,2})\s?-\s?(\d{1,2})\s?(am|pm)\b", re.IGNORECASE)
_HAS_TIME_FACT = re.compile(
    r"\d|\b(?:mon|tues?|wed|thu(?:rs)?|fri|sat|sun)(?:day)?\b|\b(?:tomorrow|tonight|next\s+week)\b",
    re.IGNORECASE,
)
RELAYED_SENTENCES = 2
MIN_RELAYED_WORDS = 4


def recipient_as_you(text: str, first_name: str) -> str:
    """ "your friend Ana's CV" → "your CV", "Ana" → "you": the fact, told to Ana."""
    if not first_name:
        return text
    name = re.escape(first_name)
    text = re.sub(
        rf"\b(?:your\s+(?:friend|buddy|mate|pal)\s+)?{name}(?:'s|\u2019s)",
        "your",
        text,
        flags=re.IGNORECASE,
    )
    return re.sub(rf"\b{name}\b", "you", text, flags=re.IGNORECASE)


def relayed_sentences(
    text: str, *, first_name: str, question: str, must_be_factual: bool
) -> list[str]:
    """The sentences of a message worth passing on: not a question, greeting or signature,
    at least a few words, safe (``draft_is_safe``), and, when ``must_be_factual``, carrying a
    day, time or number, or naming the recipient."""
    if is_suspicious(text):
        return []
    kept: list[str] = []
    for raw in _SENTENCE_SPLIT.split(_EMOJI.sub("", text)):
        sentence = " ".join(raw.split())
        sentence = _FILLER_START.sub("", sentence)
        sentence = _LEAD_IN.sub("", sentence).strip(" -\u2014\u2013")
        if (
            not sentence
            or sentence.endswith("?")
            or _GREETING_START.match(sentence)
            or _SELF_INTRODUCTION.search(sentence)
            or _NEVER_RELAYED.search(sentence)
            or len(sentence.split()) < MIN_RELAYED_WORDS
        ):
            continue
        names_them = bool(first_name) and re.search(
            rf"\b{re.escape(first_name)}\b", sentence, re.IGNORECASE
        )
        if must_be_factual and not (_HAS_TIME_FACT.search(sentence) or names_them):
            continue
        sentence = _TIME_RANGE.sub(lambda m: f"{m[1]}\u2013{m[2]} {m[3].lower()}", sentence)
        sentence = sentence_of(recipient_as_you(sentence, first_name))
        if draft_is_safe(sentence, question=question):
            kept.append(sentence)
        if len(kept) == RELAYED_SENTENCES:
            break
    return kept


def relayed_for(context: DraftContext, *, first_name: str, ask: Ask) -> list[str]:
    """The news since the user last wrote to them, and, for "send X the tips", what the user
    was told when they asked, ready to go in the draft."""
    lines: list[str] = []
    # A message that says its own when ("sat dec 5 works for me") is the news itself.
    says_when = bool(ask.message and _HAS_TIME_FACT.search(ask.message))
    for ground in context.grounds:
        if ground.role == FollowUpRole.NEWS and not says_when:
            found = relayed_sentences(
                ground.text, first_name=first_name, question=context.question, must_be_factual=True
            )
            if found:
                lines.append("Update: " + " ".join(found))
        elif ground.role == FollowUpRole.TOLD and ask.topic and not ask.message:
            found = relayed_sentences(
                ground.text,
                first_name=first_name,
                question=context.question,
                must_be_factual=False,
            )
            if found:
                lines.append(
                    f"Here's what I have on {second_person(ask.topic, context.others)}: "
                    + " ".join(found)
                )
    return lines


def words_of(text: str) -> list[str]:
    return re.findall(r"[a-z]{3,}", fold_text(text))
