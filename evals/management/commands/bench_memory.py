"""Time personal-memory work on the demo corpus (figures in docs/MEMORY.md). A bench, so it
lives with the evals: product apps never import the demo ``fixtures``.

    python manage.py bench_memory [--runs 20]
    python manage.py bench_memory --messages 100000 [--runs 20]


Loads the demo corpus into a throwaway account inside a transaction that is rolled back at the
end (nothing stays), then times: the in-transaction counter update for a 500-message ingest
chunk, the deferred refresh (loops of every chat, plans, facts), and each selector the answer
engine calls. Prints median and p95 in milliseconds.

With ``--messages N`` it times a user of about N messages instead (``evals.bench.memory_scale``,
built once and kept): the memory update after each of ``--runs`` 500-message batches (each
ingested in a savepoint that is rolled back), and ``people_ranking`` with the filters questions
use.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from claire.accounts.models import User
from claire.stats import percentile
from conversations.models import Chat, Message
from conversations.services import messages_ingest
from evals.bench import memory_scale
from fixtures.demo_corpus import build_demo_corpus
from fixtures.services import demo_corpus_load
from memory import selectors, services
from retrieval.types import RankingKind

_NOW = datetime(2026, 5, 20, 10, 0, tzinfo=UTC)


def _timed(function: Callable[[], object], runs: int) -> tuple[float, float]:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples), percentile(samples, 0.95)


class Command(BaseCommand):
    help = "Time relationship counters, the memory refresh and the memory selectors."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--runs", type=int, default=20)
        parser.add_argument(
            "--messages", type=int, default=0, help="Time a user with this many messages."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        runs = max(options["runs"], 1)
        if options["messages"]:
            self._at_scale(messages=options["messages"], runs=runs)
            return
        with transaction.atomic():
            user = User.objects.create_user(
                f"bench-memory-{time.time_ns()}@askclaire.local", None, first_name="Sam"
            )
            demo_corpus_load(user=user, corpus=build_demo_corpus(now=_NOW, seed=7))
            chat_ids = list(Chat.objects.filter(user=user).values_list("pk", flat=True))
            chunk = list(
                Message.objects.filter(user=user).order_by("pk").values_list("pk", flat=True)[:500]
            )

            def counters_round_trip() -> None:
                services.relationship_counters_apply(user=user, created_ids=chunk, deleted_ids=())
                services.relationship_counters_apply(user=user, created_ids=(), deleted_ids=chunk)

            cases: list[tuple[str, Callable[[], object], int]] = [
                ("counters, 500-message chunk (apply + revert)", counters_round_trip, runs),
                (
                    "memory_refresh (every chat, plans, facts)",
                    lambda: services.memory_refresh(user=user, chat_ids=chat_ids),
                    max(runs // 4, 1),
                ),
                (
                    "people_ranking(limit=5)",
                    lambda: selectors.people_ranking(user=user, now=_NOW),
                    runs,
                ),
                (
                    "plans_for_user(terms=[taberna])",
                    lambda: selectors.plans_for_user(user=user, terms=["taberna"]),
                    runs,
                ),
                ("open_loops_for_user()", lambda: selectors.open_loops_for_user(user=user), runs),
                (
                    "identity_lookup(Russian, Mexico City)",
                    lambda: selectors.identity_lookup(
                        user=user, descriptors=["Russian"], city="Mexico City"
                    ),
                    runs,
                ),
            ]
            for label, function, count in cases:
                median, p95 = _timed(function, count)
                self.stdout.write(
                    f"{label:48s} median {median:8.1f} ms  p95 {p95:8.1f} ms  ({count} runs)"
                )
            transaction.set_rollback(True)

    def _at_scale(self, *, messages: int, runs: int) -> None:
        user = memory_scale.scale_user_ensure(messages=messages, now=_NOW)
        total = Message.objects.filter(user=user).count()
        self.stdout.write(f"user with {total} messages")
        corpus = build_demo_corpus(now=_NOW, seed=7)
        memory_scale.steady_job_ensure(user=user, today=timezone.now().date())
        for label, update in memory_scale.UPDATES.items():
            samples = []
            for run in range(runs):
                chats, batch = memory_scale.next_batch(corpus=corpus, run=run)
                with transaction.atomic():
                    messages_ingest(user=user, chats=chats, messages=batch)
                    started = time.perf_counter()
                    update(user, batch)
                    samples.append((time.perf_counter() - started) * 1000)
                    transaction.set_rollback(True)
            self._line(f"update after 500 messages: {label}", samples)
        now = _NOW
        first_day = (now - timedelta(days=90)).date()
        cases: list[tuple[str, Callable[[], object]]] = [
            ("people_ranking(limit=5)", lambda: selectors.people_ranking(user=user, now=now)),
            (
                "people_ranking(neglected)",
                lambda: selectors.people_ranking(user=user, now=now, kind=RankingKind.NEGLECTED),
            ),
            (
                "people_ranking(90 days, whatsapp counts)",
                lambda: selectors.people_ranking(
                    user=user,
                    now=now,
                    kind=RankingKind.MOST_MESSAGES,
                    counts=selectors.exchanged_counts_for_user(
                        user=user, first_day=first_day, last_day=now.date(), platforms=["whatsapp"]
                    ),
                    counted_since=now - timedelta(days=90),
                    platforms=["whatsapp"],
                ),
            ),
        ]
        for label, function in cases:
            samples = []
            for _ in range(runs):
                started = time.perf_counter()
                function()
                samples.append((time.perf_counter() - started) * 1000)
            self._line(label, samples)

    def _line(self, label: str, samples: list[float]) -> None:
        self.stdout.write(
            f"{label:56s} median {statistics.median(samples):8.1f} ms  "
            f"p95 {percentile(samples, 0.95):8.1f} ms  ({len(samples)} runs)"
        )
