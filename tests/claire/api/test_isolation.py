"""Cross-user isolation on every ``/api/`` route, generated from the URL conf.

User B calls every route and method on user A's objects, with B's token and with B's session
(with and without the CSRF token), and with no credentials. For each call: A's rows are
unchanged, nothing of A's (an id, a text) is in the response, a route that names A's object
answers exactly as it does for an id that does not exist (404), and a call without credentials
is refused (401/403). A new route is covered without anyone listing it; a route whose path
parameter or write body has no entry below makes the test fail until it gets one.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tests.claire.api.routes import ASSISTANT_MESSAGES_PATH, Route, api_routes
from tests.claire.api.world import (
    A_ID_BASE,
    B_ID_BASE,
    KINDS,
    Reply,
    World,
    asgi_call,
    ids_of,
    integers_in,
    rows_fingerprint,
    world_build,
)

pytestmark = pytest.mark.django_db(transaction=True)

MISSING_ID = 999_999_999
CSRF_SECRET = "abcdefghijklmnopqrstuvwxyzABCDEF"
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

# The object of A's that each path parameter names.
PARAMETER_OBJECTS: dict[str, str] = {
    "chat_id": "chat",
    "thread_id": "thread",
    "turn_id": "answer",
    "loop_id": "loop",
    "person_id": "person",
    "fact_id": "fact",
    "merge_id": "merge",
    "proposal_id": "proposal",
    "outbox_id": "outbox",
}

Ref = Callable[[str], int]


@dataclass(frozen=True)
class Body:
    """A write body. ``refers`` bodies name A's objects through ``ref``; B's call must then
    answer exactly as the same body naming ids that do not exist."""

    label: str
    build: Callable[[Ref, World], Any]
    refers: bool = True


def _ask(**fields: Any) -> Callable[[Ref, World], Any]:
    def build(ref: Ref, own: World) -> Any:
        body = {"requestId": str(uuid.uuid4()), "question": "When is the dinner?"}
        for name, value in fields.items():
            body[name] = value(ref, own) if callable(value) else value
        return body

    return build


# Every write route and method, with the bodies that try to reach A's objects (an empty list:
# the route takes no body). A write route missing here fails the test.
WRITE_BODIES: dict[tuple[str, str], list[Body]] = {
    ("ingest-batch", "POST"): [
        Body(
            "same platform ids as A's chat and message",
            lambda ref, own: {
                "platform": "whatsapp",
                "chats": [{"chatId": "shared-chat", "title": "B's title"}],
                "messages": [
                    {
                        "chatId": "shared-chat",
                        "messageId": "shared-message",
                        "sentAt": "2026-03-01T10:00:00Z",
                        "text": "B's text",
                        "fromSelf": True,
                    }
                ],
            },
            refers=False,
        )
    ],
    ("chat-detail", "PATCH"): [Body("exclude", lambda ref, own: {"excludedFromAi": True})],
    ("memory-loop-close", "POST"): [],
    ("memory-fact", "DELETE"): [],
    ("memory-merges", "POST"): [
        Body(
            "A's two people",
            lambda ref, own: {"keepPersonId": ref("person"), "mergePersonId": ref("twin")},
        ),
        Body(
            "B's person and A's",
            lambda ref, own: {"keepPersonId": own.person.pk, "mergePersonId": ref("twin")},
        ),
    ],
    ("memory-merge-split", "POST"): [],
    ("assistant-turn-cancel", "POST"): [],
    ("proposal-approve", "POST"): [
        Body("the card's hash", lambda ref, own: {"payloadHash": "0" * 64}),
    ],
    ("proposal-reject", "POST"): [],
    ("proposal-edit", "POST"): [
        Body("new text", lambda ref, own: {"payloadHash": "0" * 64, "draftText": "Other words"}),
    ],
    ("bridge-outbox-ack", "POST"): [
        Body("delivered", lambda ref, own: {"status": "sent", "platformMessageId": "x-1"}),
    ],
    ("billing-policy", "PATCH"): [
        Body("consent", lambda ref, own: {"remoteConsent": False}, refers=False)
    ],
    ("assistant-messages", "POST"): [
        Body(
            "A's chat as the scope",
            _ask(scope=lambda ref, own: {"mode": "strict_chat", "chatId": str(ref("chat"))}),
        ),
        Body(
            "A's chat among preferred",
            _ask(
                scope=lambda ref, own: {
                    "mode": "preferred",
                    "chatIds": [str(own.chat.pk), str(ref("chat"))],
                }
            ),
        ),
        Body("A's thread", _ask(threadId=lambda ref, own: str(ref("thread")))),
        Body(
            "retry of A's answer",
            _ask(
                threadId=lambda ref, own: str(own.thread.pk),
                retryOfTurnId=lambda ref, own: str(ref("answer")),
            ),
        ),
    ],
}


@dataclass
class Caller:
    """One way of calling the API: a token, a session (with or without CSRF), or nobody."""

    name: str
    world: World | None
    session: bool = False
    csrf: bool = True
    _client: Client | None = None

    def headers(self, client: Client | None = None) -> dict[str, str]:
        if self.world is None:
            return {}
        if not self.session:
            return {"HTTP_AUTHORIZATION": f"Token {self.world.token}"}
        return {"HTTP_X_CSRFTOKEN": CSRF_SECRET} if self.csrf else {}

    def client(self) -> Client:
        """Signed in once (signing in writes ``last_login``, which is not the request's doing)."""
        if self._client is None:
            self._client = Client(enforce_csrf_checks=True)
            if self.session and self.world is not None:
                self._client.force_login(self.world.user)
                self._client.cookies[settings.CSRF_COOKIE_NAME] = CSRF_SECRET
        return self._client


def call(caller, method, url, body):
    client = caller.client()
    payload = b"" if body is None else json.dumps(body).encode()
    if url == ASSISTANT_MESSAGES_PATH:
        headers = [(b"accept", b"text/event-stream"), (b"content-type", b"application/json")]
        for key, value in caller.headers().items():
            name = key.removeprefix("HTTP_").replace("_", "-").lower()
            headers.append((name.encode(), value.encode()))
        if caller.session:
            cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
            headers.append((b"cookie", cookies.encode()))
        return asgi_call(method, url, payload, headers)
    response = client.generic(
        method, url, payload, content_type="application/json", **caller.headers()
    )
    raw = response.content
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = None
    return Reply(status=response.status_code, body=parsed, raw=raw)


def _ref_of(world: World | None) -> Ref:
    def ref(name: str) -> int:
        if world is None:
            # Distinct missing ids for distinct objects (two people are two ids).
            return MISSING_ID - KINDS.index(name)
        return int(getattr(world, name).pk)

    return ref


def _url(route: Route, owner: World | None) -> str:
    values = {}
    for parameter in route.parameters:
        if parameter not in PARAMETER_OBJECTS:
            pytest.fail(
                f"{route.path}: no object factory for the path parameter {parameter!r}; "
                "add the kind to tests/claire/api/world.py and PARAMETER_OBJECTS"
            )
        values[parameter] = _ref_of(owner)(PARAMETER_OBJECTS[parameter])
    return route.url(**values)


def _bodies(route: Route, method: str) -> list[Body | None]:
    if method not in WRITE_METHODS:
        return [None]
    if (route.name, method) not in WRITE_BODIES:
        pytest.fail(
            f"{method} {route.path} ({route.name}): no entry in WRITE_BODIES; say which "
            "bodies could reach another user's objects"
        )
    return list(WRITE_BODIES[(route.name, method)]) or [None]


@pytest.fixture
def worlds() -> tuple[World, World]:
    owner = world_build(marker="alphaowner", id_base=A_ID_BASE, signature=654_321)
    intruder = world_build(marker="bravointruder", id_base=B_ID_BASE, signature=123_457)
    return owner, intruder


def test_every_route_isolates_users(worlds):
    owner, intruder = worlds
    owner_ids = ids_of(owner.user)
    assert min(owner_ids) >= A_ID_BASE
    callers = [
        Caller("token", intruder),
        Caller("session", intruder, session=True),
    ]
    anonymous = Caller("anonymous", None)
    csrf_callers = [
        Caller("session-no-csrf", intruder, session=True, csrf=False),
        Caller("own-session-no-csrf", owner, session=True, csrf=False),
    ]
    for caller in [*callers, *csrf_callers]:
        caller.client()
    owner_evidence = owner_ids | {owner.signature}
    failures: list[str] = []
    cases = 0

    def check(condition: bool, what: str) -> None:
        if not condition:
            failures.append(what)

    for route in api_routes():
        for method in route.methods:
            for body in _bodies(route, method):
                label = f"{method} {route.path}" + (f" [{body.label}]" if body else "")
                url = _url(route, owner)
                missing_url = _url(route, None)
                foreign_body = body.build(_ref_of(owner), intruder) if body else None
                missing_body = body.build(_ref_of(None), intruder) if body else None
                names_foreign = bool(route.parameters) or bool(body and body.refers)
                for caller in callers:
                    cases += 1
                    before = rows_fingerprint(owner.user)
                    reply = call(caller, method, url, foreign_body)
                    check(rows_fingerprint(owner.user) == before, f"{label} {caller.name}: wrote")
                    check(reply.status < 500, f"{label} {caller.name}: {reply.status}")
                    leaked = integers_in(reply.body) & owner_evidence
                    check(not leaked, f"{label} {caller.name}: A's ids {sorted(leaked)}")
                    check(owner.marker not in reply.text(), f"{label} {caller.name}: A's text")
                    if names_foreign:
                        missing = call(caller, method, missing_url, missing_body)
                        check(
                            reply.status == 404,
                            f"{label} {caller.name}: {reply.status}, not 404",
                        )
                        check(
                            (reply.status, reply.body) == (missing.status, missing.body),
                            f"{label} {caller.name}: {reply.body} differs from {missing.body}",
                        )
                    cases += 1
                    nobody = call(anonymous, method, url, foreign_body)
                    check(rows_fingerprint(owner.user) == before, f"{label} anonymous: wrote")
                    check(nobody.status in (401, 403), f"{label} anonymous: {nobody.status}")
                    check(
                        (nobody.body or {}).get("error", {}).get("code")
                        in ("not_authenticated", "authentication_failed"),
                        f"{label} anonymous: {nobody.body}",
                    )
                if method in WRITE_METHODS:
                    # CSRF: a session write without the token is refused before anything runs,
                    # for another user's object and for one's own alike.
                    own_body = body.build(_ref_of(owner), owner) if body else None
                    for caller, target_body in zip(
                        csrf_callers, (foreign_body, own_body), strict=True
                    ):
                        cases += 1
                        before_owner = rows_fingerprint(owner.user)
                        before_intruder = rows_fingerprint(intruder.user)
                        reply = call(caller, method, url, target_body)
                        check(reply.status == 403, f"{label} {caller.name}: {reply.status}")
                        check(
                            (reply.body or {}).get("error", {}).get("code") == "permission_denied",
                            f"{label} {caller.name}: {reply.body}",
                        )
                        check(
                            rows_fingerprint(owner.user) == before_owner
                            and rows_fingerprint(intruder.user) == before_intruder,
                            f"{label} {caller.name}: wrote",
                        )
                elif not route.parameters:
                    # The owner does see their own objects here: the checks above are not vacuous.
                    cases += 1
                    own = call(Caller("owner", owner), method, url, None)
                    check(own.status == 200, f"{label} owner: {own.status}")
                    check(
                        owner.marker in own.text() or bool(integers_in(own.body) & owner_evidence),
                        f"{label} owner: shows none of the owner's objects",
                    )
                else:
                    cases += 1
                    own = call(Caller("owner", owner), method, url, None)
                    check(own.status == 200, f"{label} owner: {own.status}")
    print(f"isolation: {cases} cases over {len(api_routes())} routes, {len(failures)} failures")
    assert failures == [], "\n".join(failures)


def test_a_new_route_without_an_object_factory_fails_loudly():
    unknown_parameter = Route(
        name="reminder-detail",
        path="/api/reminders/{reminder_id}",
        methods=("GET",),
        parameters=("reminder_id",),
    )
    with pytest.raises(pytest.fail.Exception, match="no object factory"):
        _url(unknown_parameter, None)
    unknown_write = Route(
        name="reminder-list", path="/api/reminders", methods=("POST",), parameters=()
    )
    with pytest.raises(pytest.fail.Exception, match="no entry in WRITE_BODIES"):
        _bodies(unknown_write, "POST")
