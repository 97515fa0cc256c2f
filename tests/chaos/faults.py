"""Faults injected through the real parts, and the checks every faulted answer must pass."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.db import connection, connections
from django.utils import timezone

from assistant.models import Turn
from billing.models import Reservation, ReservationState, UsageEvent
from billing.reports import usage_report


def embedded_postgres_restart() -> None:
    """Restart the embedded PostgreSQL server under the running test (a fast shutdown: every
    open connection is cut, as in a crash of the database host followed by a restart)."""
    from claire.db import embedded

    server_info = embedded._server_info
    if server_info is None:
        pytest.skip("DATABASE_URL names an external PostgreSQL: it cannot be restarted here")
    import pgserver
    from pgserver import _commands

    server = pgserver.get_server(server_info.data_dir, cleanup_mode="stop")
    # The restarted server must log to its file as before: without ``-l`` it would write to
    # pg_ctl's captured output, a pipe nobody reads once pg_ctl exits, and every backend that
    # logs would block when that pipe fills (later tests then hang).
    log_file = Path(server_info.data_dir) / "log"
    _commands.pg_ctl(  # type: ignore[attr-defined]
        ["-w", "-t", "60", "-m", "fast", "-l", str(log_file), "restart"],
        pgdata=Path(server_info.data_dir),
        user=server.system_user,
        timeout=90,
    )


def reconnect_after_restart() -> None:
    """This thread's connection died with the server; the next query opens a new one."""
    for alias in connections:
        connections[alias].close()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def answer_outcome(turn_id: int) -> tuple[Turn, list[Reservation], UsageEvent]:
    """The ended turn, its reservations (none left open) and its usage event."""
    turn = Turn.objects.select_related("user_turn").get(pk=turn_id)
    assert turn.user_turn is not None
    request_id = turn.user_turn.request_id
    reservations = list(Reservation.objects.filter(user=turn.user, request_id=request_id))
    assert [r for r in reservations if r.state == ReservationState.OPEN] == []
    event = UsageEvent.objects.get(user=turn.user, request_id=request_id)
    return turn, reservations, event


def report_rates(user) -> dict[str, float]:
    """The operator report's failure rates over the last hour for ``user``."""
    now = timezone.now()
    report = usage_report(
        start=now - dt.timedelta(hours=1), end=now + dt.timedelta(minutes=1), user=user
    )
    answer = next(profile for profile in report.profiles if profile.profile == "answer")
    return {
        "events": answer.events,
        "stream_failure_rate": answer.stream_failure_rate,
        "cancellation_rate": answer.cancellation_rate,
    }
