"""The user's consent to remote model providers: the one place it is read and written.

Without consent only local models see the user's evidence (``DataPolicy.LOCAL_ONLY``); every
caller of the AI runtime passes ``data_policy_for_user`` (answers, query embeddings, fact
refinement, drafts). A user who never decided gets the deployment's default,
``REMOTE_CONSENT_DEFAULT`` (off unless configured).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.utils import timezone

from claire.accounts.models import User
from claire.ai.types import DataPolicy

logger = logging.getLogger(__name__)


def has_remote_consent(*, user: User) -> bool:
    if user.remote_consent is None:
        return bool(settings.REMOTE_CONSENT_DEFAULT)
    return user.remote_consent


def data_policy_for_user(*, user: User) -> DataPolicy:
    """What the AI runtime may do with the user's data: remote models only with consent."""
    return DataPolicy.ALLOW_REMOTE if has_remote_consent(user=user) else DataPolicy.LOCAL_ONLY


def remote_consent_set(*, user: User, given: bool) -> None:
    """Record the user's decision (granting or withdrawing), with when it was made."""
    user.remote_consent = given
    user.remote_consent_changed_at = timezone.now()
    user.save(update_fields=["remote_consent", "remote_consent_changed_at"])
    logger.info("accounts.remote_consent_set", extra={"user_id": user.pk, "given": given})
