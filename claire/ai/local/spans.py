"""The words of a message that answer a question: its answer span, by the kind of question.

A message that answers a question usually says more than the answer ("ok note it down: the
seafood place first, go early, and the custard tarts at Pastelaria Lua"). The local answer
states the answer first, in its own sentence, reported with who said it ("**Rita** said:
custard tarts at Pastelaria Lua [S1]"), then reports the messages. The span is a clause, not
the whole message: the clause of the best matching messages that

- gives the kind of value the question word asks for (``question_kind``): an amount for "how
  much", a count for "how many" or "any numbers", a day or a time for "when" or "what time",
  a place or a proper name for "where" or "which place / restaurant / shop", a name for
  "who", a cause for "why" or "what was wrong", and for "what did Rita recommend / say /
  want" or a yes/no question, no kind at all: the clause nearest the question's words;
- shares the most of the question's words (rarer words weigh more, word forms and kin in
  another language count half: "pastry" / "pastel", "allergy" / "allergic");
- sits in a message that answers the question well (the message's own rank).

Clauses are the message's own words, whatever its language: the answer states the span as
found. Pure text rules.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from claire.ai.local.answer_kinds import (
    _COUNT,
    _DAY_OR_TIME,
    _DURATION,
    _MONEY,
    _PLACE,
    _REASON,
    _WHY_QUESTION,
    _cause,
    _clauses,
)

# The kinds of question, by their question words (first match wins).
AMOUNT = "amount"
COUNT = "count"
TIME = "time"
DURATION = "duration"
PLACE = "place"
PERSON = "person"
REASON = "reason"
SAID = "said"

_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        AMOUNT,
        re.compile(
            r"\bhow\s+much\b(?!\s+(?:time|longer|later|earlier|sooner|further))|\b(?:price|cost"
            r"|costs|charge[ds]?|fee|fees|owe|paid|pay|rent|fare|bill)\b",
            re.I,
        ),
    ),
    (COUNT, re.compile(r"\bhow\s+many\b|\b(?:numbers?|figures?|stats?|metrics?|peak)\b", re.I)),
    (DURATION, re.compile(r"\bhow\s+long\b|\b(?:time|pace|pb|pr|split)\s*\W*$", re.I)),
    (TIME, re.compile(r"\b(?:when|what\s+time|what\s+day|which\s+day|what\s+date)\b", re.I)),
    (
        PLACE,
        re.compile(
            r"\bwhere\b|\b(?:what|which)\s+(?:[\w'-]+\s+){0,2}(?:place|restaurant|bar|cafe|caf[eé]"
            r"|shop|store|bakery|hotel|spot|beach|town|city|neighbou?rhood|venue|club|gym"
            r"|terminal|gate|airport|station|park|street|address)\b",
            re.I,
        ),
    ),
    (
        PERSON,
        re.compile(
            r"^\W*who\b|\b(?:what|which)(?:'s|\s+is|\s+was)?\s+(?:the\s+)?name\b"
            r"|\bwhich\s+(?:person|friend|one\s+of)\b",
            re.I,
        ),
    ),
    (
        REASON,
        re.compile(
            r"\bwhy\b|\bhow\s+come\b|\bcaus(?:e|ed|ing)\b|\bwrong\b|\b(?:problem|issue)\s+with\b",
            re.I,
        ),
    ),
)

# A proper name: a capitalised word that is not "I" nor a day or a month, or a code of
# letters and digits ("JQ 508", "T4", "QX7P2L").
_PROPER = re.compile(
    r"(?<![\w'])(?!(?:I|I'm|I'll|I've|I'd|OK|Ok)\b)"
    r"(?!(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b)"
    r"[A-ZÀ-Ý][\w'\u2019-]+"
    r"|\b[A-Z]{1,3}\s?\d{1,4}\b|\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{4,8}\b"
)
_SHAPES: dict[str, re.Pattern[str]] = {
    AMOUNT: _MONEY,
    COUNT: _COUNT,
    TIME: _DAY_OR_TIME,
    DURATION: _DURATION,
    PLACE: re.compile(_PLACE.pattern + "|" + _PROPER.pattern),
    PERSON: _PROPER,
    REASON: _REASON,
}
# Kinds whose value may take several neighbouring clauses ("$30 total, so $10 each").
_JOINED_KINDS = frozenset({AMOUNT, COUNT, TIME, DURATION})
MAX_JOINED = 3
# For a question without a kind of value, a clause's sentence is stated instead when it is at
# most this many words ("Reminder: no sesame in anything, Lia is allergic" says what the
# clause "Lia is allergic" leaves out) or the clause is under ``MIN_CLAUSE_WORDS`` ("yes!").
MAX_SENTENCE_WORDS = 12
MIN_CLAUSE_WORDS = 3
MAX_SPAN_CHARS = 200
# What the message's own rank adds to a clause's score (divided by its place among the
# candidates: the best message's clauses get all of it): a clause sharing no word with the
# question is taken from the best message, one sharing a word or its kin may come from the
# next ("bolos na Padaria Lua" for "what bakery ...").
RANK_WEIGHT = 1.0
# A word of the question only kin to a clause's word (``kin``) counts this share of it.
KIN_SHARE = 0.5


# A word of the question and a word of a message are kin when the shorter (at least this
# long) begins the longer ("gas" / "gasolina", "marathon" / "marathons") or both share a start
# of at least ``KIN_SHARED_START`` letters that leaves at most two letters of the shorter
# ("allergy" / "allergic", "pastry" / "pastel"; not "contract" / "contact").
KIN_MIN_CHARS = 3
KIN_SHARED_START = 4
# Words too common to be kin of anything by their start.
_KIN_STOP = frozenset(
    [
        "the",
        "and",
        "are",
        "was",
        "were",
        "for",
        "you",
        "your",
        "our",
        "their",
        "this",
        "that",
        "with",
        "have",
        "has",
        "had",
    ]
)


def is_kin_word(word: str, other: str) -> bool:
    """Whether two folded words are forms of one word or a word and its kin in a
    neighbouring language (equal words are kin too)."""
    if word == other:
        return True
    short, long = sorted((word, other), key=len)
    if len(short) < KIN_MIN_CHARS or short in _KIN_STOP:
        return False
    if long.startswith(short):
        return True
    shared = 0
    while shared < len(short) and short[shared] == long[shared]:
        shared += 1
    return shared >= KIN_SHARED_START and shared >= len(short) - 2


def question_kind(question: str) -> str:
    """The kind of value ``question`` asks for (``AMOUNT``, ``COUNT``, ``TIME``, ``PLACE``,
    ``DURATION``, ``PERSON``, ``REASON``), else ``SAID``: the clause nearest its words answers."""
    for kind, asks in _KINDS:
        if asks.search(question):
            return kind
    return SAID


@dataclass(frozen=True)
class Span:
    """The words of one candidate message (``index``) that answer the question."""

    index: int
    text: str
    kind: str


@dataclass(frozen=True)
class _Clause:
    index: int
    position: int
    text: str
    terms: frozenset[str]
    has_shape: bool


def _statement_clauses(text: str) -> list[str]:
    clauses = _clauses(text)
    # A message that only asks still names its subject ("Gate B right?"): its clauses.
    return clauses or [part.strip(" ?!.") for part in re.split(r"[,;:]\s", text) if part.strip()]


_WORD = re.compile(r"[\w']+")
_CAPITALISED = re.compile(r"(?<![\w'])[A-ZÀ-Ý][\w'\u2019-]*")
# Kinds whose value is a name: one the question already says ("Porto" in "what bakery in
# Porto?") places the question, it does not answer it.
_NAME_KINDS = frozenset({PLACE, PERSON})


def _gives_value(
    kind: str, shape: re.Pattern[str] | None, clause: str, asked_words: set[str]
) -> bool:
    """Whether ``clause`` gives a value of ``kind`` (for a name, one the question lacks)."""
    if shape is None:
        return False
    if kind not in _NAME_KINDS:
        return shape.search(clause) is not None
    return any(
        not set(_WORD.findall(match.group().lower())) <= asked_words
        and _WORD.findall(match.group().lower())[-1] not in asked_words
        for match in shape.finditer(clause)
    )


def answer_span(
    question: str,
    candidates: Sequence[str],
    *,
    terms_of: Callable[[str], set[str]],
    kin: Callable[[str, str], bool],
) -> Span | None:
    """The span of ``candidates`` (the texts of the messages that answer ``question`` best,
    best first) that answers it, by the module's rules; ``terms_of`` gives a text's content
    words and ``kin`` says whether two words are forms or language kin of one. A question
    without a kind of value is answered from the best message alone (its ranking already
    chose the reply that answers). None when no clause gives the value asked, or, without
    a kind, none of the best message's clauses shares a word with the question."""
    kind = question_kind(question)
    shape = _SHAPES.get(kind)
    if not shape:
        candidates = candidates[:1]
    question_terms = terms_of(question)
    if kind in _NAME_KINDS:
        # The question's own names place it ("in Porto"); a clause is not nearer the answer
        # for repeating them (nor their kin: "port").
        question_terms -= terms_of(" ".join(_CAPITALISED.findall(question[1:])))
    asked_words = set(_WORD.findall(question.lower()))
    clauses = [
        _Clause(
            index=index,
            position=position,
            text=clause,
            terms=frozenset(terms_of(clause)),
            has_shape=_gives_value(kind, shape, clause, asked_words),
        )
        for index, text in enumerate(candidates)
        for position, clause in enumerate(_statement_clauses(text))
    ]
    if not clauses:
        return None
    frequency = Counter(term for clause in clauses for term in clause.terms)

    def shared(clause: _Clause) -> float:
        weight = 0.0
        for term in question_terms:
            rarity = math.log(1 + len(clauses) / max(frequency[term], 1))
            if term in clause.terms:
                weight += rarity
            elif any(kin(term, word) for word in clause.terms):
                weight += KIN_SHARE * rarity
        return weight

    def score(clause: _Clause) -> float:
        # The message's rank: the best one counts whole, the next half, and so on.
        return shared(clause) + RANK_WEIGHT / (1 + clause.index)

    # A kind of value none of the messages gives is not stated by another clause: the reports
    # of the messages follow instead.
    if shape:
        eligible = [clause for clause in clauses if clause.has_shape]
    else:
        eligible = [clause for clause in clauses if shared(clause) > 0]
    if not eligible:
        return None
    best = max(eligible, key=lambda clause: (score(clause), -clause.index, -clause.position))
    return Span(
        index=best.index,
        text=_widened(best, clauses, candidates[best.index], kind, question),
        kind=kind,
    )


def _widened(best: _Clause, clauses: Sequence[_Clause], text: str, kind: str, question: str) -> str:
    """The span around ``best``: for a cause, the words from its causal connective on; for an
    amount, a count or a time, the neighbouring clauses that give one too; for a clause too
    short to stand alone, its whole sentence."""
    if kind == REASON and _WHY_QUESTION.search(question):
        cause = _cause(text)
        if cause:
            return _cut(cause[0])
    own = [clause for clause in clauses if clause.index == best.index]
    if kind in _JOINED_KINDS:
        around = [
            clause
            for clause in own
            if clause.has_shape and abs(clause.position - best.position) < MAX_JOINED
        ]
        joined = ", ".join(clause.text for clause in sorted(around, key=lambda c: c.position))
        return _cut(joined or best.text)
    if kind == SAID:
        for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
            if best.text in sentence and (
                len(sentence.split()) <= MAX_SENTENCE_WORDS
                or len(best.text.split()) < MIN_CLAUSE_WORDS
            ):
                return _cut(sentence.strip())
    return _cut(best.text)


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_SPAN_CHARS else text[: MAX_SPAN_CHARS - 1].rstrip() + "…"
