"""How an action request is worded: where what the message is about begins."""

from __future__ import annotations

from memory.recipient import content_start

__all__ = ["content_start"]
