"""Delete a non-active index version's vectors in batches and drop its vector index."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from indexing import services
from indexing.management.commands._common import version_by_number


class Command(BaseCommand):
    help = "Retire an index version that is not active (deletes its vectors in batches)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--index-version", type=int, required=True)
        parser.add_argument("--batch-size", type=int, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        version = version_by_number(options["index_version"])
        try:
            with tqdm(desc=f"retiring v{version.version}", unit="vec") as bar:
                for deleted in services.index_version_retire(
                    index_version=version, batch_size=options["batch_size"]
                ):
                    bar.update(deleted)
        except services.IndexingError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Version {version.version} is retired.")
