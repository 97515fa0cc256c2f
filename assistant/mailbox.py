"""The hand-over between the model task and the answer's own task: text deltas, then one
ending, and a Stop that ends the wait at once (``assistant.engine``)."""

from __future__ import annotations

import asyncio

from assistant.generation import GenerationEnd


class Stopped:
    """Queue marker: a Stop arrived."""


STOPPED = Stopped()
# Timers may fire this much early.
CLOCK_SLACK_S = 0.001
MailItem = str | GenerationEnd | Stopped


class ModelMailbox:
    """What the model task hands to the answer: text, then one ending (``GenerationEnd``, or
    ``STOPPED`` for a Stop; the first ending wins and nothing is taken after it).

    Each delta sent costs the same whatever its length (an event, a frame, a socket write), so
    text is gathered: ``get`` returns at most once per ``flush_window_s`` with text (with all
    the text that came meanwhile), and at once with an ending. The first text after a quiet
    moment goes out at once; a window of 0 hands over every delta as it comes (text that came
    while the reader was busy still goes as one)."""

    def __init__(self, *, flush_window_s: float) -> None:
        self._loop = asyncio.get_running_loop()
        self._window = flush_window_s
        self._text: list[str] = []
        self._ending: GenerationEnd | Stopped | None = None
        self._waiter: asyncio.Future[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._last_sent = float("-inf")

    def put(self, item: MailItem) -> None:
        if self._ending is not None:
            return
        if isinstance(item, str):
            self._text.append(item)
            if self._waiter is None or self._timer is not None:
                return
            due = self._last_sent + self._window
            if due <= self._loop.time():
                self._wake()
            else:
                self._timer = self._loop.call_at(due, self._wake)
            return
        self._ending = item
        self._wake()

    async def get(self) -> tuple[str, GenerationEnd | Stopped | None]:
        """The text gathered since the last call (maybe empty) and the ending, if it came."""
        while self._ending is None:
            if self._text:
                due = self._last_sent + self._window
                # A timer may fire up to the clock's resolution early.
                if due <= self._loop.time() + CLOCK_SLACK_S:
                    break
                if self._timer is None:
                    self._timer = self._loop.call_at(due, self._wake)
            self._waiter = self._loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        text = "".join(self._text) if len(self._text) != 1 else self._text[0]
        self._text.clear()
        if text:
            self._last_sent = self._loop.time()
        return text, self._ending

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _wake(self) -> None:
        self.close()
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)


class ModelWait:
    """A Stop while the answer's own task waits for the model: the wait is cancelled at once
    (which closes the model stream) and ends as a Stop, while a cancellation from elsewhere (the
    client went away) stays a cancellation, the way ``asyncio.timeout`` tells its own."""

    def __init__(self, task: asyncio.Task[object]) -> None:
        self._task = task
        self.is_waiting = False
        self.is_stopped = False
        self._is_cancelling = False

    def stop(self) -> None:
        self.is_stopped = True
        if self.is_waiting and not self._is_cancelling:
            self._is_cancelling = True
            self._task.cancel()

    def was_stop(self) -> bool:
        """After the wait ended (cancelled or not): whether the Stop alone cancelled it; the
        Stop's cancellation is withdrawn either way."""
        if not self._is_cancelling:
            return False
        self._is_cancelling = False
        return self._task.uncancel() == 0
