import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from claire.secret_key import secret_key_refuse_insecure

ROOT = Path(__file__).resolve().parents[2]
DEVELOPMENT_KEY = "insecure-development-key-set-SECRET_KEY-in-production"


def test_every_periodic_task_is_in_the_one_beat_schedule():
    assert set(settings.CELERY_BEAT_SCHEDULE) == {
        "indexing-recover-jobs",
        "billing-sweep-reservations",
        "assistant-sweep-orphaned-turns",
        "observability-rollouts-evaluate",
        "observability-alerts-evaluate",
        "memory-recover-jobs",
    }
    assert settings.CELERY_BEAT_SCHEDULE["indexing-recover-jobs"]["task"] == "indexing.recover_jobs"


@pytest.mark.parametrize("key", [DEVELOPMENT_KEY, "short-key"])
def test_production_refuses_a_development_or_short_key(key):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is a development key"):
        secret_key_refuse_insecure(
            key=key, is_debug=False, insecure_keys=frozenset({DEVELOPMENT_KEY})
        )


def test_debug_accepts_the_development_key():
    secret_key_refuse_insecure(
        key=DEVELOPMENT_KEY, is_debug=True, insecure_keys=frozenset({DEVELOPMENT_KEY})
    )


def test_a_management_command_refuses_the_development_key_when_debug_is_off():
    # Not only the served process: a worker or a command signs with the same key.
    refused = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**os.environ, "SECRET_KEY": DEVELOPMENT_KEY, "DEBUG": "false"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert refused.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is a development key" in refused.stderr


def _manage_check(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "check", *args],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "claire.settings.prod", **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_production_settings_refuse_the_development_key_even_with_debug_set():
    refused = _manage_check(SECRET_KEY=DEVELOPMENT_KEY, DEBUG="true")

    assert refused.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is a development key" in refused.stderr


def test_production_settings_pass_the_deploy_check_with_debug_forced_off():
    # DEBUG=true in the environment would fail the deploy check (security.W018) if it counted.
    completed = _manage_check(
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY=secrets.token_urlsafe(50),
        DEBUG="true",
        CLAIRE_HTTPS="true",
        ALLOWED_HOSTS="claire.example.com",
    )

    assert completed.returncode == 0, completed.stderr
    assert "System check identified no issues (0 silenced)." in completed.stdout
