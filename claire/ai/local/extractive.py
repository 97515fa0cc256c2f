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

Its parts live beside it: ``terms`` (words and sentences), ``quoting`` (quotes and who said
them), ``suspicion`` (notes on flagged messages), ``digest`` (lines of personal memory),
``turns`` (which turn answers) and ``lead`` (the answer's first sentence).
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from claire.ai.local.answer_kinds import asks_place, gives_place
from claire.ai.local.digest import (
    _APPENDIX_HEADINGS,
    _DIGEST_HEADINGS,
    _finding_lines,
    _grouped_by_note,
    _memory_line,
    _ranking,
    _weak_note,
)
from claire.ai.local.lead import (
    LATEST_SHARE,
    REPORTED_TURNS,
    SPAN_TURNS,
    _reported_turns,
    _stated_lead,
    _yes_no_opening,
)
from claire.ai.local.polarity import is_yes_no_question
from claire.ai.local.quoting import (
    MAX_QUOTE_CHARS,
    MAX_QUOTES,
    MAX_REPORTED_CHARS,
    _attribution,
    _chronological,
    _excerpt,
    _line,
    _quote,
    _time_key,
)
from claire.ai.local.suspicion import (
    SCAM_NO,
    UNTRUSTED_ALONE,
    UNTRUSTED_NO,
    _scam_found,
    _suspicion_note,
    source_suspicion,
    turn_suspicion,
)
from claire.ai.local.terms import (
    _Sentence,
    _sentences,
    content_terms,
    title_weight,
)
from claire.ai.local.turns import (
    ANSWER_TYPE_WEIGHT,
    ANSWERS_FIRST_SHARE,
    FOLLOW_UP_SHARE,
    FOLLOW_UP_TURNS,
    PREFIX_MIN_CHARS,
    PREFIX_SHARE,
    SHARED_PREFIX_MIN_CHARS,
    _doer_turns,
    _term_weight,
    best_turn,
    turn_weights,
)
from claire.ai.providers.base import (
    CallTimeouts,
    ProviderEvent,
    StreamEnd,
    split_into_word_groups,
)
from claire.ai.types import EvidenceSource, GenerationRequest, MemoryFinding, TextDelta

__all__ = [
    "ANSWERS_FIRST_SHARE",
    "ANSWER_TYPE_WEIGHT",
    "FOLLOW_UP_SHARE",
    "FOLLOW_UP_TURNS",
    "LATEST_SHARE",
    "MAX_QUOTES",
    "MAX_QUOTE_CHARS",
    "MAX_REPORTED_CHARS",
    "MODEL_NAME",
    "PREFIX_MIN_CHARS",
    "PREFIX_SHARE",
    "PROVIDER_NAME",
    "RECAP_SOURCES",
    "REPORTED_TURNS",
    "SCAM_NO",
    "SHARED_PREFIX_MIN_CHARS",
    "SPAN_TURNS",
    "UNTRUSTED_ALONE",
    "UNTRUSTED_NO",
    "ExtractiveAnswerer",
    "_doer_turns",
    "best_turn",
    "compose_answer",
    "content_terms",
    "source_suspicion",
    "title_weight",
    "turn_suspicion",
    "turn_weights",
]

PROVIDER_NAME = "local"
MODEL_NAME = "extractive-answerer-v1"


RECAP_SOURCES = 8


_RECAP_PATTERN = re.compile(
    r"\b(catch me up|what did i miss|what's new|whats new|recap|summari[sz]e|summary|"
    r"what happened|latest|update me)\b",
    re.IGNORECASE,
)

_RANKING_PATTERN = re.compile(
    r"\bwho\b.*\b(talk|chat|message|text|speak|write)\w*\b.*\b(most|more|often|least)\b",
    re.IGNORECASE,
)

_ACTION_PATTERN = re.compile(r"^\s*(please\s+)?(draft|write|send|reply|message)\b", re.IGNORECASE)


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


_ASKS_WHAT_WAS_SAID = re.compile(r"^\W*what\s+(?:did|has|had)\b", re.IGNORECASE)


def _body(question: str, evidence: Sequence[EvidenceSource], timezone: str, intent: str) -> str:
    records = [source for source in evidence if source.must_cite]
    if records and intent in _DIGEST_HEADINGS:
        if intent == "catch_up":
            records = _chronological(records)
        if intent == "people_ranking":
            records = _grouped_by_note(records)
        lines = [_memory_line(source, timezone) for source in records]
        heading = _DIGEST_HEADINGS[intent]
        if intent == "unresolved" and (
            is_yes_no_question(question) or _ASKS_WHAT_WAS_SAID.search(question)
        ):
            # "Did I pay Ivo back?" is about one loop, "what did mum ask me to buy?" about what
            # was said, kept or not: its messages, not a list of open ones.
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
