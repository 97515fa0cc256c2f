"""A scripted OpenAI-compatible HTTP server on 127.0.0.1 for testing the litellm path.

The behaviour is chosen by the requested model id, so one server serves every scenario:

chat completions (``/v1/chat/completions``)
    ``chat-ok``            streamed deltas, usage on the last chunk when asked for
    ``chat-no-usage``      streamed deltas, never any usage
    ``chat-429``/``chat-500``/``chat-401``   that status before any chunk
    ``chat-context``       400 ``context_length_exceeded``
    ``chat-cut``           two deltas, then the connection is cut
    ``chat-slow-first``    the role chunk at once, the first delta only after 5 s
    ``chat-endless``       a delta every 20 ms for 30 s (for cancellation)
    ``chat-content-filter`` finish_reason ``content_filter`` after one delta
    ``chat-json``          a JSON object as the answer (``json_reply`` when set, else
                           ``{"ok": true}``)
    ``chat-tools``         a tool call when tools are offered
    ``chat-nostream``      refuses ``stream: true`` with a 400 (answers non-streamed requests)

embeddings (``/v1/embeddings``), 8-dimensional deterministic vectors
    ``embed-ok``           at most ``embedding_max_inputs`` inputs per request (else 400)
    ``embed-flaky``        the first ``flaky_failures`` requests fail (429, then 500)
    ``embed-no-usage``     no usage in the response
    ``embed-slow``         each request takes 50 ms (for concurrency)
    any input containing ``POISON`` is refused with a 400.

Every request is recorded; a client that goes away mid-response is recorded in
``disconnects`` (the handler is cancelled the moment the connection closes).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

EMBEDDING_DIMENSIONS = 8
CHAT_DELTAS = ("Hello", " from", " the", " fake", " server.")
CHAT_USAGE = {
    "prompt_tokens": 11,
    "completion_tokens": 5,
    "total_tokens": 16,
    "prompt_tokens_details": {"cached_tokens": 3},
}


@dataclass
class RecordedRequest:
    path: str
    model: str
    body: dict[str, Any]
    headers: dict[str, str]


@dataclass
class FakeOpenAIServer:
    embedding_max_inputs: int = 4
    flaky_failures: int = 2
    requests: list[RecordedRequest] = field(default_factory=list)
    disconnects: list[tuple[str, float]] = field(default_factory=list)
    embedding_in_flight: int = 0
    embedding_max_in_flight: int = 0
    port: int = 0
    json_reply: str | None = None

    def __post_init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._runner: web.AppRunner | None = None
        self._flaky_count = 0
        self._disconnected = threading.Event()

    # --- lifecycle -------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=10)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)

    def reset(self) -> None:
        self.requests.clear()
        self.disconnects.clear()
        self.embedding_in_flight = 0
        self.embedding_max_in_flight = 0
        self.json_reply = None
        self._flaky_count = 0
        self._disconnected.clear()

    def wait_for_disconnect(self, timeout: float) -> bool:
        return self._disconnected.wait(timeout)

    def requests_for(self, model: str) -> list[RecordedRequest]:
        return [request for request in self.requests if request.model == model]

    async def _start(self) -> None:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_post("/v1/embeddings", self._embeddings)
        self._runner = web.AppRunner(app, handler_cancellation=True, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def _stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    # --- helpers ---------------------------------------------------------------------------

    async def _record(self, request: web.Request) -> dict[str, Any]:
        body = await request.json()
        self.requests.append(
            RecordedRequest(
                path=request.path,
                model=str(body.get("model", "")),
                body=body,
                headers={key.lower(): value for key, value in request.headers.items()},
            )
        )
        return body

    @staticmethod
    def _error(status: int, message: str, code: str = "", headers: dict[str, str] | None = None):
        payload = {"error": {"message": message, "type": "fake_error", "code": code or None}}
        return web.json_response(payload, status=status, headers=headers)

    @staticmethod
    def _chunk(model: str, delta: dict[str, Any], finish: str | None = None) -> bytes:
        payload = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": 1_700_000_000,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        return f"data: {json.dumps(payload)}\n\n".encode()

    @staticmethod
    def _usage_chunk(model: str) -> bytes:
        payload = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": 1_700_000_000,
            "model": model,
            "choices": [],
            "usage": CHAT_USAGE,
        }
        return f"data: {json.dumps(payload)}\n\n".encode()

    # --- chat ------------------------------------------------------------------------------

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        body = await self._record(request)
        model = str(body.get("model"))
        if model == "chat-429":
            return self._error(
                429, "Rate limit reached for requests", "rate_limit_exceeded", {"Retry-After": "0"}
            )
        if model == "chat-500":
            return self._error(500, "The server had an error while processing your request")
        if model == "chat-401":
            return self._error(
                401, "Incorrect API key provided: sk-fake-abcdefghijkl", "invalid_api_key"
            )
        if model == "chat-context":
            return self._error(
                400,
                "This model's maximum context length is 8192 tokens.",
                "context_length_exceeded",
            )
        if not body.get("stream"):
            return self._chat_complete(model, body)
        if model == "chat-nostream":
            return self._error(400, "streaming is not supported by this model")
        return await self._chat_stream(request, model, body)

    def _chat_complete(self, model: str, body: dict[str, Any]) -> web.Response:
        message: dict[str, Any] = {"role": "assistant", "content": "".join(CHAT_DELTAS)}
        finish = "stop"
        if model == "chat-json":
            message["content"] = self.json_reply or '{"ok": true}'
        if model == "chat-tools" and body.get("tools"):
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "current_time", "arguments": "{}"},
                    }
                ],
            }
            finish = "tool_calls"
        return web.json_response(
            {
                "id": "chatcmpl-fake",
                "object": "chat.completion",
                "created": 1_700_000_000,
                "model": model,
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": CHAT_USAGE,
            }
        )

    async def _chat_stream(
        self, request: web.Request, model: str, body: dict[str, Any]
    ) -> web.StreamResponse:
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        try:
            await response.write(self._chunk(model, {"role": "assistant", "content": ""}))
            if model == "chat-slow-first":
                await asyncio.sleep(5)
            if model == "chat-endless":
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    await response.write(self._chunk(model, {"content": " tick"}))
                    await asyncio.sleep(0.02)
                return response
            deltas: tuple[str, ...] = CHAT_DELTAS
            if model == "chat-json":
                reply = self.json_reply or '{"ok": true}'
                deltas = (reply[: len(reply) // 2], reply[len(reply) // 2 :])
            if model == "chat-content-filter":
                deltas = ("I can",)
            for index, text in enumerate(deltas):
                if model == "chat-cut" and index == 2:
                    assert request.transport is not None
                    request.transport.abort()
                    return response
                await response.write(self._chunk(model, {"content": text}))
                await asyncio.sleep(0.005)
            finish = "content_filter" if model == "chat-content-filter" else "stop"
            await response.write(self._chunk(model, {}, finish))
            if include_usage and model != "chat-no-usage":
                await response.write(self._usage_chunk(model))
            await response.write(b"data: [DONE]\n\n")
            await response.write_eof()
            return response
        except (asyncio.CancelledError, ConnectionResetError):
            self.disconnects.append((model, time.monotonic()))
            self._disconnected.set()
            raise

    # --- embeddings ------------------------------------------------------------------------

    async def _embeddings(self, request: web.Request) -> web.Response:
        body = await self._record(request)
        model = str(body.get("model"))
        inputs = body.get("input")
        if isinstance(inputs, str):
            inputs = [inputs]
        assert isinstance(inputs, list)
        self.embedding_in_flight += 1
        self.embedding_max_in_flight = max(self.embedding_max_in_flight, self.embedding_in_flight)
        try:
            if model == "embed-slow":
                await asyncio.sleep(0.05)
            else:
                await asyncio.sleep(0.002)
            if model == "embed-flaky" and self._flaky_count < self.flaky_failures:
                self._flaky_count += 1
                status = 429 if self._flaky_count == 1 else 500
                return self._error(status, "try again later", headers={"Retry-After": "0"})
            if len(inputs) > self.embedding_max_inputs:
                return self._error(400, "too many inputs in one request")
            if any("POISON" in text for text in inputs):
                return self._error(400, "input rejected")
            data = [
                {"object": "embedding", "index": index, "embedding": fake_vector(text)}
                for index, text in enumerate(inputs)
            ]
            # Out of order on purpose: clients must order by index.
            data.reverse()
            payload: dict[str, Any] = {"object": "list", "data": data, "model": model}
            if model != "embed-no-usage":
                tokens = sum(len(text.split()) for text in inputs)
                payload["usage"] = {"prompt_tokens": tokens, "total_tokens": tokens}
            return web.json_response(payload)
        finally:
            self.embedding_in_flight -= 1


def fake_vector(text: str) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    return [round(byte / 255, 6) for byte in digest[:EMBEDDING_DIMENSIONS]]
