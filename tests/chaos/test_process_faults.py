"""Faults between server processes: Redis, which carries a Stop from the process that receives
it to the process that streams, becoming unreachable while an answer streams."""

from __future__ import annotations

import json
import subprocess
import time

import pytest

from assistant.models import TurnStatus
from billing.models import ReservationState
from tests.assistant.conftest import token_for
from tests.assistant.test_server_processes import (
    _assistant_turn_id,
    _free_port,
    _open_stream,
    _read_until,
    daphne_server,
    private_redis,
    slow_model,
)
from tests.chaos.faults import answer_outcome, report_rates

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.chaos, pytest.mark.slow]

DELTAS = [f"word{index} " for index in range(40)] + ["[S1]."]


def _stop(port: int, token: str, turn_id: int) -> tuple[int, dict[str, object]]:
    reply = subprocess.run(
        [
            "curl",
            "-s",
            "-w",
            "\n%{http_code}",
            "-X",
            "POST",
            "-H",
            f"Authorization: Token {token}",
            f"http://127.0.0.1:{port}/api/assistant/turns/{turn_id}/cancel",
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    body, _, status = reply.stdout.rpartition("\n")
    return int(status), json.loads(body)


def test_redis_unreachable_mid_stream_then_back(user, dinner_chat):
    """While Redis is down a Stop is refused with ``stop_unavailable`` (503) and the answer
    goes on; once Redis is back, the streaming process has subscribed again and the next Stop
    ends the answer as cancelled."""
    token = token_for(user)
    redis_port = _free_port()
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    with (
        private_redis(redis_port) as first_redis,
        daphne_server(redis_url=redis_url, model=slow_model(DELTAS, 0.4)) as streaming_port,
        daphne_server(redis_url=redis_url) as other_port,
    ):
        stream = _open_stream(streaming_port, token)
        received = _read_until(stream, b'"text-delta"')
        turn_id = _assistant_turn_id(received)
        first_redis.terminate()
        first_redis.wait(timeout=10)

        status, body = _stop(other_port, token, turn_id)
        assert (status, body["error"]["code"]) == (503, "stop_unavailable")

        with private_redis(redis_port):
            # The stream's Stop watcher subscribes again within its backoff cap (2 s).
            time.sleep(3.0)
            status, body = _stop(other_port, token, turn_id)
            assert (status, body["stopRequested"]) == (202, True)
            received = _read_until(stream, b"data: [DONE]\n\n", received)
            stream.close()

    assert b'"status":"cancelled"' in received
    turn, reservations, event = answer_outcome(turn_id)
    assert turn.status == TurnStatus.CANCELLED
    assert 0 < len(turn.text) < len("".join(DELTAS))
    assert [r.state for r in reservations] == [ReservationState.SETTLED]
    assert event.ending == "cancelled"
    assert report_rates(user)["cancellation_rate"] == 1.0
