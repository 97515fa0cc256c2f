"""The Celery application; configuration comes from Django settings (``CELERY_*``)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claire.settings.dev")

app = Celery("claire")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def task_send(name: str, *, args: Sequence[object] = (), **options: Any) -> None:
    """Send the task registered as ``name`` without importing the module that defines it.

    Tasks are leaves: they import the domain, never the other way round, so domain code sends
    them by name. The registered task's own ``apply_async`` runs (eager mode and routing apply
    as for a direct call); a process that has not imported an app's ``tasks`` module yet has
    Celery import every installed app's first (its task autodiscovery, run now; not
    ``import_default_modules``, which also sets Django up again and so reconfigures logging)."""
    if name not in app.tasks:
        app.autodiscover_tasks(force=True)
    app.tasks[name].apply_async(args=list(args), **options)
