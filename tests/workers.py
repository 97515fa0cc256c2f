"""A data folder of its own for each pytest-xdist worker (a pytest plugin).

Loaded before Django reads its settings (``-p tests.workers`` in pyproject's pytest
``addopts``). In a parallel run (``pytest -n 2``) every worker ``gwN`` gets
``CLAIRE_DATA_DIR=<data folder>/test-workers/gwN``, so it has:

- its own embedded PostgreSQL (``.../gwN/postgres``) holding its own test database
  (``test_claire_gwN``, the suffix is pytest-django's). The chaos and restart tests restart
  their server (``pg_ctl restart``), which on a shared server would cut the other workers'
  connections mid-test;
- its own Celery filesystem broker (``.../gwN/celery``): the tests that run a real Celery
  worker would otherwise consume each other's tasks and run them on the wrong database;
- the exported ONNX embedder shared with the serial runs (``models`` is a link to the data
  folder's ``models``; exports are written under a per-process name and renamed, so workers
  exporting at the same time do not clash).

Subprocesses the tests start (daphne, Celery workers, manage.py) inherit the variable and so
find their worker's server. A run without ``-n`` keeps the data folder as it is. The worker
folders are kept between runs: with ``--reuse-db`` each worker finds its migrated test database
there. Redis is kept apart per worker by ``tests/redis_server.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def worker_index() -> int:
    """0 for ``gw0`` (and for a run without workers), 1 for ``gw1``, and so on."""
    return int(WORKER[2:]) if WORKER.startswith("gw") else 0


def _worker_data_dir_set() -> None:
    base = Path(os.environ.get("CLAIRE_DATA_DIR", str(ROOT / ".data")))
    worker_dir = base / "test-workers" / WORKER
    worker_dir.mkdir(parents=True, exist_ok=True)
    (base / "models").mkdir(exist_ok=True)
    models = worker_dir / "models"
    if not models.is_symlink() and not models.exists():
        models.symlink_to(base / "models", target_is_directory=True)
    os.environ["CLAIRE_DATA_DIR"] = str(worker_dir)


if WORKER:
    _worker_data_dir_set()
