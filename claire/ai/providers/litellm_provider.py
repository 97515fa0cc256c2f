"""Remote and self-hosted models through litellm: the only module that imports litellm.

litellm is imported on first use (it takes seconds and would otherwise slow every Django
start), with its model price map read from the package instead of the network. Provider
retries are switched off: the runtime decides about failover and backoff. Every exception
becomes a ``ProviderFailure`` with a stable code; the provider's own message is kept only as a
redacted detail for server logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import AsyncIterator, Sequence
from types import ModuleType
from typing import Any

from claire.ai.config import ModelConfig
from claire.ai.providers.base import (
    CallTimeouts,
    Completion,
    EmbeddingBatch,
    ProviderEvent,
    ProviderFailure,
    StreamEnd,
    redact,
    split_into_word_groups,
)
from claire.ai.types import ErrorCode, FinishReason, GenerationRequest, TextDelta, Usage, UsageEvent

_LITELLM_PREFIXES = {
    "openai": "openai",
    "openai_compatible": "openai",
    "anthropic": "anthropic",
    "ollama": "ollama_chat",
}
# OpenAI-compatible servers often need no key, but the client insists on one.
_PLACEHOLDER_KEY = "not-needed"

_import_lock = threading.Lock()
_litellm_module: ModuleType | None = None


def _litellm() -> ModuleType:
    global _litellm_module
    if _litellm_module is not None:
        return _litellm_module
    with _import_lock:
        if _litellm_module is None:
            # Without this litellm fetches its price map from the network at import time.
            os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
            import litellm

            litellm.suppress_debug_info = True
            litellm.telemetry = False
            litellm.drop_params = True
            # The embedding path reads ``max_retries or DEFAULT_MAX_RETRIES``, so an explicit 0
            # still meant two hidden retries; retries are the runtime's (tests pin the count).
            litellm.DEFAULT_MAX_RETRIES = 0  # type: ignore[attr-defined]
            _litellm_module = litellm
    return _litellm_module


def _finish_reason(raw: str | None) -> FinishReason:
    if raw in (None, "stop", "end_turn", "stop_sequence"):
        return "stop"
    if raw in ("length", "max_tokens"):
        return "length"
    if raw in ("content_filter", "content-filter", "safety"):
        return "content-filter"
    if raw in ("tool_calls", "function_call", "tool_use"):
        return "tool-calls"
    return "other"


def usage_from_provider(raw: Any) -> Usage | None:
    """Normalized usage from an OpenAI-shaped usage object; None when nothing was reported."""
    if raw is None:
        return None
    prompt = _number(raw, "prompt_tokens")
    completion = _number(raw, "completion_tokens")
    if prompt is None and completion is None:
        return None
    details = _field(raw, "prompt_tokens_details")
    cached = _number(details, "cached_tokens") if details is not None else None
    if not cached:
        # Anthropic reports cache reads separately; litellm passes the field through.
        cached = _number(raw, "cache_read_input_tokens")
    return Usage(
        input_tokens=prompt or 0,
        cached_input_tokens=cached or 0,
        output_tokens=completion or 0,
        reported_by_provider=True,
    )


def _field(raw: Any, name: str) -> Any:
    if isinstance(raw, dict):
        return raw.get(name)
    return getattr(raw, name, None)


def _number(raw: Any, name: str) -> int | None:
    value = _field(raw, name)
    return int(value) if isinstance(value, int | float) else None


def failure_from(
    error: BaseException, *, after_output: bool, secrets: Sequence[str]
) -> ProviderFailure:
    """A stable code for any exception a provider call raised."""
    litellm = _litellm()
    status = getattr(error, "status_code", None)
    status = status if isinstance(status, int) else None
    code: ErrorCode
    if isinstance(error, litellm.ContextWindowExceededError):
        code = ErrorCode.CONTEXT_TOO_LONG
    elif isinstance(error, litellm.ContentPolicyViolationError):
        code = ErrorCode.CONTENT_FILTERED
    elif isinstance(error, litellm.RateLimitError) or status == 429:
        code = ErrorCode.RATE_LIMITED
    elif isinstance(error, litellm.Timeout | TimeoutError):
        code = ErrorCode.TIMEOUT
    elif isinstance(
        error, litellm.AuthenticationError | litellm.PermissionDeniedError
    ) or status in (
        401,
        403,
    ):
        code = ErrorCode.AUTHENTICATION_FAILED
    elif isinstance(error, litellm.BadRequestError | litellm.NotFoundError) or status in (
        400,
        404,
        413,
        422,
    ):
        code = ErrorCode.INVALID_REQUEST
    else:
        # 5xx, connection failures, and anything unrecognised: the provider did not deliver.
        code = ErrorCode.STREAM_INTERRUPTED if after_output else ErrorCode.PROVIDER_UNAVAILABLE
    if after_output and code == ErrorCode.PROVIDER_UNAVAILABLE:
        code = ErrorCode.STREAM_INTERRUPTED
    return ProviderFailure(
        code,
        retry_after_s=_retry_after(error),
        status_code=status,
        error_class=type(error).__name__,
        detail=redact(str(error), secrets=secrets),
    )


def _retry_after(error: BaseException) -> float | None:
    response = getattr(error, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    try:
        value = headers.get("retry-after")
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None


class _LiteLLMModel:
    def __init__(self, config: ModelConfig) -> None:
        self.config = config
        self.provider_name = config.provider
        self.model_name = config.model
        self.litellm_model = f"{_LITELLM_PREFIXES[config.provider]}/{config.model}"

    async def warm_up(self) -> None:
        """Import litellm off the event loop (it takes seconds the first time), so neither
        other connections nor this call's timeouts pay for it."""
        if _litellm_module is None:
            await asyncio.to_thread(_litellm)

    def _secrets(self) -> tuple[str, ...]:
        key = self.config.api_key()
        return (key,) if key else ()

    def _connection_kwargs(self, timeouts: CallTimeouts) -> dict[str, Any]:
        import httpx

        kwargs: dict[str, Any] = {
            "model": self.litellm_model,
            "timeout": httpx.Timeout(timeouts.total_s, connect=timeouts.connect_s),
            "max_retries": 0,
            "num_retries": 0,
        }
        if self.config.api_base:
            kwargs["api_base"] = self.config.api_base
        key = self.config.api_key()
        if key:
            kwargs["api_key"] = key
        elif self.config.provider == "openai_compatible":
            kwargs["api_key"] = _PLACEHOLDER_KEY
        return kwargs


class LiteLLMLanguageModel(_LiteLLMModel):
    def _request_kwargs(
        self, request: GenerationRequest, *, max_output_tokens: int | None, timeouts: CallTimeouts
    ) -> dict[str, Any]:
        messages: list[dict[str, str]] = []
        if request.system:
            messages.append({"role": "system", "content": request.system})
        messages.extend(
            {"role": message.role, "content": message.content} for message in request.messages
        )
        kwargs = self._connection_kwargs(timeouts)
        kwargs["messages"] = messages
        if max_output_tokens:
            kwargs["max_tokens"] = max_output_tokens
        if request.temperature is not None:
            kwargs["temperature"] = request.temperature
        if request.response_format == "json":
            kwargs["response_format"] = {"type": "json_object"}
        return kwargs

    async def complete(
        self,
        request: GenerationRequest,
        *,
        max_output_tokens: int | None,
        timeouts: CallTimeouts,
        tools: list[dict[str, Any]] | None = None,
    ) -> Completion:
        litellm = _litellm()
        kwargs = self._request_kwargs(
            request, max_output_tokens=max_output_tokens, timeouts=timeouts
        )
        if tools:
            kwargs["tools"] = tools
        try:
            response = await litellm.acompletion(stream=False, **kwargs)
        except Exception as error:
            raise failure_from(error, after_output=False, secrets=self._secrets()) from None
        choice = response.choices[0]
        tool_calls = getattr(choice.message, "tool_calls", None) or ()
        return Completion(
            text=choice.message.content or "",
            finish_reason=_finish_reason(choice.finish_reason),
            usage=usage_from_provider(getattr(response, "usage", None)),
            tool_call_names=tuple(call.function.name for call in tool_calls),
            tool_calls=tuple(
                (call.function.name, call.function.arguments or "{}") for call in tool_calls
            ),
        )

    def stream(
        self,
        request: GenerationRequest,
        *,
        max_output_tokens: int | None,
        timeouts: CallTimeouts,
        simulate_stream: bool,
    ) -> AsyncIterator[ProviderEvent]:
        if simulate_stream:
            return self._simulated(request, max_output_tokens=max_output_tokens, timeouts=timeouts)
        return self._streamed(request, max_output_tokens=max_output_tokens, timeouts=timeouts)

    async def _simulated(
        self, request: GenerationRequest, *, max_output_tokens: int | None, timeouts: CallTimeouts
    ) -> AsyncIterator[ProviderEvent]:
        completion = await self.complete(
            request, max_output_tokens=max_output_tokens, timeouts=timeouts
        )
        for group in split_into_word_groups(completion.text):
            yield TextDelta(group)
        if completion.usage is not None:
            yield UsageEvent(completion.usage, self.provider_name, self.model_name)
        yield StreamEnd(completion.finish_reason)

    async def _streamed(
        self, request: GenerationRequest, *, max_output_tokens: int | None, timeouts: CallTimeouts
    ) -> AsyncIterator[ProviderEvent]:
        litellm = _litellm()
        kwargs = self._request_kwargs(
            request, max_output_tokens=max_output_tokens, timeouts=timeouts
        )
        try:
            response = await litellm.acompletion(
                stream=True, stream_options={"include_usage": True}, **kwargs
            )
        except Exception as error:
            raise failure_from(error, after_output=False, secrets=self._secrets()) from None

        # litellm fills in token counts of its own when a provider sends none; only usage that
        # was in the provider's raw stream is reported as the provider's.
        raw_usage = _RawUsageSpy.install(response)
        produced_output = False
        finish_reason: FinishReason | None = None
        usage: Usage | None = None
        try:
            async for chunk in response:
                for choice in chunk.choices or ():
                    content = getattr(choice.delta, "content", None)
                    if content:
                        produced_output = True
                        yield TextDelta(content)
                    if choice.finish_reason:
                        finish_reason = _finish_reason(choice.finish_reason)
                chunk_usage = usage_from_provider(getattr(chunk, "usage", None))
                if chunk_usage is not None:
                    usage = chunk_usage
        except Exception as error:
            raise failure_from(
                error, after_output=produced_output, secrets=self._secrets()
            ) from None
        finally:
            # Closes the HTTP response: on completion, failure, cancellation or aclose().
            await asyncio.shield(_close_quietly(response))
        if usage is not None and raw_usage is not None and raw_usage.saw_usage:
            yield UsageEvent(usage, self.provider_name, self.model_name)
        yield StreamEnd(finish_reason or "stop")


class _RawUsageSpy:
    """Sits between litellm's stream wrapper and the provider's raw chunk stream and notes
    whether any raw chunk carried usage. Closing it closes the raw stream."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._iterator: Any = None
        self.saw_usage = False

    @classmethod
    def install(cls, response: Any) -> _RawUsageSpy | None:
        stream = getattr(response, "completion_stream", None)
        if stream is None or not hasattr(stream, "__aiter__"):
            return None
        spy = cls(stream)
        response.completion_stream = spy
        return spy

    def __aiter__(self) -> _RawUsageSpy:
        return self

    async def __anext__(self) -> Any:
        if self._iterator is None:
            self._iterator = self._stream.__aiter__()
        chunk = await self._iterator.__anext__()
        if usage_from_provider(_field(chunk, "usage")) is not None:
            self.saw_usage = True
        return chunk

    async def aclose(self) -> None:
        close = getattr(self._stream, "aclose", None) or getattr(self._stream, "close", None)
        if close is not None:
            result = close()
            if asyncio.iscoroutine(result):
                await result


async def _close_quietly(response: Any) -> None:
    # The stream is being abandoned either way; a failure to close it changes nothing.
    with contextlib.suppress(Exception):
        await response.aclose()


class LiteLLMEmbeddingModel(_LiteLLMModel):
    @property
    def dimensions(self) -> int:
        return self.config.capabilities.embedding_dimensions

    async def embed_batch(self, texts: Sequence[str], *, timeouts: CallTimeouts) -> EmbeddingBatch:
        litellm = _litellm()
        try:
            response = await litellm.aembedding(
                input=list(texts), **self._connection_kwargs(timeouts)
            )
        except Exception as error:
            raise failure_from(error, after_output=False, secrets=self._secrets()) from None
        items = sorted(response.data, key=lambda item: _field(item, "index") or 0)
        vectors = [list(_field(item, "embedding")) for item in items]
        if len(vectors) != len(texts) or any(len(vector) != self.dimensions for vector in vectors):
            raise ProviderFailure(
                ErrorCode.INVALID_OUTPUT,
                retryable=False,
                error_class="EmbeddingShapeMismatch",
                detail=f"expected {len(texts)}x{self.dimensions}",
            )
        raw_usage = getattr(response, "usage", None)
        prompt_tokens = _number(raw_usage, "prompt_tokens") if raw_usage is not None else None
        # litellm returns an empty usage object (0 tokens) when the provider sent none; no
        # provider bills zero tokens for non-empty input, so zero means "not reported".
        usage = Usage(embedding_tokens=prompt_tokens) if prompt_tokens else None
        return EmbeddingBatch(vectors=vectors, usage=usage)
