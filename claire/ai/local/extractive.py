"""The local grounded answerer (``local/extractive``): an answer made of the evidence's own
sentences, with no language model.

It picks the sentences that share the most (rarity-weighted) words with the question, quotes
them with who said them and when, and cites each with its source label (``[S1]``). Sources
that are records of personal memory (``EvidenceSource.must_cite``: open loops, plan steps,
ranked people, catch-up items) are each named and cited: for questions memory answers on its
own (unresolved, catch-up, ranking) the answer is that list; for plans and people it follows
the quoted answer. When no
sentence shares a word with the question it says so plainly and lists the closest sources
instead of pretending they answer it. Quotes are cleaned so that message text cannot forge a
citation mark or Markdown structure. The answer streams in small word-group deltas.
"""

from __future__ import annotations

import asyncio
import math
import re
import unicodedata
from collections import Counter
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from claire.ai.local.answer_kinds import (
    answer_types,
    asks_own_words,
    asks_place,
    gives_place,
    is_outcome_question,
    points_at_a_message,
)
from claire.ai.local.polarity import is_yes_no_question, reports_own_deed, settled
from claire.ai.local.spans import answer_span, is_kin_word
from claire.ai.providers.base import (
    CallTimeouts,
    ProviderEvent,
    StreamEnd,
    split_into_word_groups,
)
from claire.ai.suspicious import (
    INJECTION,
    PHISHING,
    SPAM,
    lure_kind,
    suspicion_kind,
    suspicious_text,
    without_links,
)
from claire.ai.types import EvidenceSource, GenerationRequest, MemoryFinding, TextDelta

PROVIDER_NAME = "local"
MODEL_NAME = "extractive-answerer-v1"

MAX_QUOTES = 5
MAX_QUOTE_CHARS = 280
RECAP_SOURCES = 8

# Words that carry no topic: question words, pronouns, verbs of asking and chatting, and the
# light verbs of "how did it go" and "what ended up".
_STOPWORD_TEXT = """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your
    yours yourself yourselves ever anything something someone somebody anyone anybody thing
    things tell told say said says ask asked know remember recall find show give get got
    let lets message messages chat chats conversation conversations text texted texting
    wrote write mention mentioned talk talked talking please claire thanks hey hi also
    really go goes going went gone end ended actually want wants wanted
    """
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())

_RECAP_PATTERN = re.compile(
    r"\b(catch me up|what did i miss|what's new|whats new|recap|summari[sz]e|summary|"
    r"what happened|latest|update me)\b",
    re.IGNORECASE,
)
_WORD_PATTERN = re.compile(r"[\w']+", re.UNICODE)
_SENTENCE_PATTERN = re.compile(r"(?<=[.!?…])\s+(?=\S)|\n+")
# Quotes never start a line, so only inline markup needs escaping.
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_<>~])")
_RANKING_PATTERN = re.compile(
    r"\bwho\b.*\b(talk|chat|message|text|speak|write)\w*\b.*\b(most|more|often|least)\b",
    re.IGNORECASE,
)
_NUMBERED = re.compile(r"^\d{1,3}\. ")
_ACTION_PATTERN = re.compile(r"^\s*(please\s+)?(draft|write|send|reply|message)\b", re.IGNORECASE)


# An ordinal or degree mark between a number and a letter ("2ºB", "3°C"): people type the
# class "2ºB" as "2b". A mark that ends the word ("1ª") folds to its letter as usual.
_ORDINAL_MARK = re.compile(r"(?<=\d)[\u00ba\u00aa\u00b0](?=[^\W\d_])")


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", _ORDINAL_MARK.sub("", text.lower()))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _stem(word: str) -> str:
    word = word.removesuffix("'s")
    if word.endswith("ision") and len(word) >= 8:
        # "decision" / "decide", "provision" / "provide", "division" / "divide"
        return word[:-4] + "d"
    for suffix in ("ing", "ies", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    # "decide" / "decided", "date" / "dates": a final silent e goes too.
    if word.endswith("e") and len(word) >= 5:
        return word[:-1]
    return word


def content_terms(text: str) -> list[str]:
    """Lowercased, accent-folded, lightly stemmed words that carry meaning."""
    terms = []
    for word in _WORD_PATTERN.findall(_fold(text)):
        word = word.strip("'")
        if len(word) < 2 or word in _STOPWORDS:
            continue
        terms.append(_stem(word))
    return terms


@dataclass(frozen=True)
class _Sentence:
    source: EvidenceSource
    source_rank: int
    position: int
    text: str
    terms: frozenset[str]
    # The words of its chat's title ("Riverside Book Club"): ``title_weight``.
    title_terms: frozenset[str] = frozenset()


def _sentences(evidence: Sequence[EvidenceSource]) -> list[_Sentence]:
    sentences = []
    for rank, source in enumerate(evidence):
        sender_terms = frozenset(content_terms(source.sender))
        title_terms = frozenset(content_terms(source.chat_title))
        for position, piece in enumerate(_SENTENCE_PATTERN.split(source.text.strip())):
            piece = piece.strip()
            if piece:
                terms = frozenset(content_terms(piece)) | sender_terms
                sentences.append(_Sentence(source, rank, position, piece, terms, title_terms))
    return sentences


def title_weight(
    question_terms: set[str],
    said: Sequence[frozenset[str]],
    titles: Sequence[frozenset[str]],
) -> list[float]:
    """What each item (a sentence, a turn) earns from its chat's title: a question word no
    item says (in its text or sender's name) but some items' chat title holds ("how did we do
    in the padel tournament?", asked of a group titled "Padel Tuesdays" whose messages never
    write the word) counts for the items of those chats as a word they said would, the rarer
    among titles the heavier. A word any message says is left to the messages."""
    total = len(titles)
    spoken = set().union(*said) if said else set()
    unsaid = {term for term in question_terms if term not in spoken}
    if not unsaid or not total:
        return [0.0] * total
    frequency = Counter(term for terms in titles for term in terms if term in unsaid)
    return [
        sum(math.log(1 + total / frequency[term]) for term in unsaid & terms) for terms in titles
    ]


def _quote(text: str) -> str:
    """Message text made inert inside Markdown: one line, no live markup, no citation marks,
    and no link when the text is suspicious."""
    if suspicious_text(text):
        text = without_links(text)
    cleaned = " ".join(text.split())
    cleaned = cleaned.replace("[", "(").replace("]", ")")
    cleaned = _MARKDOWN_SPECIALS.sub(r"\\\1", cleaned)
    if len(cleaned) > MAX_QUOTE_CHARS:
        cleaned = cleaned[: MAX_QUOTE_CHARS - 1].rstrip() + "…"
    return cleaned


def _when(source: EvidenceSource, timezone: str, *, turn: int | None = None) -> str:
    """When the source's message was sent, or, with ``turn``, that message of its window (""
    when its time is not known: never another message's time)."""
    if turn is None:
        sent_at = source.sent_at
    else:
        sent_at = source.turn_sent_at[turn] if turn < len(source.turn_sent_at) else None
    if sent_at is None:
        return ""
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    local = sent_at.astimezone(zone)
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M}"


def _name(text: str, fallback: str) -> str:
    """A sender name or chat title as shown: one that holds instructions or spam is not
    repeated ("a sender with a suspicious name")."""
    if not text:
        return "Someone" if fallback == "sender" else ""
    if suspicious_text(text):
        return f"a {fallback} with a suspicious name"
    return _quote(text)


def _attribution(source: EvidenceSource, timezone: str) -> str:
    sender = _name(source.sender, "sender")
    title = _name(source.chat_title, "chat")
    context = [title] if title else []
    when = _when(source, timezone)
    if when:
        context.append(when)
    return f"**{sender}** ({', '.join(context)})" if context else f"**{sender}**"


def _excerpt(source: EvidenceSource, sentences: Sequence[_Sentence]) -> str:
    """The whole message when it is short, else its best sentences in their own order: the
    best one, and the second when both fit in a quote (a cut quote loses its end)."""
    if len(source.text) <= MAX_QUOTE_CHARS:
        return source.text
    chosen = list(sentences[:1])
    if len(sentences) > 1 and (
        len(sentences[0].text) + len(sentences[1].text) + 3 <= MAX_QUOTE_CHARS
    ):
        chosen.append(sentences[1])
    chosen.sort(key=lambda sentence: sentence.position)
    return " … ".join(sentence.text for sentence in chosen)


def _line(text: str, source: EvidenceSource, timezone: str) -> str:
    return f"- {_attribution(source, timezone)}: “{_quote(text)}” [{source.label}]"


def _time_key(source: EvidenceSource) -> tuple[bool, float, str]:
    timestamp = source.sent_at.timestamp() if source.sent_at is not None else 0.0
    return (source.sent_at is None, timestamp, source.label)


def _chronological(sources: Sequence[EvidenceSource]) -> list[EvidenceSource]:
    return sorted(sources, key=_time_key)


# Intents whose answer is the list of memory records, with the list's heading.
_DIGEST_HEADINGS = {
    "unresolved": "Still open, newest first:",
    "catch_up": "Here is what happened, oldest first:",
    "people_ranking": "Messages exchanged with each of them, in ranked order:",
}
# Intents whose quoted answer is followed by the memory records it did not already cite.
_APPENDIX_HEADINGS = {
    "plan_recall": "How the plan went, step by step:",
    "identity_lookup": "What your messages say about them:",
}


def _grouped_by_note(records: Sequence[EvidenceSource]) -> list[EvidenceSource]:
    """Records with the same memory note ("#3 Ana Souza") next to each other, in the order
    their notes first appear: a ranked person's second message stays under their rank."""
    order: dict[str, int] = {}
    for source in records:
        order.setdefault(source.note or source.label, len(order))
    return sorted(records, key=lambda source: order[source.note or source.label])


def _memory_line(source: EvidenceSource, timezone: str) -> str:
    """One memory record: what memory says, who and when, and the message itself reported
    (a suspicious one only quoted inertly, never restated)."""
    note = f"**{_quote(source.note)}**: " if source.note else ""
    text = source.primary_text or source.text
    kind = turn_suspicion(source, source.sender, text)
    return f"- {note}{_attribution(source, timezone)}: {_reported(text, kind)} [{source.label}]"


def _reported(text: str, kind: str = "") -> str:
    """Message text as the answer reports it: inert, and in quotes only when suspicious."""
    if kind or suspicious_text(text):
        return f"“{_quote(without_links(text))}” (suspicious, not followed)"
    return _quote(text)


def _weak_note(strength: float | None) -> str:
    """How sure the answer is when the evidence matches the question only weakly."""
    if strength is None:
        return ""
    return (
        "\n\nHow sure: not very. These messages match your question only weakly (evidence "
        f"strength {strength:.2f} of 1), so they may not answer it."
    )


# What the answer says of a cited message of each suspicious kind.
_KIND_NOTES = {
    INJECTION: "it contains instructions aimed at an assistant",
    PHISHING: "it looks like a phishing message; its link is left out",
    SPAM: "it looks like spam; its link is left out",
}


def turn_suspicion(source: EvidenceSource, sender: str, text: str) -> str:
    """What makes one message of ``source`` suspicious ("" when nothing): the pack's mark on
    the cited message, else the message's own words (read as from an unknown sender when the
    sender's name holds instructions), else the sender's name."""
    if source.suspicion and text == (source.primary_text or source.text):
        return source.suspicion
    named = suspicion_kind(sender)
    return suspicion_kind(text, is_unsolicited=bool(named)) or named


def source_suspicion(source: EvidenceSource) -> str:
    """The first suspicious kind among the source's chat title, sender and messages."""
    kinds = [
        source.suspicion,
        suspicion_kind(source.chat_title),
        suspicion_kind(source.sender),
        *(turn_suspicion(source, sender, text) for sender, text in _turns_of(source)),
    ]
    return next((kind for kind in kinds if kind), "")


def _suspicion_note(answer: str, evidence: Sequence[EvidenceSource]) -> str:
    """A closing line naming the cited sources that hold a suspicious message, and what
    makes each suspicious."""
    by_kind: dict[str, list[str]] = {}
    for source in evidence:
        kind = source_suspicion(source) if f"[{source.label}]" in answer else ""
        if kind:
            by_kind.setdefault(kind, []).append(f"[{source.label}]")
    if not by_kind:
        return answer
    notes = "; ".join(
        f"{''.join(labels)} holds a suspicious message ({_KIND_NOTES.get(kind, kind)})"
        for kind, labels in by_kind.items()
    )
    return answer + "\n\nNote: " + notes + "; I ignored what it asks."


def _turns_of(source: EvidenceSource) -> tuple[tuple[str, str], ...]:
    if source.turns:
        return source.turns
    return ((source.sender, source.primary_text or source.text),)


def _finding_lines(findings: Sequence[MemoryFinding], labels: set[str]) -> str:
    """Memory's statements as the answer's opening sentences, each with its marks (only
    labels of this evidence), made inert like a quote (names and titles come from messages)."""
    paragraphs: list[str] = []
    previous_listed = False
    for finding in findings:
        text = " ".join(finding.text.split()).replace("[", "(").replace("]", ")")
        text = _MARKDOWN_SPECIALS.sub(r"\\\1", text)
        marks = "".join(f"[{label}]" for label in finding.labels if label in labels)
        line = f"{text} {marks}".rstrip()
        # Numbered statements ("1. Ana: 120 messages") form one list under the one before.
        is_listed = _NUMBERED.match(text) is not None
        if is_listed and paragraphs:
            paragraphs[-1] += ("\n" if previous_listed else "\n\n") + line
        else:
            paragraphs.append(line)
        previous_listed = is_listed
    return "\n\n".join(paragraphs)


def compose_answer(
    question: str,
    evidence: Sequence[EvidenceSource],
    timezone: str,
    intent: str = "",
    findings: Sequence[MemoryFinding] = (),
    weak_strength: float | None = None,
) -> str:
    """The whole Markdown answer for ``question`` (of compiled ``intent``, "" when unknown)
    from ``evidence`` (deterministic): memory's ``findings`` first (the direct answer: a
    plan's status and day, yes or no, the ranked names with counts), then the quotes that
    support them. ``weak_strength`` (the evidence strength, when retrieval judged the evidence
    a weak match) closes the answer with a line saying it may not answer the question."""
    if not evidence:
        return "I couldn't find anything in your messages about this."
    if not findings:
        answer = _suspicion_note(_body(question, evidence, timezone, intent), evidence)
        return answer + _weak_note(weak_strength)
    lead = _finding_lines(findings, {source.label for source in evidence})
    records = [source for source in evidence if source.must_cite]
    if intent == "plan_recall" and records:
        # The plan's own steps prove the statement; other matches would be other plans.
        lines = [_memory_line(source, timezone) for source in records]
        lead += _place_told(question, lead, evidence, timezone)
        answer = lead + "\n\n" + _APPENDIX_HEADINGS[intent] + "\n\n" + "\n".join(lines)
    else:
        answer = lead + "\n\n" + _body(question, evidence, timezone, intent)
    return _suspicion_note(answer, evidence)


def _place_told(question: str, lead: str, evidence: Sequence[EvidenceSource], timezone: str) -> str:
    """For "where's the meeting thursday?" answered by a plan whose statement gives no place:
    the best ranked trusted message of the evidence that names a place and shares a word of
    the question (the plan's steps may say only the day), as a line after the statement; ""
    otherwise."""
    if not asks_place(question) or gives_place(lead):
        return ""
    wanted = set(content_terms(question))
    for source in evidence:
        text = source.primary_text or source.text
        if (
            not source.must_cite
            and not source_suspicion(source)
            and gives_place(text)
            and wanted & set(content_terms(text))
        ):
            return "\n\nWhere, as the messages say:\n\n" + _line(text, source, timezone)
    return ""


def _body(question: str, evidence: Sequence[EvidenceSource], timezone: str, intent: str) -> str:
    records = [source for source in evidence if source.must_cite]
    if records and intent in _DIGEST_HEADINGS:
        if intent == "catch_up":
            records = _chronological(records)
        if intent == "people_ranking":
            records = _grouped_by_note(records)
        lines = [_memory_line(source, timezone) for source in records]
        heading = _DIGEST_HEADINGS[intent]
        if intent == "unresolved" and is_yes_no_question(question):
            # "Did I pay Ivo back?" is about one loop: its messages, not a list of open ones.
            heading = "The messages that show it:"
        return heading + "\n\n" + "\n".join(lines)
    answer = _quoted_answer(question, evidence, timezone)
    missing = [source for source in records if f"[{source.label}]" not in answer]
    if missing:
        heading = _APPENDIX_HEADINGS.get(intent, "Also from your memory:")
        lines = [_memory_line(source, timezone) for source in missing]
        answer += "\n\n" + heading + "\n\n" + "\n".join(lines)
    return answer


def _quoted_answer(question: str, evidence: Sequence[EvidenceSource], timezone: str) -> str:
    """The answer made of the evidence's own sentences that best match ``question``."""

    if _ACTION_PATTERN.search(question):
        # Honest about what happens: the answer quotes, a draft (when the engine makes one)
        # follows and waits for approval; nothing is sent from here.
        found = _quoted_answer(_ACTION_PATTERN.sub("", question), evidence, timezone)
        return (
            "I never send messages myself: a draft, when I can prepare one, waits below for "
            "your approval. What your messages say about it:\n\n" + found
        )
    if _RANKING_PATTERN.search(question):
        return _ranking(evidence, timezone)
    question_terms = set(content_terms(question))
    if _RECAP_PATTERN.search(question) or not question_terms:
        recent = _chronological(evidence)[-RECAP_SOURCES:]
        lines = [_line(source.text, source, timezone) for source in recent]
        return "Here is what these messages say, oldest first:\n\n" + "\n".join(lines)

    sentences = _sentences(evidence)
    document_frequency = Counter(term for sentence in sentences for term in sentence.terms)
    total = len(sentences)
    titled = title_weight(
        question_terms,
        [sentence.terms for sentence in sentences],
        [sentence.title_terms for sentence in sentences],
    )

    def score(sentence: _Sentence, title: float) -> float:
        weight = _term_weight(question_terms, sentence.terms, document_frequency, total) + title
        # Retrieval already ranked the sources; among equals, prefer its order.
        return weight + 0.01 / (1 + sentence.source_rank) if weight > 0 else 0.0

    # A message is as relevant as its best sentence; its excerpt is built from its best ones.
    by_source: dict[str, list[tuple[float, _Sentence]]] = {}
    for sentence, title in zip(sentences, titled, strict=True):
        value = score(sentence, title)
        if value > 0:
            by_source.setdefault(sentence.source.label, []).append((value, sentence))
    ranked = sorted(
        by_source.values(),
        key=lambda scored: (-max(value for value, _ in scored), scored[0][1].source_rank),
    )[:MAX_QUOTES]

    if not ranked:
        scam = _scam_found(question, evidence)
        if scam:
            return scam
        closest = list(evidence[:3])
        lines = [_line(source.text, source, timezone) for source in _chronological(closest)]
        return (
            "These messages don't clearly answer that. The closest ones I found:\n\n"
            + "\n".join(lines)
        )

    def excerpt_of(scored: list[tuple[float, _Sentence]]) -> tuple[EvidenceSource, str]:
        best_first = [sentence for _, sentence in sorted(scored, key=lambda item: -item[0])]
        source = best_first[0].source
        if source.turns and source.primary_text:
            # The line names the cited message's sender and time: it quotes that message, not
            # its whole window (other people's lines, and their names, under one sender).
            return source, source.primary_text
        return source, _excerpt(source, best_first)

    best_source, best_text = excerpt_of(ranked[0])
    matched = _reported_turns(question, ranked)
    reported = _stated_lead(question, matched, timezone)
    if is_yes_no_question(question):
        opening = _yes_no_opening(question, ranked, timezone)
        if opening.startswith(UNTRUSTED_ALONE[:20]):
            return opening
        # A bare "No." needs the messages that show it; the other openings cite their own.
        if opening and (reported or opening != "No. "):
            reported = (
                opening
                + "\n\n".join(
                    line for line in reported.split("\n\n") if line and line not in opening
                )
            ).rstrip()
    lead = (
        reported
        if reported
        else (
            f"The closest match is from {_attribution(best_source, timezone)}: "
            f"“{_quote(best_text)}” [{best_source.label}]"
        )
    )
    # Sources the lead already reports are not quoted again.
    others = sorted(
        (
            excerpt_of(scored)
            for scored in ranked[1:]
            if f"[{scored[0][1].source.label}]" not in lead
        ),
        key=lambda item: _time_key(item[0]),
    )
    if not others:
        return lead
    lines = [_line(text, source, timezone) for source, text in others]
    return lead + "\n\nRelated messages:\n\n" + "\n".join(lines)


REPORTED_TURNS = 2
MAX_REPORTED_CHARS = 320

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


_Found = tuple[float, int, str, EvidenceSource, str]


def _reported_turns(question: str, ranked: Sequence[list[tuple[float, _Sentence]]]) -> list[_Found]:
    """The trusted messages (turns) of the best matching sources that share a word with
    ``question``, best first, as (score, turn index, sender, source, text). A source's window
    may hold several people's messages, so each message is scored on its own: the question's
    words it shares (and its sender's name), rarer words weighing more, plus
    ``ANSWER_TYPE_WEIGHT`` when it gives the kind of answer asked for (a time for "when", an
    amount for "how much", a reason for "why"). Suspicious messages are never restated."""
    turns: list[tuple[int, int, str, EvidenceSource, str]] = []
    for position, scored in enumerate(ranked):
        source = scored[0][1].source
        for turn_index, (sender, text) in enumerate(_turns_of(source)):
            if not text.strip() or turn_suspicion(source, sender, text):
                continue
            turns.append((position, turn_index, sender, source, text))
    weights = turn_weights(
        question,
        [(sender, text) for _p, _i, sender, _s, text in turns],
        windows=[position for position, *_rest in turns],
        titles=[source.chat_title for _p, _i, _sender, source, _t in turns],
    )
    found: list[_Found] = []
    for (position, turn_index, sender, source, text), weight in zip(turns, weights, strict=True):
        if weight <= 0:
            continue
        # The cited message itself first among equals: the citation and its time are its own.
        is_primary = bool(source.primary_text) and text == source.primary_text
        found.append(
            (
                weight - 0.01 * position + (0.001 if is_primary else 0.0),
                turn_index,
                sender,
                source,
                text,
            )
        )
    found.sort(key=lambda item: -item[0])
    return _latest_first(question, found)


# A question after a value that may have changed: how it came out, or its new or final form.
_REVISED_QUESTION = re.compile(
    r"\b(?:new|latest|final|updated|revised|current|now)\b", re.IGNORECASE
)
# A message at least this share as good as the best is close enough to be the later word.
LATEST_SHARE = 0.75


def _turn_time(item: _Found) -> float:
    _score, turn, _sender, source, _text = item
    times = source.turn_sent_at
    sent = times[turn] if source.turns and turn < len(times) else source.sent_at
    return sent.timestamp() if sent is not None else float("-inf")


def _latest_first(question: str, found: list[_Found]) -> list[_Found]:
    """``found`` with, for a question about how something ended up or its new value, the
    latest message among those nearly as good as the best (``LATEST_SHARE``) and giving the
    kind of answer asked moved first: a figure or plan revised later supersedes the first."""
    if not found or not (is_outcome_question(question) or _REVISED_QUESTION.search(question)):
        return found
    shapes = answer_types(question)
    close = [
        item
        for item in found
        if item[0] >= LATEST_SHARE * found[0][0]
        and (not shapes or any(shape.search(item[4]) for shape in shapes))
    ]
    if not close:
        return found
    latest = max(close, key=_turn_time)
    return [latest, *(item for item in found if item is not latest)]


def _reported_lead(found: Sequence[_Found], timezone: str) -> str:
    """The answer's first sentences: what the best matching messages (``_reported_turns``)
    say, reported with who said it ("Ines said (…): it's probably the fuse box [S1]"). ""
    when no turn of the best sources shares a word with the question."""
    if not found:
        return ""
    best_score = found[0][0]
    lines: list[str] = []
    seen: set[tuple[str, str]] = set()
    for score, turn_index, sender, source, text in found:
        if len(lines) >= REPORTED_TURNS or score < best_score / 2:
            break
        key = (source.label, text)
        if key in seen:
            continue
        seen.add(key)
        lines.append(_reported_line(sender, text, source, timezone, turn=turn_index))
    return "\n\n".join(lines)


# The messages the answer's first sentence may take its span from: the best this many, each
# at least half as good as the best.
SPAN_TURNS = 3


def _stated_lead(question: str, found: Sequence[_Found], timezone: str) -> str:
    """The answer's first sentences: the words that answer ``question`` (``spans.answer_span``)
    stated first, reported with who said them and cited ("**Rita** said: custard tarts at
    Pastelaria Lua [S2]"), then the best matching messages (``_reported_lead``). When the span
    is a whole message, that message's report comes first instead."""
    reported = _reported_lead(found, timezone)
    if not reported:
        return ""
    pool = [item for item in found[:SPAN_TURNS] if item[0] >= found[0][0] / 2]
    if is_outcome_question(question) or _REVISED_QUESTION.search(question):
        # The latest word leads (``_latest_first``): the span is its own.
        pool = pool[:1]
    span = answer_span(
        question,
        [item[4] for item in pool],
        terms_of=lambda text: set(content_terms(text)) - _SPAN_KIND_NOUNS,
        kin=is_kin_word,
    )
    if span is None:
        return reported
    _score, turn_index, sender, source, text = pool[span.index]
    whole = _reported_line(sender, text, source, timezone, turn=turn_index)
    if _same_words(span.text, text):
        rest = [line for line in reported.split("\n\n") if line != whole]
        return "\n\n".join([whole, *rest])
    return _span_line(sender, span.text, source) + "\n\n" + reported


def _same_words(span: str, text: str) -> bool:
    return " ".join(span.split()).strip(" .!?") == " ".join(text.split()).strip(" .!?")


def _span_line(sender: str, span: str, source: EvidenceSource) -> str:
    """The span stated in the answer's words: "**Rita** said: … [S1]" ("You wrote: …")."""
    cleaned = _MARKDOWN_SPECIALS.sub(
        r"\\\1", " ".join(span.split()).replace("[", "(").replace("]", ")")
    )
    who = "You" if sender.lower() in {"you", "me"} else f"**{_name(sender, 'sender')}**"
    verb = "wrote" if who == "You" else "said"
    return f"{who} {verb}: {cleaned} [{source.label}]"


def _reported_line(
    sender: str, text: str, source: EvidenceSource, timezone: str, *, turn: int | None = None
) -> str:
    """One message reported in the answer's words: "**Ivo** said (chat, when): … [S1]"; with
    ``turn`` (its place in the source's window), the time is that message's own."""
    cleaned = _quote(text)
    if len(cleaned) > MAX_REPORTED_CHARS:
        cleaned = cleaned[: MAX_REPORTED_CHARS - 1].rstrip() + "…"
    who = "You" if sender.lower() in {"you", "me"} else f"**{_name(sender, 'sender')}**"
    verb = "wrote" if who == "You" else "said"
    title = _name(source.chat_title, "chat")
    context = [title] if title else []
    when = _when(source, timezone, turn=turn if source.turns else None)
    if when:
        context.append(when)
    where = f" ({', '.join(context)})" if context else ""
    return f"{who} {verb}{where}: {cleaned} [{source.label}]"


# "Did anyone mention …?", "has somebody talked about …?": a message that says it is the yes.
_ANYONE_SAID = re.compile(
    r"^\W*(?:so\s+|and\s+)?(?:did|has|have|had)\s+(?:anyone|anybody|someone|somebody|"
    r"people|they|we|you|i)\b.*\b(?:mention|say|said|talk|bring\s+up|brought\s+up|ask|tell|"
    r"told|write|wrote|text|discuss|post|share|sent|send|warn)\w*\b",
    re.IGNORECASE,
)
# "Did someone post about …?", "did I get an email about my order?": a question about whether
# a message came, which a suspicious message answers (flagged), unlike a question about a fact.
_ASKS_ABOUT_A_MESSAGE = re.compile(
    r"^\W*(?:so\s+|and\s+)?(?:did|has|have|had)\s+(?:anyone|anybody|someone|somebody|people"
    r"|they|i|we)\b.*(?:\b(?:post(?:ed)?|sen[dt]|share[ds]?|text(?:ed)?|messag(?:e|ed)"
    r"|e-?mail(?:ed)?|mention(?:ed)?|write|wrote)\b.*\b(?:about|regarding|saying|that)\b"
    r"|\b(?:get|got|gotten|receive[ds]?)\b.*\b(?:texts?|messages?|sms|e-?mails?|mail|links?|dms?"
    r"|notifications?|letters?|calls?|voicemails?)\b)",
    re.IGNORECASE,
)


def _flagged_yes(
    source: EvidenceSource, sender: str, kind: str, timezone: str, *, turn: int
) -> str:
    """ "Yes, but …": the only message that answers is suspicious; it is named (who, where,
    when), cited and labelled, never restated or followed."""
    who = _name(sender, "sender") if sender.lower() not in {"you", "me"} else "you"
    title = _name(source.chat_title, "chat")
    where = f" in {title}" if title else ""
    when = _when(source, timezone, turn=turn if source.turns else None)
    at = f" on {when}" if when else ""
    return (
        f"Yes, one message did, from {who}{where}{at}, but it is suspicious: "
        f"{_KIND_NOTES.get(kind, kind)}, and I did not act on it. [{source.label}]\n\n"
    )


# The opening of a yes/no answer when the only message that says "yes" is suspicious.
UNTRUSTED_NO = (
    "No. Nothing you can trust says so: the only message that does is suspicious (spam or "
    "instructions aimed at an assistant), and I did not follow it."
)
# The opening when the message asked about is spam or phishing ("should I pay that fine?").
SCAM_NO = "No — it looks like a scam: {note}, so I would not act on it."


# The whole answer when the only message that says "yes" holds instructions aimed at an
# assistant and nobody trusted reacted to it: no message can show the answer, so none is cited
# (the suspicious one is described, never quoted, followed or cited as proof).
UNTRUSTED_ALONE = (
    "No. Your messages don't show it: the only message that claims so{where}{at} is "
    "suspicious (it contains instructions aimed at an assistant), so I did not follow or "
    "cite it."
)


# "Did IT say something about my password?": the question is whether a message came, so the
# suspicious message is cited with its flag rather than left out.
_ASKS_IF_SAID = re.compile(
    r"\b(?:did|has|have)\s+[\w'\u2019-]+(?:\s+[\w'\u2019-]+)?\s+(?:ever\s+)?(?:say|said|send|sent"
    r"|post|posted|write|wrote|text|texted|mention|mentioned|message|messaged|email|emailed"
    r"|tell|told|ask|asked)\b",
    re.IGNORECASE,
)


def _untrusted_alone(source: EvidenceSource, timezone: str, *, turn: int) -> str:
    title = _name(source.chat_title, "chat")
    when = _when(source, timezone, turn=turn if source.turns else None)
    return UNTRUSTED_ALONE.format(
        where=f" ({title})" if title else "", at=f", sent {when}," if when else ""
    )


def _scam_found(question: str, evidence: Sequence[EvidenceSource]) -> str:
    """ "No — it looks like a scam …" for a yes/no question none of whose words the evidence
    shares (it was found by meaning: another language, other words) when a message found is
    spam or phishing aimed at the user: what they ask whether to act on is most likely that
    message. "" otherwise."""
    if not is_yes_no_question(question):
        return ""
    for source in evidence[:3]:
        kind = source_suspicion(source)
        if kind in (PHISHING, SPAM):
            return _untrusted_no(kind, source.label)
    return ""


def _untrusted_no(kind: str, label: str) -> str:
    """ "No …" citing the suspicious message: a scam for spam and phishing, an untrusted
    claim for instructions aimed at an assistant."""
    if kind in (PHISHING, SPAM):
        return SCAM_NO.format(note=_KIND_NOTES[kind]) + f" [{label}]"
    return UNTRUSTED_NO + f" [{label}]"


def _own_deed_yes(
    question: str,
    placed: Sequence[tuple[EvidenceSource, int, str, str]],
    weights: Sequence[float],
    timezone: str,
) -> str:
    """ "Yes, you wrote so on …: “…” [S2]": the best matching of the user's own messages that
    reports the deed asked about done ("did I end up calling Bo?", "did Ana get my form?");
    "" when none does."""
    if not _ASKS_OWN_DEED.search(question):
        return ""
    order = sorted(range(len(placed)), key=lambda index: -weights[index])
    for index in order:
        source, position, sender, text = placed[index]
        if weights[index] <= 0:
            break
        if sender.lower() not in {"you", "me"} or turn_suspicion(source, sender, text):
            continue
        if reports_own_deed(question, text):
            when = _when(source, timezone, turn=position if source.turns else None)
            on = f" on {when}" if when else ""
            quoted = _quote(text)
            if len(quoted) > MAX_REPORTED_CHARS:
                quoted = quoted[: MAX_REPORTED_CHARS - 1].rstrip() + "…"
            return f"Yes, you wrote so{on}: “{quoted}” [{source.label}]\n\n"
    return ""


# "Did I end up calling Bo?", "have I sent …", "did Ana get my form?": a deed of the user's.
_ASKS_OWN_DEED = re.compile(
    r"^\W*(?:(?:so|and|ok|okay|wait)\s+)*(?:(?:did|have|had)\s+i\b"
    r"|(?:did|has|have)\s+.{1,40}?\b(?:get|got|gotten|receive[ds]?)\s+(?:my|our)\b)",
    re.IGNORECASE,
)
# "Did I approve …?", "have I ever agreed to …": the user asks what they did themselves. A
# message that claims the user did it is then the thing asked about (a claim made in their
# name): even when it is an injection nobody answered, it is cited with its flag, never left
# unnamed.
_ASKS_USER_DEED = re.compile(
    r"^\W*(?:(?:so|and|ok|okay|wait|um+|hm+)\W+)*(?:did|have|had)\s+i\b", re.IGNORECASE
)


def _yes_no_opening(
    question: str, ranked: Sequence[list[tuple[float, _Sentence]]], timezone: str
) -> str:
    """The first words of a yes/no answer the messages settle by themselves: "No." when the
    message that best matches the question is suspicious (a claim only spam or an injection
    makes is not a fact), followed by the trusted messages after it in its window (how people
    reacted to it); "Yes." when the question asks whether anyone said something and a
    trusted message shares its topic words (not just a name); "" otherwise."""
    placed = [
        (scored[0][1].source, index, sender, text)
        for scored in ranked
        for index, (sender, text) in enumerate(_turns_of(scored[0][1].source))
        if text.strip()
    ]
    turns = [(sender, text) for _source, _index, sender, text in placed]
    weights = turn_weights(question, turns, windows=[source.label for source, *_ in placed])
    best = max(range(len(turns)), key=lambda index: weights[index], default=None)
    if best is None or weights[best] <= 0:
        return ""
    source, position, sender, text = placed[best]
    kind = turn_suspicion(source, sender, text)
    if kind and (_ASKS_ABOUT_A_MESSAGE.search(question) or _ANYONE_SAID.search(question)):
        return _flagged_yes(source, sender, kind, timezone, turn=position)
    if kind == INJECTION:
        # An injection that is also a scam aimed at the user (a login or payment ask with a
        # link) is what they received and ask about: answered as the scam, cited.
        kind = lure_kind(text, is_unsolicited=bool(suspicion_kind(sender))) or kind
    if kind:
        reactions = [
            _reported_line(other_sender, other_text, source, timezone, turn=other)
            for other, (other_sender, other_text) in enumerate(_turns_of(source))
            if other > position
            and other_text.strip()
            and not turn_suspicion(source, other_sender, other_text)
        ][:REPORTED_TURNS]
        if (
            not reactions
            and kind not in (PHISHING, SPAM)
            and not _ASKS_IF_SAID.search(question)
            and not _ASKS_USER_DEED.search(question)
            and not points_at_a_message(question)
        ):
            return _untrusted_alone(source, timezone, turn=position)
        heading = " What the people involved wrote:\n\n" if reactions else "\n\n"
        return (
            _untrusted_no(kind, source.label)
            + heading
            + "".join(line + "\n\n" for line in reactions)
        )
    if _ANYONE_SAID.search(question):
        # Topic words, not names: a capitalised word of the question names someone.
        lowercase = " ".join(word for word in question.split() if not word[:1].isupper())
        topic = set(content_terms(lowercase)) - set(content_terms(" ".join(s for s, _ in turns)))
        if topic & set(content_terms(text)) or any(
            _begins(term, word) for term in topic for word in content_terms(text)
        ):
            return "Yes. "
    own = _own_deed_yes(question, placed, weights, timezone)
    if own:
        return own
    # "Has Lena sent the invoice?": the best trusted message reports it done or not done.
    verdict = settled(question, text)
    if verdict:
        return "Yes. " if verdict == "yes" else "No. "
    return ""


def _ranking(evidence: Sequence[EvidenceSource], timezone: str) -> str:
    """Who appears most in the evidence, by message count (the user's own messages aside)."""
    by_sender: dict[str, list[EvidenceSource]] = {}
    for source in evidence:
        if source.sender and source.sender.lower() not in {"you", "me"}:
            by_sender.setdefault(source.sender, []).append(source)
    if not by_sender:
        return "These messages don't show who you talk to most."
    ranked = sorted(by_sender.items(), key=lambda item: (-len(item[1]), item[0]))[:MAX_QUOTES]
    lines = []
    for sender, sources in ranked:
        count = len(sources)
        marks = "".join(f"[{source.label}]" for source in sources[:3])
        noun = "message" if count == 1 else "messages"
        lines.append(f"- **{_quote(sender)}**: {count} {noun} here {marks}")
    return "Among these messages, the people who write to you most:\n\n" + "\n".join(lines)


class ExtractiveAnswerer:
    provider_name = PROVIDER_NAME
    model_name = MODEL_NAME

    def __init__(self, *, words_per_delta: int = 3, delta_delay_s: float = 0.0) -> None:
        self.words_per_delta = words_per_delta
        self.delta_delay_s = delta_delay_s

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> ExtractiveAnswerer:
        return cls(
            words_per_delta=int(options.get("words_per_delta", 3)),
            delta_delay_s=float(options.get("delta_delay_ms", 0)) / 1000,
        )

    def stream(
        self,
        request: GenerationRequest,
        *,
        max_output_tokens: int | None,
        timeouts: CallTimeouts,
        simulate_stream: bool,
    ) -> AsyncIterator[ProviderEvent]:
        return self._play(request)

    async def _play(self, request: GenerationRequest) -> AsyncIterator[ProviderEvent]:
        answer = compose_answer(
            request.effective_question,
            request.evidence,
            request.timezone,
            request.intent,
            request.findings,
            weak_strength=request.evidence_strength if request.is_evidence_weak else None,
        )
        for index, group in enumerate(
            split_into_word_groups(answer, words_per_delta=self.words_per_delta)
        ):
            if index and self.delta_delay_s:
                await asyncio.sleep(self.delta_delay_s)
            yield TextDelta(group)
        yield StreamEnd("stop")
