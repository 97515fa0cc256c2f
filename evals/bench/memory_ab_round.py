"""One round of the memory A/B at 100k messages, read by ``manage.py shell`` of any checkout
that has ``evals.bench.memory_scale`` (so two code versions can be timed against one
database): ``FIRST_RUN`` and ``RUNS`` pick the 500-message batches (the same for every
version), ``LABEL`` names the version. Each batch is ingested in a transaction that is rolled
back; the ingest (its hooks included) and the memory job after it are timed, then
``people_ranking`` with the filters questions use, 10 times each. Prints one ``ABJSON`` line;
``evals/bench/memory_ab.sh`` alternates versions and pools the lines
(``python -m evals.bench.memory_ab_pool``). With ``BACKLOG_DAYS`` the job also has, inside the
rolled-back transaction, every chat pending from that many days before ``NOW`` (a late
catch-up: what a job left pending by the demo load redid at every batch)."""

import json
import os
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.utils import timezone

from conversations.models import Chat
from conversations.services import messages_ingest
from evals.bench import memory_scale
from fixtures.demo_corpus import build_demo_corpus
from memory import jobs, selectors
from retrieval.types import RankingKind

NOW = datetime(2026, 5, 20, 10, 0, tzinfo=UTC)
FIRST_DAY = (NOW - timedelta(days=90)).date()
first_run, runs = int(os.environ["FIRST_RUN"]), int(os.environ["RUNS"])
backlog_days = int(os.environ.get("BACKLOG_DAYS", "0"))
user = memory_scale.scale_user_ensure(messages=int(os.environ.get("MESSAGES", "100000")), now=NOW)
corpus = build_demo_corpus(now=NOW, seed=7)
memory_scale.steady_job_ensure(user=user, today=timezone.now().date())
samples: dict[str, list[float]] = {"ingest": [], "job": []}
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
        started = time.perf_counter()
        messages_ingest(user=user, chats=chats, messages=batch)
        samples["ingest"].append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        jobs.memory_job_request(user_id=user.pk)
        jobs.memory_job_run(user_id=user.pk, worker_id="bench")
        samples["job"].append((time.perf_counter() - started) * 1000)
        transaction.set_rollback(True)


def _whatsapp_90_days() -> object:
    counts = selectors.exchanged_counts_for_user(
        user=user, first_day=FIRST_DAY, last_day=NOW.date(), platforms=["whatsapp"]
    )
    return selectors.people_ranking(
        user=user,
        now=NOW,
        kind=RankingKind.MOST_MESSAGES,
        counts=counts,
        counted_since=NOW - timedelta(days=90),
        platforms=["whatsapp"],
    )


cases: dict[str, Callable[[], object]] = {
    "rank5": lambda: selectors.people_ranking(user=user, now=NOW),
    "neglected": lambda: selectors.people_ranking(user=user, now=NOW, kind=RankingKind.NEGLECTED),
    "wa90": _whatsapp_90_days,
}
for name, case in cases.items():
    case()
    samples[name] = []
    for _ in range(10):
        started = time.perf_counter()
        case()
        samples[name].append((time.perf_counter() - started) * 1000)
print("ABJSON " + json.dumps({"label": os.environ["LABEL"], "load": os.getloadavg()[0], **samples}))
