"""Create a new index version from an embedding profile's current model.

The new version builds in parallel (ingestion maintains it from now on; ``--enqueue`` or
``backfill_embeddings --index-version N`` fills in existing messages) while the active version
keeps answering. Switch with ``index_cutover`` once it is complete.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser

from claire.ai.embeddings import NoEligibleEmbeddingModel
from indexing import dispatch, jobs, services


class Command(BaseCommand):
    help = "Create an index version from an embedding profile's model (builds in parallel)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--profile", default=settings.INDEXING_EMBED_PROFILE)
        parser.add_argument(
            "--enqueue", action="store_true", help="Queue a job per user to build it."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        profile = options["profile"]
        try:
            identity = jobs.current_model_identity(profile=profile)
        except ImproperlyConfigured as error:
            raise CommandError(f"CLAIRE_AI_CONFIG: {error}") from error
        except NoEligibleEmbeddingModel as error:
            raise CommandError(
                f"profile {profile!r}: no embedding model may serve it (see probe_models)"
            ) from error
        try:
            version = services.index_version_create(profile=profile, identity=identity)
        except services.IndexingError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            f"Created index version {version.version}: {identity.provider}/{identity.model}, "
            f"{identity.dimensions} "
            f"dimensions, {version.state}."
        )
        if options["enqueue"]:
            sent = 0
            for user in services.users_with_messages():
                sent += len(dispatch.index_jobs_enqueue(user_id=user.pk, version_ids=[version.pk]))
            self.stdout.write(f"Queued {sent} job(s).")
