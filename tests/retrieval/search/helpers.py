"""Indexing a test user's messages with the real indexing job, run inline."""

from indexing import jobs
from indexing.selectors import active_index_version, open_index_job
from indexing.services import index_jobs_request


def index_user(user):
    version = active_index_version()
    index_jobs_request(user_id=user.pk, version_ids=[version.pk])
    job = open_index_job(user_id=user.pk, index_version_id=version.pk)
    run = jobs.index_job_run(job_id=job.pk, worker_id="test", slice_seconds=0)
    assert run.outcome == jobs.JobOutcome.DONE, run
