"""The screenshot in docs/OBSERVABILITY.md: the staff dashboard of a running server, in
Debian's Chromium.

    python manage.py demo_setup && <serve>            # the demo history, a running server
    python -m evals.bench.load --url URL --token TOKEN  # the load
    python -m tests.observability.dashboard_screenshots --url URL docs/img
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from tests.assistant.browser.chromium import CHROMIUM, CHROMIUM_FLAGS

DEMO_EMAIL = "demo@askclaire.local"
DEMO_PASSWORD = "ask-claire-demo"


def _sign_in(page: Page, url: str) -> None:
    page.goto(f"{url}/admin/login/")
    page.fill("input[name=username]", DEMO_EMAIL)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(f"{url}/admin/")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--window", default="1h")
    parser.add_argument("folder", type=Path)
    options = parser.parse_args()
    url = options.url.rstrip("/")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        _sign_in(page, url)
        page.goto(f"{url}/admin/observability/dashboard/?window={options.window}&profile=answer")
        page.screenshot(path=str(options.folder / "ops-dashboard.png"), full_page=True)
        browser.close()


if __name__ == "__main__":
    main()
