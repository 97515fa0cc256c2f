"""``bench_answer`` on a tiny corpus: it builds the corpus, serves it and reports every figure
(the figures themselves are not asserted: timing belongs to the bench, not to tests)."""

from __future__ import annotations

import json
import math

import pytest
from django.core.management import call_command

from claire.ai.config import ai_config_reset
from conversations.models import Message
from evals.bench.build import bench_users

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

HASHED_EMBEDDINGS = json.dumps({"profiles": {"embed": {"candidates": ["local/hash-embed"]}}})


@pytest.fixture
def hashed_embeddings(settings, monkeypatch):
    # Both this process and the server it starts embed with the hashed-word model.
    monkeypatch.setenv("CLAIRE_AI_CONFIG", HASHED_EMBEDDINGS)
    settings.AI_CONFIG = HASHED_EMBEDDINGS
    ai_config_reset()
    yield
    ai_config_reset()


def test_bench_answer_builds_a_tiny_corpus_and_reports_every_figure(hashed_embeddings, tmp_path):
    report = tmp_path / "answer.json"

    call_command(
        "bench_answer",
        *("--messages", "900", "--largest", "600", "--users", "2", "--questions", "8"),
        *("--streams", "3", "--requests", "3", "--ramp-seconds", "0.3"),
        *("--settle-seconds", "0.5", "--answer-seconds", "2", "--json", str(report)),
    )

    figures = json.loads(report.read_text())
    timed_user = bench_users()[0]
    assert figures["messages"] == Message.objects.count() == 900
    assert figures["timed_user_messages"] == Message.objects.filter(user=timed_user).count()
    assert figures["timed_user_messages"] == 600
    assert figures["index_model"] == "hash-embed-384"
    assert figures["questions"] == 8
    assert 0 < figures["served_questions"] <= 8
    assert figures["retrieve_idle_ms"]["count"] == 8
    assert figures["retrieve_under_load_ms"]["count"] == 8
    assert (
        figures["served_idle"]["data_sources_ms"]["count"]
        == figures["served_idle"]["first_text_ms"]["count"]
    )
    loaded = figures["served_under_load"]
    assert loaded["answered"] == 3
    for name in ("first_byte_ms", "data_sources_ms", "first_text_ms"):
        assert loaded[name]["count"] == 3
        assert 0 < loaded[name]["p50"] <= loaded[name]["p95"]
    assert loaded["first_byte_ms"]["p50"] <= loaded["data_sources_ms"]["p50"]
    assert loaded["data_sources_ms"]["p50"] <= loaded["first_text_ms"]["p50"]
    background = figures["background"]
    assert background["words"] > 0
    assert not math.isnan(background["lateness_p99_ms"])
    assert background["server_cpu_per_word_us"] > 0


def test_bench_answer_refuses_a_database_that_is_not_for_benches(settings, monkeypatch):
    from django.core.management.base import CommandError
    from django.db import connection

    monkeypatch.setitem(connection.settings_dict, "NAME", "claire")

    with pytest.raises(CommandError, match="Refusing to run"):
        call_command("bench_answer", "--messages", "10")

    monkeypatch.undo()
    assert not bench_users()
    assert not Message.objects.exists()
