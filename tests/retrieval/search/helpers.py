"""Indexing a test user's messages with the real indexing job, run inline."""

from indexing import jobs
from indexing.selectors import active_index_version
from indexing.services import index_jobs_request


def index_user(user):
    version = active_index_version()
    for job_id in index_jobs_request(user_id=user.pk, version_ids=[version.pk]):
        run = jobs.index_job_run(job_id=job_id, worker_id="test", slice_seconds=0)
        assert run.outcome == jobs.JobOutcome.DONE, run
