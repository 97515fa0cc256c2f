"""``POST /api/assistant/messages``: one ASGI application for both transports.

A plain ASGI application rather than a Django view or ``AsyncHttpConsumer``: while the answer
streams, it keeps awaiting ``receive()`` so a client disconnect (``http.disconnect``) cancels
the engine — and with it the model call — at once. It also waits for a Stop of its turn
(``POST /api/assistant/turns/{id}/cancel``), which reaches it from any server process through
the process's one channel-layer subscription (``assistant.stop``).

Authentication is DRF's, unchanged: ``Authorization: Token ...`` or the session cookie, and a
session-authenticated POST must pass Django's CSRF check (``X-CSRFToken`` header).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from contextlib import aclosing, suppress
from typing import Any

from django.conf import settings
from rest_framework import exceptions

from assistant import engine
from assistant.admission import Admitted, Arrival, admissions_decide
from assistant.db import run_admission_batched
from assistant.stop import stop_wait
from assistant.transports import sse
from assistant.transports.legacy_json import legacy_collect
from claire.api.errors import error_body, retry_after_of
from claire.errors import CodedError
from claire.server import body_writer
from claire.tracing import Trace

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

SSE_MEDIA_TYPE = "text/event-stream"
JSON_MEDIA_TYPE = "application/json"


class ClientDisconnected(Exception):
    pass


async def _send_json(
    send: Send,
    status: int,
    body: dict[str, Any],
    extra_headers: tuple[tuple[bytes, bytes], ...] = (),
) -> None:
    payload = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"vary", b"Accept"),
        *extra_headers,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


async def _send_error(send: Send, error: exceptions.APIException | CodedError) -> None:
    code = getattr(error, "code", None)
    if not isinstance(error, CodedError):
        code = {
            exceptions.NotAuthenticated: "not_authenticated",
            exceptions.AuthenticationFailed: "authentication_failed",
            exceptions.PermissionDenied: "permission_denied",
            exceptions.Throttled: "rate_limited",
        }.get(type(error), "invalid_request")
    headers: tuple[tuple[bytes, bytes], ...] = ()
    if error.status_code == 401:
        headers = ((b"www-authenticate", b"Token"),)
    retry_after = retry_after_of(error)
    if retry_after is not None:
        headers = ((b"retry-after", str(retry_after).encode()),)
    await _send_json(
        send,
        error.status_code,
        error_body(
            code=str(code),
            message=str(error.detail),
            details=getattr(error, "details", None)
            if retry_after is None
            else {"retryAfterSeconds": retry_after},
        ),
        headers,
    )


async def _read_body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnected()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > settings.ASSISTANT_REQUEST_MAX_BYTES:
            raise CodedError(
                code="request_too_large", message="The request body is too large.", status_code=413
            )
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _wait_for_disconnect(receive: Receive) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return


async def application(scope: Scope, receive: Receive, send: Send) -> None:
    """The ASGI application of ``POST /api/assistant/messages``."""
    if scope["type"] != "http":
        raise ValueError("HTTP only")
    if scope["method"] != "POST":
        await _send_json(
            send,
            405,
            error_body(code="method_not_allowed", message="Use POST."),
            ((b"allow", b"POST"),),
        )
        return
    try:
        body = await _read_body(receive)
        trace = Trace("assistant.request")
        begun = time.monotonic()
        outcome = await run_admission_batched(admissions_decide, Arrival(scope=scope, body=body))
        if isinstance(outcome, BaseException):
            raise outcome
        assert isinstance(outcome, Admitted)
        # Authentication, validation and the idempotent turn insert: the request's thread.
        trace.add(
            "thread.load",
            start=begun,
            duration_ms=(time.monotonic() - begun) * 1000,
            is_new=outcome.pair.is_new,
        )
        transport = outcome.transport
        session = engine.AnswerSession(
            user=outcome.user, request=outcome.request, pair=outcome.pair, trace=trace
        )
    except ClientDisconnected:
        return
    except (exceptions.APIException, CodedError) as error:
        await _send_error(send, error)
        return

    run = _run_sse(session, send) if transport == "sse" else _run_json(session, send)
    await _supervise(session, run, receive)


async def _run_sse(session: engine.AnswerSession, send: Send) -> None:
    await send(
        {"type": "http.response.start", "status": 200, "headers": list(sse.RESPONSE_HEADERS)}
    )
    # Served by daphne, each event is written at once, without a message and a coroutine.
    write = body_writer(send)
    async for event in session.events():
        if write is not None:
            write(sse.sse_encode(event))
        else:
            await send(
                {"type": "http.response.body", "body": sse.sse_encode(event), "more_body": True}
            )
    await send({"type": "http.response.body", "body": sse.DONE, "more_body": False})


async def _run_json(session: engine.AnswerSession, send: Send) -> None:
    async with aclosing(session.events()) as events:
        response = await legacy_collect(events)
    await _send_json(send, response.status_code, response.body)


async def _supervise(session: engine.AnswerSession, run: Awaitable[None], receive: Receive) -> None:
    """Run the transport until it ends; a disconnect cancels it (and the engine inside it) at
    once, a Stop asks the engine to end the answer as ``cancelled``."""
    run_task = asyncio.ensure_future(run)
    disconnect_task = asyncio.ensure_future(_wait_for_disconnect(receive))
    stop_task: asyncio.Future[None] | None = None
    if session.is_new:
        stop_task = asyncio.ensure_future(stop_wait(session.assistant_turn_id))
    watchers = {disconnect_task} | ({stop_task} if stop_task else set())
    try:
        while not run_task.done():
            done, _ = await asyncio.wait({run_task, *watchers}, return_when=asyncio.FIRST_COMPLETED)
            if disconnect_task in done:
                logger.info(
                    "assistant.client_disconnected",
                    extra={"assistant_turn_id": session.assistant_turn_id},
                )
                run_task.cancel()
                break
            if stop_task is not None and stop_task in done:
                watchers.discard(stop_task)
                # Only a Stop message stops an answer; a watcher that died is not one.
                if stop_task.cancelled() or stop_task.exception() is not None:
                    logger.error(
                        "assistant.stop_watcher_ended",
                        extra={"assistant_turn_id": session.assistant_turn_id},
                    )
                else:
                    session.stop()
        with suppress(asyncio.CancelledError):
            await run_task
    finally:
        for task in (run_task, *watchers):
            task.cancel()
        for task in watchers:
            with suppress(asyncio.CancelledError, Exception):
                await task
