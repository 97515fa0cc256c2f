"""Schema-driven fuzzing of every operation against the real application.

Two passes per operation, both read from the published schema: a catalogue pass that sends
every hostile value of ``tests.claire.api.strategies`` to every parameter (and every malformed
body), and a Hypothesis pass of bodies that follow the schema, hostile variants of them and bad
query and path values. For every case: no 5xx; every 4xx has the documented error shape, a
status the operation documents and a documented code; a rejected request changes no row (every
product table counted before and after). The run is bounded and derandomised
(``EXAMPLES_PER_OPERATION``), and prints how many cases each operation ran."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from psycopg import sql

from assistant.api.schema import ANSWER_FAILURE_CODES
from claire.api.errors import API_ERROR_CODES
from tests.claire.api.routes import ASSISTANT_MESSAGES_PATH
from tests.claire.api.strategies import (
    BAD_CURSORS,
    BAD_NUMBERS,
    MALFORMED_BODIES,
    query_values,
    request_bodies,
)
from tests.claire.api.world import A_ID_BASE, Reply, asgi_call, user_models, world_build

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES_PER_OPERATION = 40
HTTP_METHODS = ("get", "post", "put", "patch", "delete")
ACCEPTS = ("application/json", "text/event-stream", "*/*", "text/html", "")
PATH_IDS = ("0", "1", "999999999", "9223372036854775807", "99999999999999999999999999")
OBJECT_KINDS = (
    "chat",
    "thread",
    "answer",
    "loop",
    "person",
    "fact",
    "merge",
    "proposal",
    "outbox",
)


def _row_counts() -> tuple[int, ...]:
    query = sql.SQL("SELECT {}").format(
        sql.SQL(", ").join(
            sql.SQL("(SELECT count(*) FROM {})").format(sql.Identifier(model._meta.db_table))
            for model in user_models()
        )
    )
    with connection.cursor() as cursor:
        cursor.execute(query.as_string())
        return tuple(cursor.fetchone())


@dataclass
class Operation:
    path: str
    method: str
    spec: dict[str, Any]
    codes: set[str]
    token: str
    client: Client
    cases: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.method} {self.path}"

    def parameters(self, where: str) -> list[dict[str, Any]]:
        return [item for item in self.spec.get("parameters", []) if item["in"] == where]

    def send(self, path_values: dict[str, str], query: dict[str, str], body: bytes, accept: str):
        url = self.path
        for name, value in path_values.items():
            url = url.replace("{" + name + "}", value)
        if query:
            url += "?" + urlencode(query)
        before = _row_counts()
        if self.path == ASSISTANT_MESSAGES_PATH:
            headers = [(b"authorization", f"Token {self.token}".encode())]
            if accept:
                headers.append((b"accept", accept.encode()))
            reply = asgi_call(self.method, url, body, headers)
        else:
            response = self.client.generic(
                self.method,
                url,
                body,
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Token {self.token}",
                HTTP_ACCEPT=accept or "*/*",
            )
            try:
                parsed = json.loads(response.content) if response.content else None
            except ValueError:
                parsed = None
            reply = Reply(status=response.status_code, body=parsed, raw=response.content)
        self.cases += 1
        where = f"{self.method} {url[:120]} body={body[:120]!r}"
        if reply.status >= 500:
            self.failures.append(f"{where}: {reply.status} {reply.raw[:200]!r}")
        elif reply.status >= 400:
            self.failures += [f"{where}: {problem}" for problem in self._error_problems(reply)]
            if _row_counts() != before:
                self.failures.append(f"{where}: rejected with {reply.status} but rows changed")

    def _error_problems(self, reply: Reply) -> list[str]:
        problems = []
        if str(reply.status) not in self.spec["responses"]:
            problems.append(f"undocumented status {reply.status}")
        body = reply.body
        if (
            not isinstance(body, dict)
            or set(body) != {"error"}
            or not isinstance(body["error"], dict)
        ):
            return [*problems, f"not the error shape: {reply.raw[:200]!r}"]
        error = body["error"]
        if not {"code", "message"} <= set(error) <= {"code", "message", "details"}:
            problems.append(f"error keys {sorted(error)}")
        if not isinstance(error.get("message"), str):
            problems.append("message is not text")
        if error.get("code") not in self.codes:
            problems.append(f"undocumented code {error.get('code')!r}")
        return problems


def _catalogue(operation: Operation, object_ids: dict[str, str], valid_body: bytes) -> None:
    """Every hostile value on its own, everything else valid."""
    path_values = {item["name"]: object_ids[item["name"]] for item in operation.parameters("path")}
    for item in operation.parameters("path"):
        for value in PATH_IDS:
            operation.send({**path_values, item["name"]: value}, {}, valid_body, "")
    for item in operation.parameters("query"):
        for value in BAD_CURSORS if item["name"] == "before" else BAD_NUMBERS:
            operation.send(path_values, {item["name"]: value}, valid_body, "")
    if operation.method != "GET":
        for body in MALFORMED_BODIES:
            operation.send(path_values, {}, body, "application/json")


def _explore(operation: Operation, object_ids: list[str], components: dict[str, Any]) -> None:
    body_schema = (
        operation.spec.get("requestBody", {})
        .get("content", {})
        .get("application/json", {})
        .get("schema")
    )
    case = st.fixed_dictionaries(
        {
            "path": st.fixed_dictionaries(
                {
                    item["name"]: st.sampled_from((*object_ids, *PATH_IDS))
                    for item in operation.parameters("path")
                }
            ),
            "query": st.fixed_dictionaries(
                {
                    item["name"]: query_values(item["name"], item["schema"])
                    for item in operation.parameters("query")
                }
            ),
            "body": st.just(b"")
            if operation.method == "GET"
            else request_bodies(body_schema, components),
            "accept": st.sampled_from(ACCEPTS),
        }
    )

    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=case)
    def run(case: dict[str, Any]) -> None:
        query = {name: value for name, value in case["query"].items() if value is not None}
        operation.send(case["path"], query, case["body"], case["accept"])

    run()


# One body per operation that passes validation, so the catalogue reaches the parameters.
VALID_BODIES: dict[str, bytes] = {
    "PATCH /api/chats/{chat_id}": b'{"excludedFromAi": false}',
    "PATCH /api/billing/policy": b'{"remoteConsent": true}',
    "POST /api/memory/merges/": b'{"keepPersonId": 1, "mergePersonId": 2}',
    "POST /api/ingest/batches": b'{"platform": "whatsapp", "messages": []}',
    "POST /api/assistant/messages": (
        b'{"requestId": "0d7e4b1e-3c55-4a0f-9a7e-1f2b3c4d5e6f", "question": "Dinner?"}'
    ),
}


def test_fuzz_every_operation():
    from claire.api.views import api_schema

    world = world_build(marker="fuzzowner", id_base=A_ID_BASE, signature=111_111)
    schema = api_schema()
    components = schema["components"]["schemas"]
    client = Client(raise_request_exception=False)
    ids = {kind: str(world.objects[kind].pk) for kind in OBJECT_KINDS}
    by_parameter = {
        "chat_id": ids["chat"],
        "thread_id": ids["thread"],
        "turn_id": ids["answer"],
        "loop_id": ids["loop"],
        "person_id": ids["person"],
        "fact_id": ids["fact"],
        "merge_id": ids["merge"],
        "proposal_id": ids["proposal"],
        "outbox_id": ids["outbox"],
    }
    operations = [
        Operation(
            path=path,
            method=method.upper(),
            spec=spec,
            codes=set(API_ERROR_CODES)
            | (set(ANSWER_FAILURE_CODES) if path == ASSISTANT_MESSAGES_PATH else set()),
            token=world.token,
            client=client,
        )
        for path, item in schema["paths"].items()
        for method, spec in item.items()
        if method in HTTP_METHODS
    ]
    for operation in operations:
        _catalogue(operation, by_parameter, VALID_BODIES.get(operation.label, b""))
        _explore(operation, list(ids.values()), components)

    failures = [failure for operation in operations for failure in operation.failures]
    print(f"\nfuzz: {sum(op.cases for op in operations)} cases, {len(operations)} operations")
    for operation in operations:
        print(
            f"fuzz: {operation.cases:4d} cases {len(operation.failures)} failures {operation.label}"
        )
    assert all(operation.cases >= EXAMPLES_PER_OPERATION for operation in operations)
    assert failures == [], "\n".join(dict.fromkeys(failures))
