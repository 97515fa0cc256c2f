"""Alert rules (with a webhook on a local HTTP server) and the staff dashboard page."""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.utils import timezone

from observability.alerts import alerts_evaluate
from observability.models import AlertFiring, AlertMetric, AlertRule, AlertState
from observability.tasks import alerts_evaluate_task
from tests.factories import UserFactory
from tests.observability.factories import answers

pytestmark = pytest.mark.django_db


class _Receiver(BaseHTTPRequestHandler):
    received: list[dict] = []
    status = 204

    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        type(self).received.append(json.loads(self.rfile.read(length)))
        self.send_response(type(self).status)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        return


@pytest.fixture
def webhook(settings) -> Iterator[type[_Receiver]]:
    class Receiver(_Receiver):
        received: list[dict] = []

    server = HTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.ALERT_WEBHOOK_URL = f"http://127.0.0.1:{server.server_port}/alerts"
    yield Receiver
    server.shutdown()
    server.server_close()
    thread.join()


def _rule(**fields: object) -> AlertRule:
    defaults: dict[str, object] = {
        "name": "stream failures",
        "metric": AlertMetric.STREAM_FAILURE_RATE,
        "threshold": 0.1,
        "window_minutes": 60,
        "min_answers": 5,
    }
    return AlertRule.objects.create(**{**defaults, **fields})


def test_a_rule_fires_once_posts_the_webhook_and_resolves(webhook):
    rule = _rule()
    now = timezone.now()
    answers(6, at=now - dt.timedelta(minutes=30))
    answers(4, at=now - dt.timedelta(minutes=20), ending="failed")
    assert alerts_evaluate_task() == 1
    rule.refresh_from_db()
    assert rule.is_firing is True
    assert rule.last_value == 0.4
    firing = AlertFiring.objects.get()
    assert (firing.state, firing.answers, firing.webhook_status) == (AlertState.FIRING, 10, "sent")
    (posted,) = webhook.received
    assert posted["rule"] == "stream failures"
    assert (posted["state"], posted["value"], posted["threshold"]) == ("firing", 0.4, 0.1)
    assert set(posted) == {
        "rule",
        "metric",
        "profile",
        "state",
        "value",
        "threshold",
        "answers",
        "windowMinutes",
        "at",
    }

    # Still firing: nothing new, nothing posted.
    assert alerts_evaluate() == []
    assert len(webhook.received) == 1

    # The failures age out of the window: resolved.
    later = now + dt.timedelta(minutes=45)
    answers(10, at=later - dt.timedelta(minutes=5))
    (resolved,) = alerts_evaluate(now=later)
    assert resolved.state == AlertState.RESOLVED
    assert [p["state"] for p in webhook.received] == ["firing", "resolved"]


def test_a_budget_rule_and_too_few_answers(settings):
    settings.ALERT_WEBHOOK_URL = ""
    spend = _rule(
        name="spend", metric=AlertMetric.SETTLED_MICRO_USD_PER_HOUR, threshold=20_000, min_answers=1
    )
    quiet = _rule(name="quiet", threshold=0.0, min_answers=50)
    now = timezone.now()
    answers(6, at=now - dt.timedelta(minutes=30), settled_micro_usd=4_500, ending="failed")
    (firing,) = alerts_evaluate()
    assert firing.rule == spend
    assert firing.value == 27_000
    assert firing.webhook_status == ""
    quiet.refresh_from_db()
    assert (quiet.is_firing, quiet.last_value) == (False, 1.0)


def test_an_unreachable_webhook_is_recorded_as_failed(settings):
    settings.ALERT_WEBHOOK_URL = "http://127.0.0.1:9/unreachable"
    _rule(min_answers=1, threshold=0.0)
    answers(2, at=timezone.now() - dt.timedelta(minutes=5), ending="failed")
    (firing,) = alerts_evaluate()
    assert firing.webhook_status == "failed"


def test_the_dashboard_is_staff_only(client):
    response = client.get("/admin/observability/dashboard/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
    client.force_login(UserFactory(is_staff=False))
    assert client.get("/admin/observability/dashboard/").status_code == 302


def test_the_dashboard_charts_a_window_by_profile(admin_client):
    now = timezone.now()
    answers(5, at=now - dt.timedelta(hours=3), route="lexical", source_count=2)
    answers(
        3, at=now - dt.timedelta(minutes=50), ending="no_call", route="no_evidence", source_count=0
    )
    answers(2, at=now - dt.timedelta(hours=2), profile="answer-next")
    _rule(name="errors")
    response = admin_client.get("/admin/observability/dashboard/?window=24h&profile=answer")
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count("<figure><svg") == 8
    for title in (
        "Time to first token (ms)",
        "Completion (ms)",
        "Tokens by kind",
        "Cost (micro-USD)",
        "Rates",
        "Route mix",
        "Sources per answer",
    ):
        assert f'aria-label="{title}"' in page
    assert "<script" not in page.split('<div class="ops-charts">')[1]
    dashboard = response.context["dashboard"]
    assert [(p.profile, p.events) for p in dashboard.profiles] == [
        ("answer", 8),
        ("answer-next", 2),
    ]
    assert dashboard.profile_names == ["answer", "answer-next"]
    assert ">lexical<" in page and ">no_evidence<" in page
    assert "errors" in page

    narrow = admin_client.get("/admin/observability/dashboard/?window=1h&profile=answer")
    assert [p.events for p in narrow.context["dashboard"].profiles] == [3]
    unknown = admin_client.get("/admin/observability/dashboard/?window=bogus")
    assert unknown.context["dashboard"].window == "24h"


def test_chart_labels_are_escaped_and_missing_values_leave_gaps():
    from observability.charts import Series, bar_chart, line_chart

    bars = bar_chart("Route <mix>", ["<b>x</b>"], [3.0])
    assert "<b>" not in bars and "&lt;b&gt;x&lt;/b&gt;" in bars
    assert 'aria-label="Route &lt;mix&gt;"' in bars
    line = line_chart("t", ["a", "b", "c", "d"], [Series("p95", [1.0, 2.0, None, 4.0])])
    assert line.count("<polyline") == 1
    assert line.count("<circle") == 3
