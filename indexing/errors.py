"""The refusal of an indexing operation."""

from __future__ import annotations


class IndexingError(Exception):
    """A refused indexing operation; ``code`` is stable and safe to show."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
