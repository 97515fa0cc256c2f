"""A user's AI policy: whether AI is on, and spending limits."""

from __future__ import annotations

import logging

from django.db import transaction

from billing.models import (
    AiPolicy,
)
from claire.accounts.models import User

logger = logging.getLogger(__name__)


# --- Policy and budget periods --------------------------------------------------------------


def ai_policy_get_or_create(*, user: User) -> AiPolicy:
    policy, _ = AiPolicy.objects.get_or_create(user=user)
    return policy


def ai_policy_update(
    *,
    user: User,
    is_ai_enabled: bool | None = None,
    daily_limit_micro_usd: int | None = None,
    monthly_limit_micro_usd: int | None = None,
) -> AiPolicy:
    """Change some of a user's policy fields; ``None`` leaves a field as it is."""
    changes = {
        name: value
        for name, value in {
            "is_ai_enabled": is_ai_enabled,
            "daily_limit_micro_usd": daily_limit_micro_usd,
            "monthly_limit_micro_usd": monthly_limit_micro_usd,
        }.items()
        if value is not None
    }
    for name in ("daily_limit_micro_usd", "monthly_limit_micro_usd"):
        if name in changes and int(changes[name]) < 0:
            raise ValueError(f"{name} must not be negative")
    with transaction.atomic():
        policy = ai_policy_get_or_create(user=user)
        for name, value in changes.items():
            setattr(policy, name, value)
        if changes:
            policy.save(update_fields=[*changes, "updated_at"])
    logger.info("billing.policy_updated", extra={"user_id": user.pk, "fields": sorted(changes)})
    return policy
