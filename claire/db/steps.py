"""Short database steps run on worker threads, with their connection checked.

A worker thread keeps its connection between steps; a connection that saw an error is checked
and replaced before the next step uses it, and a database outage (a restart, a failover) is
waited out for up to ``ASSISTANT_DB_OUTAGE_WAIT_SECONDS`` on a new connection. Every caller of
``checked`` runs reads or idempotent writes in their own transaction, so a step an outage
interrupted is safe to run again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
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
    if connection.in_atomic_block:
        # A step run inside its caller's transaction must leave that connection alone.
        return
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


def checked(function: Callable[P, R], *, pooled: bool = True) -> Callable[P, R]:
    """``function`` on a working connection. A database outage is waited out for up to
    ``ASSISTANT_DB_OUTAGE_WAIT_SECONDS``, trying again on a new connection after a backoff:
    every step run here is a read or an idempotent write in its own transaction (the turn
    insert is idempotent on the request id, finalizing an ended turn changes nothing), so a
    step the outage interrupted is safe to run again."""

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if pooled:
            with _registry_lock:
                _worker_connections[threading.get_ident()] = connections[DEFAULT_DB_ALIAS]
        deadline = time.monotonic() + settings.ASSISTANT_DB_OUTAGE_WAIT_SECONDS
        attempt = 0
        while True:
            _connection_check()
            try:
                return function(*args, **kwargs)
            except (OperationalError, InterfaceError) as error:
                if (
                    not _is_outage(error)
                    or connection.in_atomic_block
                    or time.monotonic() >= deadline
                ):
                    raise
                connection.close()
                logger.warning(
                    "db.outage_retry",
                    extra={"attempt": attempt + 1, "error_class": type(error).__name__},
                )
            time.sleep(backoff_delay(attempt=attempt, base_s=0.1, cap_s=2.0))
            attempt += 1

    return run


async def run_checked(function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``function`` as a checked step for code outside the answer engine's pools (model
    routing): on asgiref's thread-sensitive thread, as ``sync_to_async`` runs it (the caller's
    own thread under ``async_to_sync``, so it sees the caller's transaction), with a dead
    connection replaced and an outage waited out."""
    return await sync_to_async(checked(function, pooled=False))(*args, **kwargs)
