"""The capability records are visible (read-only) in the Django admin."""

from __future__ import annotations

import pytest

from tests.factories import ModelCapabilityRecordFactory

pytestmark = pytest.mark.django_db


def test_capability_records_list_and_detail_render(admin_client):
    record = ModelCapabilityRecordFactory(
        model_key="fake/chat", error_code="rate_limited", is_probe_ok=False
    )

    listing = admin_client.get("/admin/ai/modelcapabilityrecord/")
    detail = admin_client.get(f"/admin/ai/modelcapabilityrecord/{record.pk}/change/")

    assert listing.status_code == 200
    assert b"fake/chat" in listing.content
    assert b"rate_limited" in listing.content
    assert detail.status_code == 200
    assert b'name="model_key"' not in detail.content  # read-only: no form field
