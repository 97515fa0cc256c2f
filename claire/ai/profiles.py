"""Task profiles and routing: which configured models may serve a profile for a user.

A candidate is eligible when, in the profile's order:

1. its data policy fits the user's (``LOCAL_ONLY`` users get only ``local`` models; a
   bring-your-own-key model is still ``remote``);
2. its capabilities are verified (see ``claire.ai.capabilities``) and include everything the
   profile requires (a model that can only simulate a stream counts as streaming);
3. the environment variable holding its credential, when it names one, is set.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from claire.ai.capabilities import verification_for
from claire.ai.config import Capabilities, ModelConfig, ProfileConfig, ai_config
from claire.ai.selectors import capability_records_by_key
from claire.ai.types import DataPolicy, ModelDataPolicy

logger = logging.getLogger(__name__)

PROFILE_NAMES = ("answer", "compile_query", "extract", "draft", "embed")


@dataclass(frozen=True)
class Candidate:
    """An eligible model with the capabilities routing verified for it."""

    model: ModelConfig
    capabilities: Capabilities


@dataclass(frozen=True)
class CandidateDecision:
    model_key: str
    # "eligible", "data_policy", "unverified", "stale-probe", "missing_credentials", or
    # "missing_capability:<names>".
    reason: str
    # Where the capabilities came from: "probe", "built-in", "unverified" or "stale-probe".
    verification: str
    candidate: Candidate | None = None

    @property
    def is_eligible(self) -> bool:
        return self.candidate is not None


def profile_get(name: str) -> ProfileConfig:
    return ai_config().profile(name)


def candidate_decisions(
    *, profile: ProfileConfig, data_policy: DataPolicy
) -> list[CandidateDecision]:
    """Every candidate of ``profile`` in order, with why it is (not) eligible."""
    config = ai_config()
    records = capability_records_by_key(model_keys=profile.candidates)
    decisions = []
    for key in profile.candidates:
        model = config.models[key]
        verification = verification_for(model, records.get(key))
        capabilities = verification.capabilities
        reason = "eligible"
        if model.data_policy == ModelDataPolicy.REMOTE and data_policy != DataPolicy.ALLOW_REMOTE:
            reason = "data_policy"
        elif capabilities is None:
            reason = verification.source
        elif missing := capabilities.missing(profile.requires):
            reason = f"missing_capability:{','.join(sorted(missing))}"
        elif model.api_key_env and not model.api_key():
            reason = "missing_credentials"
        candidate = (
            Candidate(model=model, capabilities=capabilities)
            if reason == "eligible" and capabilities is not None
            else None
        )
        decisions.append(CandidateDecision(key, reason, verification.source, candidate))
    return decisions


def eligible_candidates(*, profile: str, data_policy: DataPolicy) -> list[Candidate]:
    """The models that may serve ``profile`` for a user with ``data_policy``, in order."""
    profile_config = profile_get(profile)
    decisions = candidate_decisions(profile=profile_config, data_policy=data_policy)
    for decision in decisions:
        if not decision.is_eligible and decision.reason != "data_policy":
            # A configured model that cannot serve is worth an operator's attention.
            logger.info(
                "ai.candidate_ineligible",
                extra={
                    "profile": profile,
                    "model_key": decision.model_key,
                    "reason": decision.reason,
                },
            )
    return [decision.candidate for decision in decisions if decision.candidate is not None]
