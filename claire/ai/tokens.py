"""Token estimates for requests whose provider reports no usage, and for request budgets.

tiktoken fetches its BPE files from the network on first use; litellm ships the files in its
package (``litellm_core_utils/tokenizers``), so estimates point tiktoken's cache there without
importing litellm. When the files are unavailable the estimate falls back to a character
heuristic (about four characters per token for English text, never less than the word count).
Estimates use ``o200k_base`` for every provider: good for OpenAI's current models and within
roughly 10-20% for others, which is what an estimate is for.
"""

from __future__ import annotations

import importlib.util
import logging
import math
import os
import threading
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from claire.ai.types import Usage

if TYPE_CHECKING:
    from claire.ai.types import ChatMessage, GenerationRequest

logger = logging.getLogger(__name__)

ENCODING_NAME = "o200k_base"
# Per-message framing tokens in chat formats (role markers and separators).
MESSAGE_OVERHEAD_TOKENS = 4


class _Encoding(Protocol):
    def encode(self, text: str, *, disallowed_special: tuple[str, ...] = ()) -> list[int]: ...

    def decode(self, tokens: list[int]) -> str: ...


_lock = threading.Lock()
_encoding: _Encoding | None = None
_encoding_loaded = False


def _bundled_tiktoken_dir() -> Path | None:
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return None
    directory = Path(next(iter(spec.submodule_search_locations))) / "litellm_core_utils/tokenizers"
    return directory if directory.is_dir() else None


def _load_encoding() -> _Encoding | None:
    global _encoding, _encoding_loaded
    if _encoding_loaded:
        return _encoding
    with _lock:
        if _encoding_loaded:
            return _encoding
        bundled = _bundled_tiktoken_dir()
        if bundled is not None:
            # litellm sets the same variable when it is imported; this only points there first.
            os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(bundled))
        try:
            import tiktoken

            _encoding = tiktoken.get_encoding(ENCODING_NAME)
        except Exception as error:  # any failure means "use the heuristic"
            logger.warning("ai.tokenizer_unavailable", extra={"error_class": type(error).__name__})
            _encoding = None
        _encoding_loaded = True
        return _encoding


def tokenizer_name() -> str:
    return f"tiktoken/{ENCODING_NAME}" if _load_encoding() is not None else "heuristic/chars"


def heuristic_token_count(text: str) -> int:
    if not text:
        return 0
    return max(math.ceil(len(text) / 4), len(text.split()))


def count_tokens(text: str) -> int:
    if not text:
        return 0
    encoding = _load_encoding()
    if encoding is None:
        return heuristic_token_count(text)
    return len(encoding.encode(text, disallowed_special=()))


def truncate_to_tokens(text: str, max_tokens: int) -> str:
    """``text`` cut to at most ``max_tokens`` tokens (unchanged when it already fits)."""
    encoding = _load_encoding()
    if encoding is None:
        max_chars = max_tokens * 4
        return text if len(text) <= max_chars else text[:max_chars]
    tokens = encoding.encode(text, disallowed_special=())
    if len(tokens) <= max_tokens:
        return text
    return encoding.decode(tokens[:max_tokens])


def count_request_tokens(request: GenerationRequest) -> int:
    """Estimated input tokens of a chat request: system prompt plus every message.

    An answer counts its prompt three times (the reservation, the runtime's estimate when a
    provider reports no usage, the settlement), and a prompt with its evidence takes
    milliseconds to encode -- on the event loop for the runtime's estimate -- so the counts of
    recent prompts are kept."""
    return _prompt_tokens(request.system, request.messages)


@lru_cache(maxsize=256)
def estimated_usage(request: GenerationRequest, output: str) -> Usage:
    """The usage of a call whose provider reported none (or that was cut short before it
    did): the request's prompt and the text produced, estimated."""
    return Usage(
        input_tokens=count_request_tokens(request),
        output_tokens=count_tokens(output),
        is_estimated=True,
        reported_by_provider=False,
    )


def _prompt_tokens(system: str, messages: tuple[ChatMessage, ...]) -> int:
    total = 0
    if system:
        total += count_tokens(system) + MESSAGE_OVERHEAD_TOKENS
    for message in messages:
        total += count_tokens(message.content) + MESSAGE_OVERHEAD_TOKENS
    return total
