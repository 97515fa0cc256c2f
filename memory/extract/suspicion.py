"""Messages that try to instruct an assistant or read as spam."""

from __future__ import annotations

from claire.ai.suspicious import suspicious_text


def is_suspicious(text: str) -> bool:
    """A message that tries to instruct an assistant, or reads as spam
    (``claire.ai.suspicious``)."""
    return suspicious_text(text)
