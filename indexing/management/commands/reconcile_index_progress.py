"""Recount index progress from the data (offline: full scans) and report or fix drift."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from indexing import services
from indexing.management.commands._common import user_by_email, version_by_number
from indexing.selectors import maintained_index_versions


class Command(BaseCommand):
    help = "Compare index progress counters with a recount; --fix repairs entries and counters."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", help="Only this user (email).")
        parser.add_argument("--index-version", type=int)
        parser.add_argument("--fix", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        versions = (
            [version_by_number(options["index_version"])]
            if options.get("index_version") is not None
            else maintained_index_versions()
        )
        users = (
            [user_by_email(options["user"])]
            if options.get("user")
            else list(services.users_with_messages())
        )
        checked = drifted = 0
        for version in versions:
            for user in users:
                checked += 1
                recount = services.progress_recount(user_id=user.pk, index_version_id=version.pk)
                if recount.is_consistent:
                    continue
                drifted += 1
                self.stdout.write(
                    f"{user.email} v{version.version}: stored "
                    f"{recount.stored_eligible}/{recount.stored_embedded}/{recount.stored_failed} "
                    f"counted {recount.entries}/{recount.embedded}/{recount.failed} "
                    f"(eligible/embedded/failed); missing={recount.missing_entries} "
                    f"orphan={recount.orphan_entries} stale={recount.stale_entries}"
                )
                if options["fix"]:
                    try:
                        fixed = services.progress_repair(
                            user_id=user.pk, index_version_id=version.pk
                        )
                    except services.IndexingError as error:
                        raise CommandError(str(error)) from error
                    self.stdout.write(f"  fixed: consistent={fixed.is_consistent}")
        self.stdout.write(f"Checked {checked}, drift in {drifted}.")
