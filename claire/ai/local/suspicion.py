"""Suspicion notes: what an answer says of a cited message flagged as suspicious (spam, phishing,
instructions aimed at an assistant).
"""

from __future__ import annotations

from collections.abc import Sequence

from claire.ai.local.polarity import is_yes_no_question
from claire.ai.local.quoting import (
    _name,
    _when,
)
from claire.ai.suspicious import (
    INJECTION,
    PHISHING,
    SPAM,
    suspicion_kind,
)
from claire.ai.types import EvidenceSource

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
