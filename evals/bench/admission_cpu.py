"""CPU of one admission in a batch (docs/ASSISTANT.md, "Admission: one insert, one write"),
read by ``manage.py shell`` with the burst bench's database (``bench_assistant --burst``
seeds its user) exported:

    [N=100] [ROUNDS=5] [PROFILE=1] python manage.py shell < evals/bench/admission_cpu.py

Calls ``assistant.admission.admissions_decide`` on batches of ``N`` requests of the bench
user, each with a new requestId (after two warm-up batches), and prints the thread CPU per
request of each batch's median, minimum and maximum over ``ROUNDS`` batches; with
``PROFILE`` set, one more batch under ``cProfile`` on the thread CPU clock. The user's rate
limit and stream cap are lifted in this process, as the bench lifts them for its server. Each
admitted request leaves a streaming turn, which the next server start sweeps."""

import cProfile
import json
import os
import pstats
import statistics
import time
import uuid

from django.conf import settings
from rest_framework.authtoken.models import Token

from assistant.admission import Admitted, Arrival, admissions_decide
from assistant.management.commands.bench_assistant import BENCH_EMAIL, QUESTION
from claire.accounts.models import User

settings.ASSISTANT_MAX_CONCURRENT_STREAMS = 0
settings.RATE_LIMITS = {**settings.RATE_LIMITS, "ask": "1000000/60"}
token = Token.objects.get(user=User.objects.get(email=BENCH_EMAIL)).key
size = int(os.environ.get("N", "100"))
rounds = int(os.environ.get("ROUNDS", "5"))


def arrivals() -> list[Arrival]:
    batch = []
    for _ in range(size):
        body = json.dumps(
            {"requestId": str(uuid.uuid4()), "question": QUESTION, "scope": {"mode": "global"}}
        ).encode()
        headers = [
            (b"host", b"127.0.0.1"),
            (b"authorization", f"Token {token}".encode()),
            (b"accept", b"text/event-stream"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        scope = {"type": "http", "method": "POST", "path": "/api/assistant/messages"}
        batch.append(Arrival(scope={**scope, "headers": headers, "query_string": b""}, body=body))
    return batch


for _ in range(2):
    admissions_decide(arrivals())
per_request = []
for _ in range(rounds):
    batch = arrivals()
    started = time.thread_time()
    outcomes = admissions_decide(batch)
    per_request.append((time.thread_time() - started) * 1000 / size)
    assert all(isinstance(outcome, Admitted) for outcome in outcomes)
print(
    f"admission CPU per request (batches of {size}): median {statistics.median(per_request):.3f}"
    f" ms, min {min(per_request):.3f}, max {max(per_request):.3f}"
    f" (load average {os.getloadavg()[0]:.1f})"
)
if os.environ.get("PROFILE"):
    batch = arrivals()
    profile = cProfile.Profile(time.thread_time)
    profile.enable()
    admissions_decide(batch)
    profile.disable()
    pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
