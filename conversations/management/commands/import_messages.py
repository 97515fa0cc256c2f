"""Import a chat export (WhatsApp, Telegram Desktop, Slack or the neutral JSONL) for one user.

    python manage.py import_messages --user EMAIL --format FORMAT PATH [--self NAME]

Formats and their rules are in docs/IMPORT_FORMATS.md. A file imports in one transaction, so
a malformed line stops the import with ``<path>:<line>: <problem>`` and writes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from zoneinfo import available_timezones

from django.core.management.base import BaseCommand, CommandError, CommandParser, OutputWrapper
from django.db import DatabaseError
from tqdm import tqdm

from claire.accounts.models import User
from conversations.importers import ImportFormatError
from conversations.importers.base import DATE_ORDERS
from conversations.importing import IMPORT_FORMATS, import_file


class _ProgressStream:
    """Lets tqdm redraw its line on the command's stderr (which would add a newline)."""

    def __init__(self, stream: OutputWrapper) -> None:
        self.stream = stream

    def write(self, text: str) -> None:
        self.stream.write(text, ending="")

    def flush(self) -> None:
        self.stream.flush()


class Command(BaseCommand):
    help = "Import a WhatsApp, Telegram, Slack or JSONL message export for one user."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the export file, folder or zip")
        parser.add_argument("--user", required=True, help="email of the user who owns the data")
        parser.add_argument("--format", required=True, choices=IMPORT_FORMATS)
        parser.add_argument(
            "--self",
            dest="self_name",
            default="",
            help="the sender who is the user (their messages are marked as their own)",
        )
        parser.add_argument(
            "--timezone",
            default="",
            help="IANA zone of times written without an offset (default: the user's timezone)",
        )
        parser.add_argument(
            "--date-order",
            choices=DATE_ORDERS,
            default="auto",
            help="WhatsApp: day/month order of dates (default: detected from the file)",
        )
        parser.add_argument(
            "--progress",
            action="store_true",
            help="show the progress bar even when stderr is not a terminal",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["path"])
        if not path.exists():
            raise CommandError(f"{path}: no such file or directory")
        if options["timezone"] and options["timezone"] not in available_timezones():
            raise CommandError(f"{options['timezone']!r} is not an IANA timezone name.")
        user = User.objects.filter(email__iexact=options["user"].strip()).first()
        if user is None:
            raise CommandError(f"No user with email {options['user']!r}.")

        with tqdm(
            file=_ProgressStream(self.stderr),
            disable=not (options["progress"] or self.stderr.isatty()),
            unit=" messages",
            desc=path.name,
        ) as bar:

            def advance(done: int, total: int | None) -> None:
                if bar.total != total:
                    bar.total = total
                bar.update(done - bar.n)

            try:
                summary = import_file(
                    user=user,
                    format=options["format"],
                    path=path,
                    self_name=options["self_name"],
                    timezone=options["timezone"],
                    date_order=options["date_order"],
                    progress=advance,
                )
            except ImportFormatError as error:
                raise CommandError(str(error)) from error
            except (ValueError, OverflowError, RecursionError, DatabaseError) as error:
                # Input no check above foresaw: one line, never a traceback (nor a value
                # from the file, which may be private).
                raise CommandError(
                    f"{path}: the import failed ({type(error).__name__}); nothing was imported"
                ) from error
        self.stdout.write(summary.describe())
        for warning in summary.warnings:
            self.stderr.write(f"warning: {warning}")
