"""Recompute a user's personal memory from their messages: counters, loops and plans."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from claire.accounts.models import User
from conversations.models import Chat
from retrieval.memory import services


class Command(BaseCommand):
    help = "Recompute relationship counters, open loops, plans and person facts for one user."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", required=True, help="The user's email address.")

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(email=options["user"].strip().lower()).first()
        if user is None:
            raise CommandError("No user with that email.")
        counters = services.relationship_counters_rebuild(user=user)
        chat_ids = list(Chat.objects.filter(user=user).values_list("pk", flat=True))
        open_loops = services.loops_refresh(user=user, chat_ids=chat_ids)
        plans = services.plans_rebuild(user=user)
        facts = services.facts_rebuild(user=user)
        self.stdout.write(
            f"counter rows {counters}, open loops {open_loops}, plans {plans}, facts {facts}"
        )
