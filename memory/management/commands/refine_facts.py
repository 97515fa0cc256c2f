"""Let the ``extract`` model read a user's unread fact-bearing messages (see
``memory.refine``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from claire.accounts.models import User
from memory.refine import facts_refine


class Command(BaseCommand):
    help = (
        "Refine one user's person facts with the extract model profile (only when it names a "
        "model eligible for the user); each message is read once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", required=True, help="The user's email address.")
        parser.add_argument(
            "--max-messages",
            type=int,
            default=None,
            help="Read at most this many unread messages (default MEMORY_REFINE_MAX_MESSAGES).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(email=options["user"].strip().lower()).first()
        if user is None:
            raise CommandError("No user with that email.")
        report = facts_refine(user=user, max_messages=options["max_messages"])
        line = (
            f"{report.status}: {report.messages_read} message(s) read in {report.calls} call(s), "
            f"{report.claims_kept} fact(s) kept, {report.claims_dropped} dropped"
        )
        if report.error_code:
            line += f" ({report.error_code})"
        self.stdout.write(line)
        if report.status in ("failed", "refused", "not_eligible"):
            raise CommandError(line)
