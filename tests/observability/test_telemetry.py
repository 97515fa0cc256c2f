"""OpenTelemetry spans of real answers: the spec's tree, allow-listed attributes, no content.

The answers run through the real ASGI application and engine with the configured local models
(the extractive answerer quotes the evidence, so message text does reach the answer)."""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterator

import pytest

from billing.models import UsageEvent
from claire import telemetry
from tests.assistant.conftest import ask
from tests.factories import ChatFactory, MessageFactory, PersonFactory

pytestmark = pytest.mark.django_db(transaction=True)

MARKERS = [f"{word}{uuid.uuid4().hex[:8]}" for word in ("wombat", "quillfeather", "zanzibarly")]


class _Everything(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def spans(settings) -> Iterator[telemetry.MemorySpanExporter]:
    settings.TELEMETRY_EXPORTER = "memory"
    telemetry.telemetry_reset()
    exporter = telemetry.memory_exporter()
    assert exporter is not None
    yield exporter
    telemetry.telemetry_reset()


@pytest.fixture
def every_log_record() -> Iterator[list[logging.LogRecord]]:
    """Every record of every logger. The ASGI application configures logging when it loads,
    so it is loaded first; loggers that do not propagate get the handler too."""
    import claire.asgi  # noqa: F401

    handler = _Everything()
    root = logging.getLogger()
    previous = root.level
    root.setLevel(logging.DEBUG)
    root.addHandler(handler)
    quiet = [
        logger
        for logger in logging.root.manager.loggerDict.values()
        if isinstance(logger, logging.Logger) and not logger.propagate
    ]
    for logger in quiet:
        logger.addHandler(handler)
    yield handler.records
    for logger in quiet:
        logger.removeHandler(handler)
    root.removeHandler(handler)
    root.setLevel(previous)


@pytest.fixture
def marked_chat(user):
    chat = ChatFactory(user=user, title="Trip planning")
    maria = PersonFactory(user=user, display_name="Maria")
    MessageFactory(
        chat=chat,
        sender_person=maria,
        text=f"The {MARKERS[0]} ferry leaves Tuesday at nine from the {MARKERS[1]} pier.",
    )
    MessageFactory(chat=chat, sender_person=maria, text=f"Bring the {MARKERS[2]} tickets please.")
    return chat


def _record_text(record: logging.LogRecord) -> str:
    fields = {key: value for key, value in vars(record).items() if key not in ("args", "msg")}
    return record.getMessage() + json.dumps(fields, default=str)


def test_real_answers_export_the_span_tree_without_any_content(
    user, marked_chat, spans, every_log_record
):
    questions = [
        f"When does the {MARKERS[0]} ferry leave?",
        f"Where is the {MARKERS[1]} pier?",
        f"What did Maria say about {MARKERS[2]} and the unicornish{MARKERS[0]} plan?",
    ]
    # Both transports: the legacy JSON path and the stream.
    replies = [
        ask(user, question=question, accept=accept)
        for question, accept in zip(
            questions, ("application/json", "text/event-stream", "application/json"), strict=True
        )
    ]
    assert [reply.status for reply in replies] == [200, 200, 200]
    # The markers did travel through the answers: the scan below looks for something real.
    assert MARKERS[0] in replies[0].json()["answer"]
    assert MARKERS[1] in replies[1].body.decode()

    finished = spans.finished_spans()
    roots = [span for span in finished if span.parent is None]
    assert [span.name for span in roots] == ["assistant.request"] * 3
    first = roots[0]
    tree = {
        span.name: span
        for span in finished
        if span.context.trace_id == first.context.trace_id and span is not first
    }
    assert set(tree) == {
        "thread.load",
        "context.route",
        "retrieval.lexical",
        "retrieval.embedding",
        "retrieval.vector",
        "evidence.assemble",
        "model.first_attempt",
        "time_to_first_token",
        "stream_duration",
        "turn.finalize",
    }
    model_span = tree["model.first_attempt"]
    for name, span in tree.items():
        is_model_stage = name in ("time_to_first_token", "stream_duration")
        expected_parent = model_span if is_model_stage else first
        assert span.parent is not None and span.parent.span_id == expected_parent.context.span_id
        assert first.start_time <= span.start_time <= span.end_time
    assert model_span.attributes["model"] == "local/extractive"
    assert first.attributes["status"] == "completed"
    assert first.attributes["route"] in ("hybrid", "lexical")
    assert first.attributes["source_count"] >= 1
    # Allow-listed keys only, and no input or output recorded.
    for span in finished:
        assert set(span.attributes) <= telemetry.ALLOWED_ATTRIBUTES
    assert telemetry.RECORD_INPUTS is False and telemetry.RECORD_OUTPUTS is False

    # The scan: every span, log record and usage event; no marker anywhere (0 allowed).
    span_text = "\n".join(span.to_json() for span in finished)
    log_text = "\n".join(_record_text(record) for record in every_log_record)
    usage_text = json.dumps(list(UsageEvent.objects.filter(user=user).values()), default=str)
    assert UsageEvent.objects.filter(user=user).count() == 3
    assert "assistant.request.trace" in log_text
    leaks = [
        (where, marker)
        for where, text in (("spans", span_text), ("logs", log_text), ("usage", usage_text))
        for marker in MARKERS
        if marker in text
    ]
    assert leaks == []


def test_only_allow_listed_attributes_leave_the_process(spans):
    from claire.tracing import Trace

    trace = Trace("assistant.request")
    trace.add("thread.load", start=trace.started, duration_ms=1.0, is_new=True, secret_key="k1")
    trace.emit(logging.getLogger("tests"), route="hybrid", user_email="someone")
    (load, root) = spans.finished_spans()
    assert dict(load.attributes) == {"is_new": True}
    assert root.attributes["route"] == "hybrid"
    assert "user_email" not in root.attributes
    assert load.parent.span_id == root.context.span_id


def test_no_exporter_exports_nothing(settings):
    settings.TELEMETRY_EXPORTER = "none"
    telemetry.telemetry_reset()
    from claire.tracing import Trace

    Trace("assistant.request").emit(logging.getLogger("tests"), route="hybrid")
    assert telemetry.memory_exporter() is None
    telemetry.telemetry_reset()
