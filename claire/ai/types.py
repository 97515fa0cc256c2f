"""Claire's own types for generation and embeddings.

Product code consumes these and never a provider's objects: a stream of ``GenerationEvent``
values from ``claire.ai.generate`` and an ``EmbeddingResult`` from ``claire.ai.embeddings``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal


class DataPolicy(StrEnum):
    """What the user allows to leave the machine. Billing stores the consent; callers pass it.

    Bring-your-own-key models are still remote: the data goes to the provider either way.
    """

    LOCAL_ONLY = "local_only"
    ALLOW_REMOTE = "allow_remote"


class ModelDataPolicy(StrEnum):
    """Where a configured model processes data."""

    LOCAL = "local"
    REMOTE = "remote"


class ErrorCode(StrEnum):
    """Stable, user-safe error codes. Provider messages never reach callers, only these."""

    PROVIDER_UNAVAILABLE = "provider_unavailable"
    RATE_LIMITED = "rate_limited"
    CONTEXT_TOO_LONG = "context_too_long"
    TIMEOUT = "timeout"
    CONTENT_FILTERED = "content_filtered"
    AUTHENTICATION_FAILED = "provider_authentication_failed"
    INVALID_REQUEST = "invalid_request"
    STREAM_INTERRUPTED = "stream_interrupted"
    NO_ELIGIBLE_MODEL = "no_eligible_model"
    INVALID_OUTPUT = "invalid_output"
    INTERNAL_ERROR = "internal_error"


#: Codes worth retrying later (by a caller's retry button or an embedding batch's backoff).
RETRYABLE_CODES = frozenset(
    {
        ErrorCode.PROVIDER_UNAVAILABLE,
        ErrorCode.RATE_LIMITED,
        ErrorCode.TIMEOUT,
        ErrorCode.STREAM_INTERRUPTED,
        ErrorCode.INTERNAL_ERROR,
    }
)

_SAFE_MESSAGES: dict[ErrorCode, str] = {
    ErrorCode.PROVIDER_UNAVAILABLE: "The AI provider is unavailable right now.",
    ErrorCode.RATE_LIMITED: "The AI provider is busy right now.",
    ErrorCode.CONTEXT_TOO_LONG: "The request was too long for the model.",
    ErrorCode.TIMEOUT: "The AI provider took too long to answer.",
    ErrorCode.CONTENT_FILTERED: "The AI provider declined to answer this request.",
    ErrorCode.AUTHENTICATION_FAILED: "The AI provider rejected the configured credentials.",
    ErrorCode.INVALID_REQUEST: "The AI provider rejected the request.",
    ErrorCode.STREAM_INTERRUPTED: "The answer was interrupted.",
    ErrorCode.NO_ELIGIBLE_MODEL: "No AI model is available for this request.",
    ErrorCode.INVALID_OUTPUT: "The model's output could not be read.",
    ErrorCode.INTERNAL_ERROR: "Something went wrong while talking to the AI provider.",
}


def safe_message_for(code: ErrorCode) -> str:
    return _SAFE_MESSAGES[code]


# --- requests --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChatMessage:
    role: Literal["user", "assistant"]
    content: str


@dataclass(frozen=True)
class EvidenceSource:
    """One numbered source (``S1``..``Sn``) an answer may cite.

    Remote models see evidence only through the prompt the caller renders (see
    ``claire.ai.prompts.evidence_block``); the local extractive answerer reads it from here.
    """

    label: str
    text: str
    sender: str = ""
    sent_at: dt.datetime | None = None
    chat_title: str = ""
    # The cited message itself (``text`` may hold its neighbours too).
    primary_text: str = ""
    # A record of personal memory (an open loop, a plan step, a catch-up item): an answer
    # names and cites every such source.
    must_cite: bool = False
    # What memory says about it ("asked you, no reply yet", "cancelled", a person's name).
    note: str = ""
    # The window's messages as (sender, text), in order; empty: ``text`` is one message.
    turns: tuple[tuple[str, str], ...] = ()
    # When each of ``turns`` was sent (same order); empty when not known.
    turn_sent_at: tuple[dt.datetime, ...] = ()
    # What makes the cited message suspicious (``claire.ai.suspicious``: "injection",
    # "phishing", "spam"), "" when nothing: the answer labels it and never follows it.
    suspicion: str = ""


@dataclass(frozen=True)
class MemoryFinding:
    """A statement personal memory derived from the sources (a plan's status and day, a
    loop's state, a ranking with its counts), with the labels of the sources that prove it.
    Answers state it first and cite those labels."""

    text: str
    labels: tuple[str, ...] = ()


ResponseFormat = Literal["text", "json"]


@dataclass(frozen=True)
class GenerationRequest:
    """Everything one generation needs. ``messages`` are sent to remote models verbatim.

    ``question`` and ``evidence`` are structured copies for local models (the extractive
    answerer) and for usage estimates; ``question`` defaults to the last user message.
    """

    messages: tuple[ChatMessage, ...]
    system: str = ""
    max_output_tokens: int | None = None
    temperature: float | None = None
    response_format: ResponseFormat = "text"
    question: str = ""
    evidence: tuple[EvidenceSource, ...] = ()
    timezone: str = "UTC"
    # The compiled intent of the question (``retrieval.types.Intent`` value), "" when unknown.
    intent: str = ""
    request_id: str = ""
    # What memory derived for this question, to be stated first (see ``MemoryFinding``).
    findings: tuple[MemoryFinding, ...] = ()
    # How well the evidence matches the question, 0 to 1 (``retrieval.answerability``; None
    # when it was not judged), and whether that is weak: the answer then says it may not
    # answer the question instead of presenting the closest messages as the answer.
    evidence_strength: float | None = None
    is_evidence_weak: bool = False

    @property
    def effective_question(self) -> str:
        if self.question:
            return self.question
        for message in reversed(self.messages):
            if message.role == "user":
                return message.content
        return ""


# --- generation events -----------------------------------------------------------------------

FinishReason = Literal["stop", "length", "content-filter", "tool-calls", "error", "other"]


@dataclass(frozen=True)
class Usage:
    """Token usage of one call, normalized across providers.

    ``input_tokens`` counts every input token, cached ones included; ``cached_input_tokens``
    is the cached subset (billed at the cache-read rate), so uncached input is the difference.
    ``reported_by_provider`` is False when the provider sent no usage; the numbers are then a
    tokenizer estimate and ``is_estimated`` is True.
    """

    input_tokens: int = 0
    cached_input_tokens: int = 0
    output_tokens: int = 0
    embedding_tokens: int = 0
    is_estimated: bool = False
    reported_by_provider: bool = True

    @property
    def uncached_input_tokens(self) -> int:
        return max(self.input_tokens - self.cached_input_tokens, 0)

    def plus(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            cached_input_tokens=self.cached_input_tokens + other.cached_input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            embedding_tokens=self.embedding_tokens + other.embedding_tokens,
            is_estimated=self.is_estimated or other.is_estimated,
            reported_by_provider=self.reported_by_provider and other.reported_by_provider,
        )


ZERO_USAGE = Usage(reported_by_provider=False)


@dataclass(frozen=True)
class TextDelta:
    text: str
    type: Literal["text-delta"] = "text-delta"


@dataclass(frozen=True)
class UsageEvent:
    usage: Usage
    provider: str = ""
    model: str = ""
    type: Literal["usage"] = "usage"


@dataclass(frozen=True)
class Finish:
    """Terminal event of a successful generation."""

    reason: FinishReason
    provider: str
    model: str
    model_key: str = ""
    failovers: int = 0
    type: Literal["finish"] = "finish"


@dataclass(frozen=True)
class GenerationError:
    """Terminal event of a failed generation. ``message`` is safe to show to users.

    ``after_output`` is True when text deltas were already yielded: the caller keeps what it
    showed and marks the turn failed/partial; the runtime never replays through another model.
    """

    code: ErrorCode
    retryable: bool
    message: str
    provider: str = ""
    model: str = ""
    model_key: str = ""
    after_output: bool = False
    failovers: int = 0
    type: Literal["error"] = "error"


GenerationEvent = TextDelta | UsageEvent | Finish | GenerationError


# --- embeddings ------------------------------------------------------------------------------


@dataclass(frozen=True)
class EmbeddingFailure:
    index: int
    code: ErrorCode
    retryable: bool


@dataclass(frozen=True)
class EmbeddingResult:
    """Vectors in input order; ``vectors[i]`` is None exactly when ``i`` is in ``failures``."""

    vectors: list[list[float] | None]
    usage: Usage
    provider: str
    model: str
    model_key: str
    dimensions: int
    failures: tuple[EmbeddingFailure, ...] = ()
    truncated_indexes: tuple[int, ...] = field(default_factory=tuple)

    @property
    def is_complete(self) -> bool:
        return not self.failures

    @property
    def failed_indexes(self) -> tuple[int, ...]:
        return tuple(failure.index for failure in self.failures)
