"""Where the memory job's time goes at 100k messages (docs/MEMORY.md), read by ``manage.py
shell`` with the bench database's environment exported:

    RUNS=3 FIRST_RUN=0 [BACKLOG_DAYS=182] python manage.py shell < evals/bench/memory_profile.py

Each batch is ingested in a transaction that is rolled back, as in ``memory_ab_round``; the
job after it runs under ``cProfile`` and ``connection.execute_wrapper``. Prints the job times,
every SQL statement's count, time and rows summed by the memory or conversations line that
issued it, and the functions by cumulative time (``TOP`` lines)."""

import cProfile
import os
import pstats
import time
import traceback
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from conversations.models import Chat
from conversations.services import messages_ingest
from evals.bench import memory_scale
from fixtures.demo_corpus import build_demo_corpus
from memory import jobs

NOW = datetime(2026, 5, 20, 10, 0, tzinfo=UTC)
first_run, runs = int(os.environ.get("FIRST_RUN", "0")), int(os.environ.get("RUNS", "3"))
backlog_days = int(os.environ.get("BACKLOG_DAYS", "0"))
user = memory_scale.scale_user_ensure(messages=int(os.environ.get("MESSAGES", "100000")), now=NOW)
corpus = build_demo_corpus(now=NOW, seed=7)
memory_scale.steady_job_ensure(user=user, today=timezone.now().date())
# [statements, seconds, rows] by the line that issued them.
statements: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0])


def _issuer() -> str:
    for frame in reversed(traceback.extract_stack()[:-3]):
        if "/memory/" in frame.filename or "/conversations/" in frame.filename:
            return f"{Path(frame.filename).name}:{frame.lineno} {frame.name}"
    return "?"


def _timed(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    started = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        entry = statements[_issuer()]
        entry[0] += 1
        entry[1] += time.perf_counter() - started
        entry[2] += max(context["cursor"].rowcount, 0)


profile = cProfile.Profile()
job_ms = []
for run in range(first_run, first_run + runs):
    chats, batch = memory_scale.next_batch(corpus=corpus, run=run)
    with transaction.atomic():
        if backlog_days:
            jobs.memory_job_mark_dirty(
                user_id=user.pk,
                chat_ids=set(Chat.objects.filter(user=user).values_list("pk", flat=True)),
                since=NOW - timedelta(days=backlog_days),
                facts=True,
            )
        messages_ingest(user=user, chats=chats, messages=batch)
        jobs.memory_job_request(user_id=user.pk)
        with connection.execute_wrapper(_timed):
            started = time.perf_counter()
            profile.enable()
            jobs.memory_job_run(user_id=user.pk, worker_id="profile")
            profile.disable()
            job_ms.append(round((time.perf_counter() - started) * 1000))
        transaction.set_rollback(True)
print(f"job ms {job_ms}, load average {os.getloadavg()[0]:.1f}")
count = sum(int(entry[0]) for entry in statements.values())
print(f"SQL: {count} statements, {sum(e[1] for e in statements.values()) * 1000:.0f} ms")
for issuer, (number, seconds, rows) in sorted(statements.items(), key=lambda kv: -kv[1][1]):
    print(f"{seconds * 1000:9.1f} ms {int(number):5d} statements {int(rows):7d} rows  {issuer}")
pstats.Stats(profile).sort_stats("cumulative").print_stats(int(os.environ.get("TOP", "40")))
