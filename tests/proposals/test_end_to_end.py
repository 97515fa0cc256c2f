"""Approval to receipt through the real pieces: the ASGI application, a real Celery worker
process (Redis broker, its own queue) and PostgreSQL.

The answer proposes a message; a forged hash is refused with ``409 proposal_changed``; the
approval (sent twice, then again after delivery) makes one receipt and one outbox message;
the worker puts it in the outbox; the bridge fetches and acknowledges it; the receipt says
``sent`` with the platform's message id.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from channels.testing import HttpCommunicator
from django.conf import settings
from django.db import connection

from claire.celery import app as celery_app
from proposals.models import OutboxMessage, Proposal, Receipt
from tests.assistant.conftest import ask, token_for
from tests.proposals.support import history

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def _worker_env(*, queue: str) -> dict[str, str]:
    env = dict(os.environ)
    database = connection.settings_dict["NAME"]
    if env.get("DATABASE_URL"):
        parts = urlsplit(env["DATABASE_URL"])
        env["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{database}"))
    else:
        env["CLAIRE_DATABASE_NAME"] = database
    env.update(
        {
            "REDIS_URL": settings.REDIS_URL,
            "PROPOSALS_CELERY_QUEUE": queue,
            "PYTHONPATH": str(PROJECT_ROOT),
        }
    )
    return env


def _start_worker(*, queue: str, env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "claire",
            "worker",
            "--queues",
            queue,
            "--hostname",
            f"{queue}@test",
            "--concurrency",
            "1",
            "--pool",
            "solo",
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _stop(worker: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(worker.pid, signal.SIGTERM)
    try:
        worker.wait(timeout=15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=10)


def _http(user, method: str, path: str, body: dict[str, Any] | None = None):
    token = token_for(user)

    async def call():
        from claire.asgi import application

        payload = json.dumps(body).encode() if body is not None else b""
        headers = [
            (b"host", b"testserver"),
            (b"authorization", f"Token {token}".encode()),
            (b"content-type", b"application/json"),
            (b"accept", b"application/json"),
            (b"content-length", str(len(payload)).encode()),
        ]
        communicator = HttpCommunicator(application, method, path, body=payload, headers=headers)
        response = await communicator.get_response(timeout=20)
        return response["status"], json.loads(response["body"] or b"null")

    return asyncio.run(call())


def _wait_for(predicate, *, timeout: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}; worker log:\n{log.read_text()[-4000:]}")


def test_approval_outbox_acknowledgement_and_receipt(user, settings, redis_settings, tmp_path):
    client = redis.Redis.from_url(redis_settings)
    client.ping()  # fails loudly when Redis is unreachable
    assert celery_app.conf.broker_url.startswith("redis://")
    assert not celery_app.conf.task_always_eager
    queue = f"test-proposals-{uuid.uuid4().hex[:12]}"
    settings.PROPOSALS_CELERY_QUEUE = queue
    log = tmp_path / "worker.log"
    worker = _start_worker(queue=queue, env=_worker_env(queue=queue), log=log)
    try:
        history(user)
        chunks = ask(user, question="Write to Rui again about the boiler").chunks
        proposal = next(c["data"] for c in chunks if c["type"] == "data-proposal")
        proposal_id = proposal["proposalId"]
        approve = f"/api/proposals/{proposal_id}/approve"

        status, body = _http(user, "POST", approve, {"payloadHash": "f" * 64})
        assert (status, body["error"]["code"]) == (409, "proposal_changed")
        assert not Receipt.objects.exists()

        status, first = _http(user, "POST", approve, {"payloadHash": proposal["payloadHash"]})
        assert status == 202
        status, second = _http(user, "POST", approve, {"payloadHash": proposal["payloadHash"]})
        assert status == 202
        assert first["receiptId"] == second["receiptId"]
        assert first["idempotencyKey"] == f"{proposal_id}:{proposal['payloadHash']}"

        _wait_for(
            lambda: Receipt.objects.get(pk=first["receiptId"]).status == "outboxed",
            timeout=60,
            what="the worker to put the message in the outbox",
            log=log,
        )
        status, outbox = _http(user, "GET", "/api/bridge/outbox")
        assert status == 200
        assert len(outbox["messages"]) == 1
        message = outbox["messages"][0]
        assert (message["platform"], message["chatId"]) == ("whatsapp", "dm-rui")
        assert message["text"] == proposal["display"]["draftText"]

        ack = f"/api/bridge/outbox/{message['outboxId']}/ack"
        status, receipt = _http(user, "POST", ack, {"status": "sent", "platformMessageId": "wa-77"})
        assert status == 200
        assert (receipt["status"], receipt["platformMessageId"]) == ("sent", "wa-77")
        status, outbox = _http(user, "GET", "/api/bridge/outbox")
        assert outbox["messages"] == []

        # Replays after delivery: the same receipt, nothing queued again.
        status, replay = _http(user, "POST", approve, {"payloadHash": proposal["payloadHash"]})
        assert (status, replay["receiptId"], replay["status"]) == (202, first["receiptId"], "sent")
        status, detail = _http(user, "GET", f"/api/proposals/{proposal_id}")
        assert detail["status"] == "sent"
        assert [r["status"] for r in detail["receipts"]] == ["sent"]
        assert OutboxMessage.objects.count() == 1
        assert Proposal.objects.get().status == "sent"
        assert "proposals.receipt_execute" in log.read_text()
    finally:
        _stop(worker)
        client.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
