"""Deterministic extraction of plans and loops from message text.

General English patterns only: activities with a time or a place, confirmations, changes and
cancellations, questions addressed to the user, requests and promises the user made. Nothing
here knows any particular person, place or corpus. Functions are pure (text in, facts out) so
the rules are testable one by one; ``memory.services`` applies them to messages.
"""

from __future__ import annotations

from memory.extract.facts import (
    RELATIONS,
    WORK_RELATIONS,
    FactClaim,
    fact_claims,
    nationality_claims,
    relation_canonical,
)
from memory.extract.loops import (
    ask_clause,
    claims_debt,
    debt_amount,
    fulfils_promise,
    has_link,
    is_ask,
    is_deferral,
    is_question_to_user,
    is_request_by_user,
    is_request_form,
    owns_debt,
    promise_clause,
    promise_in_person,
    promise_object,
    puts_off,
    request_in_person,
    says_arrived_words,
    says_delivered_words,
    says_done_words,
    takes_on,
)
from memory.extract.plans import (
    ACTIVITIES,
    UNDECIDED,
    PlanSignal,
    mentions_word,
    place_instead,
    plan_signal,
    time_phrases,
)
from memory.extract.suspicion import is_suspicious

__all__ = [
    "ACTIVITIES",
    "RELATIONS",
    "UNDECIDED",
    "WORK_RELATIONS",
    "FactClaim",
    "PlanSignal",
    "ask_clause",
    "claims_debt",
    "debt_amount",
    "fact_claims",
    "fulfils_promise",
    "has_link",
    "is_ask",
    "is_deferral",
    "is_question_to_user",
    "is_request_by_user",
    "is_request_form",
    "is_suspicious",
    "mentions_word",
    "nationality_claims",
    "owns_debt",
    "place_instead",
    "plan_signal",
    "promise_clause",
    "promise_in_person",
    "promise_object",
    "puts_off",
    "relation_canonical",
    "request_in_person",
    "says_arrived_words",
    "says_delivered_words",
    "says_done_words",
    "takes_on",
    "time_phrases",
]
