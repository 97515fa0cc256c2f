"""The Stop watcher ends only on a Stop message: a failing channel layer is survived."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from assistant import consumers
from assistant.stop import STOP_MESSAGE_TYPE, stop_group_name


class FlakyLayer:
    """A channel layer whose reads fail with the given errors, then deliver ``messages``."""

    def __init__(self, *, errors: list[Exception], messages: list[dict[str, Any]]) -> None:
        self.errors = list(errors)
        self.messages = list(messages)
        self.subscriptions: list[tuple[str, str]] = []
        self.discarded: list[tuple[str, str]] = []
        self.channels = 0

    async def new_channel(self) -> str:
        self.channels += 1
        return f"channel-{self.channels}"

    async def group_add(self, group: str, channel: str) -> None:
        self.subscriptions.append((group, channel))

    async def group_discard(self, group: str, channel: str) -> None:
        self.discarded.append((group, channel))

    async def receive(self, channel: str) -> dict[str, Any]:
        if self.errors:
            raise self.errors.pop(0)
        if self.messages:
            return self.messages.pop(0)
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


@pytest.fixture
def no_backoff(monkeypatch):
    monkeypatch.setattr(consumers, "STOP_WATCHER_RETRY_BASE_S", 0.0)


def _run_with(monkeypatch, layer: FlakyLayer, timeout: float) -> bool:
    """Whether the watcher returned (a Stop) within ``timeout`` seconds."""
    monkeypatch.setattr(consumers, "get_channel_layer", lambda: layer)

    async def scenario() -> bool:
        try:
            await asyncio.wait_for(consumers._wait_for_stop(7), timeout)
        except TimeoutError:
            return False
        return True

    return asyncio.run(scenario())


def test_layer_errors_resubscribe_and_a_later_stop_still_stops(monkeypatch, no_backoff):
    layer = FlakyLayer(
        errors=[TimeoutError("socket"), ConnectionError("redis restarting")],
        messages=[{"type": "something.else"}, {"type": STOP_MESSAGE_TYPE}],
    )
    assert _run_with(monkeypatch, layer, timeout=2.0) is True
    group = stop_group_name(7)
    assert layer.subscriptions == [(group, "channel-1"), (group, "channel-2"), (group, "channel-3")]
    # Every failed subscription is left before the next one is made.
    assert layer.discarded == layer.subscriptions


def test_layer_errors_alone_never_stop_the_answer(monkeypatch, no_backoff):
    layer = FlakyLayer(errors=[TimeoutError("socket")] * 5, messages=[{"type": "other"}])
    assert _run_with(monkeypatch, layer, timeout=0.5) is False
    assert len(layer.subscriptions) == 6
