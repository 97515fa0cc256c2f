"""Splitting pending entries into provider requests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def batches_split(
    items: Sequence[T],
    *,
    max_inputs: int,
    max_tokens: int,
    tokens_of: Callable[[T], int],
) -> list[list[T]]:
    """Consecutive batches, in input order, of at most ``max_inputs`` items and ``max_tokens``
    estimated tokens. An item larger than the budget alone goes in a batch of its own (the
    provider truncates or refuses it; it never blocks the items around it)."""
    if max_inputs < 1 or max_tokens < 1:
        raise ValueError("batch limits must be positive")
    batches: list[list[T]] = []
    current: list[T] = []
    current_tokens = 0
    for item in items:
        tokens = tokens_of(item)
        if current and (len(current) >= max_inputs or current_tokens + tokens > max_tokens):
            batches.append(current)
            current, current_tokens = [], 0
        current.append(item)
        current_tokens += tokens
    if current:
        batches.append(current)
    return batches
