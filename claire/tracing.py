"""Privacy-safe traces: one per answer, spans with timings and counts, never content.

A ``Trace`` collects spans (name, start offset and duration in milliseconds from the start of
the trace, parent, attributes) and is written once, as a single structured log record
(``emit``). Attributes are counts, timings, flags and identifiers only: a string attribute is
kept only when it looks like an identifier (a route, a model key, an error code — letters,
digits and ``_.:/-``, at most 80 characters), so message text, a question or a name can never
be recorded by mistake; anything else is dropped and counted in ``dropped_attributes``.

Writing a trace also exports it to OpenTelemetry (``claire.telemetry``) as a span tree with
allow-listed attributes only.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from typing import Any

from claire.telemetry import trace_export

AttributeValue = int | float | bool | str

_IDENTIFIER = re.compile(r"^[A-Za-z0-9_.:/-]{0,80}$")


def safe_attributes(attributes: dict[str, Any]) -> tuple[dict[str, AttributeValue], int]:
    """The attributes a trace may keep, and how many it may not."""
    kept: dict[str, AttributeValue] = {}
    dropped = 0
    for key, value in attributes.items():
        if value is None:
            continue
        if isinstance(value, bool | int):
            kept[key] = value
        elif isinstance(value, float):
            kept[key] = round(value, 2)
        elif isinstance(value, str) and _IDENTIFIER.match(value):
            kept[key] = value
        else:
            dropped += 1
    return kept, dropped


@dataclass
class Span:
    name: str
    start_ms: float
    duration_ms: float
    parent: str = ""
    attributes: dict[str, AttributeValue] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "name": self.name,
            "startMs": round(self.start_ms, 2),
            "durationMs": round(self.duration_ms, 2),
        }
        if self.parent:
            record["parent"] = self.parent
        if self.attributes:
            record["attributes"] = self.attributes
        return record


class Trace:
    """Spans of one operation. Times are ``time.monotonic()`` readings; offsets are relative
    to the trace's start."""

    def __init__(self, name: str, *, started: float | None = None) -> None:
        self.name = name
        self.started = time.monotonic() if started is None else started
        # The wall-clock time of ``started``, for exporters that need absolute times.
        self.started_ns = time.time_ns() - int((time.monotonic() - self.started) * 1e9)
        self.spans: list[Span] = []
        self.dropped_attributes = 0

    def add(
        self,
        name: str,
        *,
        start: float,
        duration_ms: float,
        parent: str = "",
        **attributes: Any,
    ) -> None:
        """A span that began at monotonic time ``start`` and lasted ``duration_ms``."""
        kept, dropped = safe_attributes(attributes)
        self.dropped_attributes += dropped
        self.spans.append(
            Span(
                name=name,
                start_ms=(start - self.started) * 1000,
                duration_ms=max(duration_ms, 0.0),
                parent=parent,
                attributes=kept,
            )
        )

    def as_json(self, **attributes: Any) -> dict[str, Any]:
        kept, dropped = safe_attributes(attributes)
        return {
            "name": self.name,
            "durationMs": round((time.monotonic() - self.started) * 1000, 2),
            "attributes": kept,
            "spans": [span.as_json() for span in self.spans],
            "droppedAttributes": self.dropped_attributes + dropped,
        }

    def emit(self, logger: logging.Logger, **attributes: Any) -> dict[str, Any]:
        """Write the trace as one log record (``<name>.trace``) and return what was written."""
        record = self.as_json(**attributes)
        logger.info(f"{self.name}.trace", extra={"trace": record})
        try:
            trace_export(
                name=self.name,
                started_ns=self.started_ns,
                ended_ns=self.started_ns + int(record["durationMs"] * 1_000_000),
                attributes={
                    **record["attributes"],
                    "dropped_attributes": record["droppedAttributes"],
                },
                spans=record["spans"],
            )
        except Exception:
            # Telemetry never breaks the operation it describes.
            logger.exception("telemetry.export_failed", extra={"trace_name": self.name})
        return record
