"""Database steps of the answer engine, off the event loop.

The steps run on a small pool of worker threads (``ASSISTANT_DB_THREADS``) that keep their
connections between steps: a stream holds no connection while it waits on a model (it only
borrows a thread for each short step), the process holds at most one connection per worker
thread whatever the number of streams, and no step pays for a new connection. A connection
that saw an error is checked and replaced before the next step uses it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import ParamSpec, TypeVar

import psycopg
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from claire.backoff import backoff_delay

logger = logging.getLogger(__name__)

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


# The connection wrapper of each worker thread, to close them all at shutdown.
_worker_connections: dict[int, BaseDatabaseWrapper] = {}
_registry_lock = threading.Lock()


def db_connections_close() -> None:
    """Close the worker threads' connections (server shutdown, test teardown). A worker
    opens a new one on its next step."""
    with _registry_lock:
        wrappers = list(_worker_connections.values())
    for wrapper in wrappers:
        wrapper.inc_thread_sharing()
        try:
            wrapper.close()
        finally:
            wrapper.dec_thread_sharing()


def _connection_check() -> None:
    if connection.connection is not None and (
        connection.errors_occurred or not connection.get_autocommit()
    ):
        connection.close_if_unusable_or_obsolete()
        if connection.connection is not None and not connection.is_usable():
            connection.close()


# Errors of a lost server, not of one statement: a shutdown or crash ended the session, or the
# server is starting up or shutting down.
_OUTAGE_ERRORS = (
    psycopg.errors.AdminShutdown,
    psycopg.errors.CrashShutdown,
    psycopg.errors.CannotConnectNow,
)


def _is_outage(error: Exception) -> bool:
    """True when ``error`` says the connection or the server is gone (a restart, a failover),
    not that one statement failed on a working connection."""
    cause = error.__cause__
    if isinstance(error, InterfaceError) or isinstance(cause, _OUTAGE_ERRORS):
        return True
    # Connection-level failures (refused, closed mid-query) carry no SQLSTATE.
    return isinstance(cause, psycopg.OperationalError) and cause.sqlstate is None


def _checked(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` on a working connection. A database outage is waited out for up to
    ``ASSISTANT_DB_OUTAGE_WAIT_SECONDS``, trying again on a new connection after a backoff:
    every step run here is a read or an idempotent write in its own transaction (the turn
    insert is idempotent on the request id, finalizing an ended turn changes nothing), so a
    step the outage interrupted is safe to run again."""

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with _registry_lock:
            _worker_connections[threading.get_ident()] = connections[DEFAULT_DB_ALIAS]
        deadline = time.monotonic() + settings.ASSISTANT_DB_OUTAGE_WAIT_SECONDS
        attempt = 0
        while True:
            _connection_check()
            try:
                return function(*args, **kwargs)
            except (OperationalError, InterfaceError) as error:
                if not _is_outage(error) or time.monotonic() >= deadline:
                    raise
                connection.close()
                logger.warning(
                    "assistant.db_outage_retry",
                    extra={"attempt": attempt + 1, "error_class": type(error).__name__},
                )
            time.sleep(backoff_delay(attempt=attempt, base_s=0.1, cap_s=2.0))
            attempt += 1

    return run


async def run_db(function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run one short database step on the assistant's worker threads."""
    return await sync_to_async(_checked(function), thread_sensitive=False, executor=_executor())(
        *args, **kwargs
    )


async def run_admission(function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run the step that decides a request's HTTP status (authentication, checks, the turn
    insert) on threads of its own: a burst of new questions is admitted, and sees its first
    byte, without queueing behind the retrieval steps of the answers already running."""
    return await sync_to_async(
        _checked(function), thread_sensitive=False, executor=_admission_executor()
    )(*args, **kwargs)
