"""How an action request is worded: where what the message is about begins."""

from __future__ import annotations

import re

# Words that open what the message is about: a name after them is content, not recipient
# ("reply to mom about what Sam wants", "dile a Marta que Pia llega"). "with" after a verb
# that takes its recipient with it ("follow up with Ana") names the recipient instead.
_CONTENT_MARKER = re.compile(
    r"\b(?:about|regarding|re|that|saying|with|whether|if|what|how|why|when|que|sobre|acerca"
    r"|dass|über|ueber|concernant|pour|a\s+dizer|dizendo|diciendo|disant)\b",
    re.IGNORECASE,
)
_RECIPIENT_WITH = re.compile(
    r"\b(?:follow(?:ing)?\s+up|check(?:ing)?\s+in|get(?:ting)?\s+in\s+touch|touch\s+base"
    r"|catch\s+up|speak|talk|chat)\s+$",
    re.IGNORECASE,
)


def content_start(question: str) -> int:
    """Where what the message is about begins in the question (its length when nowhere)."""
    for marker in _CONTENT_MARKER.finditer(question):
        if marker.group(0).casefold() == "with" and _RECIPIENT_WITH.search(
            question[: marker.start()]
        ):
            continue
        return marker.start()
    return len(question)
