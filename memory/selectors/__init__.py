"""Reads of personal memory, always scoped by the user, split by concept.

These are what the answer engine calls for the ``people_ranking``, ``plan_recall`` and
``unresolved`` routes; none of them scans the user's messages.
"""

from memory.selectors.facts import (
    DerivedAttribute,
    IdentityLookupResult,
    IdentityMatch,
    PersonFactView,
    identity_lookup,
    person_facts_for_user,
    user_stays,
)
from memory.selectors.loops import (
    OpenLoop,
    loops_for_user,
    open_loops_for_user,
)
from memory.selectors.merges import (
    MergeSuggestion,
    fuller_names,
    merge_suggestions,
    names_compatible,
    person_canonical_ids,
    person_group_expand,
    person_ids_expand,
)
from memory.selectors.plans import (
    PlanStepView,
    PlanTimeline,
    plans_for_user,
)
from memory.selectors.relationships import (
    NEGLECTED_AFTER_DAYS,
    NEGLECTED_MIN_MESSAGES_365D,
    REPRESENTATIVE_MESSAGES,
    RelationshipMetrics,
    exchanged_counts_for_user,
    people_ranking,
    reciprocity,
    relationship_metrics_for_user,
    relationship_strength,
)

__all__ = [
    "NEGLECTED_AFTER_DAYS",
    "NEGLECTED_MIN_MESSAGES_365D",
    "REPRESENTATIVE_MESSAGES",
    "DerivedAttribute",
    "IdentityLookupResult",
    "IdentityMatch",
    "MergeSuggestion",
    "OpenLoop",
    "PersonFactView",
    "PlanStepView",
    "PlanTimeline",
    "RelationshipMetrics",
    "exchanged_counts_for_user",
    "fuller_names",
    "identity_lookup",
    "loops_for_user",
    "merge_suggestions",
    "names_compatible",
    "open_loops_for_user",
    "people_ranking",
    "person_canonical_ids",
    "person_facts_for_user",
    "person_group_expand",
    "person_ids_expand",
    "plans_for_user",
    "reciprocity",
    "relationship_metrics_for_user",
    "relationship_strength",
    "user_stays",
]
