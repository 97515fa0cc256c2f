"""The heartbeat of a streaming answer.

While an answer streams, its process renews the turn's short lease every
``ASSISTANT_STREAM_HEARTBEAT_SECONDS`` and saves the text shown so far. A process killed
mid-stream stops renewing; once the lease (``ASSISTANT_STREAM_LEASE_SECONDS``) passes, the sweep
(``assistant.tasks``: at server start and in Celery beat) ends the turn as interrupted with
that text and settles its reservation for what was produced.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress

from django.conf import settings

from assistant import services
from assistant.db import run_db
from claire.accounts.models import User

logger = logging.getLogger(__name__)


@asynccontextmanager
async def stream_lease(
    *, user: User, assistant_turn_id: int, text_so_far: Callable[[], str]
) -> AsyncIterator[None]:
    """Renew the turn's lease (with ``text_so_far()``) until the block ends."""
    task = asyncio.ensure_future(_renew(user, assistant_turn_id, text_so_far))
    try:
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task


async def _renew(user: User, assistant_turn_id: int, text_so_far: Callable[[], str]) -> None:
    interval = settings.ASSISTANT_STREAM_HEARTBEAT_SECONDS
    while True:
        await asyncio.sleep(interval)
        try:
            is_streaming = await run_db(
                services.turn_lease_renew,
                user=user,
                assistant_turn_id=assistant_turn_id,
                text=text_so_far(),
            )
        except Exception as error:
            # A missed beat is not fatal: the lease lasts several intervals.
            logger.warning(
                "assistant.heartbeat_failed",
                extra={"assistant_turn_id": assistant_turn_id, "error_class": type(error).__name__},
            )
            continue
        if not is_streaming:
            return
