"""Which turn of a conversation answers the question: each turn's weight from its shared words and
the kind of answer it gives.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from claire.ai.local.answer_kinds import answer_types, asks_own_words, is_outcome_question
from claire.ai.local.terms import (
    _fold,
    content_terms,
    title_weight,
)
from claire.ai.suspicious import suspicious_text

# What a turn that gives the kind of answer asked for is worth, next to its shared words.
ANSWER_TYPE_WEIGHT = 1.0
# A turn that gives the kind of answer asked for a few turns after one that shares the
# question's words answers it (the reply to "what was it?" says "the wax seal", not the
# topic): it is worth that turn's shared words plus this share of the answer type's weight, so
# it outranks the turn it answers unless that one gives the answer itself (for a question
# about how things came out, the whole answer type's weight and a little more: the later word
# wins).
FOLLOW_UP_SHARE = 0.5
FOLLOW_UP_TURNS = 3
# A turn giving the kind of answer asked ranks before every turn that does not when it is at
# least this share as good as the best turn.
ANSWERS_FIRST_SHARE = 0.5
# A question word that only begins a message's word ("gas" / "gasoline", "allergy" /
# "allergic") counts for this share of its weight.
PREFIX_SHARE = 0.5
PREFIX_MIN_CHARS = 3
SHARED_PREFIX_MIN_CHARS = 5


def _begins(short: str, long: str) -> bool:
    """Whether two different words are one word's forms or a word and its longer kin: the
    shorter starts the longer ("gas" / "gasolina") or they share a long start ("allergy" /
    "allergic")."""
    if short == long:
        return False
    if len(short) > len(long):
        short, long = long, short
    if len(short) >= PREFIX_MIN_CHARS and long.startswith(short):
        return True
    shared = len(_common_start(short, long))
    return shared >= SHARED_PREFIX_MIN_CHARS and shared >= len(short) - 2


def _common_start(first: str, second: str) -> str:
    index = 0
    while index < min(len(first), len(second)) and first[index] == second[index]:
        index += 1
    return first[:index]


def _term_weight(
    question_terms: set[str], terms: frozenset[str], frequency: Counter[str], total: int
) -> float:
    """The question's words found in ``terms``, the rarer the heavier; a word found only as
    the start of one of them (``_begins``) counts ``PREFIX_SHARE`` of the rarest such one."""
    weight = 0.0
    for term in question_terms:
        if term in terms:
            weight += math.log(1 + total / frequency[term])
            continue
        kin = [word for word in terms if _begins(term, word)]
        if kin:
            weight += PREFIX_SHARE * max(math.log(1 + total / frequency[word]) for word in kin)
    return weight


def turn_weights(
    question: str,
    turns: Sequence[tuple[str, str]],
    *,
    windows: Sequence[object] | None = None,
    titles: Sequence[str] | None = None,
) -> list[float]:
    """How well each (sender, text) turn answers ``question``: the question's words it shares
    (its sender's name included; a word only begun counts ``PREFIX_SHARE``; a word only its
    chat's title holds, one per turn in ``titles``, as ``title_weight`` says), each weighing
    more the rarer it is among ``turns``, plus ``ANSWER_TYPE_WEIGHT`` when it gives the kind
    of answer asked for. A turn that gives that kind of answer within ``FOLLOW_UP_TURNS``
    after a matching turn of the same window (``windows``: one key per turn; all one window
    when None) is worth at least that turn's shared words plus ``FOLLOW_UP_SHARE`` of the
    answer type (for a question about how things came out, a little more than the whole
    answer type: the later message is the outcome). 0.0 for a turn that neither shares a word
    nor follows one."""
    shapes = answer_types(question)
    question_terms = set(content_terms(question))
    if shapes:
        # "What time", "which place", "the address of": the kind of answer asked, not its topic.
        question_terms -= _KIND_NOUNS
    terms_of = [
        frozenset(content_terms(text)) | frozenset(content_terms(sender)) for sender, text in turns
    ]
    frequency = Counter(term for terms in terms_of for term in terms)
    total = len(turns)
    keys = list(windows) if windows is not None else [None] * total
    shaped = [any(shape.search(text) for shape in shapes) for _sender, text in turns]
    shared = [_term_weight(question_terms, terms, frequency, total) for terms in terms_of]
    if titles is not None:
        shared = [
            weight + title
            for weight, title in zip(
                shared,
                title_weight(
                    question_terms, terms_of, [frozenset(content_terms(t)) for t in titles]
                ),
                strict=True,
            )
        ]
    head = _asked_head(question)
    if head:
        # The thing whose amount is asked counts twice: "gas" in "how much was gas for the
        # lake trip", more than the trip's name.
        shared = [
            weight + _term_weight(head, terms, frequency, total) if weight > 0 else weight
            for weight, terms in zip(shared, terms_of, strict=True)
        ]
    weights = [
        weight + ANSWER_TYPE_WEIGHT if weight > 0 and has_shape else weight
        for weight, has_shape in zip(shared, shaped, strict=True)
    ]
    bonus = ANSWER_TYPE_WEIGHT * (1.01 if is_outcome_question(question) else FOLLOW_UP_SHARE)
    for index, has_shape in enumerate(shaped):
        earlier = [
            shared[before]
            for before in range(max(0, index - FOLLOW_UP_TURNS), index)
            if keys[before] == keys[index] and shared[before] > 0
        ]
        if has_shape and earlier:
            weights[index] = max(weights[index], max(earlier) + bonus)
    _lift_replies(question, turns, keys, shared, weights)
    doers = _doer_turns(question, turns)
    if asks_own_words(question):
        # "Where did I say I'd meet her?": the user's own message says it, not the one before.
        weights = [
            weight + ANSWER_TYPE_WEIGHT
            if weight > 0 and sender.lower() in {"you", "me"}
            else weight
            for weight, (sender, _text) in zip(weights, turns, strict=True)
        ]
    weights = _answers_first(weights, shaped)
    # The named person telling what they do answers, however many of the occasion's words
    # another message repeats: their turns lead all others.
    best = max(weights, default=0.0)
    return [
        weight + best if is_doer and weight > 0 else weight
        for weight, is_doer in zip(weights, doers, strict=True)
    ]


# Nouns that name the kind of answer a question asks for ("what time", "what bakery").
_KIND_NOUNS = frozenset(content_terms("time day date place address adress"))
# ... and those of a question asking for a name ("what's the name of the plumber").
_SPAN_KIND_NOUNS = _KIND_NOUNS | frozenset(content_terms("name"))
# "How much was parking …", "how many boxes …": the thing whose amount or count is asked.
_HEAD_OF_AMOUNT = re.compile(
    r"\bhow\s+(?:much|many)\s+(?:(?:was|were|is|are|did|does|do|will)\s+)?"
    r"(?:(?:the|a|an|my|our|your|his|her|their)\s+)?([\w'\u2019-]+)",
    re.IGNORECASE,
)


def _asked_head(question: str) -> set[str]:
    """The content word a "how much / how many" question asks the amount of (none when it is
    a stopword: "how much did it cost")."""
    match = _HEAD_OF_AMOUNT.search(question)
    return set(content_terms(match.group(1))) if match else set()


# "What did Ana say / want / suggest ...", "which bar did Ana recommend": the question asks
# for someone's reply.
_ASKED_OF = re.compile(
    r"\b(?:did|does|do|has|had|would|will)\s+([\w'\u2019-]+)\s+(?:want|say|said|"
    r"suggest|recommend|ask|think|need|mean|tell|offer|propose|reply|respond|answer|decide|"
    r"choose|pick|ask)\w*\b",
    re.IGNORECASE,
)


def _lift_replies(
    question: str,
    turns: Sequence[tuple[str, str]],
    keys: Sequence[object],
    shared: Sequence[float],
    weights: list[float],
) -> None:
    """For a question about what someone said or wanted, lift that person's first message
    after a turn (not theirs) that shares the question's words, within ``FOLLOW_UP_TURNS`` of
    the same window, to that turn's shared words plus ``FOLLOW_UP_SHARE`` of the answer type:
    the reply answers, not the request it replies to ("could I borrow it?" / "sure, just fill
    it up after"). Changes ``weights`` in place."""
    match = _ASKED_OF.search(question)
    subject = set(content_terms(match.group(1))) if match else set()
    if not subject:
        return
    by_subject = [bool(subject & set(content_terms(sender))) for sender, _text in turns]
    for index, (is_theirs, weight) in enumerate(zip(by_subject, shared, strict=True)):
        if is_theirs or weight <= 0:
            continue
        for after in range(index + 1, min(len(turns), index + 1 + FOLLOW_UP_TURNS)):
            if keys[after] != keys[index]:
                break
            if by_subject[after]:
                lifted = weight + ANSWER_TYPE_WEIGHT * FOLLOW_UP_SHARE
                weights[after] = max(weights[after], lifted)
                break


# "What's Ana making for the picnic?", "what is Bo bringing", "what did Ana cook?", "what will
# Bo order": the question asks what one person does; the name, then the verb asked.
_ASKED_DEED = re.compile(
    r"\bwhat(?:'s|\u2019s|\s+is|\s+was|\s+are|\s+were)\s+([\w'\u2019-]+)\s+([a-z]+ing)\b"
    r"|\bwhat\s+(?:did|does|do|will|would|should)\s+([\w'\u2019-]+)\s+([a-z]{3,})\b",
    re.IGNORECASE,
)
# Verbs of saying and thinking: what someone says is read by ``_lift_replies``.
_SAYING = re.compile(
    r"(?:say|said|saying|tell|telling|told|text|texting|write|writing|wrote|ask|asking"
    r"|mention|mentioning|think|thinking|talk|talking|mean|meaning)$",
    re.IGNORECASE,
)
# Words standing for no one in particular where a name would be.
_NOT_A_DOER = frozenset(
    ["i", "you", "we", "they", "he", "she", "it", "everyone", "anyone", "someone", "people"]
)


def _doer_turns(question: str, turns: Sequence[tuple[str, str]]) -> list[bool]:
    """For a question about what one named person does ("what's Ana making for the picnic?"),
    which turns are that person's own and use the verb asked, in any form ("I'll make a
    flan"): they tell what the person does, where other turns only share the occasion's words
    ("the picnic moved to Ana's"), so ``turn_weights`` puts them first. Verbs of saying are
    left to ``_lift_replies``."""
    doers = [False] * len(turns)
    match = _ASKED_DEED.search(question)
    if match is None:
        return doers
    name = match.group(1) or match.group(3)
    verb = match.group(2) or match.group(4)
    if _fold(name) in _NOT_A_DOER or _ASKED_OF.search(question) or _SAYING.match(verb):
        return doers
    subject = set(content_terms(name))
    verbs = set(content_terms(verb))
    if not subject or not verbs:
        return doers
    for index, (sender, text) in enumerate(turns):
        names = set(content_terms(sender))
        # A short name starts the saved one ("Dani" for "Daniela Ruiz").
        if not any(n == s or n.startswith(s) for s in subject for n in names):
            continue
        words = set(content_terms(text))
        doers[index] = bool(verbs & words) or any(_begins(v, w) for v in verbs for w in words)
    return doers


def _answers_first(weights: list[float], shaped: Sequence[bool]) -> list[float]:
    """``weights`` with every turn that gives the kind of answer asked and is at least
    ``ANSWERS_FIRST_SHARE`` as good as the best turn lifted above all that do not: a message
    that repeats the question's topic without its answer never leads one that gives it."""
    best = max(weights, default=0.0)
    return [
        weight + best
        if has_shape and weight > 0 and weight >= ANSWERS_FIRST_SHARE * best
        else weight
        for weight, has_shape in zip(weights, shaped, strict=True)
    ]


def best_turn(
    question: str, turns: Sequence[tuple[str, str]], *, preferred: int | None = None
) -> int | None:
    """The index of the (sender, text) turn that best answers ``question`` by ``turn_weights``
    (``preferred``, else the first, among equals), ``None`` when no turn shares a word with
    it. Suspicious turns never answer."""
    weights = turn_weights(question, turns)
    best: int | None = None
    for index, ((sender, text), weight) in enumerate(zip(turns, weights, strict=True)):
        if weight <= 0 or suspicious_text(text) or suspicious_text(sender):
            continue
        if (
            best is None
            or weight > weights[best]
            or (weight == weights[best] and index == preferred)
        ):
            best = index
    return best
