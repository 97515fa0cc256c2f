"""Writes of threads and turns: the only code that changes them.

``turn_begin`` is the idempotent start of an answer (user turn + empty assistant turn in one
transaction, keyed on the user's ``request_id``); ``turn_finalize`` is its atomic end (answer,
outcome, the billing settlement and the thread's title and activity time together).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone

from assistant import selectors
from assistant.errors import (
    RequestIdReused,
    RequestInProgress,
    RetryInProgress,
    TooManyStreams,
    TurnAlreadyRetried,
    TurnNotRetryable,
)
from assistant.models import Thread, ThreadKind, Turn, TurnRole, TurnStatus
from assistant.stop import stop_broadcast
from assistant.turn_leases import stream_lease, turn_expire_if_stale
from assistant.types import AskRequest
from claire.accounts.models import User
from claire.errors import CodedError
from retrieval.routing import scope_resolve

logger = logging.getLogger(__name__)

RETRYABLE_STATUSES = frozenset({TurnStatus.PARTIAL, TurnStatus.FAILED, TurnStatus.CANCELLED})
TITLE_MAX_LENGTH = 80


def request_hash_of(request: AskRequest) -> str:
    """SHA-256 of the request's meaning (everything but the ``requestId``)."""
    canonical = json.dumps(
        {
            "question": request.question,
            "scope": request.scope.as_wire(),
            "threadId": request.thread_id,
            "retryOfTurnId": request.retry_of_turn_id,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class TurnPair:
    """A question and its answer. ``is_new`` is false when ``turn_begin`` found the request
    already answered: the caller replays the stored assistant turn instead of answering."""

    thread: Thread
    user_turn: Turn
    assistant_turn: Turn
    is_new: bool


def turn_begin(*, user: User, request: AskRequest, is_request_unseen: bool = False) -> TurnPair:
    """Idempotent on (user, ``request_id``).

    A new request inserts the thread (when ``thread_id`` is omitted), the user turn and the
    assistant turn (``streaming``) in one transaction. A seen request with the same payload
    returns the stored pair (``is_new=False``) once it reached a terminal status, and raises
    ``RequestInProgress`` while it is streaming; a different payload raises
    ``RequestIdReused``. Foreign or missing chats, threads and retried turns raise
    ``NotFound`` and write nothing.

    ``is_request_unseen``: the caller has just looked the request up (``turn_pair_for_request``)
    and found nothing, so that read is not made again; the read under the request's lock still
    makes the insert idempotent.
    """
    request_hash = request_hash_of(request)
    if not is_request_unseen:
        existing = turn_pair_for_request(user=user, request=request)
        if existing is not None:
            return existing

    retry_of: Turn | None = None
    if request.retry_of_turn_id is None:
        thread = turn_entry_thread(user=user, request=request)
    else:
        scope_resolve(user=user, raw_scope=request.scope.as_wire())
        retry_of = selectors.turn_get_for_user(
            user=user, turn_id=request.retry_of_turn_id, role=TurnRole.ASSISTANT
        )
        if retry_of.status not in RETRYABLE_STATUSES:
            raise TurnNotRetryable()
        thread = retry_of.thread
        if request.thread_id is not None and request.thread_id != thread.pk:
            raise CodedError(
                code="invalid_request", message="retryOfTurnId belongs to another thread."
            )

    with transaction.atomic():
        # With a stream cap, one user's new answers begin one at a time so that the cap is
        # exact; concurrent requests with one requestId always queue, and the later ones find
        # the pair the first committed (no INSERT fails on the unique constraint, which would
        # put the question into the PostgreSQL log).
        lock_keys: list[object] = [f"{user.pk}:{request.request_id}"]
        if settings.ASSISTANT_MAX_CONCURRENT_STREAMS:
            lock_keys.insert(0, user.pk)
        _begin_locked(lock_keys)
        existing = turn_pair_for_request(user=user, request=request)
        if existing is not None:
            return existing
        if retry_of is not None:
            _retry_claim(retry_of=retry_of)
        _stream_cap_check(user=user)
        now = timezone.now()
        if thread is None:
            thread = thread_create(user=user, request=request)
        else:
            Thread.objects.filter(pk=thread.pk).update(last_activity_at=now)
            thread.last_activity_at = now
        user_turn = Turn.objects.create(
            thread=thread,
            user=user,
            role=TurnRole.USER,
            request_id=request.request_id,
            request_hash=request_hash,
            status=TurnStatus.COMPLETED,
            text=request.question,
            scope=request.scope.as_wire(),
            finished_at=now,
        )
        assistant_turn = Turn.objects.create(
            thread=thread,
            user=user,
            role=TurnRole.ASSISTANT,
            user_turn=user_turn,
            status=TurnStatus.STREAMING,
            scope=request.scope.as_wire(),
            retry_of=retry_of,
            lease_expires_at=now + stream_lease(),
        )
    logger.info(
        "assistant.turn_begin",
        extra={
            "user_id": user.pk,
            "thread_id": thread.pk,
            "assistant_turn_id": assistant_turn.pk,
            "is_retry": retry_of is not None,
        },
    )
    return TurnPair(thread=thread, user_turn=user_turn, assistant_turn=assistant_turn, is_new=True)


@dataclass(frozen=True)
class TurnEntry:
    """One new request of a batch (``turns_begin``), checked by the caller: unseen when it
    looked, not a retry, scope resolved, ``thread`` the user's thread it continues (or None
    for a new thread)."""

    user: User
    request: AskRequest
    thread: Thread | None


def turns_begin(*, entries: list[TurnEntry]) -> list[TurnPair | CodedError | None]:
    """``turn_begin`` for many new requests in one transaction (a burst of questions is
    admitted with a few statements instead of a dozen per question), each result in the
    order of ``entries``: the new pair, ``TooManyStreams``, or None for a request that another
    transaction inserted since the caller looked (the caller answers it as a request seen
    before). One request id appears at most once in ``entries``.

    The guarantees are ``turn_begin``'s: the request locks make the insert idempotent, and
    with a stream cap the user's lock makes the count exact (locks in the order of
    ``_batch_lock_keys``, which ``turn_begin``'s own order follows, so the two never deadlock).
    """
    results: list[TurnPair | CodedError | None] = [None] * len(entries)
    if not entries:
        return results
    with transaction.atomic():
        _begin_locked(_batch_lock_keys(entries))
        seen = selectors.requests_seen(
            keys=[(entry.user.pk, entry.request.request_id) for entry in entries]
        )
        room = _stream_room(users={entry.user.pk for entry in entries})
        admitted: list[int] = []
        for index, entry in enumerate(entries):
            if (entry.user.pk, entry.request.request_id) in seen:
                continue
            if room is not None:
                if room[entry.user.pk] <= 0:
                    results[index] = TooManyStreams()
                    continue
                room[entry.user.pk] -= 1
            admitted.append(index)
        pairs = _pairs_insert([entries[index] for index in admitted])
    for index, pair in zip(admitted, pairs, strict=True):
        results[index] = pair
        logger.info(
            "assistant.turn_begin",
            extra={
                "user_id": pair.user_turn.user_id,
                "thread_id": pair.thread.pk,
                "assistant_turn_id": pair.assistant_turn.pk,
                "is_retry": False,
            },
        )
    return results


def _batch_lock_keys(entries: list[TurnEntry]) -> list[object]:
    """Each user's lock (with a stream cap) then its request locks, users in id order: the
    order ``turn_begin`` takes its two locks in."""
    by_user: dict[int, set[str]] = {}
    for entry in entries:
        by_user.setdefault(entry.user.pk, set()).add(f"{entry.user.pk}:{entry.request.request_id}")
    keys: list[object] = []
    for user_id in sorted(by_user):
        if settings.ASSISTANT_MAX_CONCURRENT_STREAMS:
            keys.append(user_id)
        keys += sorted(by_user[user_id])
    return keys


def _stream_room(*, users: set[int]) -> dict[int, int] | None:
    """How many more answers each of ``users`` may stream now (None: no cap)."""
    cap = settings.ASSISTANT_MAX_CONCURRENT_STREAMS
    if not cap:
        return None
    streaming = dict(
        Turn.objects.filter(
            user_id__in=users,
            role=TurnRole.ASSISTANT,
            status=TurnStatus.STREAMING,
            lease_expires_at__gt=timezone.now(),
        )
        .values("user_id")
        .annotate(count=Count("pk"))
        .values_list("user_id", "count")
    )
    return {user_id: cap - streaming.get(user_id, 0) for user_id in users}


def _pairs_insert(entries: list[TurnEntry]) -> list[TurnPair]:
    """The threads, user turns and assistant turns of ``entries`` in one statement
    (``_PAIRS_INSERT_SQL``), and one update of the continued threads' activity time.

    The batch's rows travel as one JSON parameter and every other column takes the value a new
    instance has, prepared once per batch: the ORM's multi-row inserts cost more interpreter
    time (each value of each row prepared and quoted) than the rest of an admission."""
    if not entries:
        return []
    now = timezone.now()
    continued = {entry.thread.pk for entry in entries if entry.thread is not None}
    if continued:
        Thread.objects.filter(pk__in=continued).update(last_activity_at=now)
    rows = []
    for index, entry in enumerate(entries):
        request = entry.request
        kind, chat_id = _thread_kind_of(request) if entry.thread is None else ("", None)
        rows.append(
            {
                "i": index,
                "user_id": entry.user.pk,
                "thread_id": entry.thread.pk if entry.thread is not None else None,
                "kind": kind,
                "chat_id": chat_id,
                "request_id": request.request_id,
                "request_hash": request_hash_of(request),
                "text": request.question,
                "scope": request.scope.as_wire(),
            }
        )
    thread_new = _InsertShape.of(Thread, given=_THREAD_GIVEN, now=now)
    user_turn = _InsertShape.of(
        Turn,
        given=_USER_TURN_GIVEN,
        now=now,
        role=TurnRole.USER,
        status=TurnStatus.COMPLETED,
        finished_at=now,
    )
    assistant_turn = _InsertShape.of(
        Turn,
        given=_ASSISTANT_TURN_GIVEN,
        now=now,
        role=TurnRole.ASSISTANT,
        status=TurnStatus.STREAMING,
        lease_expires_at=now + stream_lease(),
    )
    sql = _PAIRS_INSERT_SQL.format(
        rows=", ".join(f"{name} {db_type}" for name, db_type in _PAIR_ROW_COLUMNS),
        thread_columns=thread_new.columns,
        thread_values=thread_new.expressions,
        user_turn_columns=user_turn.columns,
        user_turn_values=user_turn.expressions,
        assistant_turn_columns=assistant_turn.columns,
        assistant_turn_values=assistant_turn.expressions,
    )
    with connection.cursor() as cursor:
        cursor.execute(
            sql,
            [
                json.dumps(rows, ensure_ascii=False, separators=(",", ":")),
                *thread_new.params,
                *user_turn.params,
                *assistant_turn.params,
            ],
        )
        ids = cursor.fetchall()
    pairs = []
    for entry, row, (_, thread_id, user_turn_id, assistant_turn_id) in zip(
        entries, rows, ids, strict=True
    ):
        thread = entry.thread
        if thread is None:
            thread = thread_new.instance(id=thread_id, kind=row["kind"], chat_id=row["chat_id"])
            thread.user = entry.user
        else:
            thread.last_activity_at = now
        asked = user_turn.instance(
            id=user_turn_id,
            request_id=row["request_id"],
            request_hash=row["request_hash"],
            text=row["text"],
            scope=row["scope"],
        )
        answer = assistant_turn.instance(id=assistant_turn_id, scope=entry.request.scope.as_wire())
        # The related objects as the ORM's inserts left them cached.
        for turn in (asked, answer):
            turn.thread = thread
            turn.user = entry.user
        answer.user_turn = asked
        pairs.append(TurnPair(thread=thread, user_turn=asked, assistant_turn=answer, is_new=True))
    return pairs


# The rows of a batch of new pairs (one JSON parameter), with the database types they carry.
_PAIR_ROW_COLUMNS = (
    ("i", "integer"),
    ("user_id", "bigint"),
    ("thread_id", "bigint"),
    ("kind", "text"),
    ("chat_id", "bigint"),
    ("request_id", "text"),
    ("request_hash", "text"),
    ("text", "text"),
    ("scope", "jsonb"),
)
# The columns of each insert that come from the rows (attname: SQL expression over ``r``).
_THREAD_GIVEN = {
    "id": "r.thread_id_new",
    "user_id": "r.user_id",
    "kind": "r.kind",
    "chat_id": "r.chat_id",
}
_USER_TURN_GIVEN = {
    "id": "r.user_turn_id",
    "thread_id": "r.thread_id_new",
    "user_id": "r.user_id",
    "request_id": "r.request_id",
    "request_hash": "r.request_hash",
    "text": "r.text",
    "scope": "r.scope",
}
_ASSISTANT_TURN_GIVEN = {
    "id": "r.assistant_turn_id",
    "thread_id": "r.thread_id_new",
    "user_id": "r.user_id",
    "user_turn_id": "r.user_turn_id",
    "scope": "r.scope",
}
# Ids come from the tables' sequences in the rows' order, each user turn's before its
# assistant turn's (the nested scans draw them row by row), as the ORM's inserts numbered
# them; the foreign keys between the three inserts are checked at the end of the statement.
_PAIRS_INSERT_SQL = """
WITH rows AS MATERIALIZED (
    SELECT numbered.*,
           nextval(pg_get_serial_sequence('assistant_turn', 'id')) AS assistant_turn_id
    FROM (
        SELECT given.*,
               CASE WHEN given.thread_id IS NULL
                    THEN nextval(pg_get_serial_sequence('assistant_thread', 'id'))
                    ELSE given.thread_id END AS thread_id_new,
               nextval(pg_get_serial_sequence('assistant_turn', 'id')) AS user_turn_id
        FROM (
            SELECT * FROM jsonb_to_recordset(%s::jsonb) AS r({rows}) ORDER BY r.i
        ) AS given
    ) AS numbered
),
threads AS (
    INSERT INTO assistant_thread ({thread_columns})
    SELECT {thread_values} FROM rows AS r WHERE r.thread_id IS NULL ORDER BY r.i
),
user_turns AS (
    INSERT INTO assistant_turn ({user_turn_columns})
    SELECT {user_turn_values} FROM rows AS r ORDER BY r.i
),
assistant_turns AS (
    INSERT INTO assistant_turn ({assistant_turn_columns})
    SELECT {assistant_turn_values} FROM rows AS r ORDER BY r.i
)
SELECT r.i, r.thread_id_new, r.user_turn_id, r.assistant_turn_id FROM rows AS r ORDER BY r.i
"""


@dataclass(frozen=True)
class _InsertShape:
    """One ``INSERT ... SELECT`` of ``model`` from the batch's rows: the columns in ``given``
    from the rows, every other one the value a new instance with ``values`` has (its field
    defaults, ``auto_now_add`` as ``now``), prepared for the database once."""

    model: type[Thread] | type[Turn]
    columns: str
    expressions: str
    params: list[Any]
    # A new instance's attribute values in field order; callable defaults are called again
    # for each instance (a list default is not shared between rows).
    values: list[object]
    positions: dict[str, int]
    fresh: list[tuple[int, Callable[[], object]]]

    @classmethod
    def of(
        cls,
        model: type[Thread] | type[Turn],
        *,
        given: dict[str, str],
        now: datetime,
        **values: object,
    ) -> _InsertShape:
        prototype = model(**values)
        columns: list[str] = []
        expressions: list[str] = []
        params: list[Any] = []
        attributes: list[object] = []
        positions: dict[str, int] = {}
        fresh: list[tuple[int, Callable[[], object]]] = []
        for position, field in enumerate(model._meta.concrete_fields):
            positions[field.attname] = position
            if getattr(field, "auto_now_add", False) and field.attname not in values:
                setattr(prototype, field.attname, now)
            value = getattr(prototype, field.attname)
            attributes.append(value)
            if field.has_default() and callable(field.default):
                fresh.append((position, field.get_default))
            columns.append(connection.ops.quote_name(field.column))
            if field.attname in given:
                expressions.append(given[field.attname])
            else:
                expressions.append(f"%s::{field.db_type(connection)}")
                params.append(field.get_db_prep_save(value, connection))
        missing = set(given) - set(positions)
        assert not missing, f"no such columns: {missing}"
        return cls(
            model=model,
            columns=", ".join(columns),
            expressions=", ".join(expressions),
            params=params,
            values=attributes,
            positions=positions,
            fresh=fresh,
        )

    def instance(self, **given: object) -> Any:
        """The saved instance of one row, ``given`` its values from the rows."""
        values = list(self.values)
        for position, default in self.fresh:
            values[position] = default()
        for attname, value in given.items():
            values[self.positions[attname]] = value
        return self.model.from_db(connection.alias, list(self.positions), values)


def turn_entry_thread(*, user: User, request: AskRequest) -> Thread | None:
    """The checks of a new request that is not a retry, before its insert: the scope's
    ownership (``NotFound`` for a foreign chat) and exclusion from AI, as retrieval defines
    them, then the user's thread it continues (None: it starts one)."""
    scope_resolve(user=user, raw_scope=request.scope.as_wire())
    if request.thread_id is None:
        return None
    return selectors.thread_get_for_user(user=user, thread_id=request.thread_id)


# Namespace of the assistant's transaction-level advisory locks (first key of the pair).
_REQUEST_LOCK_NAMESPACE = 0x436C_6169  # "Clai"


def _begin_locked(keys: list[object]) -> None:
    """Take transaction-level advisory locks on ``keys`` (a user, a user's request id), in
    order, and let the transaction commit without waiting for the WAL flush -- in one round
    trip, as every admission makes it.

    The placeholder pair need not wait for the flush: after a crash that loses it, the client's
    retry with the same requestId simply inserts it again (nothing was answered yet). The
    answer itself commits durably in ``turn_finalize``."""
    locks = ", ".join("pg_advisory_xact_lock(%s, hashtext(%s))" for _ in keys)
    parameters: list[int | str] = []
    for key in keys:
        parameters += [_REQUEST_LOCK_NAMESPACE, str(key)]
    with connection.cursor() as cursor:
        # A select list is evaluated left to right: the locks are taken in the order given.
        cursor.execute(f"SELECT set_config('synchronous_commit', 'off', true), {locks}", parameters)


def _stream_cap_check(*, user: User) -> None:
    """``TooManyStreams`` (429) when the user already streams
    ``ASSISTANT_MAX_CONCURRENT_STREAMS`` answers (turns whose lease is alive); 0 is no cap."""
    if not settings.ASSISTANT_MAX_CONCURRENT_STREAMS:
        return
    streaming = Turn.objects.filter(
        user=user,
        role=TurnRole.ASSISTANT,
        status=TurnStatus.STREAMING,
        lease_expires_at__gt=timezone.now(),
    ).count()
    cap = settings.ASSISTANT_MAX_CONCURRENT_STREAMS
    if cap and streaming >= cap:
        raise TooManyStreams()


def _retry_claim(*, retry_of: Turn) -> None:
    """One retry at a time, and one that answered is final: the retried turn's row lock
    queues concurrent retries, and the later ones see the first. Raises ``RetryInProgress``
    while a retry streams and ``TurnAlreadyRetried`` once one completed (both 409, with the
    retry's ``turnId``). A failed, partial or cancelled retry leaves the turn retryable."""
    Turn.objects.select_for_update(of=("self",)).filter(pk=retry_of.pk).values_list("pk").get()
    retries = Turn.objects.filter(retry_of=retry_of, role=TurnRole.ASSISTANT)
    streaming = retries.filter(status=TurnStatus.STREAMING).order_by("pk").first()
    if streaming is not None:
        streaming = turn_expire_if_stale(turn=streaming)
        if streaming.status == TurnStatus.STREAMING:
            raise RetryInProgress(details={"turnId": str(streaming.pk)})
    answered = retries.filter(status=TurnStatus.COMPLETED).order_by("pk").first()
    if answered is not None:
        raise TurnAlreadyRetried(details={"turnId": str(answered.pk)})


def turn_pair_for_request(*, user: User, request: AskRequest) -> TurnPair | None:
    """The stored pair of a request seen before (``is_new=False``), None for a new one.

    Raises ``RequestIdReused`` when the payload differs and ``RequestInProgress`` while the
    answer is still streaming."""
    if not selectors.request_is_seen(user=user, request_id=request.request_id):
        return None
    user_turn = selectors.turn_for_request(user=user, request_id=request.request_id)
    if user_turn is None:
        return None
    if user_turn.request_hash != request_hash_of(request):
        raise RequestIdReused()
    assistant_turn = user_turn.assistant_turn
    if assistant_turn.status == TurnStatus.STREAMING:
        assistant_turn = turn_expire_if_stale(turn=assistant_turn)
    if assistant_turn.status == TurnStatus.STREAMING:
        raise RequestInProgress()
    return TurnPair(
        thread=user_turn.thread,
        user_turn=user_turn,
        assistant_turn=assistant_turn,
        is_new=False,
    )


def thread_create(*, user: User, request: AskRequest) -> Thread:
    thread = _thread_new(user=user, request=request)
    thread.save(force_insert=True)
    return thread


def _thread_new(*, user: User, request: AskRequest) -> Thread:
    """The unsaved thread a request without ``threadId`` starts: a chat thread for a
    ``strict_chat`` scope, a global one otherwise."""
    kind, chat_id = _thread_kind_of(request)
    return Thread(user=user, kind=kind, chat_id=chat_id)


def _thread_kind_of(request: AskRequest) -> tuple[str, int | None]:
    """The kind of thread a request starts, and its chat (a ``strict_chat`` scope's)."""
    if request.scope.mode == "strict_chat":
        return ThreadKind.CHAT.value, request.scope.chat_ids[0]
    return ThreadKind.GLOBAL.value, None


def thread_title_from(question: str) -> str:
    """The first words of the question, cut at a word boundary."""
    words = " ".join(question.split())
    if len(words) <= TITLE_MAX_LENGTH:
        return words
    cut = words[: TITLE_MAX_LENGTH - 1].rsplit(" ", 1)[0]
    return f"{cut}…"


@dataclass(frozen=True)
class TurnOutcome:
    """Everything an assistant turn records when it ends."""

    status: TurnStatus
    text: str
    citations: list[dict[str, object]]
    actions: list[dict[str, object]]
    removed_citation_count: int = 0
    error_code: str = ""
    provider: str = ""
    model: str = ""
    finish_reason: str = ""
    route: str = ""
    compiled_query: dict[str, object] | None = None
    index_status: dict[str, object] | None = None


@dataclass(frozen=True)
class FinalizedTurn:
    """``was_finalized`` is false when the turn had already ended (a Stop, an expiry): the
    stored outcome wins and ``turn`` shows it."""

    turn: Turn
    thread: Thread
    was_finalized: bool


def turn_finalize(
    *,
    user: User,
    assistant_turn_id: int,
    outcome: TurnOutcome,
    settle: Callable[[], object] | None = None,
) -> FinalizedTurn:
    """End a streaming assistant turn atomically: the answer and outcome, ``settle`` (the
    billing settlement of its reservation), and the thread's title and activity time commit
    together or not at all. A turn that is no longer ``streaming`` is left as it is and
    ``settle`` does not run."""
    with transaction.atomic():
        turn = (
            Turn.objects.select_for_update(of=("self",))
            .select_related("user_turn")
            .get(user=user, pk=assistant_turn_id, role=TurnRole.ASSISTANT)
        )
        thread = Thread.objects.select_for_update().get(user=user, pk=turn.thread_id)
        if turn.status != TurnStatus.STREAMING:
            return FinalizedTurn(turn=turn, thread=thread, was_finalized=False)
        now = timezone.now()
        turn.status = outcome.status
        turn.text = outcome.text
        turn.citations = outcome.citations
        turn.actions = outcome.actions
        turn.removed_citation_count = outcome.removed_citation_count
        turn.error_code = outcome.error_code
        turn.provider = outcome.provider
        turn.model = outcome.model
        turn.finish_reason = outcome.finish_reason
        turn.route = outcome.route
        turn.compiled_query = outcome.compiled_query
        turn.index_status = outcome.index_status
        turn.finished_at = now
        turn.save()
        if settle is not None:
            settle()
        if not thread.title and turn.user_turn is not None:
            thread.title = thread_title_from(turn.user_turn.text)
        thread.last_activity_at = now
        thread.save(update_fields=["title", "last_activity_at"])
    logger.info(
        "assistant.turn_finalize",
        extra={
            "user_id": user.pk,
            "assistant_turn_id": turn.pk,
            "status": turn.status,
            "source_count": len(outcome.citations),
            "removed_citation_count": outcome.removed_citation_count,
            "error_code": outcome.error_code,
        },
    )
    return FinalizedTurn(turn=turn, thread=thread, was_finalized=True)


@dataclass(frozen=True)
class LeaseRenewal:
    """One streaming turn's heartbeat: the answer shown so far."""

    user_id: int
    assistant_turn_id: int
    text: str


def turn_leases_renew(*, renewals: list[LeaseRenewal]) -> set[int]:
    """The streaming process is alive: extend each turn's lease and keep the answer shown so
    far (what a crash would leave), in one statement for all of a process's streams. Returns
    the ids of the turns still streaming (a turn of another user, or one that has ended, is
    left alone and not returned)."""
    if not renewals:
        return set()
    table = connection.ops.quote_name(Turn._meta.db_table)
    rows = ", ".join(["(%s::bigint, %s::bigint, %s::text)"] * len(renewals))
    parameters: list[datetime | int | str] = [timezone.now() + stream_lease()]
    for renewal in renewals:
        parameters += [renewal.assistant_turn_id, renewal.user_id, renewal.text]
    parameters += [TurnRole.ASSISTANT, TurnStatus.STREAMING]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS turn SET lease_expires_at = %s, text = renewal.text "  # noqa: S608 - a table name and placeholders
            f"FROM (VALUES {rows}) AS renewal (id, user_id, text) "
            "WHERE turn.id = renewal.id AND turn.user_id = renewal.user_id "
            "AND turn.role = %s AND turn.status = %s RETURNING turn.id",
            parameters,
        )
        return {int(row[0]) for row in cursor.fetchall()}


def turn_stop(*, user: User, turn_id: int) -> Turn:
    """Ask the process that streams the user's assistant turn ``turn_id`` to stop it; the
    engine then ends it as ``cancelled`` and settles what was used. A turn that already ended
    is returned unchanged (Stop is idempotent). ``NotFound`` for anyone else's turn."""
    turn = selectors.turn_get_for_user(user=user, turn_id=turn_id, role=TurnRole.ASSISTANT)
    turn = turn_expire_if_stale(turn=turn)
    if turn.status == TurnStatus.STREAMING:
        stop_broadcast(turn_id=turn.pk)
        logger.info(
            "assistant.stop_requested", extra={"user_id": user.pk, "assistant_turn_id": turn.pk}
        )
    return turn
