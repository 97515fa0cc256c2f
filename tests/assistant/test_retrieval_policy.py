"""The answer's retrieval embeds the question under the user's own data policy."""

from __future__ import annotations

import pytest

from assistant import answering
from assistant.models import Thread
from assistant.types import AskRequest, Scope
from claire.accounts.consent import remote_consent_set
from claire.ai.types import DataPolicy

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("has_remote_consent", "expected"),
    [(True, DataPolicy.ALLOW_REMOTE), (False, DataPolicy.LOCAL_ONLY)],
)
def test_retrieval_follows_the_users_consent(
    user, dinner_chat, monkeypatch, has_remote_consent, expected
):
    remote_consent_set(user=user, given=has_remote_consent)
    seen: list[DataPolicy] = []
    real_retrieve = answering.retrieve

    def recording_retrieve(**kwargs):
        seen.append(kwargs["data_policy"])
        return real_retrieve(**kwargs)

    monkeypatch.setattr(answering, "retrieve", recording_retrieve)
    request = AskRequest(
        request_id="r-1", question="When is the dinner with Ana?", scope=Scope(mode="global")
    )
    thread = Thread.objects.create(user=user)
    result = answering.retrieval_run(user=user, request=request, thread=thread)
    assert seen == [expected]
    assert result.citations
