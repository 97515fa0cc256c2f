"""What the memory job runs: after an ingest (``memory_update``, ``memory_refresh``), the
offline reconciler (``memory_rebuild``), and forgetting what deleted messages or chats
supported."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from claire.accounts.models import User
from conversations.models import Chat, Message
from memory.models import Loop, PersonFact, PersonFactSource, Plan, PlanStep
from memory.services.facts import facts_assemble, facts_rebuild
from memory.services.identity import (
    handle_links_merge,
    handoff_links_merge,
    introductions_merge,
)
from memory.services.loops import loops_refresh, loops_update
from memory.services.plans import plans_rebuild, plans_update
from memory.services.relationships import relationship_counters_rebuild


def memory_forget_messages(*, user: User, message_ids: Sequence[int]) -> None:
    """Remove at once what deleted messages supported: plan steps, loops they opened, and facts
    no other message supports (plans left without steps go too). The deferred refresh
    recomputes statuses and supersession."""
    if not message_ids:
        return
    ids = list(message_ids)
    PlanStep.objects.filter(user=user, message_id__in=ids).delete()
    Plan.objects.filter(user=user, steps__isnull=True).delete()
    Loop.objects.filter(user=user, opened_by_id__in=ids).delete()
    PersonFactSource.objects.filter(fact__user=user, message_id__in=ids).delete()
    PersonFact.objects.filter(user=user, source_links__isnull=True).delete()


def memory_refresh(*, user: User, chat_ids: Iterable[int]) -> None:
    """Re-derive plans, facts and the loops of ``chat_ids`` (run after an ingest commits)."""
    introductions_merge(user=user)
    handoff_links_merge(user=user)
    handle_links_merge(user=user)
    loops_refresh(user=user, chat_ids=chat_ids)
    plans_rebuild(user=user)
    facts_rebuild(user=user)


def memory_update(
    *,
    user: User,
    chat_ids: Iterable[int],
    since: datetime | None,
    facts: bool = True,
    people_changed: bool = True,
) -> None:
    """Bring memory up to date after messages sent from ``since`` on changed in ``chat_ids``:
    loops and plans from those messages and their neighbourhood only (``loops_update``,
    ``plans_update``), facts re-derived when ``facts`` (``facts_touched`` or a change of
    ``facts_inputs_signature``): from the message claims ingest keeps (``facts_assemble``),
    or from every message read again when people or chats changed (``facts_rebuild``). When
    people or chat members changed (``people_changed``), the touched chats' loops are read
    whole: who a group message names depends on its members. The memory job's work; what it
    stores equals ``memory_rebuild``'s."""
    chat_ids = list(chat_ids)
    if since is None or people_changed:
        introductions_merge(user=user)
    # A hand-off and the new contact it leads to may arrive in either order (one platform's
    # batch, then another's): the hand-offs near the changed messages are read every time.
    if handoff_links_merge(user=user, since=since):
        people_changed = True
    # A handle is linked by its form when its person arrives, by what a group calls it when
    # the group's messages do.
    if handle_links_merge(user=user, chat_ids=None if since is None else chat_ids):
        people_changed = True
    if since is None:
        loops_refresh(user=user, chat_ids=chat_ids)
        plans_rebuild(user=user)
    elif people_changed:
        loops_refresh(user=user, chat_ids=chat_ids)
        plans_update(user=user, since=since)
    else:
        loops_update(user=user, chat_ids=chat_ids, since=since)
        plans_update(user=user, since=since)
    if facts and people_changed:
        facts_rebuild(user=user)
    elif facts:
        facts_assemble(user=user)


@dataclass(frozen=True)
class MemoryRebuilt:
    counter_rows: int
    open_loops: int
    plans: int
    facts: int


def memory_rebuild(*, user: User) -> MemoryRebuilt:
    """Recompute everything from the user's live messages: the offline reconciler of the
    incremental path (``memory_rebuild`` command)."""
    counter_rows = relationship_counters_rebuild(user=user)
    introductions_merge(user=user)
    handoff_links_merge(user=user)
    handle_links_merge(user=user)
    chat_ids = list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    open_loops = loops_refresh(user=user, chat_ids=chat_ids)
    plans = plans_rebuild(user=user)
    facts = facts_rebuild(user=user)
    return MemoryRebuilt(counter_rows=counter_rows, open_loops=open_loops, plans=plans, facts=facts)


def chat_memory_forget(*, chat: Chat) -> None:
    """Before a chat is deleted: remove what only its messages supported (facts, plan steps,
    loops), in the deleting transaction."""
    message_ids = list(Message.objects.filter(chat=chat).values_list("pk", flat=True))
    memory_forget_messages(user=chat.user, message_ids=message_ids)
