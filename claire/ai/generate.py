"""Streamed generation for a task profile: routing, timeouts, failover, usage, cancellation.

``generate`` returns a ``GenerationStream``, an async iterator of Claire events::

    async with generate(profile="answer", request=request, data_policy=policy) as stream:
        async for event in stream:
            ...  # TextDelta*, then one UsageEvent, then Finish or GenerationError

Contract:

- Exactly one ``UsageEvent`` precedes the terminal event, which is ``Finish`` or
  ``GenerationError``. Usage is the provider's when it reported it; otherwise a tokenizer
  estimate with ``is_estimated=True`` and ``reported_by_provider=False``. A call that
  produced nothing has zero usage.
- Failover: a failure before the first text delta (including a first-token timeout) moves to
  the next eligible candidate. Once a delta was yielded the runtime never switches models: it
  ends with ``GenerationError(after_output=True)`` so the caller can mark the turn partial.
- Timeouts per profile: connect (passed to the HTTP client), first token, and total.
- Cancellation: ``await stream.cancel()`` (or leaving the ``async with`` block, or cancelling
  the consuming task) closes the provider stream and its HTTP response at once.
- Provider errors are logged redacted (event ``ai.generation_attempt_failed``); callers see
  only stable codes and safe messages.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from claire.ai.capabilities import parse_json_object
from claire.ai.config import ProfileConfig
from claire.ai.profiles import Candidate, eligible_candidates, profile_get
from claire.ai.providers.base import CallTimeouts, ProviderFailure, StreamEnd
from claire.ai.registry import language_model_for
from claire.ai.tokens import estimated_usage
from claire.ai.types import (
    ZERO_USAGE,
    DataPolicy,
    ErrorCode,
    Finish,
    FinishReason,
    GenerationError,
    GenerationEvent,
    GenerationRequest,
    TextDelta,
    Usage,
    UsageEvent,
    safe_message_for,
)
from claire.db.steps import run_checked

logger = logging.getLogger(__name__)


class GenerationStream:
    """An async iterator of ``GenerationEvent`` that can be cancelled."""

    def __init__(self, events: AsyncGenerator[GenerationEvent, None]) -> None:
        self._events = events
        self.is_cancelled = False

    def __aiter__(self) -> AsyncIterator[GenerationEvent]:
        # ``async for`` reads the events themselves: no coroutine of ours per event.
        return self._events

    async def __anext__(self) -> GenerationEvent:
        return await self._events.__anext__()

    async def cancel(self) -> None:
        """Stop generating and close the provider's HTTP response. Idempotent."""
        self.is_cancelled = True
        await self._events.aclose()

    async def aclose(self) -> None:
        await self._events.aclose()

    async def __aenter__(self) -> GenerationStream:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self._events.aclose()


def generate(
    *, profile: str, request: GenerationRequest, data_policy: DataPolicy
) -> GenerationStream:
    """Stream an answer for ``request`` from the first eligible model of ``profile``."""
    return GenerationStream(_generate(profile, request, data_policy))


def _error(
    code: ErrorCode,
    *,
    retryable: bool,
    candidate: Candidate | None = None,
    after_output: bool = False,
    failovers: int = 0,
) -> GenerationError:
    return GenerationError(
        code=code,
        retryable=retryable,
        message=safe_message_for(code),
        provider=candidate.model.provider if candidate else "",
        model=candidate.model.model if candidate else "",
        model_key=candidate.model.key if candidate else "",
        after_output=after_output,
        failovers=failovers,
    )


def _timeouts(profile: ProfileConfig) -> CallTimeouts:
    return CallTimeouts(
        connect_s=profile.connect_timeout_s,
        first_token_s=profile.first_token_timeout_s,
        total_s=profile.total_timeout_s,
    )


@dataclass
class _Attempt:
    text: list[str]
    usage: Usage | None = None
    finish_reason: FinishReason | None = None
    failure: ProviderFailure | None = None
    first_token_ms: int | None = None


async def _generate(
    profile_name: str, request: GenerationRequest, data_policy: DataPolicy
) -> AsyncGenerator[GenerationEvent, None]:
    profile = profile_get(profile_name)
    if profile.kind != "generation":
        raise ValueError(f"profile {profile_name!r} is not a generation profile")
    candidates = await run_checked(
        eligible_candidates, profile=profile_name, data_policy=data_policy
    )
    if not candidates:
        logger.warning(
            "ai.no_eligible_model", extra={"profile": profile_name, "data_policy": str(data_policy)}
        )
        yield UsageEvent(ZERO_USAGE)
        yield _error(ErrorCode.NO_ELIGIBLE_MODEL, retryable=False)
        return

    timeouts = _timeouts(profile)
    max_output_tokens = request.max_output_tokens or profile.max_output_tokens
    loop = asyncio.get_running_loop()
    last_failure: ProviderFailure | None = None
    last_candidate = candidates[0]
    for attempt_number, candidate in enumerate(candidates):
        language_model = language_model_for(candidate.model)
        warm_up = getattr(language_model, "warm_up", None)
        if warm_up is not None:
            await warm_up()
        provider_stream = language_model.stream(
            request,
            max_output_tokens=max_output_tokens,
            timeouts=timeouts,
            simulate_stream=not candidate.capabilities.streaming,
        )
        iterator: AsyncIterator[Any] = aiter(provider_stream)
        attempt = _Attempt(text=[])
        started = loop.time()
        total_deadline = started + timeouts.total_s
        deadline = _ProviderDeadline(min(total_deadline, started + timeouts.first_token_s))
        try:
            while True:
                try:
                    event = await deadline.wait(anext(iterator))
                except StopAsyncIteration:
                    break
                except TimeoutError:
                    raise ProviderFailure(ErrorCode.TIMEOUT, error_class="Timeout") from None
                if isinstance(event, TextDelta):
                    if not event.text:
                        continue
                    if attempt.first_token_ms is None:
                        attempt.first_token_ms = round((loop.time() - started) * 1000)
                        deadline.move_to(total_deadline)
                    attempt.text.append(event.text)
                    yield event
                elif isinstance(event, UsageEvent):
                    attempt.usage = event.usage
                elif isinstance(event, StreamEnd):
                    attempt.finish_reason = event.reason
        except ProviderFailure as provider_failure:
            attempt.failure = provider_failure
        except Exception as error:  # a broken model must not break the caller
            attempt.failure = ProviderFailure(
                ErrorCode.INTERNAL_ERROR, retryable=False, error_class=type(error).__name__
            )
            logger.exception("ai.model_raised", extra={"model_key": candidate.model.key})
        finally:
            deadline.close()
            close = getattr(iterator, "aclose", None)
            if close is not None:
                await close()

        duration_ms = round((loop.time() - started) * 1000)
        output = "".join(attempt.text)
        if attempt.failure is None:
            usage = attempt.usage or estimated_usage(request, output)
            logger.info(
                "ai.generation_finished",
                extra=_log_fields(profile_name, candidate, attempt_number, usage)
                | {
                    "finish_reason": attempt.finish_reason or "stop",
                    "duration_ms": duration_ms,
                    "first_token_ms": attempt.first_token_ms,
                },
            )
            yield UsageEvent(usage, candidate.model.provider, candidate.model.model)
            yield Finish(
                reason=attempt.finish_reason or "stop",
                provider=candidate.model.provider,
                model=candidate.model.model,
                model_key=candidate.model.key,
                failovers=attempt_number,
            )
            return

        failure = attempt.failure
        logger.warning(
            "ai.generation_attempt_failed",
            extra={
                "profile": profile_name,
                "model_key": candidate.model.key,
                "provider": candidate.model.provider,
                "model": candidate.model.model,
                "attempt": attempt_number,
                "code": failure.code.value,
                "error_class": failure.error_class,
                "status_code": failure.status_code,
                "after_output": bool(attempt.text),
                "duration_ms": duration_ms,
                "detail": failure.detail,
            },
        )
        if attempt.text:
            # Text is on the user's screen: another model would repeat or contradict it.
            usage = attempt.usage or estimated_usage(request, output)
            yield UsageEvent(usage, candidate.model.provider, candidate.model.model)
            yield _error(
                failure.code,
                retryable=failure.retryable,
                candidate=candidate,
                after_output=True,
                failovers=attempt_number,
            )
            return
        last_failure = failure
        last_candidate = candidate

    assert last_failure is not None
    yield UsageEvent(ZERO_USAGE, last_candidate.model.provider, last_candidate.model.model)
    yield _error(
        last_failure.code,
        retryable=last_failure.retryable,
        candidate=last_candidate,
        failovers=len(candidates) - 1,
    )


class _ProviderDeadline:
    """A deadline on the waits for a provider's next event, with one timer per attempt.

    ``asyncio.timeout_at`` around every wait would create and cancel a timer per text delta,
    a fifth of the streaming cost; this keeps one timer (moved once, from the first-token to the
    total deadline) and cancels the waiting task only while it waits on the provider, the way
    ``asyncio.Timeout`` does (an outside cancellation stays a cancellation)."""

    def __init__(self, when: float) -> None:
        self._loop = asyncio.get_running_loop()
        self._when = when
        self._task: asyncio.Task[Any] | None = None
        self._expired = False
        self._cancelled_by_us = False
        self._timer: asyncio.TimerHandle | None = self._loop.call_at(when, self._expire)

    def move_to(self, when: float) -> None:
        if when == self._when or self._expired:
            return
        self._when = when
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._loop.call_at(when, self._expire)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expire(self) -> None:
        self._timer = None
        self._expired = True
        if self._task is not None:
            self._cancelled_by_us = True
            self._task.cancel()

    async def wait(self, awaitable: Any) -> Any:
        if self._expired:
            close = getattr(awaitable, "close", None)
            if close is not None:
                close()
            raise TimeoutError
        self._task = asyncio.current_task()
        try:
            return await awaitable
        except asyncio.CancelledError:
            if self._cancelled_by_us and self._task is not None:
                self._cancelled_by_us = False
                if self._task.uncancel() == 0:
                    raise TimeoutError from None
            raise
        finally:
            self._task = None


def _log_fields(profile: str, candidate: Candidate, attempt: int, usage: Usage) -> dict[str, Any]:
    return {
        "profile": profile,
        "model_key": candidate.model.key,
        "provider": candidate.model.provider,
        "model": candidate.model.model,
        "failovers": attempt,
        "input_tokens": usage.input_tokens,
        "cached_input_tokens": usage.cached_input_tokens,
        "output_tokens": usage.output_tokens,
        "usage_estimated": usage.is_estimated,
    }


# --- collected and structured results --------------------------------------------------------


@dataclass(frozen=True)
class GenerationResult:
    """A whole generation, collected (for callers that do not stream, e.g. drafts)."""

    text: str
    usage: Usage
    finish: Finish | None
    error: GenerationError | None


async def generate_text(
    *, profile: str, request: GenerationRequest, data_policy: DataPolicy
) -> GenerationResult:
    parts: list[str] = []
    usage = ZERO_USAGE
    finish: Finish | None = None
    error: GenerationError | None = None
    async with generate(profile=profile, request=request, data_policy=data_policy) as stream:
        async for event in stream:
            if isinstance(event, TextDelta):
                parts.append(event.text)
            elif isinstance(event, UsageEvent):
                usage = event.usage
            elif isinstance(event, Finish):
                finish = event
            else:
                error = event
    return GenerationResult(text="".join(parts), usage=usage, finish=finish, error=error)


@dataclass(frozen=True)
class StructuredResult:
    """A JSON object from a structured-output profile; ``value`` is None exactly on error."""

    value: dict[str, Any] | None
    usage: Usage
    finish: Finish | None
    error: GenerationError | None


async def generate_structured(
    *, profile: str, request: GenerationRequest, data_policy: DataPolicy
) -> StructuredResult:
    """Ask for a JSON object (JSON mode); output that does not parse is ``invalid_output``."""
    json_request = GenerationRequest(
        messages=request.messages,
        system=request.system,
        max_output_tokens=request.max_output_tokens,
        temperature=request.temperature,
        response_format="json",
        question=request.question,
        evidence=request.evidence,
        timezone=request.timezone,
        request_id=request.request_id,
    )
    result = await generate_text(profile=profile, request=json_request, data_policy=data_policy)
    if result.error is not None or result.finish is None:
        return StructuredResult(None, result.usage, result.finish, result.error)
    value = parse_json_object(result.text)
    if value is None:
        error = GenerationError(
            code=ErrorCode.INVALID_OUTPUT,
            retryable=False,
            message=safe_message_for(ErrorCode.INVALID_OUTPUT),
            provider=result.finish.provider,
            model=result.finish.model,
            model_key=result.finish.model_key,
        )
        return StructuredResult(None, result.usage, result.finish, error)
    return StructuredResult(value, result.usage, result.finish, None)
