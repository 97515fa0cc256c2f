"""Request bounds in the served process: a Twisted-level hook into daphne's HTTP protocol.

Daphne (through Twisted) buffers a whole request body before the application sees its first
byte, and keeps a half-sent request open for as long as bytes trickle in. Installed by
``claire.asgi`` (so ``daphne claire.asgi:application`` serves with it), ``BoundedHTTPFactory``
makes daphne:

- answer ``413`` as soon as the headers announce a ``Content-Length`` over the route's limit,
  before reading any of the body, and close the connection;
- cut a chunked (or under-announced) body at the limit the same way;
- close a connection whose request line and headers take longer than
  ``SERVER_HEADER_TIMEOUT_SECONDS``, or whose body takes longer than
  ``SERVER_BODY_TIMEOUT_SECONDS``;
- refuse new connections while ``SERVER_MAX_INCOMPLETE_REQUESTS`` requests are still being
  received (half-sent requests cannot pin the process).

Errors under ``/api/`` use the API's JSON error shape. docs/SECURITY.md lists the defaults.

It also writes a response's bytes straight to the socket while nothing is queued
(``direct_writes_enable``): a streamed answer's events do not each wait a turn of the loop;
and ``body_writer`` gives a streaming application a plain function for the rest of its body.
"""

from __future__ import annotations

import functools
import json
import logging
import sys
from collections.abc import Callable
from typing import Any

from daphne import http_protocol
from django.conf import settings
from twisted.internet import reactor, tcp
from twisted.internet.base import DelayedCall
from twisted.web import http

logger = logging.getLogger(__name__)

API_PREFIX = b"/api/"


def body_limit_for(path: bytes) -> int:
    """The largest request body accepted on ``path`` (the request target, query included)."""
    route = path.split(b"?", 1)[0]
    if route == b"/api/assistant/messages":
        return int(settings.ASSISTANT_REQUEST_MAX_BYTES)
    if route == b"/api/ingest/batches":
        return int(settings.INGEST_REQUEST_MAX_BYTES)
    return int(settings.SERVER_MAX_BODY_BYTES)


def error_response(*, path: bytes, status: int, reason: str, code: str, message: str) -> bytes:
    """A complete ``Connection: close`` response: the API error shape under ``/api/``."""
    if path.startswith(API_PREFIX):
        body = json.dumps({"error": {"code": code, "message": message}}).encode()
        content_type = b"application/json"
    else:
        body = message.encode()
        content_type = b"text/plain; charset=utf-8"
    head = (
        f"HTTP/1.1 {status} {reason}\r\n".encode()
        + b"Content-Type: "
        + content_type
        + f"\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
    )
    return head + body


class BoundedRequest(http_protocol.WebRequest):
    """Daphne's request with a body limit and a body deadline."""

    _is_refused = False
    _body_size = 0
    _body_limit = 0
    _body_deadline: DelayedCall | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A request line arrived: a request of a kept-alive connection is tracked again.
        self.channel.factory.request_started(self.channel)

    def gotLength(self, length: int | None) -> None:
        factory: BoundedHTTPFactory = self.channel.factory
        factory.headers_done(self.channel)
        self._path = getattr(self.channel, "_path", b"")
        self._body_limit = body_limit_for(self._path)
        if length is not None and length > self._body_limit:
            self._refuse_too_large()
            return
        super().gotLength(length)
        if length != 0:
            self._body_deadline = reactor.callLater(
                settings.SERVER_BODY_TIMEOUT_SECONDS, self._body_timed_out
            )

    def handleContentChunk(self, data: bytes) -> None:
        if self._is_refused:
            return
        self._body_size += len(data)
        if self._body_size > self._body_limit:
            self._refuse_too_large()
            return
        super().handleContentChunk(data)

    def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:
        self._cancel_body_deadline()
        self.channel.factory.request_complete(self.channel)
        if self._is_refused:
            # The rest of a refused body was already in the read buffer: it is not served.
            return
        direct_writes_enable(self.channel.transport)
        super().requestReceived(command, path, version)

    def connectionLost(self, reason: Any) -> None:
        self._cancel_body_deadline()
        self.channel.factory.request_complete(self.channel)
        super().connectionLost(reason)

    def _cancel_body_deadline(self) -> None:
        if self._body_deadline is not None and self._body_deadline.active():
            self._body_deadline.cancel()
        self._body_deadline = None

    def _refuse_too_large(self) -> None:
        limit = self._body_limit
        self._refuse(
            status=413,
            reason="Content Too Large",
            code="request_too_large",
            message=f"The request body is larger than {limit} bytes.",
            event="server.request_too_large",
        )

    def _body_timed_out(self) -> None:
        self._body_deadline = None
        self._refuse(
            status=408,
            reason="Request Timeout",
            code="request_timeout",
            message="The request body did not arrive in time.",
            event="server.body_timeout",
        )

    def _refuse(self, *, status: int, reason: str, code: str, message: str, event: str) -> None:
        if self._is_refused:
            return
        self._is_refused = True
        self._cancel_body_deadline()
        # No "100 Continue" after the refusal, and nothing more is read.
        self.requestHeaders.removeHeader(b"expect")
        logger.warning(event, extra={"limit_bytes": self._body_limit})
        transport = self.channel.transport
        transport.write(
            error_response(
                path=self._path, status=status, reason=reason, code=code, message=message
            )
        )
        self.channel.factory.request_complete(self.channel)
        transport.loseConnection()


class BoundedHTTPFactory(http_protocol.HTTPFactory):
    """Daphne's HTTP factory with header deadlines and a cap on requests being received."""

    def __init__(self, server: Any) -> None:
        super().__init__(server)
        # Connections whose current request has not fully arrived, with their header deadline.
        self._incomplete: dict[Any, DelayedCall | None] = {}

    def buildProtocol(self, addr: Any) -> Any:
        if len(self._incomplete) >= settings.SERVER_MAX_INCOMPLETE_REQUESTS:
            logger.warning(
                "server.connection_refused",
                extra={"incomplete_requests": len(self._incomplete)},
            )
            return None
        protocol = super().buildProtocol(addr)
        protocol.requestFactory = BoundedRequest
        # Twisted wraps each HTTPChannel in a protocol that picks HTTP/1.1 or HTTP/2.
        self.request_started(getattr(protocol, "_channel", protocol))
        return protocol

    def request_started(self, channel: Any) -> None:
        """A connection opened, or a kept-alive one began its next request: its request line
        and headers must arrive within ``SERVER_HEADER_TIMEOUT_SECONDS``."""
        if channel not in self._incomplete:
            self._incomplete[channel] = reactor.callLater(
                settings.SERVER_HEADER_TIMEOUT_SECONDS, self._headers_timed_out, channel
            )

    def headers_done(self, channel: Any) -> None:
        """The request's headers arrived: the body has its own deadline."""
        if channel in self._incomplete:
            _cancel(self._incomplete[channel])
            self._incomplete[channel] = None

    def request_complete(self, channel: Any) -> None:
        _cancel(self._incomplete.pop(channel, None))

    def _headers_timed_out(self, channel: Any) -> None:
        if channel not in self._incomplete:
            return
        del self._incomplete[channel]
        logger.warning("server.header_timeout")
        transport = getattr(channel, "transport", None)
        if transport is not None:
            transport.abortConnection()


def direct_writes_enable(transport: Any) -> None:
    """Write a TCP connection's output straight to its socket while nothing is queued.

    Twisted queues every write and sends it on the next turn of the loop, once the socket is
    reported writable: for each streamed event that is a writer registered, a loop turn and
    the writer removed (two ``epoll_ctl`` calls), more than the socket write itself costs. A
    socket with room takes the bytes at once, as asyncio's own transports do; whatever the
    socket does not take (or any write while bytes are still queued) goes through Twisted's
    queue unchanged, so the order of bytes and the flow control stay Twisted's.

    A response's head is the exception: it goes through the queue, and so does whatever the
    application writes in the same turn of the loop (a stream's first events), so that the
    head and those bytes leave in one socket write on the next turn instead of one each.
    Called for each request of the connection."""
    if not isinstance(transport, tcp.Connection):
        return
    transport.is_head_pending = True  # type: ignore[attr-defined]
    if getattr(transport, "is_writing_directly", False):
        return
    transport.is_writing_directly = True  # type: ignore[attr-defined]
    queued_write = transport.write

    def write(data: bytes) -> None:
        if transport.is_head_pending:  # type: ignore[attr-defined]
            transport.is_head_pending = False  # type: ignore[attr-defined]
            queued_write(data)
            return
        rest = _sent_directly(transport, data)
        if rest is None:
            queued_write(data)
        elif rest:
            queued_write(rest)

    def write_sequence(iovec: Any) -> None:
        write(b"".join(iovec))

    transport.write = write  # type: ignore[method-assign]
    transport.writeSequence = write_sequence  # type: ignore[method-assign]


def _sent_directly(transport: tcp.Connection, data: bytes) -> bytes | None:
    """What the socket did not take of ``data`` (maybe ``b""``), or None when the bytes must
    wait in Twisted's queue: bytes are queued already, or the connection is closing."""
    if (
        not data
        or transport._tempDataBuffer
        or transport.offset != len(transport.dataBuffer)
        or not transport.connected
        or transport.disconnecting
        or transport._writeDisconnected
    ):
        return None
    try:
        sent = transport.socket.send(data)
    except (BlockingIOError, InterruptedError):
        return data
    except OSError:
        # A broken connection: Twisted's own write path meets the error and closes it.
        return None
    return data[sent:]


def body_writer(send: Callable[..., Any]) -> Callable[[bytes], None] | None:
    """A function that writes more of a started response's body at once, for an ASGI ``send``
    that is daphne's own (None for any other ``send``: use ``send``).

    Daphne's ``send`` is a coroutine per message that checks the connection, checks the
    message's type and headers, and writes the body through Twisted's ``Request.write``. A
    streamed answer sends one message per event; this makes the same connection checks and
    the same ``Request.write`` call (chunked encoding, byte counts) without the message dict
    and the coroutine. The response must have been started through ``send``, and the last
    body message (``more_body`` false, which finishes the request) still goes through it."""
    # Importing daphne.server installs Twisted's reactor: only a process serving with daphne
    # has it, and only such a process can have its ``send``.
    daphne_server = sys.modules.get("daphne.server")
    if (
        daphne_server is None
        or not isinstance(send, functools.partial)
        or len(send.args) != 1
        or send.keywords
    ):
        return None
    handle_reply = send.func
    server = getattr(handle_reply, "__self__", None)
    protocol = send.args[0]
    if (
        not isinstance(server, daphne_server.Server)
        or getattr(handle_reply, "__func__", None) is not daphne_server.Server.handle_reply
        or not isinstance(protocol, http_protocol.WebRequest)
    ):
        return None
    connections = server.connections

    def write(body: bytes) -> None:
        # Server.handle_reply's and WebRequest.handle_reply's checks, in their order.
        state = connections.get(protocol)
        if state is None or state.get("disconnected", None):
            return
        if protocol.finished or protocol.channel is None:
            return
        if not (body and protocol.chunked and protocol.startedWriting) or protocol._disconnected:
            http.Request.write(protocol, body)
            return
        # What Request.write does with more of a chunked body whose headers are out: count it
        # and write it as one chunk (one write instead of a tuple joined by the transport).
        protocol.sentLength += len(body)
        protocol.channel.write(b"%x\r\n%b\r\n" % (len(body), body))

    return write


def _cancel(deadline: DelayedCall | None) -> None:
    if deadline is not None and deadline.active():
        deadline.cancel()


def request_bounds_install() -> None:
    """Serve with ``BoundedHTTPFactory``: daphne's server builds its factory from this name
    when it starts, after it imported the application."""
    from daphne import server

    server.HTTPFactory = BoundedHTTPFactory
