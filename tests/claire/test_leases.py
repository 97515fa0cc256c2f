"""The lease rules shared by the durable job tables (indexing and memory)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from claire.db.leases import Claim, LeaseLost, lease_check, lease_claim

NOW = datetime(2026, 3, 14, 9, 30, tzinfo=UTC)
LEASE = timedelta(seconds=30)


@dataclass
class Row:
    pk: int = 1
    state: str = "queued"
    attempts: int = 0
    last_error: str = ""
    lease_owner: str = ""
    lease_expires_at: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None


def claim(row: Row, *, max_attempts: int = 3) -> Claim:
    return lease_claim(row, worker_id="w2", lease=LEASE, max_attempts=max_attempts, now=NOW)


def test_a_queued_job_is_taken_with_a_fresh_lease_and_no_attempt_counted():
    row = Row()
    assert claim(row) is Claim.TAKEN
    assert (row.state, row.lease_owner, row.lease_expires_at) == ("running", "w2", NOW + LEASE)
    assert (row.attempts, row.last_error) == (0, "")


def test_a_live_lease_keeps_the_job_with_its_worker():
    row = Row(state="running", lease_owner="w1", lease_expires_at=NOW + timedelta(seconds=1))
    assert claim(row) is Claim.HELD
    assert (row.lease_owner, row.attempts) == ("w1", 0)


def test_an_expired_lease_counts_as_a_lost_worker_and_moves_the_job():
    row = Row(state="running", lease_owner="w1", lease_expires_at=NOW - timedelta(seconds=1))
    assert claim(row) is Claim.TAKEN
    assert (row.lease_owner, row.attempts, row.last_error) == ("w2", 1, "worker_lost")


def test_a_job_that_keeps_losing_its_workers_is_given_up():
    row = Row(state="running", attempts=2, lease_owner="w1", lease_expires_at=NOW)
    assert claim(row, max_attempts=3) is Claim.GAVE_UP
    assert (row.state, row.last_error) == ("failed", "worker_lost:gave_up")
    assert (row.lease_owner, row.lease_expires_at, row.finished_at) == ("", None, NOW)


def test_only_the_holder_passes_the_check():
    lease_check(Row(state="running", lease_owner="w2"), worker_id="w2")
    with pytest.raises(LeaseLost):
        lease_check(Row(state="running", lease_owner="w1"), worker_id="w2")
    with pytest.raises(LeaseLost):
        lease_check(Row(state="failed", lease_owner="w2"), worker_id="w2")
