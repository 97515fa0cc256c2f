"""The production layout: several daphne processes behind one listening socket.

    python -m claire.serve --processes 2 --bind 0.0.0.0 --port 8000 [-- DAPHNE OPTIONS]

One process answers on about one core, so a burst of answers needs several. This launcher
binds the port once and starts ``--processes`` daphne servers on that socket (``daphne --fd``);
the kernel hands each new connection to one of them. A server that exits is started again
(its restart sweeps the answers a crash left streaming, ``assistant.tasks``). Stops on
SIGTERM/SIGINT, stopping the servers first. Several processes need ``REDIS_URL``: the channel
layer carries a Stop to the process that streams, and the rate limits count in Redis.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
RESTART_DELAY_S = 1.0


def _listen(bind: str, port: int, backlog: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((bind, port))
    listener.listen(backlog)
    listener.set_inheritable(True)
    return listener


def _start(listener: socket.socket, daphne_args: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(  # noqa: S603 - our own server, arguments from our command line
        [
            sys.executable,
            "-m",
            "daphne",
            "--fd",
            str(listener.fileno()),
            *daphne_args,
            "claire.asgi:application",
        ],
        cwd=ROOT,
        pass_fds=(listener.fileno(),),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=int(os.environ.get("WEB_PROCESSES", 2)))
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--backlog", type=int, default=1024)
    parser.add_argument("daphne_args", nargs="*", help="passed to each daphne (after --)")
    options = parser.parse_args(argv)
    if options.processes > 1 and not os.environ.get("REDIS_URL"):
        print(
            "claire.serve: several processes need REDIS_URL (Stop and rate limits are shared "
            "through Redis)",
            file=sys.stderr,
        )
        return 2

    listener = _listen(options.bind, options.port, options.backlog)
    servers = [_start(listener, options.daphne_args) for _ in range(options.processes)]
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping:
        time.sleep(0.5)
        for index, server in enumerate(servers):
            if server.poll() is not None and not stopping:
                print(
                    f"claire.serve: server {server.pid} exited ({server.returncode}); restarting",
                    file=sys.stderr,
                )
                time.sleep(RESTART_DELAY_S)
                servers[index] = _start(listener, options.daphne_args)
    for server in servers:
        if server.poll() is None:
            server.terminate()
    for server in servers:
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    listener.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
