"""Background indexing yields the CPU to ingestion and answers.

On a small machine a local embedding model can take every core; run at a higher niceness, a
backfill slows down when requests need the CPU instead of slowing them down. Set before the
process starts its threads (the model's thread pool inherits it).
"""

from __future__ import annotations

import logging
import os

logger = logging.getLogger(__name__)


def cpu_priority_lower(*, niceness: int) -> int:
    """Raise this process's niceness to at least ``niceness`` (never lowers it; lowering
    needs privileges). Returns the niceness in effect."""
    current = os.getpriority(os.PRIO_PROCESS, 0)
    if niceness > current:
        os.setpriority(os.PRIO_PROCESS, 0, niceness)
        logger.info("indexing.cpu_priority_lowered", extra={"niceness": niceness})
        return niceness
    return current
