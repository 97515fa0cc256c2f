"""Database steps of the answer engine, off the event loop.

The steps run on a small pool of worker threads (``ASSISTANT_DB_THREADS``) that keep their
connections between steps: a stream holds no connection while it waits on a model (it only
borrows a thread for each short step), the process holds at most one connection per worker
thread whatever the number of streams, and no step pays for a new connection. A connection
that saw an error is checked and replaced before the next step uses it, and an outage is
waited out (``claire.db.steps``).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings

from claire.db.steps import checked, db_connections_close

__all__ = ["db_connections_close", "run_admission", "run_db"]

P = ParamSpec("P")
R = TypeVar("R")


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


async def run_db(function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run one short database step on the assistant's worker threads."""
    return await sync_to_async(checked(function), thread_sensitive=False, executor=_executor())(
        *args, **kwargs
    )


async def run_admission(function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run the step that decides a request's HTTP status (authentication, checks, the turn
    insert) on threads of its own: a burst of new questions is admitted, and sees its first
    byte, without queueing behind the retrieval steps of the answers already running."""
    return await sync_to_async(
        checked(function), thread_sensitive=False, executor=_admission_executor()
    )(*args, **kwargs)
