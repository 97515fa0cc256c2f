"""One tool-calling step for a task profile, on a model whose capability record verifies
tool calling (a probe saw it call a tool, or it is an in-process model declaring it).

Product code defines its tools as ``ToolSpec`` and runs its own loop and caps; this module
only makes one non-streamed model call with the tools offered and returns Claire types: the
text, the tool calls (arguments parsed; a call whose arguments are not a JSON object is
dropped), and the usage (reported, or a tokenizer estimate).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from claire.ai.profiles import Candidate, eligible_candidates, profile_get
from claire.ai.providers.base import CallTimeouts, ProviderFailure
from claire.ai.registry import language_model_for
from claire.ai.tokens import estimated_usage
from claire.ai.types import DataPolicy, ErrorCode, GenerationRequest, Usage

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]

    def as_provider(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ToolStep:
    text: str
    tool_calls: tuple[ToolCall, ...]
    usage: Usage
    model_key: str


def tool_candidates(*, profile: str, data_policy: DataPolicy) -> list[Candidate]:
    """The profile's eligible models whose verified capabilities include tool calling."""
    return [
        candidate
        for candidate in eligible_candidates(profile=profile, data_policy=data_policy)
        if candidate.capabilities.tool_calling
    ]


def _calls(raw: tuple[tuple[str, str], ...]) -> tuple[ToolCall, ...]:
    calls = []
    for name, arguments in raw:
        try:
            value = json.loads(arguments or "{}")
        except ValueError:
            continue
        if isinstance(value, dict):
            calls.append(ToolCall(name=name, arguments=value))
    return tuple(calls)


async def tool_step(
    *,
    candidate: Candidate,
    profile: str,
    request: GenerationRequest,
    tools: list[ToolSpec],
    timeout_s: float,
) -> ToolStep:
    """One model step with ``tools`` offered. Raises ``ProviderFailure`` (a stable code) on any
    provider error and ``TimeoutError`` past ``timeout_s``."""
    model = language_model_for(candidate.model)
    complete = getattr(model, "complete", None)
    if complete is None:
        raise ProviderFailure(ErrorCode.INVALID_REQUEST, error_class="NoToolCalling")
    config = profile_get(profile)
    completion = await complete(
        request,
        max_output_tokens=request.max_output_tokens or config.max_output_tokens,
        timeouts=CallTimeouts(
            connect_s=min(config.connect_timeout_s, timeout_s),
            first_token_s=timeout_s,
            total_s=timeout_s,
        ),
        tools=[tool.as_provider() for tool in tools],
    )
    usage = completion.usage or estimated_usage(request, completion.text)
    return ToolStep(
        text=completion.text,
        tool_calls=_calls(completion.tool_calls),
        usage=usage,
        model_key=candidate.model.key,
    )
