"""The filesystem broker used without REDIS_URL: tasks reach the queue folder, without warnings."""

import logging

from django.conf import settings

from claire.celery import app


def test_the_filesystem_broker_connects_without_a_hostname_warning(caplog):
    caplog.set_level(logging.WARNING, logger="kombu")
    with app.connection_for_write() as connection:
        pooled = connection.clone()
        info = pooled.info()
        pooled.release()

    assert settings.CELERY_BROKER_URL.startswith("filesystem://")
    assert info["transport"] == "filesystem"
    assert [record.getMessage() for record in caplog.records] == []
