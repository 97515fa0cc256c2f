"""Deterministic models for tests and development.

``MockLanguageModel`` plays a script: fixed deltas and usage, optional delays, and a failure
injected before the first delta, after N deltas, or as a stall that trips the runtime's
timeouts. It records every request and how each stream ended, so tests can assert that a
stream was closed on cancellation and that a model was (or was not) called.

``HashEmbedder`` (``local/hash-embed``) hashes words into a fixed number of dimensions: the
same text always gets the same unit vector and texts sharing words are closer. It is for
tests and pipeline benchmarks only; it is never a default.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import re
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from claire.ai.providers.base import (
    CallTimeouts,
    Completion,
    EmbeddingBatch,
    ProviderEvent,
    ProviderFailure,
    StreamEnd,
)
from claire.ai.tokens import count_tokens
from claire.ai.types import ErrorCode, FinishReason, GenerationRequest, TextDelta, Usage, UsageEvent

# A stall long enough that any configured timeout fires first.
_STALL_SECONDS = 3600.0


@dataclass
class MockLanguageModel:
    deltas: Sequence[str] = ("Mock answer.",)
    usage: Usage | None = None
    finish_reason: FinishReason = "stop"
    first_delta_delay_s: float = 0.0
    delta_delay_s: float = 0.0
    fail_before_first: ErrorCode | None = None
    fail_after_deltas: int | None = None
    mid_stream_code: ErrorCode = ErrorCode.STREAM_INTERRUPTED
    stall_before_first: bool = False
    stall_after_deltas: int | None = None
    provider_name: str = "mock"
    model_name: str = "mock-scripted"
    # Tool-calling steps (``complete`` with tools): step i makes the calls tool_steps[i], each
    # (name, arguments); a step past the script answers with ``deltas`` as text.
    tool_steps: Sequence[Sequence[tuple[str, Mapping[str, Any]]]] = ()
    step_delay_s: float = 0.0
    requests: list[GenerationRequest] = field(default_factory=list)
    tool_requests: list[tuple[GenerationRequest, tuple[str, ...]]] = field(default_factory=list)
    stream_outcomes: list[str] = field(default_factory=list)

    @classmethod
    def from_options(cls, options: Mapping[str, Any], *, model_name: str) -> MockLanguageModel:
        """A scripted model from configuration (``provider = "mock"`` with ``options``)."""
        usage = options.get("usage")
        fail_before_first = options.get("fail_before_first")
        return cls(
            deltas=tuple(options.get("deltas", ("Mock answer.",))),
            usage=Usage(**usage) if usage else None,
            finish_reason=options.get("finish_reason", "stop"),
            first_delta_delay_s=float(options.get("first_delta_delay_s", 0.0)),
            delta_delay_s=float(options.get("delta_delay_s", 0.0)),
            fail_before_first=ErrorCode(fail_before_first) if fail_before_first else None,
            model_name=model_name,
        )

    @property
    def call_count(self) -> int:
        return len(self.requests)

    async def complete(
        self,
        request: GenerationRequest,
        *,
        max_output_tokens: int | None,
        timeouts: CallTimeouts,
        tools: list[dict[str, Any]] | None = None,
    ) -> Completion:
        """One non-streamed step: the next scripted tool calls, or the text when none."""
        offered = tuple(str(tool["function"]["name"]) for tool in tools or ())
        step = len(self.tool_requests)
        self.tool_requests.append((request, offered))
        if self.step_delay_s:
            await asyncio.sleep(self.step_delay_s)
        if self.fail_before_first is not None:
            raise ProviderFailure(self.fail_before_first, error_class="MockFailure")
        calls = tuple(self.tool_steps[step]) if step < len(self.tool_steps) else ()
        return Completion(
            text="" if calls else "".join(self.deltas),
            finish_reason="tool-calls" if calls else self.finish_reason,
            usage=self.usage,
            tool_call_names=tuple(name for name, _ in calls),
            tool_calls=tuple((name, json.dumps(dict(arguments))) for name, arguments in calls),
        )

    def stream(
        self,
        request: GenerationRequest,
        *,
        max_output_tokens: int | None,
        timeouts: CallTimeouts,
        simulate_stream: bool,
    ) -> AsyncIterator[ProviderEvent]:
        self.requests.append(request)
        return self._play()

    async def _play(self) -> AsyncIterator[ProviderEvent]:
        outcome = "closed"
        try:
            if self.stall_before_first:
                await asyncio.sleep(_STALL_SECONDS)
            if self.first_delta_delay_s:
                await asyncio.sleep(self.first_delta_delay_s)
            if self.fail_before_first is not None:
                outcome = "failed"
                raise ProviderFailure(self.fail_before_first, error_class="MockFailure")
            loop = asyncio.get_running_loop()
            paced_from = loop.time()
            for index, text in enumerate(self.deltas):
                if self.fail_after_deltas is not None and index == self.fail_after_deltas:
                    outcome = "failed"
                    raise ProviderFailure(self.mid_stream_code, error_class="MockFailure")
                if self.stall_after_deltas is not None and index == self.stall_after_deltas:
                    await asyncio.sleep(_STALL_SECONDS)
                if index and self.delta_delay_s:
                    # Word i is due i x delay after the first, like tokens that a provider
                    # sends on its own clock: a late wake-up here delays one word, not all
                    # the words after it.
                    due_in = paced_from + index * self.delta_delay_s - loop.time()
                    if due_in > 0:
                        await asyncio.sleep(due_in)
                yield TextDelta(text)
            if self.usage is not None:
                yield UsageEvent(self.usage, self.provider_name, self.model_name)
            yield StreamEnd(self.finish_reason)
            outcome = "completed"
        except asyncio.CancelledError:
            outcome = "cancelled"
            raise
        finally:
            self.stream_outcomes.append(outcome)


_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass
class HashEmbedder:
    dimensions: int = 384
    provider_name: str = "local"
    model_name: str = "hash-embed-384"

    def embed_texts(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._vector(text) for text in texts]

    async def embed_batch(self, texts: Sequence[str], *, timeouts: CallTimeouts) -> EmbeddingBatch:
        vectors = self.embed_texts(texts)
        tokens = sum(count_tokens(text) for text in texts)
        return EmbeddingBatch(vectors=vectors, usage=Usage(embedding_tokens=tokens))

    def _vector(self, text: str) -> list[float]:
        values = [0.0] * self.dimensions
        for word in _WORD.findall(text.lower()):
            digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
            bucket = int.from_bytes(digest[:4], "big") % self.dimensions
            values[bucket] += 1.0 if digest[4] & 1 else -1.0
        norm = math.sqrt(sum(value * value for value in values))
        if norm == 0.0:
            # Text without words still gets a valid unit vector, the same for all such texts.
            values[0] = 1.0
            return values
        return [value / norm for value in values]
