"""Abuse limits: rate limits on ask, Stop and ingest (429 with Retry-After in the error
shape, shared by server processes through Redis), the per-user stream cap, sign-in
throttling, security headers, the secret-key guard and ``check --deploy``."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import uuid

import pytest
from django.conf import settings

from claire.secret_key import local_secret_key
from tests.assistant.conftest import token_for
from tests.factories import UserFactory

ROOT = settings.BASE_DIR


def _limited(settings, scope: str, rate: str) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, scope: rate}


def _assert_429(response_status: int, headers, body: dict) -> None:
    assert response_status == 429
    retry_after = int(headers["retry-after"])
    assert 1 <= retry_after <= 3600
    assert body["error"]["code"] == "rate_limited"
    assert body["error"]["details"] == {"retryAfterSeconds": retry_after}


@pytest.mark.django_db
def test_stop_past_the_rate_limit_is_429(api_client, settings):
    _limited(settings, "stop", "3/3600")
    statuses = [api_client.post("/api/assistant/turns/999999/cancel").status_code for _ in range(3)]
    assert statuses == [404, 404, 404]
    response = api_client.post("/api/assistant/turns/999999/cancel")
    _assert_429(response.status_code, response.headers, response.json())


@pytest.mark.django_db
def test_ingest_past_the_rate_limit_is_429(api_client, settings):
    _limited(settings, "ingest", "1/3600")
    batch = {"platform": "telegram", "chats": [], "messages": []}
    assert api_client.post("/api/ingest/batches", batch, format="json").status_code == 200
    response = api_client.post("/api/ingest/batches", batch, format="json")
    _assert_429(response.status_code, response.headers, response.json())


def _count_three(settings) -> list[bool]:
    from claire.ratelimit import rate_limit_hit

    _limited(settings, "ask", "2/3600")
    allowed = [rate_limit_hit(scope="ask", key="user-1").is_allowed for _ in range(3)]
    return [*allowed, rate_limit_hit(scope="ask", key="user-2").is_allowed]


def test_counters_work_in_the_process_without_redis(settings):
    settings.REDIS_URL = ""
    assert _count_three(settings) == [True, True, False, True]


@pytest.mark.redis
def test_counters_work_in_redis(settings, redis_settings):
    import redis

    from claire.ratelimit import _redis

    _redis.cache_clear()
    try:
        assert _count_three(settings) == [True, True, False, True]
        keys = redis.Redis.from_url(redis_settings).keys(f"{settings.RATE_LIMIT_KEY_PREFIX}:*")
        # Two counters (two users), named by hashes: no user id in the key.
        assert len(keys) == 2
        assert not any(b"user-1" in key for key in keys)
    finally:
        _redis.cache_clear()


def _hits_in_batches(settings) -> list[bool]:
    """Events counted a batch at a time, a key repeated within a batch and across batches."""
    from claire.ratelimit import rate_limit_hits

    _limited(settings, "ask", "3/3600")
    first = rate_limit_hits(scope="ask", keys=["user-1", "user-2", "user-1"])
    second = rate_limit_hits(scope="ask", keys=["user-1", "user-1", "user-2", "user-3"])
    return [decision.is_allowed for decision in [*first, *second]]


# user-1's 4th and 5th events are refused, in the order they came; the others are allowed.
BATCHED_HITS = [True, True, True, True, False, True, True]


def test_counters_count_a_batch_as_one_event_each_without_redis(settings):
    settings.REDIS_URL = ""
    assert _hits_in_batches(settings) == BATCHED_HITS


@pytest.mark.redis
def test_counters_count_a_batch_as_one_event_each_in_redis(settings, redis_settings):
    import redis

    from claire.ratelimit import _redis

    _redis.cache_clear()
    try:
        assert _hits_in_batches(settings) == BATCHED_HITS
        client = redis.Redis.from_url(redis_settings)
        counts = sorted(
            int(client.get(key)) for key in client.keys(f"{settings.RATE_LIMIT_KEY_PREFIX}:*")
        )
        assert counts == [1, 2, 4]
    finally:
        _redis.cache_clear()


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
@pytest.mark.redis
def test_limits_are_shared_by_server_processes_through_redis(user, redis_url):
    from tests.assistant.test_server_processes import daphne_process

    token = token_for(user)
    env = {"RATE_LIMIT_STOP": "2/3600", "RATE_LIMIT_KEY_PREFIX": f"claire:test:{uuid.uuid4().hex}"}
    with (
        daphne_process(redis_url=redis_url, extra_env=env) as (first, _),
        daphne_process(redis_url=redis_url, extra_env=env) as (second, _),
    ):
        statuses = [
            _curl_status(port, token, "/api/assistant/turns/999999/cancel")
            for port in (first, second, first)
        ]
    assert statuses == [404, 404, 429]


def _curl_status(port: int, token: str, path: str) -> int:
    completed = subprocess.run(
        [
            "curl",
            "-s",
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
            "-X",
            "POST",
            "-H",
            f"Authorization: Token {token}",
            f"http://127.0.0.1:{port}{path}",
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return int(completed.stdout)


def _login(client, email: str, password: str, address: str = "10.0.0.1"):
    return client.post("/login/", {"username": email, "password": password}, REMOTE_ADDR=address)


@pytest.mark.django_db
def test_sign_in_is_throttled_per_account(client, settings):
    _limited(settings, "login_account", "3/900")
    user = UserFactory(password="right-horse-battery")
    for number in range(3):
        assert _login(client, user.email, "wrong", f"10.0.0.{number}").status_code == 200
    # Even the right password, from a new address, waits now.
    response = _login(client, user.email.upper(), "right-horse-battery", "10.0.0.9")
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 900
    assert "Too many sign-in attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_sign_in_is_throttled_per_address(client, settings):
    _limited(settings, "login_address", "3/900")
    for number in range(3):
        assert _login(client, f"someone{number}@example.com", "wrong").status_code == 200
    assert _login(client, "another@example.com", "wrong").status_code == 429
    user = UserFactory(password="right-horse-battery")
    assert _login(client, user.email, "right-horse-battery", "10.0.0.2").status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/login/", "/api/me"])
def test_every_response_carries_the_security_headers(client, path):
    response = client.get(path)
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "'unsafe-inline'" not in policy.split("style-src-attr")[0]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "camera=()" in response["Permissions-Policy"]


@pytest.mark.django_db
def test_the_pages_inline_code_carries_the_request_nonce(client, user):
    client.force_login(user)
    response = client.get("/")
    nonce = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"]).group(1)
    page = response.content.decode()
    scripts = re.findall(r"<script\b[^>]*>", page)
    styles = re.findall(r"<style\b[^>]*>", page)
    assert scripts or styles
    for tag in scripts + styles:
        # Inline code carries the nonce; a script file comes from this origin ('self').
        assert f'nonce="{nonce}"' in tag or re.search(r'\bsrc="/[^/]', tag), tag
    assert client.get("/")["Content-Security-Policy"] != response["Content-Security-Policy"]


def _start_server_module(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "import claire.asgi"],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "claire.settings.dev", **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_server_refuses_to_start_with_the_development_key_when_debug_is_off():
    development_key = "insecure-development-key-set-SECRET_KEY-in-production"
    refused = _start_server_module(SECRET_KEY=development_key, DEBUG="false")
    assert refused.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is a development key" in refused.stderr
    assert _start_server_module(SECRET_KEY=development_key, DEBUG="true").returncode == 0
    assert _start_server_module(SECRET_KEY=secrets.token_urlsafe(50), DEBUG="false").returncode == 0


def test_without_secret_key_one_random_key_is_kept_in_the_data_folder(tmp_path):
    path = tmp_path / "data" / "secret_key"
    key = local_secret_key(path)
    assert len(key) >= 50
    assert local_secret_key(path) == key
    assert oct(path.stat().st_mode & 0o777) == "0o600"


def test_check_deploy_is_clean_for_the_production_settings():
    completed = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={
            **os.environ,
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "CLAIRE_HTTPS": "true",
            "ALLOWED_HOSTS": "claire.example.com",
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "System check identified no issues (0 silenced)." in completed.stdout
