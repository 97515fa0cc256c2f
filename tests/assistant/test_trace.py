"""One privacy-safe trace per answer: the spans of the lifecycle, counts and timings only."""

import json
import logging

import pytest

from claire.tracing import Trace, safe_attributes
from tests.assistant.conftest import ask

pytestmark = pytest.mark.django_db(transaction=True)

ANSWER_SPANS = {
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


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def traces():
    """The engine's trace records. A handler of the engine's own logger: loading the ASGI
    application configures logging again, which replaces the root logger's handlers."""
    engine_logger = logging.getLogger("assistant.engine")
    handler = _Records()
    previous = engine_logger.level
    engine_logger.setLevel(logging.INFO)
    engine_logger.addHandler(handler)
    yield lambda: [r.trace for r in handler.records if r.getMessage() == "assistant.request.trace"]
    engine_logger.removeHandler(handler)
    engine_logger.setLevel(previous)


def test_an_answer_writes_one_trace_with_every_stage_and_no_content(
    user, dinner_chat, answer_models, traces
):
    answer_models.script(deltas=("Friday ", "at 8 [S1]."))
    reply = ask(user, question="When is the dinner with Ana?")
    assert reply.status == 200
    (trace,) = traces()
    names = {span["name"] for span in trace["spans"]}
    assert names == ANSWER_SPANS
    by_name = {span["name"]: span for span in trace["spans"]}
    assert by_name["time_to_first_token"]["parent"] == "model.first_attempt"
    assert by_name["model.first_attempt"]["attributes"]["model"] == "local/mock"
    assert trace["attributes"]["status"] == "completed"
    assert trace["attributes"]["route"] == "hybrid"
    assert trace["attributes"]["source_count"] >= 1
    assert trace["droppedAttributes"] == 0
    # Stages happen in order, inside the request.
    assert by_name["thread.load"]["startMs"] <= by_name["context.route"]["startMs"]
    assert by_name["context.route"]["startMs"] <= by_name["model.first_attempt"]["startMs"]
    assert by_name["turn.finalize"]["startMs"] >= by_name["model.first_attempt"]["startMs"]
    assert all(span["durationMs"] >= 0 for span in trace["spans"])
    # Neither the question, the evidence nor the answer is in it.
    written = json.dumps(trace)
    for content in ("dinner", "Ana", "Casa Lisboa", "Friday"):
        assert content not in written


def test_a_no_evidence_answer_has_no_model_span(user, dinner_chat, answer_models, traces):
    model = answer_models.script(deltas=("unused",))
    ask(user, question="What is the wifi password at the zoo?")
    (trace,) = traces()
    names = {span["name"] for span in trace["spans"]}
    assert not {n for n in names if n.startswith("model.")}
    assert "turn.finalize" in names
    assert trace["attributes"]["route"] == "no_evidence"
    assert model.requests == []


def test_only_identifier_like_strings_are_kept():
    kept, dropped = safe_attributes(
        {
            "route": "hybrid",
            "model": "openai/gpt-4.1-mini",
            "count": 3,
            "ratio": 0.123456,
            "ok": True,
            "text": "Dinner on Friday at 8",
            "blob": {"a": 1},
            "missing": None,
        }
    )
    assert kept == {
        "route": "hybrid",
        "model": "openai/gpt-4.1-mini",
        "count": 3,
        "ratio": 0.12,
        "ok": True,
    }
    assert dropped == 2
    trace = Trace("job", started=0.0)
    trace.add("step", start=0.5, duration_ms=2.0, note="a sentence with spaces")
    record = trace.as_json()
    assert record["spans"][0]["startMs"] == 500.0
    assert record["droppedAttributes"] == 1
