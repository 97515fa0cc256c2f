"""Evidence packs: the bounded, citable context an answer is grounded on.

``build_evidence_pack`` turns ranked message windows into sources ``S1``..``Sn``. Each source
is one window; it names a primary message (the best hit, where a citation navigates to) and
every message id it shows, so a citation ``[S2]`` maps to exact messages. The pack is bounded
by a source count and an estimated token budget (per AI task profile, see
``EvidenceLimits.for_profile``), and deduplicated: no message appears in two sources, and a
window whose hits repeat text already shown (the same forward in several chats) is skipped.

Token counts are an estimate — one token per four characters of text plus a fixed cost per
message for the sender and time line — which slightly overestimates English for the common
tokenizers, so a pack that fits the estimate fits the model.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.conf import settings

from retrieval.windows import MessageWindow, WindowMessage

CHARS_PER_TOKEN = 4
# Sender name, timestamp and separators of one rendered message line.
MESSAGE_OVERHEAD_TOKENS = 12
# Chat title and platform header of one source.
SOURCE_OVERHEAD_TOKENS = 10
# A hit shortened below this many tokens is no longer worth citing.
MIN_TRUNCATED_TOKENS = 24


def estimate_tokens(text: str) -> int:
    """Cheap, slightly pessimistic token estimate of ``text`` (see the module docstring)."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


@dataclass(frozen=True)
class EvidenceLimits:
    max_sources: int
    max_tokens: int

    @classmethod
    def for_profile(cls, profile: str) -> EvidenceLimits:
        """The configured bounds of an AI task profile, or the ``default`` bounds."""
        configured = settings.RETRIEVAL_EVIDENCE_LIMITS
        values = configured.get(profile, configured["default"])
        return cls(max_sources=int(values["max_sources"]), max_tokens=int(values["max_tokens"]))


@dataclass(frozen=True)
class EvidenceMessage:
    message_id: int
    sent_at: datetime
    sender_name: str
    is_from_self: bool
    text: str
    is_hit: bool
    is_truncated: bool = False

    @property
    def token_estimate(self) -> int:
        return MESSAGE_OVERHEAD_TOKENS + estimate_tokens(self.text)


@dataclass(frozen=True)
class EvidenceSource:
    source_id: str
    primary_message_id: int
    chat_id: int
    chat_title: str
    platform: str
    messages: tuple[EvidenceMessage, ...]

    @property
    def message_ids(self) -> tuple[int, ...]:
        return tuple(message.message_id for message in self.messages)

    @property
    def primary(self) -> EvidenceMessage:
        return next(m for m in self.messages if m.message_id == self.primary_message_id)

    @property
    def sender_name(self) -> str:
        return self.primary.sender_name

    @property
    def sent_at(self) -> datetime:
        return self.primary.sent_at

    @property
    def navigation_target(self) -> str:
        return f"/chats/{self.chat_id}/?message={self.primary_message_id}"

    @property
    def token_estimate(self) -> int:
        return SOURCE_OVERHEAD_TOKENS + sum(m.token_estimate for m in self.messages)

    def to_json(self) -> dict[str, Any]:
        return {
            "sourceId": self.source_id,
            "primaryMessageId": self.primary_message_id,
            "messageIds": list(self.message_ids),
            "chatId": self.chat_id,
            "chatTitle": self.chat_title,
            "platform": self.platform,
            "senderName": self.sender_name,
            "sentAt": self.sent_at.isoformat(),
            "navigationTarget": self.navigation_target,
            "messages": [
                {
                    "messageId": m.message_id,
                    "senderName": m.sender_name,
                    "isFromSelf": m.is_from_self,
                    "sentAt": m.sent_at.isoformat(),
                    "text": m.text,
                    "isHit": m.is_hit,
                    "isTruncated": m.is_truncated,
                }
                for m in self.messages
            ],
        }


@dataclass(frozen=True)
class EvidencePack:
    sources: tuple[EvidenceSource, ...]
    limits: EvidenceLimits
    # Windows that were offered but left out (bounds or duplicates).
    omitted_windows: int = 0

    @property
    def is_empty(self) -> bool:
        return not self.sources

    @property
    def token_estimate(self) -> int:
        return sum(source.token_estimate for source in self.sources)

    def source(self, source_id: str) -> EvidenceSource | None:
        return next((s for s in self.sources if s.source_id == source_id), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "sources": [source.to_json() for source in self.sources],
            "tokenEstimate": self.token_estimate,
            "omittedWindows": self.omitted_windows,
        }


def build_evidence_pack(
    *, windows: Sequence[MessageWindow], limits: EvidenceLimits
) -> EvidencePack:
    """Sources ``S1``..``Sn`` from ``windows`` (best first) within ``limits``.

    A window that does not fit the remaining token budget is trimmed from its edges (messages
    farthest from a hit go first); if even its primary hit does not fit, the hit's text is
    shortened when at least ``MIN_TRUNCATED_TOKENS`` remain, otherwise the window is left out.
    Deterministic: the same windows and limits give the same ids and contents.
    """
    sources: list[EvidenceSource] = []
    seen_message_ids: set[int] = set()
    seen_hit_texts: set[str] = set()
    remaining = limits.max_tokens
    omitted = 0
    for window in windows:
        if len(sources) >= limits.max_sources or remaining <= SOURCE_OVERHEAD_TOKENS:
            omitted += 1
            continue
        messages = [m for m in window.messages if m.message_id not in seen_message_ids]
        hit_ids = [i for i in window.hit_message_ids if i not in seen_message_ids]
        if not hit_ids:
            omitted += 1
            continue
        hit_texts = {
            _normalised(m.text) for m in messages if m.message_id in set(hit_ids) and m.text
        }
        if hit_texts and hit_texts <= seen_hit_texts:
            omitted += 1
            continue
        fitted = _fit(
            messages=messages,
            window=window,
            hit_ids=hit_ids,
            budget=remaining - SOURCE_OVERHEAD_TOKENS,
        )
        if fitted is None:
            omitted += 1
            continue
        source = EvidenceSource(
            source_id=f"S{len(sources) + 1}",
            primary_message_id=hit_ids[0],
            chat_id=window.chat_id,
            chat_title=window.chat_title,
            platform=window.platform,
            messages=fitted,
        )
        sources.append(source)
        remaining -= source.token_estimate
        seen_message_ids.update(source.message_ids)
        seen_hit_texts.update(hit_texts)
    return EvidencePack(sources=tuple(sources), limits=limits, omitted_windows=omitted)


def pack_led_by(
    pack: EvidencePack, *, primary_of: Callable[[EvidenceSource], int | None]
) -> EvidencePack:
    """``pack`` with each source's primary message (the one a citation of it names and opens)
    replaced by ``primary_of(source)`` when that is another message of the source; ids,
    messages and order unchanged."""
    sources = []
    for source in pack.sources:
        chosen = primary_of(source)
        if (
            chosen is not None
            and chosen != source.primary_message_id
            and chosen in source.message_ids
        ):
            source = replace(source, primary_message_id=chosen)
        sources.append(source)
    return replace(pack, sources=tuple(sources))


def _normalised(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def _to_evidence(message: WindowMessage) -> EvidenceMessage:
    return EvidenceMessage(
        message_id=message.message_id,
        sent_at=message.sent_at,
        sender_name=message.sender_name,
        is_from_self=message.is_from_self,
        text=message.text,
        is_hit=message.is_hit,
    )


def _fit(
    *,
    messages: list[WindowMessage],
    window: MessageWindow,
    hit_ids: list[int],
    budget: int,
) -> tuple[EvidenceMessage, ...] | None:
    available = {m.message_id: _to_evidence(m) for m in messages}
    # The order in which messages are kept: hits first, then neighbours nearest a hit.
    keep_order = [i for i in window.ranked_message_ids() if i in available]
    kept: list[int] = []
    used = 0
    for message_id in keep_order:
        cost = available[message_id].token_estimate
        if used + cost <= budget:
            kept.append(message_id)
            used += cost
        elif message_id == hit_ids[0]:
            room = budget - used - MESSAGE_OVERHEAD_TOKENS
            if room < MIN_TRUNCATED_TOKENS:
                return None
            primary = available[message_id]
            available[message_id] = EvidenceMessage(
                message_id=primary.message_id,
                sent_at=primary.sent_at,
                sender_name=primary.sender_name,
                is_from_self=primary.is_from_self,
                text=primary.text[: room * CHARS_PER_TOKEN - 1].rstrip() + "…",
                is_hit=True,
                is_truncated=True,
            )
            kept.append(message_id)
            used += available[message_id].token_estimate
        elif message_id in hit_ids:
            continue
        else:
            # Neighbours are kept contiguous around the hits: once one does not fit, the ones
            # farther out are dropped too.
            break
    if hit_ids[0] not in kept:
        return None
    kept_set = set(kept)
    return tuple(available[m.message_id] for m in messages if m.message_id in kept_set)
