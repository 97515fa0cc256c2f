"""The whole answer path on a large corpus (docs/PERFORMANCE.md records the figures).

    CLAIRE_DATABASE_NAME=answer_bench \\
    python manage.py bench_answer [--messages 1000000] [--largest 100000] [--users 11]
                                  [--embedded-users 1] [--questions 100] [--streams 200]
                                  [--requests 100] [--json PATH]

1. The corpus: the retrieval bench's (``evals.bench.build``), built on first use in a database
   whose name contains "bench" and reused after. The largest user is the timed one; the first
   ``--embedded-users`` users get the embed profile's vectors (MiniLM by default), the others
   hashed-word vectors of the same dimensions.
2. ``retrieve()`` as the answer runs it (``assistant.answering.retrieval_run``: compile, both
   search legs, personal memory, the relevance gate, windows and the evidence pack), in this
   process, for every question, "now" being the end of the corpus: idle, then again while the
   server below streams (the server process and this one share the machine and the database).
3. The served path: daphne on a free port, the ``answer`` profile on the scripted mock model
   (30 words per second). ``--streams`` answers keep streaming in the background (a finished
   one is replaced) while ``--requests`` questions are asked one after the other; for each, the
   client times request -> first byte, -> ``data-sources`` and -> first ``text-delta``, then
   hangs up (the server cancels that answer). Questions whose meaning depends on today's date
   ("last week", "catch me up") are left out of this part: the server answers as of today, and
   the corpus ends on a fixed date.

The report gives p50/p95 of each figure, the background streams' delta lateness and the
server's CPU time; ``--json`` writes the same figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.utils import timezone
from rest_framework.authtoken.models import Token

from assistant import answering
from assistant.services import thread_create
from assistant.types import AskRequest, Scope
from claire.accounts.models import User
from claire.stats import percentile
from evals.bench.build import CORPUS_END, corpus_ensure
from evals.bench.questions import bench_questions

WORDS_PER_SECOND = 30
# A mock word in a text delta: the stream may carry its space in the next delta ("w0", " w1").
_WORD_INDEX = re.compile(rb'(?<![\w/])w(\d+)(?=[ "])')
# Questions that mean something else on another day than the corpus's last one.
_DATE_RELATIVE = ("last week", "last month", "this week", "catch me up", "what did i miss")


@dataclass
class Timed:
    first_byte_ms: float = 0.0
    sources_ms: float = 0.0
    first_text_ms: float = 0.0
    # Whether the first text came from the model (a deterministic answer, such as the
    # no-evidence one, streams no model words).
    from_model: bool = False


@dataclass
class Background:
    """The background streams: each word's lateness against its 30-per-second schedule."""

    lateness_ms: list[float] = field(default_factory=list)
    completed: int = 0
    dropped: int = 0
    words: int = 0


def _summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"count": 0, "p50": float("nan"), "p95": float("nan")}
    return {
        "count": len(values),
        "p50": statistics.median(values),
        "p95": percentile(values, 0.95),
    }


def _process_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Command(BaseCommand):
    help = "Time retrieve() and request -> data-sources -> first text under concurrent streams."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--messages", type=int, default=1_000_000)
        parser.add_argument("--largest", type=int, default=100_000)
        parser.add_argument("--users", type=int, default=11)
        parser.add_argument("--embedded-users", type=int, default=1)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--questions", type=int, default=100)
        parser.add_argument("--streams", type=int, default=200)
        parser.add_argument("--requests", type=int, default=100)
        parser.add_argument(
            "--ramp-seconds", type=float, default=10.0, help="Open the streams over this long."
        )
        parser.add_argument(
            "--settle-seconds",
            type=float,
            default=5.0,
            help="Wait this long after the last stream opened before timing.",
        )
        parser.add_argument(
            "--answer-seconds",
            type=float,
            default=60.0,
            help="How long each background answer streams (then a new one starts).",
        )
        parser.add_argument("--json", dest="json_path", default="", help="Also write figures here.")

    def handle(self, *args: Any, **options: Any) -> None:
        database = connection.settings_dict["NAME"]
        # A bench database, or the test run's own (Django names those test_*).
        if "bench" not in database and not database.startswith("test_"):
            raise CommandError(
                f"Refusing to run on database {database!r}: set CLAIRE_DATABASE_NAME (or "
                "DATABASE_URL) to a throw-away database whose name contains 'bench'."
            )
        call_command("migrate", verbosity=0)
        users, version = corpus_ensure(
            total=options["messages"],
            largest=options["largest"],
            users=options["users"],
            seed=options["seed"],
            embedded_users=options["embedded_users"],
            report=self.stdout.write,
        )
        if version is None:
            raise CommandError("The bench database has users but no active index version.")
        user = users[0]
        questions = bench_questions(count=options["questions"], seed=options["seed"])
        served = [q for q in questions if not any(mark in q.lower() for mark in _DATE_RELATIVE)]
        token, _ = Token.objects.get_or_create(user=user)
        thread = thread_create(user=user, request=self._request(questions[0]))
        figures: dict[str, Any] = {
            "database": database,
            "messages": self._count("SELECT count(*) FROM conversations_message"),
            "timed_user_messages": self._count(
                "SELECT count(*) FROM conversations_message WHERE user_id = %s", user.pk
            ),
            "index_model": version.model,
            "questions": len(questions),
            "served_questions": len(served),
            "streams": options["streams"],
        }
        # Warm caches and the embedder as a running server would be.
        self._retrieval_times(user, thread, questions[:10])
        figures["retrieve_idle_ms"] = _summary(self._retrieval_times(user, thread, questions))
        connection.close()
        with self._server(options["answer_seconds"]) as (port, pid):
            figures |= asyncio.run(
                self._under_load(
                    port=port,
                    pid=pid,
                    token=token.key,
                    user=user,
                    thread=thread,
                    questions=questions,
                    served=served,
                    options=options,
                )
            )
        figures["load_average"] = list(os.getloadavg())
        self._report(figures)
        if options["json_path"]:
            with Path(options["json_path"]).open("w", encoding="utf-8") as handle:
                json.dump(figures, handle, indent=2)

    # --- retrieve() in this process -------------------------------------------------------------

    def _retrieval_times(self, user: User, thread: Any, questions: list[str]) -> list[float]:
        """Milliseconds of ``retrieval_run`` per question, "now" being the corpus's end."""
        end = CORPUS_END.astimezone(UTC)
        times = []
        with mock.patch.object(timezone, "now", return_value=end):
            for question in questions:
                request = self._request(question)
                started = time.perf_counter()
                answering.retrieval_run(user=user, request=request, thread=thread)
                times.append((time.perf_counter() - started) * 1000)
        connection.close()
        return times

    @staticmethod
    def _request(question: str) -> AskRequest:
        return AskRequest(request_id=str(uuid.uuid4()), question=question, scope=Scope("global"))

    # --- the served path ------------------------------------------------------------------------

    @contextlib.contextmanager
    def _server(self, answer_seconds: float) -> Iterator[tuple[int, int]]:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        # Each background answer streams this long; a finished one is replaced by a new one.
        # The server keeps this process's inline AI configuration (its embed profile: the
        # corpus's vectors) with the answer profile on the scripted mock.
        inline = os.environ.get("CLAIRE_AI_CONFIG", "").strip()
        external = json.loads(inline) if inline.startswith("{") else {}
        words = [f"w{i} " for i in range(int(WORDS_PER_SECOND * answer_seconds))]
        model = {
            "models": {
                **external.get("models", {}),
                "local/mock": {"options": {"deltas": words, "delta_delay_s": 1 / WORDS_PER_SECOND}},
            },
            "profiles": {
                **external.get("profiles", {}),
                "answer": {"candidates": ["local/mock"]},
            },
        }
        database = connection.settings_dict["NAME"]
        database_url = os.environ.get("DATABASE_URL", "")
        if database_url:
            database_url = urlsplit(database_url)._replace(path=f"/{database}").geturl()
        server = subprocess.Popen(  # noqa: S603 - our own server, fixed arguments
            [
                *(sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)),
                *("--verbosity", "0", "claire.asgi:application"),
            ],
            cwd=Path(settings.BASE_DIR),
            env={
                **os.environ,
                # The server uses this command's database, whatever the environment names.
                "CLAIRE_DATABASE_NAME": database,
                "DATABASE_URL": database_url,
                "CLAIRE_DATA_DIR": str(settings.DATA_DIR),
                "CLAIRE_AI_CONFIG": json.dumps(model),
                "LOG_LEVEL": "WARNING",
                # One bench user asks every question: its own limits would refuse them.
                "RATE_LIMIT_ASK": "1000000/60",
                "ASSISTANT_MAX_CONCURRENT_STREAMS": "0",
                "SERVER_MAX_INCOMPLETE_REQUESTS": "100000",
            },
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise CommandError("the server did not start") from None
                    time.sleep(0.2)
            yield port, server.pid
        finally:
            server.terminate()
            server.wait(timeout=30)

    async def _open(self, port: int, token: str, question: str) -> tuple[Any, Any, float]:
        body = json.dumps(
            {"requestId": str(uuid.uuid4()), "question": question, "scope": {"mode": "global"}}
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
        return reader, writer, started

    async def _timed(self, port: int, token: str, question: str) -> Timed:
        """One question, timed up to its first text; then the client hangs up."""
        result = Timed()
        reader, writer, started = await self._open(port, token, question)
        window = b""
        try:
            while not result.first_text_ms:
                data = await asyncio.wait_for(reader.read(65536), timeout=120)
                now = time.monotonic()
                if not data:
                    break
                result.first_byte_ms = result.first_byte_ms or (now - started) * 1000
                window += data
                if not result.sources_ms and b'"type":"data-sources"' in window:
                    result.sources_ms = (now - started) * 1000
                if b'"type":"text-delta"' in window:
                    result.first_text_ms = (now - started) * 1000
                    result.from_model = bool(_WORD_INDEX.search(window))
        finally:
            writer.close()
        return result

    async def _background(
        self, port: int, token: str, question: str, stats: Background, stop: asyncio.Event
    ) -> None:
        """One stream after another until ``stop``; each word's lateness is its arrival minus
        (the first word's arrival + its index / 30 s)."""
        while not stop.is_set():
            reader, writer, _ = await self._open(port, token, question)
            first: tuple[int, float] | None = None
            tail = b""
            try:
                while not stop.is_set():
                    data = await asyncio.wait_for(reader.read(65536), timeout=120)
                    now = time.monotonic()
                    if not data:
                        stats.dropped += 1
                        break
                    window = tail + data
                    # A word cut between two reads is not counted.
                    for index in _WORD_INDEX.findall(data):
                        index = int(index)
                        first = first or (index, now)
                        expected = first[1] + (index - first[0]) / WORDS_PER_SECOND
                        stats.lateness_ms.append((now - expected) * 1000)
                        stats.words += 1
                    if b"data: [DONE]" in window:
                        stats.completed += 1
                        break
                    tail = window[-32:]
            except (TimeoutError, ConnectionError):
                stats.dropped += 1
            finally:
                writer.close()

    async def _under_load(
        self,
        *,
        port: int,
        pid: int,
        token: str,
        user: User,
        thread: Any,
        questions: list[str],
        served: list[str],
        options: dict[str, Any],
    ) -> dict[str, Any]:
        for question in served[:5]:  # warm-up: imports, connections, the embedder
            await self._timed(port, token, question)
        idle = [await self._timed(port, token, question) for question in served[:20]]
        # The background streams must stream: only questions the model answered qualify.
        streaming = [q for q, timed in zip(served[:20], idle, strict=True) if timed.from_model]
        if not streaming:
            raise CommandError(
                "No question was answered by the model (each got a deterministic answer), "
                "so no background stream would stream; try more --questions or a larger corpus."
            )
        stop = asyncio.Event()
        stats = Background()
        streams = options["streams"]
        ramp = options["ramp_seconds"]

        async def delayed(index: int) -> None:
            await asyncio.sleep(ramp * index / max(streams, 1))
            await self._background(port, token, streaming[index % len(streaming)], stats, stop)

        background = [asyncio.ensure_future(delayed(index)) for index in range(streams)]
        # Every stream is open and past its retrieval before anything is timed.
        await asyncio.sleep(ramp + options["settle_seconds"])
        words_before, cpu_before, since = stats.words, _process_cpu_seconds(pid), time.monotonic()
        lateness_from = len(stats.lateness_ms)
        timed = []
        for index in range(options["requests"]):
            timed.append(await self._timed(port, token, served[index % len(served)]))
            await asyncio.sleep(0.05)
        retrieve_loaded = await asyncio.to_thread(
            self._retrieval_times, user, thread, questions[: max(20, len(questions) // 2)]
        )
        cpu = _process_cpu_seconds(pid) - cpu_before
        elapsed = time.monotonic() - since
        words = stats.words - words_before
        stop.set()
        for task in background:
            task.cancel()
        await asyncio.gather(*background, return_exceptions=True)
        lateness = stats.lateness_ms[lateness_from:]
        return {
            "served_idle": {
                "first_byte_ms": _summary([r.first_byte_ms for r in idle]),
                "data_sources_ms": _summary([r.sources_ms for r in idle if r.sources_ms]),
                "first_text_ms": _summary([r.first_text_ms for r in idle if r.first_text_ms]),
            },
            "served_under_load": {
                "first_byte_ms": _summary([r.first_byte_ms for r in timed]),
                "data_sources_ms": _summary([r.sources_ms for r in timed if r.sources_ms]),
                "first_text_ms": _summary([r.first_text_ms for r in timed if r.first_text_ms]),
                "answered": sum(1 for r in timed if r.first_text_ms),
            },
            "retrieve_under_load_ms": _summary(retrieve_loaded),
            "background": {
                "lateness_p50_ms": statistics.median(lateness) if lateness else float("nan"),
                "lateness_p99_ms": percentile(lateness, 0.99) if lateness else float("nan"),
                "words": words,
                "dropped": stats.dropped,
                "server_cpu_s": cpu,
                "server_cpu_per_word_us": cpu / max(words, 1) * 1e6,
                "seconds": elapsed,
            },
        }

    # --- report ---------------------------------------------------------------------------------

    def _report(self, figures: dict[str, Any]) -> None:
        def line(name: str, summary: dict[str, float]) -> str:
            return (
                f"  {name}: p50 {summary['p50']:.1f} ms, p95 {summary['p95']:.1f} ms "
                f"({summary['count']:.0f})"
            )

        idle, loaded = figures["served_idle"], figures["served_under_load"]
        background = figures["background"]
        self.stdout.write(
            "\n".join(
                [
                    f"corpus: {figures['messages']} messages, timed user "
                    f"{figures['timed_user_messages']} ({figures['index_model']} vectors)",
                    f"retrieve() ({figures['questions']} questions, in process):",
                    line("idle", figures["retrieve_idle_ms"]),
                    line(f"under {figures['streams']} streams", figures["retrieve_under_load_ms"]),
                    f"served ({figures['served_questions']} questions), idle:",
                    line("request -> first byte", idle["first_byte_ms"]),
                    line("request -> data-sources", idle["data_sources_ms"]),
                    line("request -> first text", idle["first_text_ms"]),
                    f"served under {figures['streams']} concurrent streams "
                    f"({loaded['answered']} answered):",
                    line("request -> first byte", loaded["first_byte_ms"]),
                    line("request -> data-sources", loaded["data_sources_ms"]),
                    line("request -> first text", loaded["first_text_ms"]),
                    f"background streams: {background['words']} words in "
                    f"{background['seconds']:.0f} s, lateness p50 "
                    f"{background['lateness_p50_ms']:.1f} ms, p99 "
                    f"{background['lateness_p99_ms']:.1f} ms, dropped {background['dropped']}; "
                    f"server CPU {background['server_cpu_per_word_us']:.0f} us per word",
                    f"load average {' '.join(f'{v:.2f}' for v in figures['load_average'])}",
                ]
            )
        )

    @staticmethod
    def _count(sql: str, *params: int) -> int:
        with connection.cursor() as cursor:
            cursor.execute(sql, list(params))
            return int(cursor.fetchone()[0])
