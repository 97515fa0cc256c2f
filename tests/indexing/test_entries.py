"""Ingestion keeps index entries and progress counters in step, in its own transaction."""

import pytest

from conversations.hooks import HookSchedule
from conversations.services import chat_set_excluded_from_ai
from indexing.models import EntryState, IndexJob, IndexProgress, JobState, MessageEmbedding
from tests.indexing.support import (
    counters,
    entry_states,
    ingest,
    message,
    message_row,
)

pytestmark = pytest.mark.django_db


def _indexing_callbacks(callbacks):
    """On-commit callbacks of this app's conversation hook (other apps' hooks run too)."""
    return [
        callback
        for callback in callbacks
        if isinstance(callback, HookSchedule) and callback.path == "indexing.hooks.hook"
    ]


def test_without_a_version_ingestion_creates_no_entries(user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        ingest(user, [message(1), message(2)])
    assert _indexing_callbacks(callbacks) == []
    assert MessageEmbedding.objects.count() == 0
    assert IndexProgress.objects.count() == 0
    assert IndexJob.objects.count() == 0


def test_new_eligible_messages_get_pending_entries_and_counters(user, version):
    ingest(
        user,
        [
            message(1),
            message(2),
            message(3, "   "),
            message(4, kind="media"),
            message(5, deleted=True),
        ],
    )
    assert entry_states(user, version) == {"m1": "pending", "m2": "pending"}
    assert counters(user, version) == (2, 0, 0)
    entry = MessageEmbedding.objects.get(user=user, message__platform_message_id="m1")
    row = message_row(user, 1)
    assert (entry.chat_id, entry.sent_at, entry.content_hash) == (
        row.chat_id,
        row.sent_at,
        row.content_hash,
    )
    assert entry.embedding is None


def test_reingesting_the_same_batch_changes_nothing(user, version):
    ingest(user, [message(1), message(2)])
    ingest(user, [message(1), message(2)])
    assert MessageEmbedding.objects.filter(user=user).count() == 2
    assert counters(user, version) == (2, 0, 0)


def test_ingest_enqueues_one_job_after_commit(
    user, version, sent_jobs, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        ingest(user, [message(1)])
    assert sent_jobs == []
    assert IndexJob.objects.count() == 0
    assert len(_indexing_callbacks(callbacks)) == 1
    for callback in _indexing_callbacks(callbacks):
        callback()
    job = IndexJob.objects.get()
    assert (job.user_id, job.index_version_id, job.state) == (user.pk, version.pk, "queued")
    assert sent_jobs == [job.pk]


def _ingest_and_commit(user, messages, capture):
    with capture() as callbacks:
        ingest(user, messages)
    for callback in _indexing_callbacks(callbacks):
        callback()


def test_an_open_job_is_nudged_not_duplicated(
    user, version, sent_jobs, django_capture_on_commit_callbacks
):
    _ingest_and_commit(user, [message(1)], django_capture_on_commit_callbacks)
    _ingest_and_commit(user, [message(2)], django_capture_on_commit_callbacks)
    job = IndexJob.objects.get()
    assert job.rerun_requested is True
    assert sent_jobs == [job.pk]


def test_a_finished_job_is_followed_by_a_new_one(
    user, version, sent_jobs, django_capture_on_commit_callbacks
):
    _ingest_and_commit(user, [message(1)], django_capture_on_commit_callbacks)
    IndexJob.objects.update(state=JobState.DONE)
    _ingest_and_commit(user, [message(2)], django_capture_on_commit_callbacks)
    assert IndexJob.objects.filter(state=JobState.QUEUED).count() == 1
    assert len(sent_jobs) == 2


def test_unchanged_reingest_enqueues_nothing(user, version, django_capture_on_commit_callbacks):
    ingest(user, [message(1)])
    with django_capture_on_commit_callbacks() as callbacks:
        ingest(user, [message(1)])
    assert _indexing_callbacks(callbacks) == []


def _embed_all(user, version):
    """Mark every entry embedded, as a job would (counters moved the same way)."""
    from indexing.services import ProgressDelta, progress_apply

    entries = MessageEmbedding.objects.filter(user=user, index_version=version, state="pending")
    count = entries.update(state=EntryState.EMBEDDED, embedding=[0.1] * 384)
    progress_apply(user_id=user.pk, deltas={version.pk: ProgressDelta(embedded=count)})


def test_edit_resets_the_entry_to_pending_and_drops_the_stale_vector(user, version):
    ingest(user, [message(1), message(2)])
    _embed_all(user, version)
    assert counters(user, version) == (2, 2, 0)

    ingest(user, [message(1, "dinner moved to Saturday")])
    entry = MessageEmbedding.objects.get(user=user, message__platform_message_id="m1")
    assert entry.state == "pending"
    assert entry.embedding is None
    assert entry.content_hash == message_row(user, 1).content_hash
    assert entry_states(user, version)["m2"] == "embedded"
    assert counters(user, version) == (2, 1, 0)


def test_delete_removes_the_entry_and_its_vector_at_once(user, version):
    ingest(user, [message(1), message(2)])
    _embed_all(user, version)
    ingest(user, [message(1, deleted=True)])
    assert entry_states(user, version) == {"m2": "embedded"}
    assert counters(user, version) == (1, 1, 0)


def test_delete_of_a_failed_entry_moves_the_failed_counter(user, version):
    from indexing.services import ProgressDelta, progress_apply

    ingest(user, [message(1), message(2)])
    MessageEmbedding.objects.filter(message__platform_message_id="m2").update(
        state=EntryState.FAILED, error_code="input_too_long"
    )
    progress_apply(user_id=user.pk, deltas={version.pk: ProgressDelta(failed=1)})
    ingest(user, [message(2, deleted=True)])
    assert counters(user, version) == (1, 0, 0)


def test_edit_to_empty_text_removes_the_entry(user, version):
    ingest(user, [message(1), message(2)])
    _embed_all(user, version)
    ingest(user, [message(2, "  ")])
    assert entry_states(user, version) == {"m1": "embedded"}
    assert counters(user, version) == (1, 1, 0)


def test_edit_of_an_empty_message_creates_its_entry(user, version):
    ingest(user, [message(1, "")])
    assert counters(user, version) == (0, 0, 0)
    ingest(user, [message(1, "now it says something")])
    assert entry_states(user, version) == {"m1": "pending"}
    assert counters(user, version) == (1, 0, 0)


def test_excluding_a_chat_removes_its_entries_and_including_restores_them(user, version):
    ingest(user, [message(1), message(2)], chat="c1")
    ingest(user, [message(3)], chat="c2")
    _embed_all(user, version)
    assert counters(user, version) == (3, 3, 0)

    chat = message_row(user, 1).chat
    chat_set_excluded_from_ai(chat=chat, is_excluded=True)
    assert entry_states(user, version) == {"m3": "embedded"}
    assert counters(user, version) == (1, 1, 0)

    ingest(user, [message(4)], chat="c1")
    assert counters(user, version) == (1, 1, 0)

    chat_set_excluded_from_ai(chat=chat, is_excluded=False)
    assert entry_states(user, version) == {
        "m1": "pending",
        "m2": "pending",
        "m3": "embedded",
        "m4": "pending",
    }
    assert counters(user, version) == (4, 1, 0)


def test_other_users_are_untouched(user, other_user, version):
    ingest(user, [message(1)])
    ingest(other_user, [message(1), message(2)])
    ingest(user, [message(1, deleted=True)])
    assert counters(user, version) == (0, 0, 0)
    assert counters(other_user, version) == (2, 0, 0)
    assert entry_states(other_user, version) == {"m1": "pending", "m2": "pending"}


def test_building_and_active_versions_are_both_maintained(user, version):
    from indexing import services

    building = services.index_version_create(
        profile="embed_next",
        identity=services.ModelIdentity(provider="local", model="other-model", dimensions=8),
    )
    assert building.state == "building"
    ingest(user, [message(1)])
    assert entry_states(user, version) == {"m1": "pending"}
    assert entry_states(user, building) == {"m1": "pending"}
    assert counters(user, building) == (1, 0, 0)
