"""The one metered AI path: every model call a user pays for goes through here.

In order, for answers, draft tool steps, drafts and fact refinement alike:

1. **eligibility by data policy** (``eligibility_for``): the user's remote consent decides the
   data policy (``claire.accounts.consent.data_policy_for_user``), and the profile's models
   eligible for it are the candidates (only tool-calling ones for a tool step);
2. **costliest candidate**: the runtime may fail over to any candidate before the first delta,
   so the hold covers the costliest of them for the request's plan (its prompt, the profile's
   maximum output, a query embedding when the answer searched with one);
3. **reserve** (``metered_reserve`` -> ``budget_reserve``): refused with billing's error
   (``AiDisabled``, ``BudgetExceeded``, ``PriceUnknown``) having changed nothing;
4. **generate or stream** through ``claire.ai`` with the call's profile, request and data
   policy (``MeteredCall.stream``, ``text``, ``structured``, ``tool_step``);
5. **settle or release** (``MeteredCall.settle`` / ``release``): the usage is the runtime's
   (reported, or estimated from the prompt and the text produced: ``claire.ai.tokens
   .estimated_usage``); ``None`` charges the whole plan; the model that answered (after any
   failover) prices it.

``metered_text`` and ``metered_tool_step`` run steps 4-5 in one go for callers that do not
stream; the answer's stream and a refinement batch settle in their own transactions.
Consent is the user's own decision, read and written in ``claire.accounts.consent`` only.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from django.utils import timezone

from billing.models import Reservation, UsageEvent
from billing.services.pricing import costliest_model, model_key_parts
from billing.services.reservations import budget_reserve, reservation_release, reservation_settle
from billing.types import CostPlan, UsageLike, UsageTelemetry
from claire.accounts.consent import data_policy_for_user
from claire.accounts.models import User
from claire.ai.generate import (
    GenerationResult,
    GenerationStream,
    StructuredResult,
    generate,
    generate_structured,
    generate_text,
)
from claire.ai.profiles import Candidate, eligible_candidates, profile_get
from claire.ai.providers.base import ProviderFailure
from claire.ai.tokens import count_request_tokens
from claire.ai.tools import ToolSpec, ToolStep, tool_candidates
from claire.ai.tools import tool_step as run_tool_step
from claire.ai.types import DataPolicy, GenerationRequest

RunSync = Callable[..., Awaitable[Any]]


@dataclass(frozen=True)
class Eligibility:
    """The models that may serve ``profile`` for one user, in the profile's order."""

    profile: str
    data_policy: DataPolicy
    candidates: tuple[Candidate, ...]


def eligibility_for(*, user: User, profile: str, needs_tool_calling: bool = False) -> Eligibility:
    """Step 1: the user's data policy and the profile's candidates eligible under it (no
    candidates: nothing may be called for this user)."""
    data_policy = data_policy_for_user(user=user)
    choose = tool_candidates if needs_tool_calling else eligible_candidates
    return Eligibility(
        profile=profile,
        data_policy=data_policy,
        candidates=tuple(choose(profile=profile, data_policy=data_policy)),
    )


@dataclass(frozen=True)
class MeteredCall:
    """One reserved model call: what it may run (steps 4) and how it closes (step 5)."""

    eligibility: Eligibility
    request: GenerationRequest
    reservation: Reservation

    @property
    def profile(self) -> str:
        return self.eligibility.profile

    @property
    def data_policy(self) -> DataPolicy:
        return self.eligibility.data_policy

    @property
    def candidate(self) -> Candidate:
        """The first eligible model: the one a call starts on."""
        return self.eligibility.candidates[0]

    def stream(self) -> GenerationStream:
        return generate(profile=self.profile, request=self.request, data_policy=self.data_policy)

    async def text(self) -> GenerationResult:
        return await generate_text(
            profile=self.profile, request=self.request, data_policy=self.data_policy
        )

    async def structured(self) -> StructuredResult:
        return await generate_structured(
            profile=self.profile, request=self.request, data_policy=self.data_policy
        )

    async def tool_step(self, *, tools: list[ToolSpec], timeout_s: float) -> ToolStep:
        """One step on the first eligible model (no failover within a tool loop)."""
        return await run_tool_step(
            candidate=self.candidate,
            profile=self.profile,
            request=self.request,
            tools=tools,
            timeout_s=timeout_s,
        )

    def settle(
        self,
        *,
        usage: UsageLike | None,
        ending: str,
        telemetry: UsageTelemetry,
        model_key: str = "",
    ) -> UsageEvent:
        """Charge what the call used (``None``: its whole plan) at the rates of ``model_key``,
        the model that answered (empty: the reserved one); the event carries the call's
        profile."""
        return reservation_settle(
            reservation=self.reservation,
            usage=usage,
            ending=ending,
            telemetry=replace(telemetry, profile=self.profile),
            answered_by=model_key_parts(model_key) if model_key else None,
        )

    def release(self) -> Reservation:
        """Give the whole hold back: the call never reached a provider."""
        return reservation_release(reservation=self.reservation)


def metered_reserve(
    *,
    user: User,
    eligibility: Eligibility,
    request: GenerationRequest,
    attempt: int = 1,
    query_embedding_tokens: int = 0,
    query_embedding_model_key: str = "",
) -> MeteredCall:
    """Steps 2-3 for ``request`` (billed under its ``request_id`` and ``attempt``): reserve the
    plan's maximum cost against the costliest eligible candidate. ``eligibility`` must name at
    least one candidate. Raises billing's refusal (an ``CodedError``) having reserved nothing."""
    if not eligibility.candidates:
        raise ValueError("no eligible model to reserve against")
    plan = CostPlan(
        query_embedding_tokens=query_embedding_tokens,
        uncached_input_tokens=count_request_tokens(request),
        max_output_tokens=(
            request.max_output_tokens or profile_get(eligibility.profile).max_output_tokens or 0
        ),
    )
    embedding_key = (
        model_key_parts(query_embedding_model_key)
        if query_embedding_model_key and query_embedding_tokens
        else None
    )
    provider, model = costliest_model(
        price_keys=[model_key_parts(candidate.model.key) for candidate in eligibility.candidates],
        plan=plan,
        at=timezone.now(),
        embedding_key=embedding_key,
    )
    reservation = budget_reserve(
        user=user,
        request_id=request.request_id,
        attempt=attempt,
        provider=provider,
        model=model,
        plan=plan,
        embedding_provider=embedding_key[0] if embedding_key else "",
        embedding_model=embedding_key[1] if embedding_key else "",
    )
    return MeteredCall(eligibility=eligibility, request=request, reservation=reservation)


async def metered_text(
    *, call: MeteredCall, telemetry: UsageTelemetry, run_sync: RunSync
) -> GenerationResult:
    """Steps 4-5 for a collected text: generate, then settle (``completed`` or ``failed``) for
    the runtime's usage, priced at the model that answered. ``run_sync`` runs the settlement
    on the caller's database thread."""
    started = time.monotonic()
    result = await call.text()
    await run_sync(
        call.settle,
        usage=result.usage,
        ending="completed" if result.error is None else "failed",
        telemetry=replace(
            telemetry,
            duration_ms=int((time.monotonic() - started) * 1000),
            error_class="" if result.error is None else str(result.error.code),
        ),
        model_key=result.finish.model_key if result.finish is not None else "",
    )
    return result


async def metered_tool_step(
    *,
    call: MeteredCall,
    tools: list[ToolSpec],
    timeout_s: float,
    telemetry: UsageTelemetry,
    run_sync: RunSync,
) -> ToolStep | None:
    """Steps 4-5 for one tool step: run it, then settle (``completed`` for its usage;
    ``failed`` for the whole plan when it timed out or the provider failed, which returns
    None)."""
    started = time.monotonic()
    result: ToolStep | None = None
    error_class = ""
    try:
        result = await asyncio.wait_for(
            call.tool_step(tools=tools, timeout_s=timeout_s), timeout=timeout_s
        )
    except TimeoutError:
        error_class = "timeout"
    except ProviderFailure as failure:
        error_class = str(failure.code)
    await run_sync(
        call.settle,
        usage=result.usage if result is not None else None,
        ending="completed" if result is not None else "failed",
        telemetry=replace(
            telemetry,
            duration_ms=int((time.monotonic() - started) * 1000),
            error_class=error_class,
        ),
    )
    return result
