"""Lines of personal memory: the digest and appendix of memory records, findings, the weak-evidence
note and rankings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from claire.ai.local.quoting import (
    _MARKDOWN_SPECIALS,
    MAX_QUOTES,
    _attribution,
    _quote,
)
from claire.ai.local.suspicion import turn_suspicion
from claire.ai.suspicious import (
    suspicious_text,
    without_links,
)
from claire.ai.types import EvidenceSource, MemoryFinding

_NUMBERED = re.compile(r"^\d{1,3}\. ")

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
