"""A small load against a running server, for the operations dashboard: demo questions over
the JSON and streaming transports, some unanswerable ones (no model call), and some streams the
client abandons after the first bytes (cancellations).

    python -m evals.bench.load --url http://127.0.0.1:8000 --token TOKEN [--count 60]
        [--concurrency 2] [--seed 7]

Prints how many answers ended which way. It reads nothing but status codes and event types.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

# Questions the demo history cannot answer: the answer says what was searched, no model call.
UNANSWERABLE = (
    "What is the serial number of my old bicycle lock?",
    "Which dentist did I book in Reykjavik last winter?",
    "What colour was the submarine we rented in 2019?",
)


def _ask(url: str, token: str, question: str, mode: str) -> str:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80)
    body = json.dumps(
        {"requestId": str(uuid.uuid4()), "question": question, "scope": {"mode": "global"}}
    )
    accept = "application/json" if mode == "json" else "text/event-stream"
    connection.request(
        "POST",
        "/api/assistant/messages",
        body=body,
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Accept": accept,
        },
    )
    response = connection.getresponse()
    if response.status != 200:
        connection.close()
        return f"http_{response.status}"
    if mode == "abandon":
        response.read(64)
        connection.close()
        return "abandoned"
    data = response.read()
    connection.close()
    if mode == "json":
        return str(json.loads(data).get("status", "unknown"))
    return "streamed_error" if b'"type":"error"' in data else "streamed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args()
    # The demo questions live with the demo corpus, a Django app's module.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claire.settings.dev")
    import django

    django.setup()
    from fixtures.demo_questions import DEMO_QUESTIONS

    pick = random.Random(options.seed)
    answerable = [
        q.question for q in DEMO_QUESTIONS if "{" not in q.question and not q.scope_chat_id
    ]
    jobs = []
    for _ in range(options.count):
        roll = pick.random()
        question = pick.choice(UNANSWERABLE if roll < 0.15 else answerable)
        mode = "abandon" if roll > 0.92 else pick.choice(("json", "stream"))
        jobs.append((question, mode))
    with ThreadPoolExecutor(max_workers=options.concurrency) as pool:
        outcomes = Counter(
            pool.map(lambda job: _ask(options.url, options.token, job[0], job[1]), jobs)
        )
    print(json.dumps(dict(sorted(outcomes.items()))))


if __name__ == "__main__":
    main()
