"""An answer never says an action was carried out: only a proposal exists until the user
approves it and the bridge delivers it.

``ActionClaimGuard`` sits on the streamed answer text of an action request (after the
citation filter). It holds the text back to the end of each sentence and rewrites a sentence
that claims the message was sent, delivered or otherwise done ("I sent it", "Done, messaged
Rui", "Your message has been delivered") into a plain statement that nothing was sent.
Sentences that quote messages ("You wrote (…): I sent the deck [S1]", "**Ana** (…): …
[S2]") are the messages' words, not a claim, and pass unchanged; so do questions, negations
("I haven't sent anything") and conditions ("once you approve, the message is sent").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

REWRITTEN_CLAIM = "Nothing has been sent: the message is a draft waiting for your approval."

_FLAGS = re.IGNORECASE
_ACT = (
    r"(?:sent|messaged|texted|emailed|e-mailed|replied|forwarded|delivered|posted|told"
    r"|reached out|wrote to|written to|dropped \w+ a (?:line|message|note)|let \w+(?: \w+)? know"
    r"|passed (?:it|that|this|the \w+) (?:on|along)|scheduled|pinged|notified|contacted)"
)
_CLAIMS = (
    # "I sent it", "I've messaged Rui", "I have just let Ana know"
    re.compile(
        rf"\bI(?:['\u2019]ve| have)?\s+(?:(?:just|already|now|also|gone ahead and)\s+)*{_ACT}\b",
        _FLAGS,
    ),
    # "Your message has been sent", "the reply was delivered", "it's been sent"
    re.compile(
        r"\b(?:message|text|reply|email|e-mail|note|draft|it|that|this)(?:['\u2019]s| has| have"
        r"| is| was| were| got)?\s+(?:been\s+|now\s+|just\s+|successfully\s+)*"
        r"(?:sent|delivered|posted|forwarded|dispatched)\b",
        _FLAGS,
    ),
    # "message sent", "Done, messaged Rui", "Sent! ✅", "All set: …"
    re.compile(r"\b(?:message|text|reply|email) sent\b", _FLAGS),
    re.compile(r"^\W*(?:done|sent|all set|all done)\b\W*(?:$|[,.!:;\u2014\u2013-]|\s+\w)", _FLAGS),
)
_NEGATION = re.compile(
    r"\b(?:not|never|nothing|no one|nobody|haven['\u2019]?t|hasn['\u2019]?t|didn['\u2019]?t"
    r"|won['\u2019]?t|isn['\u2019]?t|wasn['\u2019]?t|cannot|can['\u2019]?t|couldn['\u2019]?t"
    r"|without|yet)\b",
    _FLAGS,
)
_CONDITION = re.compile(r"\b(?:if|once|when|after|as soon as|until|unless)\b", _FLAGS)
_APPROVAL = re.compile(r"\b(?:approv\w*|confirm\w*|review\w*|say so|ok it|okay it)\b", _FLAGS)
# The user's own messages as the answer quotes them: "You wrote (chat, date): … [S1]", a
# "**Ana** said (…): …" line, or quoted text “…” / "…".
# "**Mom** (Mom, Sat 31 Oct 2026, 10:02): …" (a memory line's message) is one too.
_QUOTED = re.compile(
    r"(?:(?:\b(?:wrote|said)|\*\*[^*\n]{1,80}\*\*)\s*\([^)]*\)\s*:.*?(?:\[S\d+\]|$))"
    r"|\u201c[^\u201d]*\u201d|\"[^\"\n]*\"",
    _FLAGS | re.DOTALL,
)
# The end of a sentence: punctuation and the space after it, or a line break.
_SENTENCE_END = re.compile(r"(?<=[.!?\u2026])[ \t]+|\n")
# What opens a quote; in masked text only the ones still open are visible (closed ones are
# blanked), so nothing after one of them can be judged until it closes or the line ends.
_QUOTE_OPENING = re.compile(r"(?:\b(?:wrote|said)|\*\*[^*\n]{1,80}\*\*)\s*\(|\u201c|\"", _FLAGS)


def _masked(line: str) -> str:
    """``line`` with the messages it quotes blanked out (same length, so offsets hold)."""
    return _QUOTED.sub(lambda match: " " * len(match.group()), line)


def _judgeable(line: str) -> int:
    """How much of an unfinished line can be judged now: up to the end of its last complete
    sentence that no open quote precedes (0 when there is none)."""
    masked = _masked(line)
    opening = _QUOTE_OPENING.search(masked)
    limit = opening.start() if opening else len(masked)
    ends = [match.end() for match in _SENTENCE_END.finditer(masked, 0, limit)]
    return ends[-1] if ends else 0


def _is_claim(own: str) -> bool:
    if own.strip().endswith("?"):
        # A question says nothing was done ("Did you get what I sent?").
        return False
    if not any(pattern.search(own.strip()) for pattern in _CLAIMS):
        return False
    if _NEGATION.search(own):
        return False
    return not (_CONDITION.search(own) and _APPROVAL.search(own))


def claims_action_done(text: str) -> bool:
    """Whether any sentence of ``text``, outside what it quotes, says an action was done."""
    return any(
        _is_claim(sentence)
        for line in text.split("\n")
        for sentence in _SENTENCE_END.split(_masked(line))
    )


def rewrite_action_claims(text: str) -> tuple[str, int]:
    """``text`` with every sentence that claims an action was done replaced (the first by
    ``REWRITTEN_CLAIM``, the rest dropped), and how many were."""
    guard = ActionClaimGuard(is_active=True)
    return guard.feed(text) + guard.flush(), guard.rewritten_count


@dataclass
class ActionClaimGuard:
    """Streams text through a sentence at a time, rewriting sentences that claim an action
    was done. A sentence is let through once it ends, unless a quote opened before it is still
    open (then the rest of the line waits for the quote to close or the line to end).
    Inactive (``is_active=False``) it passes text through unchanged and holds nothing back."""

    is_active: bool
    rewritten_count: int = 0
    _pending: str = ""

    def feed(self, text: str) -> str:
        if not self.is_active:
            return text
        self._pending += text
        cut = self._pending.rfind("\n") + 1
        cut += _judgeable(self._pending[cut:])
        if not cut:
            return ""
        ready, self._pending = self._pending[:cut], self._pending[cut:]
        return "".join(self._line(line) for line in ready.splitlines(keepends=True))

    def flush(self) -> str:
        ready, self._pending = self._pending, ""
        return self._line(ready) if ready else ""

    def _line(self, line: str) -> str:
        masked = _masked(line)
        out: list[str] = []
        position = 0
        for match in [*_SENTENCE_END.finditer(masked), None]:
            end = match.start() if match else len(line)
            after = match.end() if match else len(line)
            if _is_claim(masked[position:end]):
                self.rewritten_count += 1
                if self.rewritten_count == 1:
                    sentence = line[position:end]
                    lead = sentence[: len(sentence) - len(sentence.lstrip())]
                    out.append(lead + REWRITTEN_CLAIM + line[end:after])
                # A later claim is dropped: the first rewrite already said it.
            else:
                out.append(line[position:after])
            position = after
        return "".join(out)
