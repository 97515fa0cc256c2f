"""Speed bench of the answer endpoint on a real daphne server with the mock model
(docs/ASSISTANT.md records the figures).

    CLAIRE_DATABASE_NAME=claire_bench python manage.py bench_assistant \\
        [--messages 100000] [--requests 100] [--streams 200] [--deltas 60]

1. Seeds (once) a user with ``--messages`` messages in 50 chats.
2. Starts daphne on a free port, the ``answer`` profile pointed at the scripted mock model.
3. Latency: ``--requests`` sequential questions; request -> first response byte and
   request -> ``data-sources`` event, measured by the client. Each question is paired with a
   baseline request to the same server at the same moment -- an authenticated
   ``GET /api/assistant/threads?limit=1`` (Django + DRF token auth + one indexed query) -- so
   that on a noisy machine the answer's own cost reads as the difference of the two.
4. Load: ``--streams`` concurrent streams opened over ``--ramp-seconds``, the mock writing 30
   deltas per second each (the scripted words ``w0 w1 ...``); the lateness of word *i* is its
   arrival minus (arrival of word 0 + i/30 s), reported for all words and for the steady
   state (from one second after every stream is delivering, anchored at the window's first
   word of each stream). A stream that does not end with ``[DONE]`` is dropped.

``--burst N`` measures admission instead: N streams opened at the same moment on a warmed
server, request -> first byte and -> ``data-sources`` for each (then it hangs up), and the
server's CPU time (every process) until the last stream had its first byte.
``--processes N`` serves with the production layout (``python -m claire.serve``: N daphne
processes on one socket; several need ``REDIS_URL``); a burst always does, with one process by
default. The bench user's rate limit and stream cap are
lifted for the server it starts.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction
from rest_framework.authtoken.models import Token

from claire.accounts.models import User
from claire.stats import percentile
from conversations.models import Chat, Message, Platform, content_hash_of

BENCH_EMAIL = "bench-assistant@askclaire.local"
QUESTION = "When is the dinner with Ana at Casa Lisboa?"
DELTA_INTERVAL_S = 1 / 30
# The steady state starts this long after the last stream delivered its first word.
STEADY_AFTER_S = 1.0
_WORD_INDEX = re.compile(rb"\bw(\d+)\b")
_WORDS = [
    "meeting",
    "project",
    "coffee",
    "weekend",
    "train",
    "ticket",
    "birthday",
    "gift",
    "flight",
    "hotel",
    "report",
    "budget",
    "invoice",
    "holiday",
    "beach",
    "concert",
    "movie",
    "pizza",
    "lunch",
    "office",
    "school",
    "football",
    "garden",
    "doctor",
    "museum",
    "market",
    "recipe",
    "bike",
    "rain",
    "sunny",
    "tomorrow",
    "later",
    "tonight",
    "monday",
    "tuesday",
]


def _process_cpu_seconds(pid: int, *, task: int | None = None) -> float:
    """User + system CPU time of a process (Linux ``/proc``), whatever the machine's load; of
    one of its threads with ``task``."""
    stat = Path(f"/proc/{pid}/stat" if task is None else f"/proc/{pid}/task/{task}/stat")
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _loop_cpu_seconds(pid: int) -> float:
    """CPU time of a server's main thread: daphne's event loop, where the answers stream
    (the worker threads run retrieval, reservations and the final saves)."""
    return _process_cpu_seconds(pid, task=pid)


def _server_cpu_seconds(pid: int) -> float:
    """CPU time of a server: the process and its children (``claire.serve``'s daphnes)."""
    total = _process_cpu_seconds(pid)
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        for child in children.read_text().split():
            total += _process_cpu_seconds(int(child))
    return total


# The figures of a round that the summary gives medians and p95 of.
SUMMARY_FIGURES = (
    "first_byte_median_ms",
    "data_sources_median_ms",
    "data_sources_p95_ms",
    "baseline_median_ms",
    "lateness_all_p99_ms",
    "lateness_steady_median_ms",
    "lateness_steady_p99_ms",
    "dropped_streams",
    "cpu_per_word_us",
    "cpu_per_word_after_retrieval_us",
    "cpu_per_word_streaming_only_us",
    "loop_cpu_per_word_after_retrieval_us",
    "loop_cpu_per_word_streaming_only_us",
)


@dataclass(frozen=True)
class Variant:
    """One server to measure: a checkout of the project and extra environment."""

    label: str
    checkout: Path
    env: dict[str, str] = field(default_factory=dict)


@dataclass
class StreamResult:
    first_byte_ms: float = 0.0
    sources_ms: float = 0.0
    delta_times: list[tuple[int, float]] = field(default_factory=list)
    is_complete: bool = False


class Command(BaseCommand):
    help = "Measure first-byte, data-sources and concurrent-stream latency of the answer endpoint."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--messages", type=int, default=100_000)
        parser.add_argument("--requests", type=int, default=100)
        parser.add_argument("--streams", type=int, default=200)
        parser.add_argument("--deltas", type=int, default=300)
        parser.add_argument(
            "--burst", type=int, default=0, help="Open this many streams at once (admission)."
        )
        parser.add_argument(
            "--processes", type=int, default=1, help="Server processes (claire.serve layout)."
        )
        parser.add_argument(
            "--against",
            default="",
            help="Also serve this checkout of the project (same database), alternating with "
            "this one: before and after in the same run.",
        )
        parser.add_argument(
            "--flush-ms",
            default="",
            help="Comma-separated ASSISTANT_STREAM_FLUSH_MS values, each served in turn.",
        )
        parser.add_argument("--rounds", type=int, default=1, help="Repeat the whole bench.")
        parser.add_argument("--json", dest="json_path", default="", help="Also write figures here.")
        parser.add_argument(
            "--ramp-seconds",
            type=float,
            default=5.0,
            help="Open the concurrent streams evenly over this many seconds.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user = self._seed(options["messages"])
        token, _ = Token.objects.get_or_create(user=user)
        connection.close()
        variants = [
            Variant(label="this checkout", checkout=Path(settings.BASE_DIR)),
        ]
        if options["against"]:
            variants.append(Variant(label="against", checkout=Path(options["against"]).resolve()))
        if options["flush_ms"]:
            # The flush window is this checkout's setting; another checkout runs as it is.
            variants = [
                Variant(
                    label=f"this checkout, flush {value} ms",
                    checkout=variants[0].checkout,
                    env={"ASSISTANT_STREAM_FLUSH_MS": value},
                )
                for value in options["flush_ms"].split(",")
            ] + variants[1:]
        results: dict[str, list[dict[str, float]]] = {variant.label: [] for variant in variants}
        for round_number in range(options["rounds"]):
            # Alternate the order so that no variant always runs first (or last) in a round.
            ordered = variants if round_number % 2 == 0 else variants[::-1]
            for variant in ordered:
                if len(variants) > 1 or options["rounds"] > 1:
                    self.stdout.write(f"--- round {round_number + 1}: {variant.label}")
                with self._server(variant, options) as port:
                    if options["burst"]:
                        asyncio.run(self._burst(port, token.key, options["burst"]))
                    else:
                        figures = asyncio.run(self._bench(port, token.key, options))
                        results[variant.label].append(figures)
        if not options["burst"]:
            self._summary(results, options)

    @contextmanager
    def _server(self, variant: Variant, options: dict[str, Any]) -> Iterator[int]:
        port = self._free_port()
        model = {
            "models": {
                "local/mock": {
                    "options": {
                        "deltas": [f"w{i} " for i in range(options["deltas"] - 1)] + ["[S1]."],
                        "delta_delay_s": DELTA_INTERVAL_S,
                    }
                }
            },
            "profiles": {"answer": {"candidates": ["local/mock"]}},
        }
        if options["processes"] > 1 or options["burst"]:
            # The production layout, whose listening socket queues a whole burst (daphne's
            # own -b/-p listens with Twisted's backlog of 50).
            command = [
                *("-m", "claire.serve", "--processes", str(options["processes"])),
                *("--bind", "127.0.0.1", "--port", str(port), "--", "--verbosity", "0"),
            ]
        else:
            command = [
                *("-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "--verbosity", "0"),
                "claire.asgi:application",
            ]
        server = subprocess.Popen(  # noqa: S603 - our own server, fixed arguments
            [sys.executable, *command],
            cwd=variant.checkout,
            env={
                **os.environ,
                # Another checkout serves from the same database and data directory.
                "CLAIRE_DATA_DIR": str(settings.DATA_DIR),
                "CLAIRE_AI_CONFIG": json.dumps(model),
                "LOG_LEVEL": "WARNING",
                # One bench user asks for every stream: its own limits would refuse them.
                "RATE_LIMIT_ASK": "1000000/60",
                "ASSISTANT_MAX_CONCURRENT_STREAMS": "0",
                "SERVER_MAX_INCOMPLETE_REQUESTS": "100000",
                **variant.env,
            },
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            self._wait_for(port)
            self._server_pid = server.pid
            yield port
        finally:
            server.terminate()
            server.wait(timeout=30)

    def _summary(self, results: dict[str, list[dict[str, float]]], options: dict[str, Any]) -> None:
        """Each figure's median and p95 over the rounds, per variant."""
        summary: dict[str, dict[str, dict[str, float]]] = {}
        for label, rounds in results.items():
            summary[label] = {
                name: {
                    "median": statistics.median(values),
                    "p95": percentile(values, 0.95),
                }
                for name in SUMMARY_FIGURES
                if (values := [figures[name] for figures in rounds if name in figures])
            }
        if len(results) > 1 or options["rounds"] > 1:
            self.stdout.write(f"summary over {options['rounds']} round(s): median / p95 of rounds")
            for label, figures in summary.items():
                self.stdout.write(f"  {label}:")
                for name, value in figures.items():
                    self.stdout.write(f"    {name}: {value['median']:.1f} / {value['p95']:.1f}")
        if options["json_path"]:
            with Path(options["json_path"]).open("w", encoding="utf-8") as handle:
                json.dump(
                    {
                        "load_average": list(os.getloadavg()),
                        "rounds": results,
                        "summary": summary,
                    },
                    handle,
                    indent=2,
                )

    def _seed(self, count: int) -> User:
        user = User.objects.filter(email=BENCH_EMAIL).first()
        if user is None:
            user = User.objects.create_user(BENCH_EMAIL, None, timezone="Europe/Lisbon")
        existing = Message.objects.filter(user=user).count()
        if existing >= count:
            self.stdout.write(f"corpus: {existing} messages (reused)")
            return user
        randomizer = random.Random(7)
        chats = [
            Chat.objects.get_or_create(
                user=user,
                platform=Platform.WHATSAPP,
                platform_chat_id=f"bench-{index}",
                defaults={"title": f"Bench chat {index}"},
            )[0]
            for index in range(50)
        ]
        start = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
        batch: list[Message] = []
        for index in range(existing, count):
            words = randomizer.choices(_WORDS, k=randomizer.randint(4, 18))
            if index % 5000 == 0:
                words = ["Dinner", "with", "Ana", "at", "Casa", "Lisboa", "on", "Friday", "at", "8"]
            text = " ".join(words)
            batch.append(
                Message(
                    user=user,
                    chat=chats[index % len(chats)],
                    platform_message_id=f"bench-{index}",
                    is_from_self=index % 3 == 0,
                    sender_name="Ana" if index % 3 else "",
                    text=text,
                    content_hash=content_hash_of(text),
                    sent_at=start + dt.timedelta(minutes=index),
                )
            )
            if len(batch) == 5000:
                with transaction.atomic():
                    Message.objects.bulk_create(batch)
                batch = []
        if batch:
            Message.objects.bulk_create(batch)
        self.stdout.write(f"corpus: {count} messages (seeded)")
        return user

    @staticmethod
    def _free_port() -> int:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            return int(probe.getsockname()[1])

    @staticmethod
    def _wait_for(port: int) -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the server did not start")

    async def _stream(self, port: int, token: str, *, until_sources: bool = False) -> StreamResult:
        """One question; ``until_sources`` hangs up once ``data-sources`` arrived (the server
        then cancels the answer, as for any client that goes away)."""
        result = StreamResult()
        body = json.dumps(
            {"requestId": str(uuid.uuid4()), "question": QUESTION, "scope": {"mode": "global"}}
        ).encode()
        head = (
            f"POST /api/assistant/messages HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Token {token}\r\nAccept: text/event-stream\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode()
        started = time.monotonic()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(head + body)
        await writer.drain()
        # Only the unread tail is kept: the client must cost little per chunk, or its own
        # backlog would count as the server's lateness.
        tail = b""
        try:
            while True:
                data = await asyncio.wait_for(reader.read(65536), timeout=120)
                now = time.monotonic()
                if not data:
                    break
                if not result.first_byte_ms:
                    result.first_byte_ms = (now - started) * 1000
                    self._awaiting_first_bytes -= 1
                    if self._awaiting_first_bytes == 0:
                        self._all_started_cpu = _server_cpu_seconds(self._server_pid)
                window = tail + data
                if not result.sources_ms and b'"type":"data-sources"' in window:
                    result.sources_ms = (now - started) * 1000
                    if until_sources:
                        break
                    self._sourced += 1
                    if self._sourced == self._streams:
                        # Every answer has retrieved: from here the server only streams.
                        self._streaming_from = (_process_cpu_seconds(self._server_pid), now)
                        self._loop_from = _loop_cpu_seconds(self._server_pid)
                # Deltas that queued up behind a busy event loop travel as one event: each
                # scripted word "wI " is due at I/30 s after the first one.
                for index in _WORD_INDEX.findall(data):
                    result.delta_times.append((int(index), now))
                if b"data: [DONE]\n\n" in window:
                    result.is_complete = True
                    if self._finishing_from is None and self._streaming_from is not None:
                        # The first answer ended: from here the server also saves answers.
                        self._finishing_from = (_process_cpu_seconds(self._server_pid), now)
                        self._loop_finishing = _loop_cpu_seconds(self._server_pid)
                    break
                tail = window[-64:] if result.sources_ms else window
        finally:
            writer.close()
        return result

    async def _baseline(self, port: int, token: str) -> float:
        """Milliseconds to the first byte of an authenticated one-query API read."""
        head = (
            f"GET /api/assistant/threads?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Token {token}\r\nAccept: application/json\r\n"
            f"Connection: close\r\n\r\n"
        ).encode()
        started = time.monotonic()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(head)
        await writer.drain()
        try:
            data = await asyncio.wait_for(reader.read(65536), timeout=120)
            elapsed = (time.monotonic() - started) * 1000
            if not data.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(f"baseline request failed: {data[:80]!r}")
            return elapsed
        finally:
            writer.close()

    _server_pid = 0
    _awaiting_first_bytes = -1
    _all_started_cpu = 0.0
    _sourced = 0
    _streams = 0
    _streaming_from: tuple[float, float] | None = None
    _finishing_from: tuple[float, float] | None = None
    _loop_from = 0.0
    _loop_finishing = 0.0

    async def _burst(self, port: int, token: str, count: int) -> None:
        for _ in range(10):  # warm-up: imports, connections, tokenizer (each process)
            await self._stream(port, token, until_sources=True)
        await asyncio.sleep(1.0)
        self._awaiting_first_bytes = count
        cpu_before = _server_cpu_seconds(self._server_pid)
        results = await asyncio.gather(
            *(self._stream(port, token, until_sources=True) for _ in range(count))
        )
        self._awaiting_first_bytes = -1
        # What the server spent until every stream had its first byte (its share of the
        # machine aside): the admission cost, whatever the load.
        admission_cpu_ms = (self._all_started_cpu - cpu_before) * 1000
        first_bytes = [result.first_byte_ms for result in results if result.first_byte_ms]
        sources = [result.sources_ms for result in results if result.sources_ms]
        self.stdout.write(
            f"burst: {count} streams opened at once (load average {os.getloadavg()[0]:.1f}); "
            f"answered {len(first_bytes)}, reached data-sources {len(sources)}\n"
            f"  request -> first byte:   p50 {percentile(first_bytes, 0.5):.1f} ms, "
            f"p95 {percentile(first_bytes, 0.95):.1f} ms, max {max(first_bytes):.1f} ms\n"
            f"  request -> data-sources: p50 {percentile(sources, 0.5):.1f} ms, "
            f"p95 {percentile(sources, 0.95):.1f} ms, max {max(sources):.1f} ms\n"
            f"  server CPU until the last first byte: {admission_cpu_ms:.0f} ms "
            f"({admission_cpu_ms / count:.2f} ms per stream, all processes)"
        )

    async def _bench(self, port: int, token: str, options: dict[str, Any]) -> dict[str, float]:
        for _ in range(5):  # warm-up: imports, connections, tokenizer
            await self._stream(port, token, until_sources=True)
            await self._baseline(port, token)
        latency = []
        baseline = []
        for index in range(options["requests"]):
            # Alternate which goes first so neither always meets a just-woken server.
            if index % 2:
                baseline.append(await self._baseline(port, token))
            latency.append(await self._stream(port, token, until_sources=True))
            await asyncio.sleep(0.05)  # the cancelled answer settles before the next question
            if not index % 2:
                baseline.append(await self._baseline(port, token))
        first_bytes = [r.first_byte_ms for r in latency]
        sources = [r.sources_ms for r in latency]
        load = os.getloadavg()[0]
        self.stdout.write(
            f"sequential requests: {len(latency)} (load average {load:.1f})\n"
            f"  request -> first byte:   median {statistics.median(first_bytes):.1f} ms, "
            f"p95 {percentile(first_bytes, 0.95):.1f} ms\n"
            f"  request -> data-sources: median {statistics.median(sources):.1f} ms, "
            f"p95 {percentile(sources, 0.95):.1f} ms\n"
            f"  baseline (authenticated one-query GET), first byte: "
            f"median {statistics.median(baseline):.1f} ms, "
            f"p95 {percentile(baseline, 0.95):.1f} ms"
        )
        figures = {
            "first_byte_median_ms": statistics.median(first_bytes),
            "data_sources_median_ms": statistics.median(sources),
            "data_sources_p95_ms": percentile(sources, 0.95),
            "baseline_median_ms": statistics.median(baseline),
        }
        streams = options["streams"]
        if not streams:
            return figures
        ramp = options["ramp_seconds"]

        async def delayed(index: int) -> StreamResult:
            await asyncio.sleep(ramp * index / streams)
            return await self._stream(port, token)

        self._sourced, self._streams = 0, streams
        self._streaming_from = None
        self._finishing_from = None
        cpu_before = _process_cpu_seconds(self._server_pid)
        results = await asyncio.gather(*(delayed(index) for index in range(streams)))
        server_cpu = _process_cpu_seconds(self._server_pid) - cpu_before
        loop_end = _loop_cpu_seconds(self._server_pid)
        # Steady state: once every stream is delivering deltas (the ramp's retrievals are over).
        all_streaming_at = max(result.delta_times[0][1] for result in results if result.delta_times)
        lateness: list[float] = []
        steady: list[float] = []
        for result in results:
            first_index, first_arrival = result.delta_times[0]
            anchor: tuple[int, float] | None = None
            for index, arrival in result.delta_times:
                lateness.append(
                    (arrival - first_arrival - (index - first_index) * DELTA_INTERVAL_S) * 1000
                )
                if arrival < all_streaming_at + STEADY_AFTER_S:
                    continue
                # The steady window is anchored at its own first word, so lateness piled up
                # while the other streams were still being opened is not counted twice.
                anchor = anchor or (index, arrival)
                steady.append((arrival - anchor[1] - (index - anchor[0]) * DELTA_INTERVAL_S) * 1000)
        # A short run may end before its steady window starts: report it as empty (nan).
        steady_shown = steady or [float("nan")]
        complete = sum(result.is_complete for result in results)
        words = sum(len(result.delta_times) for result in results)
        streaming_cpu, streaming_words = 0.0, 0
        if self._streaming_from is not None:
            cpu_at, since = self._streaming_from
            streaming_cpu = server_cpu + cpu_before - cpu_at
            streaming_words = sum(
                1 for result in results for _index, arrival in result.delta_times if arrival > since
            )
        # Every answer retrieved and none finished yet: streaming only.
        only_cpu, only_words = 0.0, 0
        if self._streaming_from is not None and self._finishing_from is not None:
            only_cpu = self._finishing_from[0] - self._streaming_from[0]
            only_words = sum(
                1
                for result in results
                for _index, arrival in result.delta_times
                if self._streaming_from[1] < arrival <= self._finishing_from[1]
            )
        loop_after = loop_only = 0.0
        if self._streaming_from is not None:
            loop_after = (loop_end - self._loop_from) / max(streaming_words, 1)
            if self._finishing_from is not None:
                loop_only = (self._loop_finishing - self._loop_from) / max(only_words, 1)
        self.stdout.write(
            f"concurrent streams: {streams} opened over {ramp:g} s, {options['deltas']} deltas "
            f"at 30/s each; complete {complete}, dropped {streams - complete}\n"
            f"  delta lateness, all deltas: median {statistics.median(lateness):.1f} ms, "
            f"p99 {percentile(lateness, 0.99):.1f} ms, max {max(lateness):.1f} ms\n"
            f"  delta lateness, steady state with all {streams} streaming ({len(steady)} words): "
            f"median {statistics.median(steady_shown):.1f} ms, "
            f"p99 {percentile(steady_shown, 0.99):.1f} ms, "
            f"max {max(steady_shown):.1f} ms\n"
            f"  server CPU: {server_cpu:.1f} s for {words} words, "
            f"{server_cpu / max(words, 1) * 1e6:.0f} us per word (whole answers, retrieval "
            f"included); {streams} streams x 30 words/s need "
            f"{server_cpu / max(words, 1) * streams * 30:.2f} of a core\n"
            f"  server CPU once every answer had retrieved: {streaming_cpu:.1f} s for "
            f"{streaming_words} words, {streaming_cpu / max(streaming_words, 1) * 1e6:.0f} us "
            f"per word; {streams} streams x 30 words/s need "
            f"{streaming_cpu / max(streaming_words, 1) * streams * 30:.2f} of a core\n"
            f"  server CPU while every answer streamed (all retrieved, none finished): "
            f"{only_cpu:.1f} s for {only_words} words, "
            f"{only_cpu / max(only_words, 1) * 1e6:.0f} us per word\n"
            f"  of which the event loop (main thread): {loop_after * 1e6:.0f} us per word once "
            f"every answer had retrieved, {loop_only * 1e6:.0f} us per word while every "
            f"answer streamed"
        )
        figures |= {
            "lateness_all_p99_ms": percentile(lateness, 0.99),
            "lateness_steady_median_ms": statistics.median(steady) if steady else 0.0,
            "lateness_steady_p99_ms": percentile(steady, 0.99) if steady else 0.0,
            "dropped_streams": float(streams - complete),
            "cpu_per_word_us": server_cpu / max(words, 1) * 1e6,
            "cpu_per_word_after_retrieval_us": streaming_cpu / max(streaming_words, 1) * 1e6,
            "cpu_per_word_streaming_only_us": only_cpu / max(only_words, 1) * 1e6,
            "loop_cpu_per_word_after_retrieval_us": loop_after * 1e6,
            "loop_cpu_per_word_streaming_only_us": loop_only * 1e6,
        }
        return figures
