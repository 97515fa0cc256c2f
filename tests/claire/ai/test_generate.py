"""The generation contract on scripted in-process models: event order, failover before the
first delta only, timeouts, usage normalization, and cancellation."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync

from claire.ai.generate import generate, generate_structured, generate_text
from claire.ai.local.mock import MockLanguageModel
from claire.ai.registry import models_overridden
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
from tests.claire.ai.conftest import run_generation

pytestmark = pytest.mark.django_db

REQUEST = GenerationRequest(
    system="Answer from the sources.",
    messages=(ChatMessage(role="user", content="When is dinner?"),),
)


def mock_entry(model: str = "scripted", **capabilities: object) -> dict[str, object]:
    return {
        "provider": "mock",
        "model": model,
        "data_policy": "local",
        "capabilities": {"streaming": True, "usage_reporting": True} | capabilities,
    }


@pytest.fixture
def two_mocks(configure_ai):
    configure_ai(
        models={"mock/first": mock_entry("first"), "mock/second": mock_entry("second")},
        profiles={
            "answer": {
                "candidates": ["mock/first", "mock/second"],
                "first_token_timeout_s": 0.3,
                "total_timeout_s": 1.0,
            }
        },
    )


def texts(events) -> str:
    return "".join(event.text for event in events if isinstance(event, TextDelta))


def test_stream_yields_deltas_then_usage_then_finish(two_mocks):
    usage = Usage(input_tokens=120, cached_input_tokens=20, output_tokens=7)
    first = MockLanguageModel(deltas=("Friday ", "at 8 ", "[S1]"), usage=usage)
    with models_overridden({"mock/first": first}):
        events = run_generation(REQUEST)

    assert events == [
        TextDelta("Friday "),
        TextDelta("at 8 "),
        TextDelta("[S1]"),
        UsageEvent(usage, "mock", "first"),
        Finish(reason="stop", provider="mock", model="first", model_key="mock/first"),
    ]
    assert first.requests == [REQUEST]
    assert first.stream_outcomes == ["completed"]


def test_failure_before_first_delta_fails_over_to_next_candidate(two_mocks):
    first = MockLanguageModel(fail_before_first=ErrorCode.RATE_LIMITED)
    second = MockLanguageModel(deltas=("From the second.",), model_name="second")
    with models_overridden({"mock/first": first, "mock/second": second}):
        events = run_generation(REQUEST)

    assert texts(events) == "From the second."
    assert events[-1] == Finish(
        reason="stop", provider="mock", model="second", model_key="mock/second", failovers=1
    )
    assert first.call_count == 1
    assert second.call_count == 1


def test_mid_stream_failure_is_surfaced_and_never_replayed(two_mocks):
    first = MockLanguageModel(deltas=("Dinner ", "is ", "on "), fail_after_deltas=2)
    second = MockLanguageModel(deltas=("Something else entirely.",))
    with models_overridden({"mock/first": first, "mock/second": second}):
        events = run_generation(REQUEST)

    assert texts(events) == "Dinner is "
    usage_event, terminal = events[-2], events[-1]
    assert isinstance(usage_event, UsageEvent)
    assert usage_event.usage == Usage(
        input_tokens=count_request_tokens(REQUEST),
        output_tokens=count_tokens("Dinner is "),
        is_estimated=True,
        reported_by_provider=False,
    )
    assert terminal == GenerationError(
        code=ErrorCode.STREAM_INTERRUPTED,
        retryable=True,
        message="The answer was interrupted.",
        provider="mock",
        model="first",
        model_key="mock/first",
        after_output=True,
        failovers=0,
    )
    assert second.call_count == 0
    assert not any(isinstance(event, Finish) for event in events)


def test_first_token_timeout_fails_over_and_closes_the_stalled_stream(two_mocks):
    first = MockLanguageModel(stall_before_first=True)
    second = MockLanguageModel(deltas=("Quick.",), model_name="second")
    with models_overridden({"mock/first": first, "mock/second": second}):
        events = run_generation(REQUEST)

    assert texts(events) == "Quick."
    assert isinstance(events[-1], Finish)
    assert events[-1].failovers == 1
    assert first.stream_outcomes == ["cancelled"]


def test_total_timeout_after_output_ends_with_timeout_error_and_no_failover(two_mocks):
    first = MockLanguageModel(deltas=("One ", "two ", "three"), stall_after_deltas=2)
    second = MockLanguageModel(deltas=("Other.",))
    with models_overridden({"mock/first": first, "mock/second": second}):
        events = run_generation(REQUEST)

    assert texts(events) == "One two "
    assert isinstance(events[-1], GenerationError)
    assert events[-1].code == ErrorCode.TIMEOUT
    assert events[-1].after_output is True
    assert second.call_count == 0


def test_every_candidate_failing_reports_the_last_failure_with_zero_usage(two_mocks):
    first = MockLanguageModel(fail_before_first=ErrorCode.PROVIDER_UNAVAILABLE)
    second = MockLanguageModel(fail_before_first=ErrorCode.RATE_LIMITED, model_name="second")
    with models_overridden({"mock/first": first, "mock/second": second}):
        events = run_generation(REQUEST)

    assert events == [
        UsageEvent(Usage(reported_by_provider=False), "mock", "second"),
        GenerationError(
            code=ErrorCode.RATE_LIMITED,
            retryable=True,
            message="The AI provider is busy right now.",
            provider="mock",
            model="second",
            model_key="mock/second",
            failovers=1,
        ),
    ]


def test_missing_provider_usage_is_estimated_and_flagged(two_mocks):
    first = MockLanguageModel(deltas=("Friday at eight.",), usage=None)
    with models_overridden({"mock/first": first}):
        events = run_generation(REQUEST)

    usage = next(event for event in events if isinstance(event, UsageEvent)).usage
    assert usage.is_estimated is True
    assert usage.reported_by_provider is False
    assert usage.input_tokens == count_request_tokens(REQUEST)
    assert usage.output_tokens == count_tokens("Friday at eight.")
    assert usage.input_tokens > 0 and usage.output_tokens > 0


def test_no_eligible_model_is_a_stable_error(configure_ai):
    configure_ai(profiles={"draft": {"candidates": []}})

    events = run_generation(REQUEST, profile="draft")

    assert events == [
        UsageEvent(Usage(reported_by_provider=False)),
        GenerationError(
            code=ErrorCode.NO_ELIGIBLE_MODEL,
            retryable=False,
            message="No AI model is available for this request.",
        ),
    ]


def test_cancel_closes_the_provider_stream_promptly(two_mocks):
    first = MockLanguageModel(
        deltas=tuple(f"w{index} " for index in range(500)), delta_delay_s=0.01
    )

    async def consume_then_cancel() -> tuple[list[str], float]:
        seen: list[str] = []
        stream = generate(profile="answer", request=REQUEST, data_policy=DataPolicy.LOCAL_ONLY)
        async for event in stream:
            if isinstance(event, TextDelta):
                seen.append(event.text)
            if len(seen) == 3:
                break
        started = asyncio.get_running_loop().time()
        await stream.cancel()
        return seen, asyncio.get_running_loop().time() - started

    with models_overridden({"mock/first": first}):
        seen, cancel_seconds = async_to_sync(consume_then_cancel)()

    assert seen == ["w0 ", "w1 ", "w2 "]
    assert first.stream_outcomes == ["closed"]
    assert cancel_seconds < 0.5


def test_cancelling_the_consuming_task_closes_the_provider_stream(two_mocks):
    first = MockLanguageModel(deltas=("a ", "b ", "c "), stall_after_deltas=1)

    async def consume_in_task() -> None:
        async def consume() -> None:
            async for _ in generate(
                profile="answer", request=REQUEST, data_policy=DataPolicy.LOCAL_ONLY
            ):
                pass

        task = asyncio.ensure_future(consume())
        await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    with models_overridden({"mock/first": first}):
        async_to_sync(consume_in_task)()

    assert first.stream_outcomes == ["cancelled"]


def test_generate_text_collects_the_whole_answer(two_mocks):
    first = MockLanguageModel(deltas=("Hello ", "there."))
    with models_overridden({"mock/first": first}):
        result = async_to_sync(generate_text)(
            profile="answer", request=REQUEST, data_policy=DataPolicy.LOCAL_ONLY
        )

    assert result.text == "Hello there."
    assert result.error is None
    assert result.finish is not None and result.finish.model_key == "mock/first"


def test_generate_structured_parses_json_and_rejects_prose(configure_ai):
    configure_ai(
        models={"mock/json": mock_entry("json", structured_output=True)},
        profiles={"extract": {"candidates": ["mock/json"]}},
    )
    with models_overridden({"mock/json": MockLanguageModel(deltas=('{"people": ', '["Ana"]}'))}):
        parsed = async_to_sync(generate_structured)(
            profile="extract", request=REQUEST, data_policy=DataPolicy.LOCAL_ONLY
        )
    fenced_model = MockLanguageModel(deltas=("```json\n", '{"people": []}', "\n```"))
    with models_overridden({"mock/json": fenced_model}):
        fenced = async_to_sync(generate_structured)(
            profile="extract", request=REQUEST, data_policy=DataPolicy.LOCAL_ONLY
        )
    with models_overridden({"mock/json": MockLanguageModel(deltas=("Not JSON at all",))}):
        rejected = async_to_sync(generate_structured)(
            profile="extract", request=REQUEST, data_policy=DataPolicy.LOCAL_ONLY
        )

    assert parsed.value == {"people": ["Ana"]}
    assert fenced.value == {"people": []}
    assert parsed.error is None
    assert rejected.value is None
    assert rejected.error is not None and rejected.error.code == ErrorCode.INVALID_OUTPUT


def test_mock_model_configured_by_options_plays_its_script(configure_ai):
    configure_ai(
        models={
            "mock/configured": mock_entry("configured")
            | {"options": {"deltas": ["Scripted ", "reply."], "usage": {"input_tokens": 3}}}
        },
        profiles={"answer": {"candidates": ["mock/configured"]}},
    )

    events = run_generation(REQUEST, data_policy=DataPolicy.LOCAL_ONLY)

    assert texts(events) == "Scripted reply."
    assert events[-2] == UsageEvent(Usage(input_tokens=3), "mock", "configured")


def test_provider_deadline_times_out_waits_but_not_outside_cancellations():
    from claire.ai.generate import _ProviderDeadline

    async def scenario():
        loop = asyncio.get_running_loop()
        never = loop.create_future()

        deadline = _ProviderDeadline(loop.time() + 0.05)
        with pytest.raises(TimeoutError):
            await deadline.wait(never)
        # Once expired, the next wait fails at once without waiting.
        started = loop.time()
        with pytest.raises(TimeoutError):
            await deadline.wait(asyncio.sleep(10))
        assert loop.time() - started < 5

        # Moved past its first deadline, it lets a slower event through.
        moved = _ProviderDeadline(loop.time() + 0.05)
        moved.move_to(loop.time() + 30)
        assert await moved.wait(asyncio.sleep(0.1, result="event")) == "event"
        moved.close()

        # A cancellation from outside stays a cancellation.
        outside = _ProviderDeadline(loop.time() + 30)
        task = asyncio.ensure_future(outside.wait(loop.create_future()))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        outside.close()

    asyncio.run(scenario())
