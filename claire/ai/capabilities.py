"""Verified capabilities: what a probe saw a model do, and what routing may rely on.

``probe_model`` exercises each capability a model's configuration claims (a tiny streamed
prompt counting deltas, usage in the stream, a JSON-mode answer that must parse, a tool call,
an embedding of the claimed dimensions) and returns the verified set: a claim that failed is
recorded as False. ``python manage.py probe_models`` stores the result per model.

Routing (``claire.ai.profiles``) trusts:

- a stored record whose fingerprint matches the model's current configuration;
- for in-process models (``local``/``mock``) without such a record, their declared
  capabilities: their implementation ships with the code and the test suite verifies it;
- nothing else. A remote model is not eligible until a probe has verified it, and a changed
  model id, endpoint or claim needs a new probe.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from claire.ai.config import Capabilities, ModelConfig
from claire.ai.providers.base import CallTimeouts, EmbeddingBatch, ProviderFailure, StreamEnd
from claire.ai.types import (
    ChatMessage,
    ErrorCode,
    GenerationRequest,
    ResponseFormat,
    TextDelta,
    UsageEvent,
)

if TYPE_CHECKING:
    from claire.ai.models import ModelCapabilityRecord

T = TypeVar("T")

PROBE_TIMEOUTS = CallTimeouts(connect_s=5.0, first_token_s=30.0, total_s=60.0)
_PROBE_MAX_OUTPUT_TOKENS = 64
_PROBE_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "current_time",
        "description": "Returns the current time.",
        "parameters": {"type": "object", "properties": {}, "required": []},
    },
}


@dataclass(frozen=True)
class Verification:
    """What routing may rely on for one model; ``capabilities`` is None when nothing is."""

    capabilities: Capabilities | None
    source: str  # "probe", "built-in", "unverified", "stale-probe"


def verification_for(model: ModelConfig, record: ModelCapabilityRecord | None) -> Verification:
    if record is not None and record.config_fingerprint == model.fingerprint():
        return Verification(Capabilities.from_json(record.capabilities), "probe")
    if model.is_in_process:
        return Verification(model.capabilities, "built-in")
    return Verification(None, "stale-probe" if record is not None else "unverified")


@dataclass
class ProbeResult:
    capabilities: Capabilities
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)
    error_code: str = ""

    @property
    def is_ok(self) -> bool:
        return all(check["ok"] for check in self.checks.values())


@dataclass
class _StreamOutcome:
    deltas: int = 0
    text: str = ""
    usage_reported: bool = False
    finished: bool = False


async def _run_stream(
    language_model: Any, request: GenerationRequest, *, simulate_stream: bool
) -> _StreamOutcome:
    outcome = _StreamOutcome()
    stream = language_model.stream(
        request,
        max_output_tokens=_PROBE_MAX_OUTPUT_TOKENS,
        timeouts=PROBE_TIMEOUTS,
        simulate_stream=simulate_stream,
    )
    try:
        async for event in stream:
            if isinstance(event, TextDelta):
                outcome.deltas += 1
                outcome.text += event.text
            elif isinstance(event, UsageEvent):
                outcome.usage_reported = True
            elif isinstance(event, StreamEnd):
                outcome.finished = True
    finally:
        close = getattr(stream, "aclose", None)
        if close is not None:
            await close()
    return outcome


def _probe_request(prompt: str, *, response_format: ResponseFormat = "text") -> GenerationRequest:
    return GenerationRequest(
        messages=(ChatMessage(role="user", content=prompt),),
        response_format=response_format,
        question=prompt,
        request_id="capability-probe",
    )


async def _exercise(
    name: str, checks: dict[str, dict[str, Any]], action: Callable[[], Awaitable[T]]
) -> T | None:
    """Run one check, recording a failure under ``name``; the result, or None on failure."""
    try:
        async with asyncio.timeout(PROBE_TIMEOUTS.total_s):
            return await action()
    except ProviderFailure as error:
        checks[name] = {"ok": False, "code": error.code.value}
    except TimeoutError:
        checks[name] = {"ok": False, "code": ErrorCode.TIMEOUT.value}
    except Exception as error:  # a broken model is a failed probe, not a crash
        checks[name] = {
            "ok": False,
            "code": ErrorCode.INTERNAL_ERROR.value,
            "error_class": type(error).__name__,
        }
    return None


async def probe_model(model: ModelConfig) -> ProbeResult:
    """Exercise every capability ``model`` claims; a failure is recorded, never raised."""
    from claire.ai import registry

    declared = model.capabilities
    checks: dict[str, dict[str, Any]] = {}
    verified: dict[str, Any] = {"max_context_tokens": declared.max_context_tokens}
    if model.api_key_env and not model.api_key():
        # Without its key every call would fail; say so instead of recording provider errors.
        return ProbeResult(
            capabilities=Capabilities(**verified),
            checks={"credentials": {"ok": False, "code": "missing_credentials"}},
            error_code="missing_credentials",
        )

    if declared.embedding_dimensions:
        embedding_model = registry.embedding_model_for(model)

        async def embed() -> EmbeddingBatch:
            return await embedding_model.embed_batch(
                ["capability probe", "a second input"], timeouts=PROBE_TIMEOUTS
            )

        batch = await _exercise("embeddings", checks, embed)
        if batch is not None:
            dimensions = sorted({len(vector) for vector in batch.vectors})
            is_ok = len(batch.vectors) == 2 and dimensions == [declared.embedding_dimensions]
            checks["embeddings"] = {"ok": is_ok, "dimensions": dimensions}
            verified["embedding_dimensions"] = declared.embedding_dimensions if is_ok else 0
            verified["usage_reporting"] = batch.usage is not None

    if declared.streaming or declared.simulated_stream or declared.structured_output:
        language_model = registry.language_model_for(model)
        ready = _probe_request("Reply with the single word: ready")
        if declared.streaming:
            outcome = await _exercise(
                "streaming",
                checks,
                lambda: _run_stream(language_model, ready, simulate_stream=False),
            )
            if outcome is not None:
                verified["streaming"] = outcome.deltas > 0 and outcome.finished
                checks["streaming"] = {"ok": verified["streaming"], "deltas": outcome.deltas}
                verified["usage_reporting"] = outcome.usage_reported
        if declared.simulated_stream:
            outcome = await _exercise(
                "simulated_stream",
                checks,
                lambda: _run_stream(language_model, ready, simulate_stream=True),
            )
            if outcome is not None:
                verified["simulated_stream"] = outcome.deltas > 0 and outcome.finished
                checks["simulated_stream"] = {
                    "ok": verified["simulated_stream"],
                    "deltas": outcome.deltas,
                }
                if not declared.streaming:
                    verified["usage_reporting"] = outcome.usage_reported
        if declared.structured_output:
            json_request = _probe_request(
                'Return a JSON object with exactly one key, "ok", set to true.',
                response_format="json",
            )
            outcome = await _exercise(
                "structured_output",
                checks,
                lambda: _run_stream(
                    language_model,
                    json_request,
                    simulate_stream=not verified.get("streaming", False),
                ),
            )
            if outcome is not None:
                verified["structured_output"] = parse_json_object(outcome.text) is not None
                checks["structured_output"] = {"ok": verified["structured_output"]}

    if declared.tool_calling:
        complete = getattr(registry.language_model_for(model), "complete", None)
        if complete is None:
            checks["tool_calling"] = {"ok": False, "code": "not_supported"}
        else:
            completion = await _exercise(
                "tool_calling",
                checks,
                lambda: complete(
                    _probe_request("What time is it? Use the tool."),
                    max_output_tokens=_PROBE_MAX_OUTPUT_TOKENS,
                    timeouts=PROBE_TIMEOUTS,
                    tools=[_PROBE_TOOL],
                ),
            )
            if completion is not None:
                verified["tool_calling"] = "current_time" in completion.tool_call_names
                checks["tool_calling"] = {"ok": verified["tool_calling"]}

    if declared.usage_reporting:
        checks["usage_reporting"] = {"ok": bool(verified.get("usage_reporting"))}
    if declared.max_context_tokens:
        # Filling a whole context window costs real money; the limit is taken as configured.
        checks["max_context_tokens"] = {"ok": True, "note": "configured, not exercised"}
    error_code = next(
        (
            str(check.get("code", "capability_missing"))
            for check in checks.values()
            if not check["ok"]
        ),
        "",
    )
    return ProbeResult(capabilities=Capabilities(**verified), checks=checks, error_code=error_code)


def parse_json_object(text: str) -> dict[str, Any] | None:
    """The JSON object in a model's answer (a Markdown code fence around it is tolerated)."""
    candidate = text.strip()
    if candidate.startswith("```"):
        candidate = candidate.strip("`")
        candidate = candidate.removeprefix("json").strip()
    try:
        value = json.loads(candidate)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
