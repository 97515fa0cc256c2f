"""A large history for the memory bench: the demo corpus, then copies of its messages shifted
back in time, until the user holds the number of messages asked for.

The copies keep the demo's chats and people (a few long conversations, the heavy case for
anything read per chat) and its wording (plans, loops and facts as dense as in the demo), each
copy whole weeks before the previous one so weekdays still match the words. Copies are written
with one ``INSERT ... SELECT`` each; counters and memory are then rebuilt once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import date, datetime, timedelta

from django.db import connection, transaction

from claire.accounts.models import User
from conversations.models import Message
from conversations.services import IncomingChat, IncomingMessage
from fixtures.demo_corpus import DemoCorpus, build_demo_corpus
from fixtures.services import demo_corpus_load
from memory import jobs, services
from memory.models import MemoryJob, MemoryJobState

# The demo corpus spans about 26 weeks; each copy sits this much earlier than the last.
COPY_PERIOD = timedelta(weeks=27)
BATCH_SIZE = 500


def scale_email(messages: int) -> str:
    return f"bench-memory-{messages}@askclaire.local"


def scale_user_ensure(*, messages: int, now: datetime) -> User:
    """The bench user holding about ``messages`` messages (built on first use, then kept:
    later runs reuse it)."""
    user = User.objects.filter(email=scale_email(messages)).first()
    if user is not None:
        return user
    with transaction.atomic():
        user = User.objects.create_user(scale_email(messages), None, first_name="Sam")
        demo_corpus_load(user=user, corpus=build_demo_corpus(now=now, seed=7))
        original = Message.objects.filter(user=user).count()
        copies = max(messages // max(original, 1) - 1, 0)
        for copy in range(1, copies + 1):
            _messages_copy(user=user, copy=copy)
    services.memory_rebuild(user=user)
    return user


def steady_job_ensure(*, user: User, today: date) -> None:
    """The user's memory job as it stands between ingests: idle, nothing pending, with facts
    derived from the current people and chats. Loading the demo corpus marks the job dirty
    from the demo's first day in every chat; a job left so would redo that stretch at every
    timed batch, so pending work is run once here (and committed)."""
    if jobs.memory_job_request(user_id=user.pk):
        jobs.memory_job_run(user_id=user.pk, worker_id="bench-settle")
    MemoryJob.objects.update_or_create(
        user=user,
        defaults={
            "state": MemoryJobState.IDLE,
            "facts_inputs_signature": services.facts_inputs_signature(user=user, today=today),
        },
    )


def _messages_copy(*, user: User, copy: int) -> None:
    suffix = f":c{copy}"
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO conversations_message
                (user_id, chat_id, platform_message_id, sender_person_id, is_from_self,
                 sender_name, kind, text, content_hash, sent_at, reply_to_platform_message_id,
                 edited_at, deleted_at, created_at, updated_at)
            SELECT user_id, chat_id, platform_message_id || %s, sender_person_id, is_from_self,
                   sender_name, kind, text, content_hash, sent_at - %s::interval,
                   CASE WHEN reply_to_platform_message_id = '' THEN ''
                        ELSE reply_to_platform_message_id || %s END,
                   edited_at, deleted_at, now(), now()
            FROM conversations_message
            WHERE user_id = %s AND platform_message_id NOT LIKE '%%:c%%'
            """,
            [suffix, f"{(COPY_PERIOD * copy).days} days", suffix, user.pk],
        )
        cursor.execute(
            """
            UPDATE conversations_message copy
            SET reply_to_id = target.id
            FROM conversations_message target
            WHERE copy.user_id = %s AND copy.platform_message_id LIKE %s
              AND copy.reply_to_platform_message_id <> ''
              AND target.chat_id = copy.chat_id
              AND target.platform_message_id = copy.reply_to_platform_message_id
            """,
            [user.pk, f"%{suffix}"],
        )


def next_batch(
    *, corpus: DemoCorpus, run: int, size: int = BATCH_SIZE
) -> tuple[list[IncomingChat], list[tuple[str, IncomingMessage]]]:
    """``size`` consecutive demo messages (a different stretch for each ``run``) posted again as
    new messages one copy period later: what a bridge sends next."""
    ordered = sorted(corpus.messages, key=lambda pair: pair[1].sent_at)
    start = (run * 397) % max(len(ordered) - size, 1)
    suffix = f":next{run}"
    stretch = ordered[start : start + size]
    messages = [
        (
            chat_id,
            dataclasses.replace(
                message,
                platform_message_id=message.platform_message_id + suffix,
                sent_at=message.sent_at + COPY_PERIOD,
                reply_to_platform_message_id=(
                    message.reply_to_platform_message_id + suffix
                    if message.reply_to_platform_message_id
                    else ""
                ),
            ),
        )
        for chat_id, message in stretch
    ]
    chat_ids = {chat_id for chat_id, _ in messages}
    chats: Sequence[IncomingChat] = [c for c in corpus.chats if c.platform_chat_id in chat_ids]
    return list(chats), messages


def _refresh_touched(user: User, batch: list[tuple[str, IncomingMessage]]) -> None:
    """The refresh each ingest commit used to queue: loops of the touched chats, then plans
    and facts of the whole user."""
    platform_ids = {message.platform_message_id for _, message in batch}
    chat_ids = set(
        Message.objects.filter(user=user, platform_message_id__in=platform_ids).values_list(
            "chat_id", flat=True
        )
    )
    services.memory_refresh(user=user, chat_ids=chat_ids)


def _job_run(user: User, batch: list[tuple[str, IncomingMessage]]) -> None:
    """The memory job the ingest marked: loops and plans from the changed messages and their
    neighbourhood, then facts."""
    jobs.memory_job_request(user_id=user.pk)
    jobs.memory_job_run(user_id=user.pk, worker_id="bench")


UPDATES = {
    "memory_refresh (touched chats, plans, facts)": _refresh_touched,
    "memory job": _job_run,
}
