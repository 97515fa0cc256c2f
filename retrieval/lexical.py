"""The lexical leg of hybrid search: PostgreSQL full-text search over the stored tsvector.

The question's content terms are matched as an OR (a natural question rarely has every one of
its words in the message that answers it), each term or quoted phrase through
``websearch_to_tsquery`` with the same text search configuration as the stored column, so
stemming and stop words agree on both sides. A word also matches the other ways messages
write it (``retrieval.shorthand``: "mtg" for "meeting", "nov" or "listopadzie" for
"November"), as the same term. A word's forms in other languages
(``retrieval.crosslingual``: "mooncakes" / "bánh trung thu", "delicious" / "enak") are one
more term each, weighing ``TRANSLATION_WEIGHT`` times a term of the question's own words.
Ranking is bounded: every term contributes at most ``term_cap`` matching messages (the GIN
index finds them; the scan stops at the cap), and only the union of those candidates is
scored.

Score of a message = sum over the terms it contains of ``ln(1 + term_cap / matches(term))`` —
an inverse document frequency measured inside the candidate set, so a rare word or a name that
appears in three messages outweighs a word that appears in hundreds, and a message containing
more of the rare terms ranks higher — plus ``PROXIMITY_WEIGHT`` times ``ts_rank_cd`` of the
whole OR query (cover density, normalised by document length), which orders messages with the
same terms by how close together and how often they appear.

All filters (owner, live rows, chats excluded from AI, scope, time range) are inside the query,
and inside each term's capped scan, so the cap is never spent on rows that would be dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection

from claire.accounts.models import User
from conversations.models import TEXT_SEARCH_CONFIG
from retrieval.crosslingual import Translation, translation_query
from retrieval.shorthand import search_forms_query

# Weight of the cover-density rank next to the term weights (see the module docstring).
PROXIMITY_WEIGHT = 1.0
# A term of a question word's forms in other languages weighs this share of a term of the
# question's own words: a message in the question's words is the likelier answer.
TRANSLATION_WEIGHT = 0.5


@dataclass(frozen=True)
class SearchFilters:
    """Where a search may look. ``chat_ids=None`` means every chat of the user that is not
    excluded from AI; the time range is half-open ``[start, end)``."""

    chat_ids: tuple[int, ...] | None = None
    start: datetime | None = None
    end: datetime | None = None


@dataclass(frozen=True)
class LexicalHit:
    message_id: int
    score: float


_SPECIAL = re.compile(r'["()]')


def lexical_terms(keywords: Sequence[str]) -> list[str]:
    """``websearch_to_tsquery`` inputs, one per keyword: words as they are, several words as a
    quoted phrase. Operators of the websearch syntax (a leading ``-``, a bare ``or``, quotes)
    are neutralised so a user's words are always just words."""
    terms: list[str] = []
    seen: set[str] = set()
    for keyword in keywords:
        words = [w.lstrip("-") for w in _SPECIAL.sub(" ", keyword).split()]
        words = [w for w in words if w and w.casefold() != "or"]
        if not words:
            continue
        term = words[0] if len(words) == 1 else '"' + " ".join(words) + '"'
        key = term.casefold()
        if key not in seen:
            seen.add(key)
            terms.append(term)
    return terms


def filters_sql(filters: SearchFilters, *, alias: str) -> str:
    """The SQL conditions of ``filters`` on message alias ``alias`` (parameters named
    ``chat_ids``, ``start`` and ``end``)."""
    parts = []
    if filters.chat_ids is not None:
        parts.append(f"AND {alias}.chat_id = ANY(%(chat_ids)s)")
    if filters.start is not None:
        parts.append(f"AND {alias}.sent_at >= %(start)s")
    if filters.end is not None:
        parts.append(f"AND {alias}.sent_at < %(end)s")
    return " ".join(parts)


def filters_params(filters: SearchFilters) -> dict[str, Any]:
    return {
        "chat_ids": list(filters.chat_ids) if filters.chat_ids is not None else None,
        "start": filters.start,
        "end": filters.end,
    }


_LEXICAL_SQL = """
WITH terms AS (
    SELECT u.ord, u.weight,
           CASE WHEN u.term = '' THEN to_tsquery(%(config)s::regconfig, u.forms)
                WHEN u.forms = '' THEN websearch_to_tsquery(%(config)s::regconfig, u.term)
                ELSE websearch_to_tsquery(%(config)s::regconfig, u.term)
                     || to_tsquery(%(config)s::regconfig, u.forms)
           END AS query
    FROM unnest(%(terms)s::text[], %(forms)s::text[], %(weights)s::float8[])
         WITH ORDINALITY AS u(term, forms, weight, ord)
),
useful_terms AS (
    SELECT ord, weight, query FROM terms WHERE numnode(query) > 0
),
term_matches AS (
    SELECT t.ord, x.id
    FROM useful_terms t
    CROSS JOIN LATERAL (
        SELECT m.id
        FROM conversations_message m
        JOIN conversations_chat c ON c.id = m.chat_id
        WHERE m.user_id = %(user_id)s
          AND m.deleted_at IS NULL
          AND NOT c.is_excluded_from_ai
          AND m.search_vector @@ t.query
          {filters}
        LIMIT %(term_cap)s
    ) x
),
weights AS (
    SELECT m.ord, min(t.weight) * ln(1.0 + %(term_cap)s::float8 / count(*)) AS idf
    FROM term_matches m
    JOIN useful_terms t ON t.ord = m.ord
    GROUP BY m.ord
),
candidates AS (
    SELECT DISTINCT id FROM term_matches
),
any_term AS (
    SELECT CASE WHEN %(any_form)s = ''
                THEN websearch_to_tsquery(%(config)s::regconfig, %(any_term)s)
                ELSE websearch_to_tsquery(%(config)s::regconfig, %(any_term)s)
                     || to_tsquery(%(config)s::regconfig, %(any_form)s)
           END AS query
)
SELECT m.id,
       (SELECT coalesce(sum(w.idf), 0)
          FROM useful_terms t JOIN weights w ON w.ord = t.ord
         WHERE m.search_vector @@ t.query)
       + %(proximity_weight)s * ts_rank_cd(m.search_vector, a.query, 1) AS score
FROM candidates k
JOIN conversations_message m ON m.id = k.id
CROSS JOIN any_term a
ORDER BY score DESC, m.sent_at DESC, m.id DESC
LIMIT %(limit)s
"""


def lexical_search(
    *,
    user: User,
    keywords: Sequence[str],
    filters: SearchFilters,
    term_cap: int,
    limit: int,
    translations: Sequence[Translation] = (),
) -> list[LexicalHit]:
    """The user's best lexical matches for ``keywords`` (and the keywords' ``translations``,
    ``retrieval.crosslingual.translations``), best first; one query.

    Returns nothing without running a query when no keyword is usable.
    """
    terms = lexical_terms(keywords)
    if not terms or limit <= 0:
        return []
    forms = [search_forms_query(term) for term in terms]
    weights = [1.0] * len(terms)
    for translation in translations:
        terms.append("")
        forms.append(translation_query(translation))
        weights.append(TRANSLATION_WEIGHT)
    sql = _LEXICAL_SQL.format(filters=filters_sql(filters, alias="m"))
    params: dict[str, Any] = {
        "config": TEXT_SEARCH_CONFIG,
        "terms": terms,
        "forms": forms,
        "weights": weights,
        "any_term": " or ".join(term for term in terms if term),
        "any_form": " | ".join(f"({form})" for form in forms if form),
        "user_id": user.pk,
        "term_cap": max(term_cap, 1),
        "proximity_weight": PROXIMITY_WEIGHT,
        "limit": limit,
        **filters_params(filters),
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [LexicalHit(message_id=row[0], score=float(row[1])) for row in cursor.fetchall()]
