"""Recompute a user's personal memory from their messages: counters, loops and plans."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from claire.accounts.models import User
from memory import services


class Command(BaseCommand):
    help = "Recompute relationship counters, open loops, plans and person facts for one user."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", required=True, help="The user's email address.")

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(email=options["user"].strip().lower()).first()
        if user is None:
            raise CommandError("No user with that email.")
        rebuilt = services.memory_rebuild(user=user)
        self.stdout.write(
            f"counter rows {rebuilt.counter_rows}, open loops {rebuilt.open_loops}, "
            f"plans {rebuilt.plans}, facts {rebuilt.facts}"
        )
