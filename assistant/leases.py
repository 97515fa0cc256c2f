"""The heartbeat of streaming answers.

While an answer streams, its process renews the turn's short lease every
``ASSISTANT_STREAM_HEARTBEAT_SECONDS`` and saves the text shown so far. A process killed
mid-stream stops renewing; once the lease (``ASSISTANT_STREAM_LEASE_SECONDS``) passes, the sweep
(``assistant.tasks``: at server start and in Celery beat) ends the turn as interrupted with
that text and settles its reservation for what was produced.

One heartbeat per event loop renews all of its streaming turns in one statement
(``turn_leases_renew``): hundreds of streams cost one query per beat, not one each.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from django.conf import settings

from assistant import services
from assistant.db import run_db
from claire.accounts.models import User

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Streaming:
    user_id: int
    assistant_turn_id: int
    text_so_far: Callable[[], str]


class _Heartbeat:
    """The streaming turns of one event loop, renewed together while there are any."""

    def __init__(self) -> None:
        self._turns: dict[int, _Streaming] = {}
        self._task: asyncio.Task[None] | None = None

    def add(self, streaming: _Streaming) -> None:
        self._turns[streaming.assistant_turn_id] = streaming
        if self._task is None:
            self._task = asyncio.ensure_future(self._beat())

    def discard(self, streaming: _Streaming) -> None:
        if self._turns.get(streaming.assistant_turn_id) is streaming:
            del self._turns[streaming.assistant_turn_id]
        if not self._turns and self._task is not None:
            self._task.cancel()
            self._task = None

    async def _beat(self) -> None:
        interval = settings.ASSISTANT_STREAM_HEARTBEAT_SECONDS
        while True:
            await asyncio.sleep(interval)
            beating = list(self._turns.values())
            renewals = [
                services.LeaseRenewal(
                    user_id=turn.user_id,
                    assistant_turn_id=turn.assistant_turn_id,
                    text=turn.text_so_far(),
                )
                for turn in beating
            ]
            try:
                streaming = await run_db(services.turn_leases_renew, renewals=renewals)
            except Exception as error:
                # A missed beat is not fatal: the lease lasts several intervals.
                logger.warning(
                    "assistant.heartbeat_failed",
                    extra={"turns": len(renewals), "error_class": type(error).__name__},
                )
                continue
            for turn in beating:
                # A turn that stopped streaming (a Stop, an expiry) is renewed no more.
                if turn.assistant_turn_id not in streaming:
                    self._turns.pop(turn.assistant_turn_id, None)


_heartbeats: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Heartbeat] = (
    weakref.WeakKeyDictionary()
)


@asynccontextmanager
async def stream_lease(
    *, user: User, assistant_turn_id: int, text_so_far: Callable[[], str]
) -> AsyncIterator[None]:
    """Renew the turn's lease (with ``text_so_far()``) until the block ends."""
    loop = asyncio.get_running_loop()
    heartbeat = _heartbeats.get(loop)
    if heartbeat is None:
        heartbeat = _heartbeats[loop] = _Heartbeat()
    streaming = _Streaming(
        user_id=user.pk, assistant_turn_id=assistant_turn_id, text_so_far=text_so_far
    )
    heartbeat.add(streaming)
    try:
        yield
    finally:
        heartbeat.discard(streaming)
