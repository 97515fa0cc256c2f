"""Background indexing yields the CPU to ingestion and answers.

On a small machine a local embedding model can take every core. A worker process therefore
lowers its own CPU priority before it starts any thread (the model's thread pool inherits
it): with ``SCHED_IDLE`` it runs only on CPU time nothing else in its scheduling group wants,
with a niceness it gets a smaller share. Either way it still uses every idle cycle.

Scheduling groups matter: the kernel weighs processes against each other within a group (a
session with autogroup, a cgroup such as a systemd service or a container). When the worker
runs in a group of its own, give that group a low CPU weight instead (``CPUWeight=`` in
systemd, ``--cpu-shares`` in Docker); see docs/INDEXING.md.
"""

from __future__ import annotations

import logging
import os

logger = logging.getLogger(__name__)


def cpu_priority_lower(*, policy: str, niceness: int) -> str:
    """Apply ``policy`` ("idle", "nice" or "normal") to this process; returns what is in
    effect. Only ever lowers the priority (raising it needs privileges)."""
    if policy == "idle" and hasattr(os, "sched_setscheduler"):
        if os.sched_getscheduler(0) != os.SCHED_IDLE:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            logger.info("indexing.cpu_priority_lowered", extra={"policy": "idle"})
        return "idle"
    if policy in ("idle", "nice"):
        current = os.getpriority(os.PRIO_PROCESS, 0)
        if niceness > current:
            os.setpriority(os.PRIO_PROCESS, 0, niceness)
            logger.info("indexing.cpu_priority_lowered", extra={"niceness": niceness})
        return f"nice {max(niceness, current)}"
    return "normal"
