"""Whether searched evidence can answer the question at all, or the answer is "nothing".

The relevance floor of fusion keeps any message that shares one content word with the question
or sits close enough to it in meaning; for recall that is right, but it means a question about
something the history never mentions still gets a pack of loosely related messages, and the
answer cites them. Two rules, checked after search when personal memory had nothing to say,
turn such a question into the deterministic no-evidence answer:

1. **Unknown topic.** A content word of the question (not a name, not a descriptor such as
   "Russian" or "sister") occurs in no live message of the user's history, whatever the scope
   or window ("dentist", "IPO", "Buenos Aires"), and no candidate is close in meaning (vector
   similarity at least ``STRONG_SIMILARITY``, which a paraphrase reaches: "outage" / "Staging
   is down").
2. **Named people, nothing of theirs.** The question names people ("the door code Jonas sent
   me") and no candidate sent by them or in a chat with them shares a content word with the
   question or is close in meaning: whatever matched was said by someone else.

A deleted message is not readable, so a question only it answered gets the no-evidence answer.
One query (none when the question has no content word): each word's presence (an ``EXISTS``
on the full-text index) and the chats of the named people.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import connection

from claire.accounts.models import User
from conversations.models import TEXT_SEARCH_CONFIG
from retrieval.lexical import lexical_terms
from retrieval.lexicon import fold_text
from retrieval.search import SearchResult
from retrieval.types import CompiledQuery

logger = logging.getLogger(__name__)

# A candidate this close to the question in meaning answers it whatever its words. Measured
# with the local MiniLM embedder: paraphrases with no shared topic word score 0.58-0.61
# ("Where is Ana relocating to?" / "we are moving to Berlin in May" 0.587, "What restaurant
# did we pick for Friday?" / "Dinner Friday at 8 at Casa Nova?" 0.579), a neighbouring topic
# 0.53 ("dentist appointment" / "Doctor appointment moved to Tuesday"); 0.5 let the golden
# set's dentist question cite an unrelated message, 0.6 turned those paraphrases away.
STRONG_SIMILARITY = 0.55


@dataclass(frozen=True)
class Unanswerable:
    """Why the evidence cannot answer: ``rule`` is ``unknown_topic`` or ``nothing_of_people``;
    ``terms`` are the question's words the history never uses (rule 1)."""

    rule: str
    terms: tuple[str, ...] = ()


_CHECK_SQL = """
SELECT
    ARRAY(
        SELECT t.term
        FROM unnest(%(terms)s::text[]) WITH ORDINALITY AS t(term, ord)
        WHERE numnode(websearch_to_tsquery(%(config)s::regconfig, t.term)) > 0
          AND NOT EXISTS (
              SELECT 1
              FROM conversations_message m
              JOIN conversations_chat c ON c.id = m.chat_id
              WHERE m.user_id = %(user_id)s
                AND m.deleted_at IS NULL
                AND NOT c.is_excluded_from_ai
                AND m.search_vector @@ websearch_to_tsquery(%(config)s::regconfig, t.term)
          )
        ORDER BY t.ord
    ),
    ARRAY(
        SELECT DISTINCT cp.chat_id
        FROM conversations_chatparticipant cp
        JOIN conversations_chat c ON c.id = cp.chat_id
        WHERE c.user_id = %(user_id)s AND cp.person_id = ANY(%(person_ids)s)
    )
"""


def topic_terms(compiled: CompiledQuery) -> list[str]:
    """Keywords that name what the question is about: descriptors of people are left out
    (they describe someone memory may know, not words a message must use)."""
    descriptors = {fold_text(word) for person in compiled.people for word in person.descriptors}
    return [
        term
        for term in lexical_terms(compiled.keywords)
        if fold_text(term.strip('"')) not in descriptors
        and fold_text(term.strip('"')).rstrip("s") not in descriptors
    ]


def unanswerable_reason(
    *, user: User, compiled: CompiledQuery, result: SearchResult
) -> Unanswerable | None:
    """Why the candidates of ``result`` cannot answer ``compiled`` (module docstring), or
    ``None`` when they may."""
    if result.is_no_evidence or not result.candidates:
        return None
    if any(
        (candidate.vector_similarity or 0.0) >= STRONG_SIMILARITY for candidate in result.candidates
    ):
        return None
    terms = topic_terms(compiled)
    if not terms:
        return None
    person_ids = sorted({pid for person in compiled.people for pid in person.person_ids})
    with connection.cursor() as cursor:
        cursor.execute(
            _CHECK_SQL,
            {
                "user_id": user.pk,
                "config": TEXT_SEARCH_CONFIG,
                "terms": terms,
                "person_ids": person_ids,
            },
        )
        unknown, people_chat_ids = cursor.fetchone()
    if unknown:
        return Unanswerable(rule="unknown_topic", terms=tuple(unknown))
    if person_ids:
        chat_ids = set(people_chat_ids)
        theirs = [
            candidate
            for candidate in result.candidates
            if candidate.sender_person_id in person_ids or candidate.chat_id in chat_ids
        ]
        if not any(candidate.lexical_rank is not None for candidate in theirs):
            return Unanswerable(rule="nothing_of_people")
    return None
