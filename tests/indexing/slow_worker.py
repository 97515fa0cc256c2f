"""A real Celery worker whose hash embedder answers slowly (``TEST_EMBED_DELAY_S`` seconds per
provider request), so that a test can kill it in the middle of a batch.

Run as ``python -m tests.indexing.slow_worker <queue> <node name>`` with the environment of
the test (database name, REDIS_URL, AI configuration). The slow model is installed with the
runtime's ``models_overridden`` seam before the pool forks, so every child inherits it.
"""

from __future__ import annotations

import os
import sys


def main() -> None:
    queue, node = sys.argv[1], sys.argv[2]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claire.settings.dev")
    import django

    django.setup()
    from claire.ai.registry import models_overridden
    from claire.celery import app
    from tests.indexing.embedders import SlowEmbedder

    delay = float(os.environ["TEST_EMBED_DELAY_S"])
    with models_overridden({"local/hash-embed": SlowEmbedder(delay)}):
        app.worker_main(
            [
                "worker",
                "--queues",
                queue,
                "--hostname",
                node,
                "--concurrency",
                "1",
                "--pool",
                "prefork",
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ]
        )


if __name__ == "__main__":
    main()
