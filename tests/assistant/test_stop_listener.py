"""The Stop listener: one channel-layer subscription per process, shared by every answer it
streams; it wakes an answer only on a Stop for that answer's turn, and survives a failing
channel layer."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from assistant import stop
from assistant.stop import STOP_GROUP, STOP_MESSAGE_TYPE, stop_wait


class FakeLayer:
    """A channel layer whose reads fail with ``errors``, then deliver what is ``put``."""

    def __init__(self, *, errors: list[Exception] | None = None) -> None:
        self.errors = list(errors or [])
        self.subscriptions: list[tuple[str, str]] = []
        self.discarded: list[tuple[str, str]] = []
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.channels = 0
        self._inbox: asyncio.Queue[dict[str, Any]] | None = None

    @property
    def inbox(self) -> asyncio.Queue[dict[str, Any]]:
        if self._inbox is None:
            self._inbox = asyncio.Queue()
        return self._inbox

    def put(self, message: dict[str, Any]) -> None:
        self.inbox.put_nowait(message)

    async def new_channel(self) -> str:
        self.channels += 1
        return f"channel-{self.channels}"

    async def group_add(self, group: str, channel: str) -> None:
        self.subscriptions.append((group, channel))

    async def group_discard(self, group: str, channel: str) -> None:
        self.discarded.append((group, channel))

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.sent.append((group, message))

    async def receive(self, channel: str) -> dict[str, Any]:
        if self.errors:
            raise self.errors.pop(0)
        return await self.inbox.get()


@pytest.fixture
def layer(monkeypatch) -> FakeLayer:
    fake = FakeLayer()
    monkeypatch.setattr(stop, "get_channel_layer", lambda: fake)
    monkeypatch.setattr(stop, "STOP_LISTENER_RETRY_BASE_S", 0.0)
    return fake


def _stop_of(turn_id: int) -> dict[str, Any]:
    return {"type": STOP_MESSAGE_TYPE, "turn_id": turn_id}


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_layer_errors_resubscribe_and_a_later_stop_still_stops(layer):
    layer.errors = [TimeoutError("socket"), ConnectionError("redis restarting")]

    async def scenario() -> None:
        waiter = asyncio.ensure_future(stop_wait(7))
        await _settle()
        layer.put({"type": "something.else", "turn_id": 7})
        await _settle()
        assert not waiter.done()
        layer.put(_stop_of(7))
        await asyncio.wait_for(waiter, 2.0)

    asyncio.run(scenario())
    assert layer.subscriptions == [
        (STOP_GROUP, "channel-1"),
        (STOP_GROUP, "channel-2"),
        (STOP_GROUP, "channel-3"),
    ]
    # Every subscription is left: the failed ones before the next, the last when no answer waits.
    assert layer.discarded == layer.subscriptions


def test_layer_errors_alone_never_stop_the_answer(layer):
    layer.errors = [TimeoutError("socket")] * 5

    async def scenario() -> bool:
        try:
            await asyncio.wait_for(stop_wait(7), 0.5)
        except TimeoutError:
            return False
        return True

    assert asyncio.run(scenario()) is False
    assert len(layer.subscriptions) == 6


def test_answers_share_one_subscription_and_a_stop_wakes_only_its_turn(layer):
    async def scenario() -> tuple[list[int], list[int]]:
        waiters = {turn_id: asyncio.ensure_future(stop_wait(turn_id)) for turn_id in range(50)}
        await _settle()
        layer.put(_stop_of(7))
        layer.put(_stop_of(31))
        layer.put(_stop_of(999))
        await _settle()
        stopped = [turn_id for turn_id, waiter in waiters.items() if waiter.done()]
        for waiter in waiters.values():
            waiter.cancel()
        await asyncio.gather(*waiters.values(), return_exceptions=True)
        await _settle()
        return stopped, [turn_id for turn_id, waiter in waiters.items() if not waiter.cancelled()]

    stopped, completed = asyncio.run(scenario())
    assert stopped == [7, 31]
    assert completed == [7, 31]
    assert layer.channels == 1
    assert layer.subscriptions == [(STOP_GROUP, "channel-1")]
    assert layer.discarded == [(STOP_GROUP, "channel-1")]


def test_two_answers_of_one_turn_are_both_stopped(layer):
    async def scenario() -> None:
        first = asyncio.ensure_future(stop_wait(3))
        second = asyncio.ensure_future(stop_wait(3))
        await _settle()
        layer.put(_stop_of(3))
        await asyncio.wait_for(asyncio.gather(first, second), 2.0)

    asyncio.run(scenario())
    assert layer.subscriptions == [(STOP_GROUP, "channel-1")]


def test_a_new_answer_after_the_last_one_ended_subscribes_again(layer):
    async def scenario() -> None:
        first = asyncio.ensure_future(stop_wait(1))
        await _settle()
        layer.put(_stop_of(1))
        await asyncio.wait_for(first, 2.0)
        await _settle()
        second = asyncio.ensure_future(stop_wait(2))
        await _settle()
        layer.put(_stop_of(2))
        await asyncio.wait_for(second, 2.0)

    asyncio.run(scenario())
    assert layer.subscriptions == [(STOP_GROUP, "channel-1"), (STOP_GROUP, "channel-2")]


def test_stop_broadcast_names_the_turn_to_every_process(layer):
    stop.stop_broadcast(turn_id=42)
    assert layer.sent == [(STOP_GROUP, {"type": STOP_MESSAGE_TYPE, "turn_id": 42})]
