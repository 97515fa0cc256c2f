"""Alert rules on error and budget rates, evaluated over usage events (never content).

``alerts_evaluate`` (a beat task) computes each enabled rule's metric over its window; a rule
that crosses its threshold fires, one that falls back resolves, and each change is an
``AlertFiring`` posted to ``settings.ALERT_WEBHOOK_URL`` when one is set. Evaluating twice
changes nothing the second time.
"""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from observability.gates import profile_usage
from observability.models import AlertFiring, AlertMetric, AlertRule, AlertState

logger = logging.getLogger(__name__)


def metric_value(*, rule: AlertRule, now: datetime) -> tuple[float, int]:
    """The rule's metric over its window, and how many answers it is measured on."""
    start = now - timedelta(minutes=rule.window_minutes)
    usage = profile_usage(start=start, end=now, profile=rule.profile)
    if usage is None:
        return 0.0, 0
    if rule.metric == AlertMetric.SETTLED_MICRO_USD_PER_HOUR:
        return round(usage.settled_micro_usd * 60 / rule.window_minutes, 2), usage.events
    return float(getattr(usage, str(rule.metric))), usage.events


def webhook_post(*, firing: AlertFiring) -> str:
    """Post the firing (rule, metric and figures; no content) to the webhook: ``sent`` or
    ``failed``; ``""`` when no webhook is configured or the rule does not send."""
    url = settings.ALERT_WEBHOOK_URL
    if not url or not firing.rule.sends_webhook:
        return ""
    payload = {
        "rule": firing.rule.name,
        "metric": firing.rule.metric,
        "profile": firing.rule.profile,
        "state": firing.state,
        "value": firing.value,
        "threshold": firing.threshold,
        "answers": firing.answers,
        "windowMinutes": firing.rule.window_minutes,
        "at": firing.created_at.isoformat(),
    }
    if not url.startswith(("http://", "https://")):
        return "failed"
    request = urllib.request.Request(  # noqa: S310 (http(s) only, checked above)
        url,
        data=json.dumps(payload).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(  # noqa: S310 (http(s) only, checked above)
            request, timeout=settings.ALERT_WEBHOOK_TIMEOUT_SECONDS
        ) as response:
            return "sent" if 200 <= response.status < 300 else "failed"
    except (urllib.error.URLError, OSError, ValueError):
        logger.warning("observability.alert_webhook_failed", extra={"rule_id": firing.rule_id})
        return "failed"


def alert_rule_evaluate(*, rule_id: int, now: datetime | None = None) -> AlertFiring | None:
    """Evaluate one rule; the ``AlertFiring`` when its state changed."""
    now = now or timezone.now()
    with transaction.atomic():
        rule = AlertRule.objects.select_for_update().filter(pk=rule_id, is_enabled=True).first()
        if rule is None:
            return None
        value, answers = metric_value(rule=rule, now=now)
        is_firing = answers >= rule.min_answers and value > rule.threshold
        changed = is_firing != rule.is_firing
        rule.is_firing, rule.last_value, rule.last_evaluated_at = is_firing, value, now
        rule.save(update_fields=["is_firing", "last_value", "last_evaluated_at"])
        if not changed:
            return None
        firing = AlertFiring.objects.create(
            rule=rule,
            state=AlertState.FIRING if is_firing else AlertState.RESOLVED,
            value=value,
            threshold=rule.threshold,
            answers=answers,
        )
    logger.warning(
        "observability.alert_changed",
        extra={"rule_id": rule.pk, "state": firing.state, "value": value},
    )
    # After the commit: a slow webhook holds no lock.
    firing.webhook_status = webhook_post(firing=firing)
    if firing.webhook_status:
        firing.save(update_fields=["webhook_status"])
    return firing


def alerts_evaluate(*, now: datetime | None = None) -> list[AlertFiring]:
    ids = AlertRule.objects.filter(is_enabled=True).order_by("pk").values_list("pk", flat=True)
    firings = [alert_rule_evaluate(rule_id=rule_id, now=now) for rule_id in ids]
    return [firing for firing in firings if firing is not None]
