"""Operators' admin pages: versions with cutover, progress bars, jobs, failures with retry."""

import pytest

from claire.ai.registry import models_overridden
from indexing import services
from indexing.models import EntryState, IndexJob, IndexVersion, MessageEmbedding
from tests.factories import UserFactory
from tests.indexing.embedders import ScriptedEmbedder
from tests.indexing.support import counters, ingest, message, run_job

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def failed_entry(user, version):
    ingest(user, [message(1), message(2, "REFUSE this")])
    with models_overridden({"local/hash-embed": ScriptedEmbedder()}):
        run_job(user, version)
    return MessageEmbedding.objects.get(state=EntryState.FAILED)


def test_progress_page_shows_a_bar_per_user(admin_client, user, version, failed_entry):
    response = admin_client.get("/admin/indexing/indexprogress/")
    assert response.status_code == 200
    page = response.content.decode()
    assert user.email in page
    assert 'title="1 of 2 embedded, 1 failed"' in page
    assert "width:50.0%;height:100%;background:#3a3" in page


def test_versions_page_shows_overall_progress(admin_client, version, failed_entry):
    response = admin_client.get("/admin/indexing/indexversion/")
    assert response.status_code == 200
    assert 'title="1 of 2 embedded, 1 failed"' in response.content.decode()


def test_jobs_and_failures_pages_render(admin_client, failed_entry):
    assert admin_client.get("/admin/indexing/indexjob/").status_code == 200
    response = admin_client.get("/admin/indexing/embeddingfailure/")
    assert response.status_code == 200
    assert "content_filtered" in response.content.decode()


def test_failure_retry_action_requeues_the_message(
    admin_client, user, version, failed_entry, sent_jobs
):
    response = admin_client.post(
        "/admin/indexing/embeddingfailure/",
        {"action": "retry_action", "_selected_action": [failed_entry.pk]},
    )
    assert response.status_code == 302
    failed_entry.refresh_from_db()
    assert (failed_entry.state, failed_entry.attempts, failed_entry.error_code) == (
        "pending",
        0,
        "",
    )
    assert counters(user, version) == (2, 1, 0)
    job = IndexJob.objects.get(state="queued")
    assert sent_jobs == [job.pk]


def test_cutover_action_refuses_an_incomplete_version(admin_client, user, version, failed_entry):
    building = services.index_version_create(
        profile="embed_next",
        identity=services.ModelIdentity(provider="local", model="other", dimensions=16),
    )
    response = admin_client.post(
        "/admin/indexing/indexversion/",
        {"action": "cutover_action", "_selected_action": [building.pk]},
        follow=True,
    )
    assert "is not complete for every user" in response.content.decode()
    building.refresh_from_db()
    assert building.state == "building"
    assert IndexVersion.objects.get(state="active") == version


def test_cutover_action_switches_a_complete_version(admin_client, version):
    building = services.index_version_create(
        profile="embed_next",
        identity=services.ModelIdentity(provider="local", model="other", dimensions=16),
    )
    response = admin_client.post(
        "/admin/indexing/indexversion/",
        {"action": "cutover_action", "_selected_action": [building.pk]},
        follow=True,
    )
    assert f"Version {building.version} is active." in response.content.decode()
    version.refresh_from_db()
    assert version.state == "retiring"
