"""Direct socket writes (``claire.server.direct_writes_enable``): a response's head leaves
with the bytes written in the same turn of the loop, in one socket write; later bytes go
straight to the socket while nothing is queued."""

from __future__ import annotations

import socket
from typing import Any, cast

from twisted.internet import tcp

from claire.server import direct_writes_enable


class _Reactor:
    """What a connection asks of the reactor when it queues bytes."""

    def __init__(self) -> None:
        self.writers: set[Any] = set()

    def addWriter(self, writer: Any) -> None:
        self.writers.add(writer)

    def removeWriter(self, writer: Any) -> None:
        self.writers.discard(writer)


def _pending(peer: socket.socket) -> bytes:
    try:
        return peer.recv(65536)
    except BlockingIOError:
        return b""


def _connection() -> tuple[tcp.Connection, socket.socket, _Reactor]:
    ours, peer = socket.socketpair()
    ours.setblocking(False)
    peer.setblocking(False)
    reactor = _Reactor()
    # No protocol is needed to write; the reactor is the stand-in above.
    connection = tcp.Connection(ours, cast(Any, None), cast(Any, reactor))
    connection.connected = True
    return connection, peer, reactor


def test_the_head_and_what_follows_it_in_the_same_turn_leave_together():
    connection, peer, reactor = _connection()
    direct_writes_enable(connection)

    connection.writeSequence([b"HTTP/1.1 200 OK\r\n", b"\r\n"])
    connection.write(b"event one\n")
    connection.write(b"event two\n")
    assert _pending(peer) == b""
    assert reactor.writers == {connection}

    connection.doWrite()  # the next turn of the loop
    assert peer.recv(65536) == b"HTTP/1.1 200 OK\r\n\r\nevent one\nevent two\n"


def test_bytes_after_the_head_go_straight_to_the_socket():
    connection, peer, reactor = _connection()
    direct_writes_enable(connection)
    connection.write(b"head\r\n\r\n")
    connection.doWrite()
    assert peer.recv(65536) == b"head\r\n\r\n"
    reactor.writers.clear()

    connection.write(b"a delta\n")
    assert peer.recv(65536) == b"a delta\n"
    assert reactor.writers == set()


def test_each_response_on_a_kept_connection_queues_its_head_again():
    connection, peer, _ = _connection()
    direct_writes_enable(connection)
    connection.write(b"first head\r\n\r\n")
    connection.doWrite()
    assert peer.recv(65536) == b"first head\r\n\r\n"

    direct_writes_enable(connection)  # the next request on the connection
    connection.write(b"second head\r\n\r\n")
    connection.write(b"body")
    assert _pending(peer) == b""
    connection.doWrite()
    assert peer.recv(65536) == b"second head\r\n\r\nbody"
