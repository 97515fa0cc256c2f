"""Citation marks in streamed answer text.

A model cites sources with marks such as ``[S1]`` (grouped forms like ``[S1, S3]`` are
written out as ``[S1][S3]``). ``CitationFilter`` validates the marks while the text streams:
a mark that names no source of the evidence pack is removed before it reaches the client (and
counted), so the streamed text, the stored answer and the JSON answer are the same text.
It holds back only what could still turn into a mark (an open ``[`` and the whitespace before
it), so text flows without waiting for the end of the answer.
"""

from __future__ import annotations

import re
from collections.abc import Collection

_COMPLETE_MARK = re.compile(r"(\s*)\[\s*(S\d{1,4}(?:\s*[,;]\s*S\d{1,4})*)\s*\]")
# A tail that may still become a complete mark when more text arrives.
_PARTIAL_MARK = re.compile(r"\s*\[\s*(?:S\d{0,4}(?:\s*[,;]\s*(?:S\d{0,4})?)*)?\s*$")
_TRAILING_SPACE = re.compile(r"\s+$")
# Longer than any real mark: such a tail is text, not a mark in progress.
_MAX_HELD = 64


class CitationFilter:
    def __init__(self, source_ids: Collection[str]) -> None:
        self._valid = frozenset(source_ids)
        self._held = ""
        self.removed_count = 0
        self.cited: list[str] = []

    def feed(self, delta: str) -> str:
        """The text that can be shown now."""
        text = self._held + delta
        if "[" not in text:
            # No mark, complete or partial: only trailing whitespace waits (it may precede one).
            shown = text.rstrip()
            self._held = text[len(shown) :]
            return shown
        text = self._rewrite(text)
        held_from = len(text)
        partial = _PARTIAL_MARK.search(text)
        if partial is not None and len(text) - partial.start() <= _MAX_HELD:
            held_from = partial.start()
        else:
            trailing = _TRAILING_SPACE.search(text)
            if trailing is not None:
                held_from = trailing.start()
        self._held = text[held_from:]
        return text[:held_from]

    def flush(self) -> str:
        """The rest, at the end of the answer (an unfinished mark stays as written)."""
        held, self._held = self._held, ""
        return held

    def _rewrite(self, text: str) -> str:
        return _COMPLETE_MARK.sub(self._replace, text)

    def _replace(self, match: re.Match[str]) -> str:
        names = [name.strip() for name in re.split(r"[,;]", match.group(2))]
        kept = [name for name in names if name in self._valid]
        self.removed_count += len(names) - len(kept)
        for name in kept:
            if name not in self.cited:
                self.cited.append(name)
        if not kept:
            return ""
        return match.group(1) + "".join(f"[{name}]" for name in kept)


def cited_source_ids(text: str, source_ids: Collection[str]) -> list[str]:
    """Valid marks of a finished text in order of first appearance."""
    citation_filter = CitationFilter(source_ids)
    citation_filter.feed(text)
    citation_filter.flush()
    return citation_filter.cited
