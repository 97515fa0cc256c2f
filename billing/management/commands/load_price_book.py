from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from billing.errors import PriceBookInvalid
from billing.money import format_micro_usd
from billing.price_files import price_file_read
from billing.services.price_books import price_book_create
from billing.services.pricing import price_book_in_force


class Command(BaseCommand):
    help = (
        "Create a new price book version from a JSON or TOML file of entries. By default the "
        "entries of the version in force are kept and the file's entries added or replaced."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path)
        parser.add_argument(
            "--effective-from",
            help="ISO 8601 time with offset; default: the file's effective_from, else now.",
        )
        parser.add_argument("--note", default=None, help="Overrides the file's note.")
        parser.add_argument(
            "--only-file",
            action="store_true",
            help="The new version holds only the file's entries (models not listed stop "
            "having a price and cannot run).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["path"]
        if not path.is_file():
            raise CommandError(f"No such file: {path}")
        try:
            price_file = price_file_read(path)
            effective_from = price_file.effective_from or timezone.now()
            if options["effective_from"]:
                parsed = parse_datetime(options["effective_from"])
                if parsed is None or parsed.tzinfo is None:
                    raise CommandError("--effective-from needs an ISO 8601 time with offset.")
                effective_from = parsed
            book = price_book_create(
                entries=price_file.entries,
                effective_from=effective_from,
                note=options["note"] if options["note"] is not None else price_file.note,
                inherit_from=None
                if options["only_file"]
                else price_book_in_force(at=timezone.now()),
            )
        except PriceBookInvalid as error:
            raise CommandError(str(error.detail)) from None
        self.stdout.write(
            f"Created price book v{book.version} with {book.entries.count()} entries, "
            f"effective from {book.effective_from.isoformat()}."
        )
        for entry in book.entries.order_by("provider", "model"):
            self.stdout.write(
                f"  {entry.provider}/{entry.model}: "
                f"input {format_micro_usd(entry.input_micro_usd_per_million)}/M, "
                f"cached {format_micro_usd(entry.cached_input_micro_usd_per_million)}/M, "
                f"output {format_micro_usd(entry.output_micro_usd_per_million)}/M, "
                f"embedding {format_micro_usd(entry.embedding_micro_usd_per_million)}/M, "
                f"step reserve {format_micro_usd(entry.step_reserve_micro_usd)}"
            )
