"""Writes of personal memory, one module per concept; the names below are the app's write API
(``from memory import services`` then ``services.memory_update(...)``). Every function is
scoped by user and safe to run twice.

- ``relationships``: the relationship counters, moved by each ingest and recounted;
- ``plans``: plans replayed from the plan-vocabulary messages;
- ``loop_rules`` and ``loops``: which messages open and resolve a loop, and the stored loops;
- ``merges`` and ``identity``: merges and splits of people, and the merges memory derives
  (contacts that say who they are, hand-offs to another platform);
- ``claims``, ``people``, ``fact_book`` and ``facts``: what each message claims, who it names,
  facts in the making and their storage, and facts assembled, touched or rejected;
- ``refresh``: what the memory job runs (after an ingest, the offline rebuild, forgetting).
"""

from memory.services.claims import message_claims_rebuild, message_claims_refresh
from memory.services.facts import (
    facts_assemble,
    facts_inputs_signature,
    facts_rebuild,
    facts_touched,
    person_fact_reject,
)
from memory.services.identity import (
    handle_links_merge,
    handoff_links_merge,
    introductions_merge,
)
from memory.services.loops import loop_close, loops_refresh, loops_update
from memory.services.merges import person_merge, person_split
from memory.services.people import PeopleDirectory
from memory.services.plans import plans_rebuild, plans_update
from memory.services.refresh import (
    MemoryRebuilt,
    chat_memory_forget,
    memory_forget_messages,
    memory_rebuild,
    memory_refresh,
    memory_update,
)
from memory.services.relationships import relationship_counters_apply, relationship_counters_rebuild

__all__ = [
    "MemoryRebuilt",
    "PeopleDirectory",
    "chat_memory_forget",
    "facts_assemble",
    "facts_inputs_signature",
    "facts_rebuild",
    "facts_touched",
    "handle_links_merge",
    "handoff_links_merge",
    "introductions_merge",
    "loop_close",
    "loops_refresh",
    "loops_update",
    "memory_forget_messages",
    "memory_rebuild",
    "memory_refresh",
    "memory_update",
    "message_claims_rebuild",
    "message_claims_refresh",
    "person_fact_reject",
    "person_merge",
    "person_split",
    "plans_rebuild",
    "plans_update",
    "relationship_counters_apply",
    "relationship_counters_rebuild",
]
