"""Parallel workers keep apart (tests/workers.py): a data folder, an embedded PostgreSQL and a
test database of their own; a serial run keeps the project's data folder."""

from pathlib import Path

from django.conf import settings
from django.db import connection

from tests.workers import WORKER, worker_index


def test_a_worker_runs_on_a_data_folder_and_a_test_database_of_its_own(db):
    data_dir = Path(settings.DATA_DIR)
    if WORKER:
        assert data_dir.parent.name == "test-workers"
        assert data_dir.name == WORKER
        assert connection.settings_dict["NAME"].endswith(f"_{WORKER}")
        embedded = connection.settings_dict["OPTIONS"].get("embedded_data_dir")
        if embedded is not None:
            assert Path(embedded) == data_dir / "postgres"
        # The exported embedder is shared with the serial runs rather than exported again.
        assert (data_dir / "models").resolve() == (data_dir.parent.parent / "models").resolve()
    else:
        assert "test-workers" not in data_dir.parts
        assert worker_index() == 0
