"""Database steps of the answer engine, off the event loop.

The steps run on a small pool of worker threads (``ASSISTANT_DB_THREADS``) that keep their
connections between steps: a stream holds no connection while it waits on a model (it only
borrows a thread for each short step), the process holds at most one connection per worker
thread whatever the number of streams, and no step pays for a new connection. A connection
that saw an error is checked and replaced before the next step uses it, and an outage is
waited out (``claire.db.steps``).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings

from claire.db.steps import checked, db_connections_close

__all__ = ["db_connections_close", "run_admission", "run_admission_batched", "run_db"]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


@lru_cache(maxsize=1)
def _executor() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(
        max_workers=settings.ASSISTANT_DB_THREADS, thread_name_prefix="assistant-db"
    )


@lru_cache(maxsize=1)
def _admission_executor() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(
        max_workers=settings.ASSISTANT_ADMISSION_THREADS, thread_name_prefix="assistant-admit"
    )


class _Admissions:
    """The admissions in flight on one event loop (queued or running), in the order they came,
    and the engine steps waiting for the ones that came before them."""

    def __init__(self) -> None:
        self._issued = 0
        # Tickets in flight; a dict keeps them in the order they were issued.
        self._in_flight: dict[int, None] = {}
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []

    def enter(self) -> int:
        self._issued += 1
        self._in_flight[self._issued] = None
        return self._issued

    def leave(self, ticket: int) -> None:
        del self._in_flight[ticket]
        oldest = next(iter(self._in_flight), None)
        waiting = []
        for last_before, done in self._waiters:
            if oldest is None or oldest > last_before:
                if not done.done():
                    done.set_result(None)
            else:
                waiting.append((last_before, done))
        self._waiters = waiting

    async def earlier_ones_done(self, *, patience_s: float) -> None:
        """Return once every admission in flight now has ended, or after ``patience_s``.
        Admissions that come later are not waited for: a steady stream of questions never
        holds an answer's steps back by more than the admissions ahead of them."""
        if not self._in_flight or patience_s <= 0:
            return
        done = asyncio.get_running_loop().create_future()
        waiter = (self._issued, done)
        self._waiters.append(waiter)
        try:
            await asyncio.wait_for(done, patience_s)
        except TimeoutError:
            pass
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)


_admissions: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Admissions] = (
    weakref.WeakKeyDictionary()
)


def _admissions_here() -> _Admissions:
    loop = asyncio.get_running_loop()
    admissions = _admissions.get(loop)
    if admissions is None:
        admissions = _admissions[loop] = _Admissions()
    return admissions


async def run_db(function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run one short database step on the assistant's worker threads, once the questions that
    were waiting to be admitted when it was asked for are (or after
    ``ASSISTANT_ADMISSION_PRIORITY_MS``).

    Admission goes first because every step of the process shares one interpreter lock:
    retrieval's CPU work would slow each admission's database round trips, and a burst of
    new questions would see its first byte only after the answers ahead of it had retrieved."""
    await _admissions_here().earlier_ones_done(
        patience_s=settings.ASSISTANT_ADMISSION_PRIORITY_MS / 1000
    )
    return await sync_to_async(checked(function), thread_sensitive=False, executor=_executor())(
        *args, **kwargs
    )


# The most requests one admission batch takes; the rest wait for the next batch.
ADMISSION_BATCH_MAX = 100


class _AdmissionBatches:
    """Requests waiting to be admitted on one event loop, taken in batches: while a batch runs
    on an admission thread, the requests that arrive wait, and the next batch takes all of
    them (up to ``ADMISSION_BATCH_MAX``). At most ``ASSISTANT_ADMISSION_THREADS`` batches run
    at once, so a lone request never waits for a batch to form."""

    def __init__(self) -> None:
        self._waiting: list[tuple[object, asyncio.Future[Any]]] = []
        self._running = 0
        # The batch-taking tasks, held so that they are not collected while they run.
        self._drains: set[asyncio.Task[None]] = set()

    async def admit(self, decide: Callable[[list[Any]], Sequence[Any]], item: object) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if self._running < settings.ASSISTANT_ADMISSION_THREADS:
            self._running += 1
            drain = asyncio.ensure_future(self._drain(decide))
            self._drains.add(drain)
            drain.add_done_callback(self._drains.discard)
        return await future

    async def _drain(self, decide: Callable[[list[Any]], Sequence[Any]]) -> None:
        try:
            while self._waiting:
                batch = self._waiting[:ADMISSION_BATCH_MAX]
                del self._waiting[:ADMISSION_BATCH_MAX]
                try:
                    outcomes = await sync_to_async(
                        decide, thread_sensitive=False, executor=_admission_executor()
                    )([item for item, _ in batch])
                except BaseException as error:
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(error)
                    if isinstance(error, asyncio.CancelledError):
                        raise
                    continue
                for (_, future), outcome in zip(batch, outcomes, strict=True):
                    if not future.done():
                        future.set_result(outcome)
        finally:
            self._running -= 1


_admission_batches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _AdmissionBatches] = (
    weakref.WeakKeyDictionary()
)


async def run_admission_batched(decide: Callable[[list[T]], Sequence[R]], item: T) -> R:
    """``decide([item, ...])[i]`` for ``item``: the admission of one request, decided in a
    batch with the others waiting on this event loop (``decide`` returns one outcome per item,
    in order, and runs on the admission threads). Like ``run_admission``, it goes ahead of the
    engine's steps."""
    loop = asyncio.get_running_loop()
    batches = _admission_batches.get(loop)
    if batches is None:
        batches = _admission_batches[loop] = _AdmissionBatches()
    admissions = _admissions_here()
    ticket = admissions.enter()
    try:
        outcome: R = await batches.admit(decide, item)
        return outcome
    finally:
        admissions.leave(ticket)


async def run_admission(function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run the step that decides a request's HTTP status (authentication, checks, the turn
    insert) on threads of its own, ahead of the engine's steps (``run_db``): a burst of new
    questions is admitted, and sees its first byte, without queueing behind the retrieval
    steps of the answers already running."""
    admissions = _admissions_here()
    ticket = admissions.enter()
    try:
        return await sync_to_async(
            checked(function), thread_sensitive=False, executor=_admission_executor()
        )(*args, **kwargs)
    finally:
        admissions.leave(ticket)
