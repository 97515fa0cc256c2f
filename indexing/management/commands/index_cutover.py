"""Switch searches to a complete index version, and optionally retire the previous one.

Cutover is global: it is refused while any user's index in the new version is incomplete
(``--check`` lists them). The previous version stops being maintained at once; ``--retire-old``
then deletes its vectors in batches (or later: ``index_version_retire``).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from indexing import services
from indexing.management.commands._common import version_by_number
from indexing.models import IndexVersion, IndexVersionState


class Command(BaseCommand):
    help = "Make a complete building index version the active one."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--to-version", type=int, required=True)
        parser.add_argument("--retire-old", action="store_true")
        parser.add_argument(
            "--check", action="store_true", help="Only list users blocking the cutover."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        version = version_by_number(options["to_version"])
        if options["check"]:
            self._check(version)
            return
        try:
            previous = services.index_cutover(to_version=version)
        except services.IndexingError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Version {version.version} is active.")
        if previous is None:
            return
        if not options["retire_old"]:
            self.stdout.write(
                f"Version {previous.version} is retiring; delete its vectors with "
                f"index_version_retire --index-version {previous.version}."
            )
            return
        with tqdm(desc=f"retiring v{previous.version}", unit="vec") as bar:
            for deleted in services.index_version_retire(index_version=previous):
                bar.update(deleted)
        self.stdout.write(f"Version {previous.version} is retired.")

    def _check(self, version: IndexVersion) -> None:
        """Exits non-zero while the cutover would be refused, so scripts can wait on it."""
        if version.state == IndexVersionState.ACTIVE:
            self.stdout.write(f"Version {version.version} is already active: nothing to do.")
            return
        if version.state != IndexVersionState.BUILDING:
            raise CommandError(
                f"Version {version.version} is {version.state}: only a building version can "
                "become active."
            )
        blockers = services.cutover_blockers(index_version=version)
        for blocker in blockers:
            progress = (
                f"{blocker.embedded + blocker.failed}/{blocker.eligible} embedded"
                if blocker.is_seeded
                else "not seeded yet"
            )
            cause = f"; job failed: {blocker.job_error}" if blocker.job_error else ""
            self.stdout.write(f"user {blocker.user_id}: {progress}{cause}")
        if blockers:
            stalled = sum(1 for blocker in blockers if blocker.job_error)
            hint = (
                f" {stalled} stalled on a failed job: fix its cause (a worker must run with "
                "the CLAIRE_AI_CONFIG the version was created with), then "
                f"backfill_embeddings --index-version {version.version} --enqueue."
                if stalled
                else " Workers are building it; check again later."
            )
            raise CommandError(f"{len(blockers)} user(s) incomplete.{hint}")
        self.stdout.write(f"Ready for cutover to version {version.version}.")
