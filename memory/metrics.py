"""Relationship counters: which (person, chat, local day) each message counts for.

One rule, used both by the incremental path (``relationship_counters_apply`` at ingest) and by
the offline recount (``relationship_counters_rebuild``), so the two always agree:

* a message from a person counts as *received* from that person;
* a message from the user in a **direct** chat counts as *sent* to each other participant;
* a message from the user in a group counts for no one;
* the day is the send time's date in the user's time zone.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from zoneinfo import ZoneInfo

from django.db import connection

from claire.accounts.models import User
from conversations.models import ChatKind, ChatParticipant, Message

CounterKey = tuple[int, int, date]  # person id, chat id, local day


@dataclass
class CounterDelta:
    received: int = 0
    sent: int = 0


def _counterparts_by_chat(chat_ids: Iterable[int]) -> dict[int, list[int]]:
    counterparts: dict[int, list[int]] = defaultdict(list)
    for chat_id, person_id in ChatParticipant.objects.filter(
        chat_id__in=set(chat_ids), chat__kind=ChatKind.DIRECT
    ).values_list("chat_id", "person_id"):
        counterparts[chat_id].append(person_id)
    return counterparts


def counter_deltas(
    *, user: User, message_ids: Sequence[int], sign: int
) -> dict[CounterKey, CounterDelta]:
    """The counter changes of the user's messages ``message_ids`` (``sign`` +1 when they arrive,
    -1 when they are deleted). Two queries, whatever the number of messages."""
    zone = ZoneInfo(user.timezone)
    rows = list(
        Message.objects.filter(user=user, pk__in=list(message_ids)).values_list(
            "chat_id", "chat__kind", "sender_person_id", "is_from_self", "sent_at"
        )
    )
    direct_chat_ids = {row[0] for row in rows if row[1] == ChatKind.DIRECT and row[3]}
    counterparts = _counterparts_by_chat(direct_chat_ids) if direct_chat_ids else {}
    deltas: dict[CounterKey, CounterDelta] = defaultdict(CounterDelta)
    for chat_id, _kind, sender_person_id, is_from_self, sent_at in rows:
        day = sent_at.astimezone(zone).date()
        if is_from_self:
            for person_id in counterparts.get(chat_id, ()):
                deltas[(person_id, chat_id, day)].sent += sign
        elif sender_person_id is not None:
            deltas[(sender_person_id, chat_id, day)].received += sign
    return deltas


def counters_add(*, user_id: int, deltas: dict[CounterKey, CounterDelta]) -> None:
    """Add ``deltas`` to the stored counters in one statement: an upsert whose update adds to
    the row's current values, so concurrent ingests never lose an increment."""
    values = [
        (user_id, person_id, chat_id, day, delta.received, delta.sent)
        for (person_id, chat_id, day), delta in sorted(deltas.items())
        if delta.received or delta.sent
    ]
    if not values:
        return
    columns = list(zip(*values, strict=True))
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO memory_personchatday "
            "(user_id, person_id, chat_id, day, received_count, sent_count) "
            "SELECT * FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[], %s::date[], "
            "%s::integer[], %s::integer[]) "
            "ON CONFLICT (person_id, chat_id, day) DO UPDATE SET "
            "received_count = memory_personchatday.received_count + EXCLUDED.received_count, "
            "sent_count = memory_personchatday.sent_count + EXCLUDED.sent_count",
            [list(column) for column in columns],
        )
