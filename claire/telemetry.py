"""OpenTelemetry export of the privacy-safe traces (``claire.tracing``).

A ``Trace`` is still built once per answer and written once; when it is written, the same
spans go to OpenTelemetry as a tree under one root span, with their real start and end times:

    assistant.request
      ├─ thread.load, context.route, retrieval.*, evidence.assemble
      ├─ model.first_attempt | model.fallback
      │    ├─ time_to_first_token
      │    └─ stream_duration
      └─ turn.finalize

Only allow-listed attribute keys leave the process (``ALLOWED_ATTRIBUTES``); the trace already
drops any value that is not a number, a flag or an identifier. Inputs and outputs are never
recorded (``RECORD_INPUTS``/``RECORD_OUTPUTS`` are off and nothing reads them as switches).

The exporter is chosen by ``settings.TELEMETRY_EXPORTER``: ``memory`` (default; a bounded
buffer that tests and the shell can read), ``console``, ``otlp`` (OTLP over HTTP; endpoint and
headers from the standard ``OTEL_EXPORTER_OTLP_*`` variables) or ``none``.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    ConsoleSpanExporter,
    SimpleSpanProcessor,
    SpanExporter,
    SpanExportResult,
)
from opentelemetry.trace import Tracer, set_span_in_context

# The spec: telemetry records neither the prompt nor the answer.
RECORD_INPUTS = False
RECORD_OUTPUTS = False

# Metadata the spec allows: request id, route, provider, model, token counts, timings, source
# count, cache status and error class; plus the turn's id, status and sizes (counts).
ALLOWED_ATTRIBUTES = frozenset(
    {
        "request_id",
        "assistant_turn_id",
        "status",
        "route",
        "intent",
        "source_count",
        "provider",
        "model",
        "answer_chars",
        "output_chars",
        "input_tokens",
        "output_tokens",
        "cached_input_tokens",
        "cache_status",
        "error_class",
        "is_new",
        "dropped_attributes",
    }
)

SERVICE_NAME = "ask-claire"
MEMORY_SPAN_LIMIT = 5000


class MemorySpanExporter(SpanExporter):
    """Keeps the last ``limit`` finished spans (a bounded buffer: a server never grows)."""

    def __init__(self, limit: int = MEMORY_SPAN_LIMIT) -> None:
        self._spans: deque[ReadableSpan] = deque(maxlen=limit)
        self._lock = threading.Lock()

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        with self._lock:
            self._spans.extend(spans)
        return SpanExportResult.SUCCESS

    def finished_spans(self) -> list[ReadableSpan]:
        with self._lock:
            return list(self._spans)

    def clear(self) -> None:
        with self._lock:
            self._spans.clear()

    def shutdown(self) -> None:
        self.clear()


_lock = threading.Lock()
_provider: TracerProvider | None = None
_memory: MemorySpanExporter | None = None


def _exporter_for(kind: str) -> tuple[SpanExporter | None, bool]:
    """The exporter for ``kind`` and whether it wants batching (network exporters do)."""
    if kind == "none":
        return None, False
    if kind == "console":
        return ConsoleSpanExporter(), False
    if kind == "otlp":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        return OTLPSpanExporter(), True
    if kind == "memory":
        return MemorySpanExporter(), False
    raise ValueError(f"unknown TELEMETRY_EXPORTER {kind!r}: memory, console, otlp or none")


def tracer_provider() -> TracerProvider:
    """The process's provider, built on first use from the settings (not the global one, so
    a library that installs its own cannot receive our spans by accident)."""
    global _provider, _memory
    with _lock:
        if _provider is None:
            provider = TracerProvider(resource=Resource.create({"service.name": SERVICE_NAME}))
            exporter, batched = _exporter_for(settings.TELEMETRY_EXPORTER)
            if exporter is not None:
                processor = (
                    BatchSpanProcessor(exporter) if batched else SimpleSpanProcessor(exporter)
                )
                provider.add_span_processor(processor)
            if isinstance(exporter, MemorySpanExporter):
                _memory = exporter
            _provider = provider
        return _provider


def memory_exporter() -> MemorySpanExporter | None:
    """The in-memory exporter when that is the configured one."""
    tracer_provider()
    return _memory


def telemetry_reset() -> None:
    """Forget the provider (tests that change ``TELEMETRY_EXPORTER``)."""
    global _provider, _memory
    with _lock:
        if _provider is not None:
            _provider.shutdown()
        _provider, _memory = None, None


def tracer() -> Tracer:
    return tracer_provider().get_tracer("claire.tracing")


def allowed(attributes: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in attributes.items() if key in ALLOWED_ATTRIBUTES}


def trace_export(
    *,
    name: str,
    started_ns: int,
    ended_ns: int,
    attributes: Mapping[str, Any],
    spans: Sequence[Mapping[str, Any]],
) -> None:
    """Send one written trace (the JSON ``Trace.as_json`` returns) as OpenTelemetry spans:
    a root ``name`` span, each span under its ``parent`` (by name) or under the root."""
    if settings.TELEMETRY_EXPORTER == "none":
        return
    otel = tracer()
    root = otel.start_span(name, start_time=started_ns, attributes=allowed(attributes))
    opened = {name: root}
    children: list[tuple[Any, int]] = []
    # Parents first: a span names its parent, which is written before it or is the root.
    for span in sorted(spans, key=lambda record: bool(record.get("parent"))):
        parent = opened.get(str(span.get("parent") or name), root)
        start_ns = started_ns + int(float(span["startMs"]) * 1_000_000)
        end_ns = start_ns + int(float(span["durationMs"]) * 1_000_000)
        child = otel.start_span(
            str(span["name"]),
            context=set_span_in_context(parent),
            start_time=start_ns,
            attributes=allowed(span.get("attributes", {})),
        )
        opened.setdefault(str(span["name"]), child)
        children.append((child, end_ns))
    for child, end_ns in children:
        child.end(end_time=end_ns)
    root.end(end_time=max(ended_ns, started_ns))
