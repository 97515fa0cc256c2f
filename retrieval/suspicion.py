"""Which sources of an evidence pack are suspicious, read from the message and its sender.

A message's own words can be enough (``claire.ai.suspicious.suspicion_kind``: instructions
aimed at an assistant, a link with a payment ask under pressure). The sender tells the rest: a
link with a payment or login ask, or with an offer, is phishing or spam when it comes from
someone the user has never written to in that chat, from a number saved under no name, or
from a sender whose name itself holds instructions. Such a source is marked in the pack, so
the answer labels it, never repeats its links and never follows it.

One query per pack; user-scoped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from claire.accounts.models import User
from claire.ai.suspicious import suspicion_kind
from conversations.models import Message
from retrieval.evidence import EvidenceSource

# A sender shown by a name with a letter in it (an unsaved number has none).
_HAS_LETTER = re.compile(r"[^\W\d_]")


def _is_bare_number(name: str) -> bool:
    return bool(name.strip()) and _HAS_LETTER.search(name) is None


def is_unknown_sender(*, sender_name: str, chat_title: str, has_user_written: bool) -> bool:
    """Whether a message's sender is no known contact: the user never wrote in the chat, the
    sender or the chat is shown by a bare number (saved under no name), or the sender's name
    holds instructions."""
    return (
        not has_user_written
        or _is_bare_number(sender_name)
        or _is_bare_number(chat_title)
        or bool(suspicion_kind(sender_name))
    )


def source_suspicion(source: EvidenceSource, *, has_user_written: bool) -> str:
    """The suspicion kind of ``source``'s primary message ("" when none): its text read with
    what is known of its sender, then its sender's name, then the chat's title."""
    primary = source.primary
    if primary.is_from_self:
        return ""
    unknown = is_unknown_sender(
        sender_name=primary.sender_name,
        chat_title=source.chat_title,
        has_user_written=has_user_written,
    )
    return (
        suspicion_kind(primary.text, is_unsolicited=unknown)
        or suspicion_kind(primary.sender_name)
        or suspicion_kind(source.chat_title)
    )


def pack_suspicions(*, user: User, sources: Sequence[EvidenceSource]) -> dict[str, str]:
    """Each suspicious source's id with its kind (``claire.ai.suspicious``)."""
    if not sources:
        return {}
    written = set(
        Message.objects.filter(
            user=user,
            chat_id__in={source.chat_id for source in sources},
            is_from_self=True,
            deleted_at__isnull=True,
        )
        .values_list("chat_id", flat=True)
        .distinct()
    )
    found: dict[str, str] = {}
    for source in sources:
        kind = source_suspicion(source, has_user_written=source.chat_id in written)
        if kind:
            found[source.source_id] = kind
    return found
