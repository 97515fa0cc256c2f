"""Embed every pending message of every user (or one) into the maintained index versions.

Runs the jobs in this process by default, with a progress bar; ``--enqueue`` hands them to
the Celery workers instead. On a system without any index version yet, the first one is
created from the configured embed profile.
"""

from __future__ import annotations

import os
import socket
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from indexing import dispatch, jobs, services
from indexing.management.commands._common import user_by_email, version_by_number
from indexing.models import IndexProgress, IndexVersion
from indexing.priority import cpu_priority_lower
from indexing.selectors import maintained_index_versions, open_index_job


class Command(BaseCommand):
    help = "Embed pending messages into the maintained index versions (inline or --enqueue)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", help="Only this user (email).")
        parser.add_argument("--index-version", type=int, help="Only this version number.")
        parser.add_argument(
            "--enqueue", action="store_true", help="Queue the jobs for the workers instead."
        )
        parser.add_argument("--no-progress", action="store_true", help="No progress bars.")
        parser.add_argument(
            "--cpu-policy",
            choices=["idle", "nice", "normal"],
            default=settings.INDEXING_WORKER_CPU_POLICY,
            help="CPU priority of an inline backfill (it yields to ingestion and answers).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        versions = self._versions(options.get("index_version"))
        users = (
            [user_by_email(options["user"])]
            if options.get("user")
            else list(services.users_with_messages())
        )
        version_ids = [version.pk for version in versions]
        if options["enqueue"]:
            sent = 0
            for user in users:
                sent += len(dispatch.index_jobs_enqueue(user_id=user.pk, version_ids=version_ids))
            self.stdout.write(f"Queued {sent} job(s) for {len(users)} user(s).")
            return

        cpu_priority_lower(policy=options["cpu_policy"], niceness=settings.INDEXING_WORKER_NICENESS)
        worker_id = f"backfill:{socket.gethostname()}:{os.getpid()}"[:64]
        show = not options["no_progress"]
        started = time.monotonic()
        total_embedded = total_failed = 0
        for user in tqdm(users, desc="users", unit="user", disable=not show or len(users) < 2):
            for version in versions:
                embedded, failed = self._run_one(
                    user_id=user.pk,
                    email=user.email,
                    version=version,
                    worker_id=worker_id,
                    show=show,
                )
                total_embedded += embedded
                total_failed += failed
        elapsed = time.monotonic() - started
        self.stdout.write(
            f"Embedded {total_embedded} message(s), {total_failed} failed, in {elapsed:.1f}s."
        )
        for version in versions:
            version.refresh_from_db()
            if services.search_index_due(index_version=version):
                self.stdout.write(f"Building the vector index of version {version.version}...")
                services.index_version_search_index_build(index_version=version)
            for user in users:
                if services.user_search_index_due(user_id=user.pk, index_version=version):
                    self.stdout.write(
                        f"Building the vector index of {user.email} in version {version.version}..."
                    )
                    services.user_search_index_build(user_id=user.pk, index_version=version)

    def _versions(self, number: int | None) -> list[IndexVersion]:
        if number is not None:
            version = version_by_number(number)
            if not version.is_maintained:
                raise CommandError(f"Version {number} is {version.state}; nothing to build.")
            return [version]
        versions = maintained_index_versions()
        if versions:
            return versions
        profile = settings.INDEXING_EMBED_PROFILE
        identity = jobs.current_model_identity(profile=profile)
        version = services.index_version_create(profile=profile, identity=identity)
        self.stdout.write(
            f"Created index version {version.version} ({identity.provider}/{identity.model})."
        )
        return [version]

    def _run_one(
        self, *, user_id: int, email: str, version: IndexVersion, worker_id: str, show: bool
    ) -> tuple[int, int]:
        services.index_jobs_request(user_id=user_id, version_ids=[version.pk])
        job = open_index_job(user_id=user_id, index_version_id=version.pk)
        if job is None:
            return 0, 0
        progress = IndexProgress.objects.filter(user_id=user_id, index_version=version).first()
        bar = tqdm(
            total=progress.pending if progress else None,
            desc=f"{email} v{version.version}",
            unit="msg",
            leave=False,
            disable=not show,
        )

        def on_batch(embedded: int, failed: int) -> None:
            bar.update(embedded + failed)
            current = IndexProgress.objects.filter(user_id=user_id, index_version=version).first()
            if current is not None:
                bar.total = bar.n + current.pending
                bar.refresh()

        embedded = failed = 0
        try:
            while True:
                run = jobs.index_job_run(
                    job_id=job.pk, worker_id=worker_id, slice_seconds=0, on_batch=on_batch
                )
                embedded += run.embedded
                failed += run.failed
                if run.outcome == jobs.JobOutcome.RETRY:
                    time.sleep(run.retry_in_seconds)
                    continue
                if run.outcome == jobs.JobOutcome.NOT_CLAIMED:
                    self.stderr.write(f"{email} v{version.version}: a worker is running this job.")
                elif run.outcome == jobs.JobOutcome.FAILED:
                    self.stderr.write(f"{email} v{version.version}: failed ({run.error_code}).")
                break
        finally:
            bar.close()
        return embedded, failed
