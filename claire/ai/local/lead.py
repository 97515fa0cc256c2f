"""The lead sentence: the reported turns that answer, the stated span or quote that opens the
answer, and the opening of a yes/no answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from claire.ai.local.answer_kinds import answer_types, is_outcome_question, points_at_a_message
from claire.ai.local.polarity import reports_own_deed, settled
from claire.ai.local.quoting import (
    MAX_REPORTED_CHARS,
    _quote,
    _reported_line,
    _same_words,
    _span_line,
    _when,
)
from claire.ai.local.spans import answer_span, is_kin_word
from claire.ai.local.suspicion import (
    _flagged_yes,
    _turns_of,
    _untrusted_alone,
    _untrusted_no,
    turn_suspicion,
)
from claire.ai.local.terms import (
    _Sentence,
    content_terms,
)
from claire.ai.local.turns import (
    _SPAN_KIND_NOUNS,
    _begins,
    turn_weights,
)
from claire.ai.suspicious import (
    INJECTION,
    PHISHING,
    SPAM,
    lure_kind,
    suspicion_kind,
)
from claire.ai.types import EvidenceSource

REPORTED_TURNS = 2

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

# "Did IT say something about my password?": the question is whether a message came, so the
# suspicious message is cited with its flag rather than left out.
_ASKS_IF_SAID = re.compile(
    r"\b(?:did|has|have)\s+[\w'\u2019-]+(?:\s+[\w'\u2019-]+)?\s+(?:ever\s+)?(?:say|said|send|sent"
    r"|post|posted|write|wrote|text|texted|mention|mentioned|message|messaged|email|emailed"
    r"|tell|told|ask|asked)\b",
    re.IGNORECASE,
)


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
