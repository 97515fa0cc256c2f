"""The contract between the runtime and a model implementation (local, mock, or litellm).

A language model streams ``TextDelta``, at most one ``UsageEvent`` (only when the provider
itself reported usage) and one ``StreamEnd``, and raises ``ProviderFailure`` with a stable
code on any failure. An embedding model embeds one request-sized batch. Routing, timeouts,
failover, retries and usage estimates are the runtime's job, not the provider's.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from claire.ai.types import (
    RETRYABLE_CODES,
    ErrorCode,
    FinishReason,
    GenerationRequest,
    TextDelta,
    Usage,
    UsageEvent,
)


@dataclass(frozen=True)
class CallTimeouts:
    connect_s: float
    first_token_s: float
    total_s: float


@dataclass(frozen=True)
class StreamEnd:
    reason: FinishReason


ProviderEvent = TextDelta | UsageEvent | StreamEnd


class ProviderFailure(Exception):  # a failure outcome, not a programming error
    """A provider call failed. ``detail`` is for redacted server logs, never for users."""

    def __init__(
        self,
        code: ErrorCode,
        *,
        retryable: bool | None = None,
        retry_after_s: float | None = None,
        status_code: int | None = None,
        error_class: str = "",
        detail: str = "",
    ) -> None:
        super().__init__(code.value)
        self.code = code
        self.retryable = code in RETRYABLE_CODES if retryable is None else retryable
        self.retry_after_s = retry_after_s
        self.status_code = status_code
        self.error_class = error_class
        self.detail = detail


@dataclass(frozen=True)
class EmbeddingBatch:
    """Vectors for one request, in the order of its inputs; usage None when not reported."""

    vectors: list[list[float]]
    usage: Usage | None


@dataclass(frozen=True)
class Completion:
    """A non-streamed answer (simulated streams, capability probes, tool-calling steps).
    ``tool_calls`` are (name, JSON arguments as the model wrote them), in order."""

    text: str
    finish_reason: FinishReason
    usage: Usage | None
    tool_call_names: tuple[str, ...]
    tool_calls: tuple[tuple[str, str], ...] = ()


class LanguageModel(Protocol):
    provider_name: str
    model_name: str

    def stream(
        self,
        request: GenerationRequest,
        *,
        max_output_tokens: int | None,
        timeouts: CallTimeouts,
        simulate_stream: bool,
    ) -> AsyncIterator[ProviderEvent]: ...


class EmbeddingModel(Protocol):
    provider_name: str
    model_name: str

    @property
    def dimensions(self) -> int: ...

    async def embed_batch(
        self, texts: Sequence[str], *, timeouts: CallTimeouts
    ) -> EmbeddingBatch: ...


_SECRET_PATTERNS = (
    re.compile(r"(sk|pk|rk|key|token)[-_][A-Za-z0-9_\-]{8,}", re.IGNORECASE),
    re.compile(r"(bearer\s+)[A-Za-z0-9._\-]{8,}", re.IGNORECASE),
    re.compile(r"(api[_-]?key[\"'=:\s]+)[^\s\"',}]{6,}", re.IGNORECASE),
)
_MAX_DETAIL_CHARS = 300


def redact(text: str, *, secrets: Sequence[str] = ()) -> str:
    """A provider error message fit for server logs: credentials masked, length capped."""
    redacted = text
    for secret in secrets:
        if secret:
            redacted = redacted.replace(secret, "[redacted]")
    for pattern in _SECRET_PATTERNS:
        redacted = pattern.sub(
            lambda match: (match.group(1) if match.lastindex else "") + "[redacted]", redacted
        )
    if len(redacted) > _MAX_DETAIL_CHARS:
        redacted = redacted[:_MAX_DETAIL_CHARS] + "…"
    return redacted


def split_into_word_groups(text: str, *, words_per_delta: int = 3) -> list[str]:
    """Small deltas for streaming a finished text; joining them gives ``text`` back exactly."""
    pieces = re.findall(r"\S+\s*|\s+", text)
    groups: list[str] = []
    for start in range(0, len(pieces), words_per_delta):
        groups.append("".join(pieces[start : start + words_per_delta]))
    return groups
