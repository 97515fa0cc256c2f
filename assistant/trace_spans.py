"""The spans of one answer's trace (``claire.tracing``): the retrieval stages and the model
call, with their offsets. ``assistant.engine`` adds them as each step ends."""

from __future__ import annotations

import time

from assistant.answering import Retrieval
from assistant.generation import Generation
from claire.tracing import Trace


def trace_retrieval(trace: Trace, retrieval: Retrieval, *, start: float) -> None:
    """The retrieval stages as spans: compile (context.route), the two search legs (run
    side by side: lexical, and the query embedding then the vector leg), then windows and
    pack (evidence.assemble). Offsets come from the stage durations."""
    timings = retrieval.timings
    compiled = start + timings.get("compile", 0.0) / 1000
    trace.add(
        "context.route",
        start=start,
        duration_ms=timings.get("compile", 0.0),
        route=retrieval.route,
    )
    trace.add("retrieval.lexical", start=compiled, duration_ms=timings.get("lexical", 0.0))
    trace.add("retrieval.embedding", start=compiled, duration_ms=timings.get("embedding", 0.0))
    trace.add(
        "retrieval.vector",
        start=compiled + timings.get("embedding", 0.0) / 1000,
        duration_ms=timings.get("vector", 0.0),
    )
    trace.add(
        "evidence.assemble",
        start=compiled + timings.get("search", 0.0) / 1000,
        duration_ms=timings.get("windows", 0.0) + timings.get("pack", 0.0),
        source_count=len(retrieval.citations),
    )


def trace_model(trace: Trace, generation: Generation, *, start: float) -> None:
    ended = time.monotonic()
    name = (
        "model.first_attempt"
        if generation.model_key == generation.candidate.model.key
        else "model.fallback"
    )
    trace.add(
        name,
        start=start,
        duration_ms=(ended - start) * 1000,
        model=generation.model_key,
        output_chars=len("".join(generation.output)),
    )
    ttft = generation.time_to_first_token_ms
    if ttft is not None:
        trace.add("time_to_first_token", start=start, duration_ms=ttft, parent=name)
        first = start + ttft / 1000
        trace.add("stream_duration", start=first, duration_ms=(ended - first) * 1000, parent=name)
