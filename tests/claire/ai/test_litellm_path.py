"""The litellm path end to end against the fake OpenAI-compatible server on 127.0.0.1:
streamed chunks, usage on the last chunk, failures before the first chunk, a connection cut
mid-stream, a first-token timeout, cancellation, and error codes."""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import async_to_sync

from claire.ai.generate import generate
from claire.ai.tokens import count_request_tokens, count_tokens
from claire.ai.types import (
    ChatMessage,
    DataPolicy,
    ErrorCode,
    Finish,
    GenerationError,
    GenerationRequest,
    TextDelta,
    Usage,
    UsageEvent,
)
from tests.claire.ai.conftest import FAKE_KEY, fake_model, run_generation
from tests.claire.ai.fake_openai_server import CHAT_DELTAS
from tests.factories.ai import verified_record_for

pytestmark = pytest.mark.django_db

REQUEST = GenerationRequest(
    system="Answer briefly.",
    messages=(ChatMessage(role="user", content="Say hello."),),
    max_output_tokens=40,
)
FULL_TEXT = "".join(CHAT_DELTAS)


@pytest.fixture
def remote(configure_ai, fake_openai):
    """Configure the named fake-server models as the answer profile's candidates, verified."""

    def setup(*model_ids: str, first_token_timeout_s: float = 5.0) -> None:
        keys = [f"fake/{model_id}" for model_id in model_ids]
        configure_ai(
            models={
                key: fake_model(fake_openai, model_id)
                for key, model_id in zip(keys, model_ids, strict=True)
            },
            profiles={
                "answer": {
                    "candidates": keys,
                    "connect_timeout_s": 2.0,
                    "first_token_timeout_s": first_token_timeout_s,
                    "total_timeout_s": 10.0,
                }
            },
        )
        for key in keys:
            verified_record_for(key)

    return setup


def texts(events) -> str:
    return "".join(event.text for event in events if isinstance(event, TextDelta))


def test_streamed_chunks_arrive_as_deltas_with_provider_usage(remote, fake_openai):
    remote("chat-ok")

    events = run_generation(REQUEST)

    assert [event.text for event in events if isinstance(event, TextDelta)] == list(CHAT_DELTAS)
    assert events[-2] == UsageEvent(
        Usage(input_tokens=11, cached_input_tokens=3, output_tokens=5),
        "openai_compatible",
        "chat-ok",
    )
    assert events[-1] == Finish(
        reason="stop", provider="openai_compatible", model="chat-ok", model_key="fake/chat-ok"
    )
    (sent,) = fake_openai.requests_for("chat-ok")
    assert sent.body["stream"] is True
    assert sent.body["stream_options"] == {"include_usage": True}
    assert sent.body["max_tokens"] == 40
    assert sent.body["messages"] == [
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": "Say hello."},
    ]
    assert sent.headers["authorization"] == f"Bearer {FAKE_KEY}"


def test_missing_usage_is_estimated_not_taken_from_litellm(remote):
    # litellm fills in its own token counts when the provider sends none; those must not be
    # presented as the provider's.
    remote("chat-no-usage")

    events = run_generation(REQUEST)

    assert texts(events) == FULL_TEXT
    assert events[-2] == UsageEvent(
        Usage(
            input_tokens=count_request_tokens(REQUEST),
            output_tokens=count_tokens(FULL_TEXT),
            is_estimated=True,
            reported_by_provider=False,
        ),
        "openai_compatible",
        "chat-no-usage",
    )


@pytest.mark.parametrize("failing_model", ["chat-429", "chat-500"])
def test_failure_before_first_chunk_fails_over_to_next_provider(remote, fake_openai, failing_model):
    remote(failing_model, "chat-ok")

    events = run_generation(REQUEST)

    assert texts(events) == FULL_TEXT
    assert events[-1] == Finish(
        reason="stop",
        provider="openai_compatible",
        model="chat-ok",
        model_key="fake/chat-ok",
        failovers=1,
    )
    assert len(fake_openai.requests_for(failing_model)) == 1
    assert len(fake_openai.requests_for("chat-ok")) == 1


def test_connection_cut_mid_stream_is_surfaced_without_a_second_provider(remote, fake_openai):
    remote("chat-cut", "chat-ok")

    events = run_generation(REQUEST)

    assert texts(events) == "Hello from"
    assert isinstance(events[-2], UsageEvent)
    assert events[-2].usage.is_estimated is True
    assert events[-2].usage.output_tokens == count_tokens("Hello from")
    assert events[-1] == GenerationError(
        code=ErrorCode.STREAM_INTERRUPTED,
        retryable=True,
        message="The answer was interrupted.",
        provider="openai_compatible",
        model="chat-cut",
        model_key="fake/chat-cut",
        after_output=True,
    )
    assert fake_openai.requests_for("chat-ok") == []


def test_slow_first_token_times_out_and_fails_over(remote, fake_openai):
    remote("chat-slow-first", "chat-ok", first_token_timeout_s=0.5)

    events = run_generation(REQUEST)

    assert texts(events) == FULL_TEXT
    assert isinstance(events[-1], Finish)
    assert events[-1].model_key == "fake/chat-ok"
    assert fake_openai.wait_for_disconnect(2.0)
    assert [model for model, _ in fake_openai.disconnects] == ["chat-slow-first"]


def test_slow_first_token_on_the_last_candidate_is_a_timeout_error(remote):
    remote("chat-slow-first", first_token_timeout_s=0.3)

    events = run_generation(REQUEST)

    assert events[-1] == GenerationError(
        code=ErrorCode.TIMEOUT,
        retryable=True,
        message="The AI provider took too long to answer.",
        provider="openai_compatible",
        model="chat-slow-first",
        model_key="fake/chat-slow-first",
    )


def test_cancel_closes_the_http_connection_promptly(remote, fake_openai):
    remote("chat-endless")

    async def consume_then_cancel() -> int:
        deltas = 0
        stream = generate(profile="answer", request=REQUEST, data_policy=DataPolicy.ALLOW_REMOTE)
        async for event in stream:
            if isinstance(event, TextDelta):
                deltas += 1
                if deltas == 3:
                    break
        await stream.cancel()
        return deltas

    deltas = async_to_sync(consume_then_cancel)()

    assert deltas == 3
    # The server sees the disconnect while it still had ~30 s of chunks to send.
    assert fake_openai.wait_for_disconnect(1.0)
    assert [model for model, _ in fake_openai.disconnects] == ["chat-endless"]


@pytest.mark.parametrize(
    ("model_id", "code", "retryable"),
    [
        ("chat-context", ErrorCode.CONTEXT_TOO_LONG, False),
        ("chat-401", ErrorCode.AUTHENTICATION_FAILED, False),
        ("chat-429", ErrorCode.RATE_LIMITED, True),
        ("chat-500", ErrorCode.PROVIDER_UNAVAILABLE, True),
    ],
)
def test_provider_errors_map_to_stable_codes(remote, model_id, code, retryable):
    remote(model_id)

    events = run_generation(REQUEST)

    assert isinstance(events[-1], GenerationError)
    assert (events[-1].code, events[-1].retryable, events[-1].after_output) == (
        code,
        retryable,
        False,
    )


def test_content_filter_finish_reason_is_normalized(remote):
    remote("chat-content-filter")

    events = run_generation(REQUEST)

    assert texts(events) == "I can"
    assert isinstance(events[-1], Finish)
    assert events[-1].reason == "content-filter"


def test_raw_provider_errors_reach_only_redacted_logs(remote, caplog):
    remote("chat-401")

    with caplog.at_level(logging.WARNING, logger="claire.ai.generate"):
        events = run_generation(REQUEST)

    (record,) = [r for r in caplog.records if r.getMessage() == "ai.generation_attempt_failed"]
    assert record.error_class == "AuthenticationError"
    assert record.status_code == 401
    assert "Incorrect API key provided" in record.detail
    assert "sk-fake-abcdefghijkl" not in record.detail
    assert FAKE_KEY not in record.detail
    assert events[-1].message == "The AI provider rejected the configured credentials."
    assert "sk-" not in events[-1].message


def test_model_without_native_streaming_is_streamed_by_simulation(configure_ai, fake_openai):
    configure_ai(
        models={"fake/nostream": fake_model(fake_openai, "chat-nostream", streaming=False)},
        profiles={"answer": {"candidates": ["fake/nostream"]}},
    )
    verified_record_for("fake/nostream", simulated_stream=True)

    events = run_generation(REQUEST)

    assert texts(events) == FULL_TEXT
    assert len([event for event in events if isinstance(event, TextDelta)]) == 2
    assert events[-2].usage == Usage(input_tokens=11, cached_input_tokens=3, output_tokens=5)
    (sent,) = fake_openai.requests_for("chat-nostream")
    assert "stream" not in sent.body or sent.body["stream"] is False
