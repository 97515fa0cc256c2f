from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from billing.services.reservations import reservations_sweep


class Command(BaseCommand):
    help = "Settle budget reservations whose lease ran out (left open by a crashed process)."

    def handle(self, *args: Any, **options: Any) -> None:
        swept = reservations_sweep(expired_before=timezone.now())
        self.stdout.write(f"Closed {swept} expired reservation(s).")
