"""Reading a model's deltas in the task that sends them, a batch at a time.

Each text delta an answer sends costs the same whatever its length: an event, its frame, a
socket write. ``ModelReader.read`` waits for the next delta, then takes every further delta
that is ready without waiting (a provider that sent several in one packet, or a model that got
ahead while the server was busy), so they go out as one ``text-delta``. A delta that is not
ready yet is not waited for: its read has started and the next ``read`` continues it.
"""

from __future__ import annotations

import asyncio
import types
from collections.abc import AsyncIterator, Generator
from contextlib import suppress
from typing import Any, Generic, TypeVar

Ending = TypeVar("Ending")

# A read of the next item that started and waits for the event loop: the read (an awaitable's
# iterator) and what it handed to the loop.
_Started = tuple[Any, Any]


@types.coroutine
def _continued(step: Any, handed: Any) -> Generator[Any, Any, Any]:
    """Await ``step`` from where it stands: it was started by hand and handed ``handed`` to
    the event loop. What ``await`` does, from its first suspension on (exceptions thrown in,
    such as a cancellation, go to ``step``)."""
    while True:
        try:
            sent = yield handed
        except GeneratorExit:
            step.close()
            raise
        except BaseException as error:  # every exception goes to the step, as `await` does
            try:
                handed = step.throw(error)
            except StopIteration as done:
                return done.value
        else:
            try:
                handed = step.send(sent)
            except StopIteration as done:
                return done.value


class ModelReader(Generic[Ending]):
    """Text deltas (``str``) then one ending from ``items``, gathered by ``read``."""

    def __init__(self, items: AsyncIterator[str | Ending]) -> None:
        self._items = items
        self._started: _Started | None = None
        self.is_exhausted = False

    async def read(self) -> tuple[str, Ending | None]:
        """The text of the next delta and of every delta ready after it, and the ending when it
        came with them; ``("", None)`` once ``items`` ended without one. Cancelling the task
        while it waits here cancels the read (and so the model call)."""
        if self.is_exhausted:
            return "", None
        started, self._started = self._started, None
        item: str | Ending
        try:
            if started is not None:
                item = await _continued(*started)
            else:
                item = await anext(self._items)
        except StopAsyncIteration:
            self.is_exhausted = True
            return "", None
        if not isinstance(item, str):
            return "", item
        texts = [item]
        ending = self._ready_into(texts)
        return (texts[0] if len(texts) == 1 else "".join(texts)), ending

    def _ready_into(self, texts: list[str]) -> Ending | None:
        while True:
            step: Any = anext(self._items)
            item: str | Ending
            try:
                handed = step.send(None)
            except StopIteration as done:
                item = done.value
            except StopAsyncIteration:
                self.is_exhausted = True
                return None
            else:
                # Not ready: the read goes on in the next ``read``.
                self._started = (step, handed)
                return None
            if not isinstance(item, str):
                return item
            texts.append(item)

    async def aclose(self) -> None:
        """Close ``items``; a read that started is cancelled first (the model call sees a
        cancellation, as when its task is cancelled)."""
        started, self._started = self._started, None
        if started is not None:
            step, _ = started
            with suppress(asyncio.CancelledError, StopAsyncIteration):
                try:
                    handed = step.throw(asyncio.CancelledError())
                except StopIteration:
                    pass
                else:
                    await _continued(step, handed)
        close = getattr(self._items, "aclose", None)
        if close is not None:
            await close()
