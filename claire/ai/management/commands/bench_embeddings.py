"""Measure the local embedder's throughput on short chat messages, per backend and batch size.

    python manage.py bench_embeddings [--messages 1024] [--runs 7] [--batch-sizes 32,64,128]
        [--backends torch,onnx,onnx-int8] [--threads 2]

Prints median and p95 messages/s over the timed runs, and each non-torch backend's agreement
with the torch model (vector cosine and nearest-neighbour agreement).
"""

from __future__ import annotations

import os
from typing import Any, cast

from django.core.management.base import BaseCommand, CommandError, CommandParser

from claire.ai.bench import agreement, chat_messages, throughput
from claire.ai.local.embedder import BACKENDS, Backend


class Command(BaseCommand):
    help = "Benchmark the local MiniLM embedder on short chat messages."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--messages", type=int, default=1024)
        parser.add_argument("--runs", type=int, default=7)
        parser.add_argument("--batch-sizes", default="32,64,128")
        parser.add_argument("--backends", default=",".join(BACKENDS))
        parser.add_argument("--threads", type=int, default=2)

    def handle(self, *args: Any, **options: Any) -> None:
        backends = [name.strip() for name in options["backends"].split(",") if name.strip()]
        unknown = set(backends) - set(BACKENDS)
        if unknown:
            raise CommandError(f"unknown backends: {', '.join(sorted(unknown))}")
        batch_sizes = [int(size) for size in options["batch_sizes"].split(",")]
        messages = chat_messages(options["messages"])
        threads = options["threads"]
        self.stdout.write(
            f"{len(messages)} messages, {options['runs']} timed runs each, {threads} threads, "
            f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
        )
        self.stdout.write(
            "| backend | batch | median msg/s | p95 msg/s | slowest run msg/s "
            "| fastest run msg/s | CPU-normalized msg/s |"
        )
        self.stdout.write("|---|---|---|---|---|---|---|")
        for backend in backends:
            for batch_size in batch_sizes:
                result = throughput(
                    backend=cast(Backend, backend),
                    threads=threads,
                    messages=messages,
                    batch_size=batch_size,
                    runs=options["runs"],
                )
                self.stdout.write(
                    f"| {backend} | {batch_size} | {result.median_per_second:.0f} "
                    f"| {result.p95_per_second:.0f} | {result.worst_per_second:.0f} "
                    f"| {result.best_per_second:.0f} | {result.cpu_normalized_per_second:.0f} |"
                )
        self.stdout.write(f"load average afterwards {os.getloadavg()[0]:.2f}")
        compared = [backend for backend in backends if backend != "torch"]
        if compared:
            self.stdout.write("")
            self.stdout.write("| backend | min cosine | mean cosine | same top-1 | top-5 overlap |")
            self.stdout.write("|---|---|---|---|---|")
        for backend in compared:
            quality = agreement(backend=cast(Backend, backend), threads=threads, messages=messages)
            self.stdout.write(
                f"| {backend} | {quality.min_cosine:.4f} | {quality.mean_cosine:.4f} "
                f"| {quality.top1_neighbour_agreement:.1%} | {quality.top5_overlap:.1%} |"
            )
