"""The web client in a real browser: Debian's Chromium driven by Playwright, against the real
ASGI application served by daphne on this test database.

One server and one browser serve the whole group; each test gets its own data (transactional
database tests), its own browser context and a session cookie, except the sign-in test, which
signs in through the form. No browser is downloaded: Chromium comes from the distribution
(``apt-get install -y chromium``) and axe-core from npm (``make test`` installs both).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from tests.assistant.browser.chromium import CHROMIUM, CHROMIUM_FLAGS, ROOT
from tests.assistant.test_server_processes import daphne_server

BROWSER_DIR = Path(__file__).resolve().parent
AXE = BROWSER_DIR / "node_modules" / "axe-core" / "axe.min.js"
# Screenshots of every test; gitignored, kept by CI as artifacts.
ARTIFACTS = Path(os.environ.get("BROWSER_ARTIFACTS", ROOT / "artifacts" / "browser"))

# The answer model of the server: a scripted stream, slow enough to Stop and to reload while
# it streams (about 3 s), with Markdown and a citation mark.
ANSWER_DELTAS = [
    "**Dinner** ",
    "is ",
    "on ",
    "Friday ",
    "at ",
    "8 ",
    "[S1]. ",
    "Ana ",
    "suggested ",
    "Casa ",
    "Lisboa ",
    "for ",
    "it ",
    "[S1].",
]
ANSWER_DELAY_S = 0.22
SERVER_MODEL: dict[str, object] = {
    "models": {
        "local/mock": {"options": {"deltas": ANSWER_DELTAS, "delta_delay_s": ANSWER_DELAY_S}}
    },
    "profiles": {"answer": {"candidates": ["local/mock"]}},
}


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    if not CHROMIUM.exists():
        pytest.fail(
            f"Chromium is missing at {CHROMIUM}: install it with `apt-get install -y chromium` "
            "(or `make test`, which does). The browser tests never download a browser."
        )
    return CHROMIUM


@pytest.fixture(scope="session")
def axe_source() -> str:
    if not AXE.exists():
        pytest.fail(
            f"axe-core is missing at {AXE}: run `make browser-deps` (npm ci in {BROWSER_DIR})."
        )
    return AXE.read_text()


@pytest.fixture(scope="module")
def live_server_port(django_db_setup, django_db_blocker) -> Iterator[int]:
    """daphne serving claire.asgi on the test database, with the scripted answer model and the
    in-memory channel layer (one process)."""
    with django_db_blocker.unblock(), daphne_server(model=SERVER_MODEL) as port:
        yield port


@pytest.fixture(scope="module")
def browser(chromium_path: Path, live_server_port: int) -> Iterator[Any]:
    """One Chromium for the module, started after the server (whose environment must not
    carry the flag below)."""
    from playwright.sync_api import sync_playwright

    # Playwright's synchronous API keeps its event loop registered on this thread while a
    # test runs, which Django reads as "inside async code". Nothing runs concurrently: the
    # tests' database calls are ordinary blocking calls between browser steps.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        launched = playwright.chromium.launch(
            executable_path=str(chromium_path), headless=True, args=CHROMIUM_FLAGS
        )
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def local_price_book(db):
    """The local price book back after each flush (as in the assistant tests), without the
    asyncio teardown there: Playwright's loop is registered on this thread, and this process
    runs no answers of its own."""
    import importlib

    from django.apps import apps

    seeding = importlib.import_module("billing.migrations.0003_seed_local_price_book")
    seeding.seed_local_prices(apps, None)


@pytest.fixture
def server_password_user(user, settings):
    """The test user with a password hashed as the server verifies it (the suite's fast test
    hasher is unknown to the server process)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    user.set_password("ask-claire-browser")
    user.save(update_fields=["password"])
    return user


def session_cookie_for(user: Any, port: int) -> dict[str, Any]:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return {
        "name": settings.SESSION_COOKIE_NAME,
        "value": session.session_key,
        "url": f"http://127.0.0.1:{port}",
    }


@pytest.fixture
def context_factory(browser: Any, live_server_port: int) -> Iterator[Any]:
    """New browser contexts for this test (desktop by default), closed afterwards."""
    contexts: list[Any] = []

    def new_context(*, user: Any = None, **options: Any) -> Any:
        options.setdefault("viewport", {"width": 1280, "height": 860})
        context = browser.new_context(base_url=f"http://127.0.0.1:{live_server_port}", **options)
        context.set_default_timeout(10_000)
        if user is not None:
            context.add_cookies([session_cookie_for(user, live_server_port)])
        contexts.append(context)
        return context

    yield new_context
    for context in contexts:
        context.close()


def screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def axe_violations(page: Any, axe_source: str) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now (WCAG 2.x A/AA)."""
    # Evaluated through the DevTools protocol: the page's Content-Security-Policy (no inline
    # scripts) stays in force for everything else.
    page.evaluate(axe_source)
    result = page.evaluate(
        """async () => {
          const results = await axe.run(document, {
            runOnly: {
              type: "tag",
              values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
            },
          });
          return results.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
          }));
        }"""
    )
    return [v for v in result if v["impact"] in ("serious", "critical")]
