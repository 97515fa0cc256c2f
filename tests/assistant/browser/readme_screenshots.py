"""The README's two screenshots (desktop and phone) of a real answer on the demo history.

It serves the project with daphne on a database where ``demo_setup`` ran (default answer
model: the local extractive answerer), signs in as the demo user in Debian's Chromium, asks two
questions in two threads and saves ``ask-desktop.png`` and ``ask-mobile.png``::

    export CLAIRE_DATABASE_NAME=webclient_demo
    python manage.py migrate
    python manage.py demo_setup --now 2026-11-25T18:00:00+00:00
    python -m tests.assistant.browser.readme_screenshots docs/img
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.assistant.browser.chromium import CHROMIUM, CHROMIUM_FLAGS, ROOT

DEMO_EMAIL = "demo@askclaire.local"
DEMO_PASSWORD = "ask-claire-demo"
# Two threads; the second is the one shown.
QUESTIONS = ("What happened with the dinner at Taberna?", "When are we going to Gerês?")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "claire.asgi:application",
        ],
        cwd=ROOT,
        env={**os.environ, "REDIS_URL": ""},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return server
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.terminate()
                raise SystemExit("daphne did not start") from None
            time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    out: Path = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    server = _serve(port)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
            )
            base = f"http://127.0.0.1:{port}"
            desktop = browser.new_context(base_url=base, viewport={"width": 1280, "height": 800})
            page = desktop.new_page()
            page.goto("/login/")
            page.get_by_label("Email").fill(DEMO_EMAIL)
            page.get_by_label("Password").fill(DEMO_PASSWORD)
            page.get_by_label("Password").press("Enter")
            for index, question in enumerate(QUESTIONS):
                if index:
                    page.get_by_role("button", name="New thread").click()
                page.get_by_label("Ask about your conversations").fill(question)
                page.get_by_label("Ask about your conversations").press("Enter")
                page.locator(".turn:not([data-status=streaming])").wait_for(timeout=60_000)
                status = page.locator(".turn").get_attribute("data-status")
                if status != "completed":
                    page.screenshot(path=str(out / "failed.png"))
                    raise SystemExit(f"the answer ended {status}: see {out / 'failed.png'}")
            page.locator("#question").blur()
            page.screenshot(path=str(out / "ask-desktop.png"))
            thread_url = page.url

            phone = browser.new_context(
                base_url=base,
                viewport={"width": 390, "height": 844},
                device_scale_factor=2,
                is_mobile=True,
                has_touch=True,
                storage_state=desktop.storage_state(),
            )
            mobile = phone.new_page()
            mobile.goto(thread_url)
            mobile.locator(".turn[data-status=completed]").wait_for()
            mobile.screenshot(path=str(out / "ask-mobile.png"))
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
