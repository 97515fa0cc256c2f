"""Stop requests travel over the channel layer, so they reach the server process that streams
the answer whichever process received the Stop (Redis layer with several processes).

Every server process listens on one channel of its own, a member of one group
(``STOP_GROUP``); a Stop names its turn and goes to every process, and the process that streams
that turn ends it. A stream costs the channel layer nothing when it starts: a burst of answers
does not queue a channel, a group membership and a blocking read per answer in front of the
Redis client (whose pool refuses connections past its limit), and the event loop that sends
their first bytes does not make those round trips.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from contextlib import suppress
from http import HTTPStatus
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from claire.backoff import backoff_delay
from claire.errors import CodedError

logger = logging.getLogger(__name__)

STOP_MESSAGE_TYPE = "assistant.stop"
STOP_GROUP = "assistant-stop"
# The listener subscribes again after a channel-layer failure, waiting up to this long.
STOP_LISTENER_RETRY_BASE_S = 0.05
STOP_LISTENER_RETRY_MAX_S = 2.0
# Group memberships expire on the layer (a day on channels_redis): a listener that runs for a
# long time joins again well before that.
STOP_GROUP_RENEW_S = 3600.0


class StopUnavailable(CodedError):
    """The channel layer (Redis) is unreachable: the Stop was not delivered, and the answer
    goes on. The client may send the Stop again."""

    status_code = HTTPStatus.SERVICE_UNAVAILABLE
    default_code = "stop_unavailable"
    default_detail = "The stop could not be delivered right now. Please send it again."


def stop_broadcast(*, turn_id: int) -> None:
    """Ask whichever process streams assistant turn ``turn_id`` to stop it. Fire and forget:
    a turn that no process streams any more ignores it. ``StopUnavailable`` when the channel
    layer cannot take the message."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(STOP_GROUP, {"type": STOP_MESSAGE_TYPE, "turn_id": turn_id})
    except Exception as error:
        logger.warning(
            "assistant.stop_broadcast_failed",
            extra={"assistant_turn_id": turn_id, "error_class": type(error).__name__},
        )
        raise StopUnavailable() from None


class StopListener:
    """The Stop subscription of one event loop (a server process), shared by all the answers it
    streams: it runs while at least one answer waits for a Stop.

    Only a Stop message wakes a waiter. A channel-layer failure (Redis restarting, a client
    socket timing out on a blocking read) is logged and the listener subscribes again on a new
    channel after a backoff; a Stop sent while it was away is lost, and the client can send it
    again."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self._waiters: dict[int, set[asyncio.Future[None]]] = {}
        self._task: asyncio.Task[None] | None = None

    async def wait(self, turn_id: int) -> None:
        """Return when a Stop for ``turn_id`` arrives."""
        stopped = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(turn_id, set()).add(stopped)
        if self._task is None:
            self._task = asyncio.ensure_future(self._listen())
        try:
            await stopped
        finally:
            self._forget(turn_id, stopped)

    def _forget(self, turn_id: int, stopped: asyncio.Future[None]) -> None:
        waiting = self._waiters.get(turn_id)
        if waiting is not None:
            waiting.discard(stopped)
            if not waiting:
                del self._waiters[turn_id]
        if not self._waiters and self._task is not None:
            self._task.cancel()
            self._task = None

    def _deliver(self, message: dict[str, Any]) -> None:
        if message.get("type") != STOP_MESSAGE_TYPE:
            return
        for stopped in self._waiters.get(message.get("turn_id"), ()):  # type: ignore[arg-type]
            if not stopped.done():
                stopped.set_result(None)

    async def _listen(self) -> None:
        failures = 0
        while True:
            channel: str | None = None
            renewal: asyncio.Future[None] | None = None
            try:
                channel = await self.layer.new_channel()
                await self.layer.group_add(STOP_GROUP, channel)
                renewal = asyncio.ensure_future(self._renew(channel))
                while True:
                    self._deliver(await self.layer.receive(channel))
                    failures = 0
            except Exception as error:
                logger.warning(
                    "assistant.stop_listener_error",
                    extra={"error_class": type(error).__name__, "failures": failures + 1},
                )
            finally:
                if renewal is not None:
                    renewal.cancel()
                if channel is not None:
                    with suppress(Exception):
                        await self.layer.group_discard(STOP_GROUP, channel)
            await asyncio.sleep(
                backoff_delay(
                    attempt=failures,
                    base_s=STOP_LISTENER_RETRY_BASE_S,
                    cap_s=STOP_LISTENER_RETRY_MAX_S,
                )
            )
            failures += 1

    async def _renew(self, channel: str) -> None:
        while True:
            await asyncio.sleep(STOP_GROUP_RENEW_S)
            with suppress(Exception):
                await self.layer.group_add(STOP_GROUP, channel)


_listeners: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, StopListener] = (
    weakref.WeakKeyDictionary()
)


async def stop_wait(turn_id: int) -> None:
    """Return when a Stop for assistant turn ``turn_id`` arrives (from any process), and only
    then: the answer goes on whatever happens to the channel layer."""
    layer = get_channel_layer()
    if layer is None:
        await asyncio.Event().wait()
        return
    loop = asyncio.get_running_loop()
    listener = _listeners.get(loop)
    if listener is None or listener.layer is not layer:
        listener = _listeners[loop] = StopListener(layer)
    await listener.wait(turn_id)
