"""Counters kept incrementally equal an offline recount after random sequences of steps."""

import random

import pytest

from claire.ai.registry import models_overridden
from conversations.models import Chat
from conversations.services import chat_set_excluded_from_ai
from indexing import jobs, services
from indexing.models import MessageEmbedding
from indexing.selectors import open_index_job
from tests.indexing.embedders import ScriptedEmbedder
from tests.indexing.support import counters, ingest, message, recount, run_job

pytestmark = pytest.mark.django_db

WORDS = ["dinner", "flight", "REFUSE", "milk", "party", "lisbon", "train", "  ", ""]


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))


def _assert_consistent(users, versions):
    for user in users:
        for version in versions:
            result = services.progress_recount(user_id=user.pk, index_version_id=version.pk)
            assert result.counters_match, result
            assert result.orphan_entries == 0, result
            assert result.stale_entries == 0, result
            if result.is_seeded:
                assert result.missing_entries == 0, result


@pytest.fixture
def next_profile():
    from django.conf import settings
    from django.test import override_settings

    from claire.ai.config import ai_config_reset
    from tests.indexing.conftest import HASH_EMBED_PROFILE

    small = {
        "provider": "local",
        "model": "hash-embed-48",
        "data_policy": "local",
        "capabilities": {"embedding_dimensions": 48},
    }
    profiles = {
        **settings.AI_PROFILES,
        "embed": HASH_EMBED_PROFILE,
        "embed_next": {"kind": "embedding", "candidates": ["local/hash-embed-48"]},
    }
    with override_settings(AI_MODELS={"local/hash-embed-48": small}, AI_PROFILES=profiles):
        ai_config_reset()
        yield
    ai_config_reset()


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_random_ingest_edit_delete_exclude_backfill_sequences(
    seed, user, other_user, version, settings, next_profile
):
    settings.INDEXING_FETCH_SIZE = 3
    settings.INDEXING_SEED_BATCH_SIZE = 4
    rng = random.Random(seed)
    users = [user, other_user]
    versions = [version]
    next_key = {user.pk: 0, other_user.pk: 0}
    embedder = ScriptedEmbedder()
    with models_overridden({"local/hash-embed": embedder}):
        for step in range(60):
            person = rng.choice(users)
            action = rng.choice(
                ["ingest", "ingest", "edit", "delete", "exclude", "job", "job", "retry"]
                + (["new_version"] if len(versions) == 1 and step > 10 else [])
            )
            chat = rng.choice(["c1", "c2"])
            if action == "ingest":
                batch = []
                for _ in range(rng.randint(1, 5)):
                    next_key[person.pk] += 1
                    batch.append(
                        message(
                            next_key[person.pk],
                            _text(rng),
                            kind=rng.choice(["text", "text", "text", "media"]),
                            deleted=rng.random() < 0.1,
                        )
                    )
                ingest(person, batch, chat=chat)
            elif action in ("edit", "delete") and next_key[person.pk]:
                key = rng.randint(1, next_key[person.pk])
                ingest(
                    person,
                    [message(key, _text(rng), deleted=action == "delete")],
                    chat=chat,
                )
            elif action == "exclude":
                row = Chat.objects.filter(user=person, platform_chat_id=chat).first()
                if row is not None:
                    chat_set_excluded_from_ai(chat=row, is_excluded=not row.is_excluded_from_ai)
            elif action == "job":
                target = rng.choice(versions)
                run_job(person, target, slice_seconds=rng.choice([0, 0.000001]))
            elif action == "retry":
                failed = list(
                    MessageEmbedding.objects.filter(user=person, state="failed").values_list(
                        "pk", flat=True
                    )[:2]
                )
                services.embedding_failures_retry(entry_ids=failed)
            elif action == "new_version":
                versions.append(
                    services.index_version_create(
                        profile="embed_next",
                        identity=jobs.current_model_identity(profile="embed_next"),
                    )
                )
            _assert_consistent(users, versions)

        # Finish every job; then the counters also equal a recount from the conversations.
        for person in users:
            for target in versions:
                for _ in range(5):
                    run = run_job(person, target)
                    if run.outcome == jobs.JobOutcome.DONE:
                        break
                assert open_index_job(user_id=person.pk, index_version_id=target.pk) is None
    _assert_consistent(users, versions)
    for person in users:
        for target in versions:
            assert counters(person, target) == recount(person, target)
    # The sequence exercised what it claims to: a second version, vectors and refusals.
    assert len(versions) == 2
    assert sum(counters(person, version)[1] for person in users) > 0
    assert sum(counters(person, version)[2] for person in users) > 0
