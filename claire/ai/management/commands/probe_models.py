"""Verify what each configured model can do and store it for routing.

    python manage.py probe_models [--model KEY ...] [--routing]

Exercises every capability a model's configuration claims (streaming, usage reporting,
JSON mode, tool calls, embedding dimensions) and stores a ``ModelCapabilityRecord`` per
model. Routing uses only verified capabilities; run this after adding or changing a model.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser

from claire.ai.config import ai_config
from claire.ai.profiles import candidate_decisions
from claire.ai.services import models_probe
from claire.ai.types import DataPolicy


class Command(BaseCommand):
    help = "Probe configured AI models and store their verified capabilities."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--model",
            action="append",
            default=[],
            dest="models",
            help="Model key to probe (repeatable); all configured models by default.",
        )
        parser.add_argument(
            "--routing",
            action="store_true",
            help="Afterwards, show which candidates each profile may use and why.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            records = models_probe(model_keys=options["models"])
        except ImproperlyConfigured as error:
            raise CommandError(str(error)) from error
        for record in records:
            status = "ok" if record.is_probe_ok else f"FAILED ({record.error_code})"
            self.stdout.write(f"{record.model_key}: {status}")
            for name, check in sorted(record.checks.items()):
                self.stdout.write(f"    {name}: {json.dumps(check, sort_keys=True)}")
        if options["routing"]:
            self._show_routing()

    def _show_routing(self) -> None:
        for name, profile in sorted(ai_config().profiles.items()):
            for policy in DataPolicy:
                decisions = candidate_decisions(profile=profile, data_policy=policy)
                rendered = ", ".join(
                    f"{decision.model_key}={decision.reason}" for decision in decisions
                )
                self.stdout.write(f"{name} [{policy}]: {rendered or 'no candidates'}")
