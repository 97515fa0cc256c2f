"""Embedding models for tests, installed behind a configured model key with the runtime's
``models_overridden`` seam: the runtime (request splitting, retries, failure isolation) runs
for real; only the model's answers are scripted."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from claire.ai.local.mock import HashEmbedder
from claire.ai.providers.base import CallTimeouts, EmbeddingBatch, ProviderFailure
from claire.ai.types import ErrorCode


@dataclass
class ScriptedEmbedder(HashEmbedder):
    """Hash vectors, except: any batch holding a text with ``refuse_marker`` fails
    permanently; every batch fails transiently while ``outage`` is set; each batch sleeps
    ``delay_s``. Tracks calls in flight."""

    refuse_marker: str = "REFUSE"
    outage: bool = False
    delay_s: float = 0.0
    calls: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    async def embed_batch(self, texts: Sequence[str], *, timeouts: CallTimeouts) -> EmbeddingBatch:
        with self._lock:
            self.calls += 1
        if self.outage:
            raise ProviderFailure(ErrorCode.PROVIDER_UNAVAILABLE, detail="scripted outage")
        if any(self.refuse_marker in text for text in texts):
            raise ProviderFailure(ErrorCode.CONTENT_FILTERED, detail="scripted refusal")
        return await super().embed_batch(texts, timeouts=timeouts)


def hash_vector(text: str) -> list[float]:
    return HashEmbedder().embed_texts([text])[0]


class SlowEmbedder(HashEmbedder):
    """Sleeps (blocking, like a busy local model) before answering; counts concurrent calls."""

    def __init__(self, delay_s: float, counter: ConcurrencyCounter | None = None) -> None:
        super().__init__()
        self.delay_s = delay_s
        self.counter = counter

    async def embed_batch(self, texts: Sequence[str], *, timeouts: CallTimeouts) -> EmbeddingBatch:
        if self.counter is not None:
            self.counter.enter()
        try:
            time.sleep(self.delay_s)
            return await super().embed_batch(texts, timeouts=timeouts)
        finally:
            if self.counter is not None:
                self.counter.leave()


class ConcurrencyCounter:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.current = 0
        self.maximum = 0
        self.total = 0

    def enter(self) -> None:
        with self._lock:
            self.current += 1
            self.total += 1
            self.maximum = max(self.maximum, self.current)

    def leave(self) -> None:
        with self._lock:
            self.current -= 1


class AsyncSlowEmbedder(HashEmbedder):
    """Waits without blocking the runtime's event loop (like a remote provider), so that only
    the callers' provider slots limit how many calls overlap."""

    def __init__(self, delay_s: float, counter: ConcurrencyCounter) -> None:
        super().__init__()
        self.delay_s = delay_s
        self.counter = counter

    async def embed_batch(self, texts: Sequence[str], *, timeouts: CallTimeouts) -> EmbeddingBatch:
        import asyncio

        self.counter.enter()
        try:
            await asyncio.sleep(self.delay_s)
            return await super().embed_batch(texts, timeouts=timeouts)
        finally:
            self.counter.leave()
