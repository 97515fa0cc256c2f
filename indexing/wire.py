"""The index status's one wire format (camelCase), shown by ``GET /api/index/status`` and sent
with every answer's sources (``indexStatus``)."""

from __future__ import annotations

from indexing.selectors import IndexStatus


def index_status_wire(status: IndexStatus | None) -> dict[str, object]:
    """``status`` as clients read it; a user with no index version yet is ``not_started``."""
    if status is None:
        return {"state": "not_started", "eligible": 0, "embedded": 0, "failed": 0, "pending": 0}
    return {
        "version": status.version,
        "provider": status.provider,
        "model": status.model,
        "dimensions": status.dimensions,
        "versionState": status.version_state,
        "state": status.state.value,
        "eligible": status.eligible,
        "embedded": status.embedded,
        "failed": status.failed,
        "pending": status.pending,
        "jobError": status.job_error or None,
    }
