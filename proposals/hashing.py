"""Stable hashes: a payload's (what approval verifies) and a user intent's (one proposal each)."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Mapping
from typing import Any


def payload_hash(
    *, proposal_id: int, revision: int, capability_key: str, payload: Mapping[str, Any]
) -> str:
    """SHA-256 of the canonical JSON of what would be executed, bound to the proposal and its
    revision (an expired proposal drafted again gets a new hash even for the same text)."""
    canonical = json.dumps(
        {
            "proposal": proposal_id,
            "revision": revision,
            "capability": capability_key,
            "payload": payload,
        },
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)


def intent_key(*, user_id: int, capability_key: str, person_id: int | None, question: str) -> str:
    """The same request, worded with other spacing, case or punctuation, is the same intent."""
    folded = unicodedata.normalize("NFKC", question).casefold()
    words = " ".join(_NON_WORD.sub(" ", folded).split())
    raw = f"{user_id}|{capability_key}|{person_id or ''}|{words}"
    return hashlib.sha256(raw.encode()).hexdigest()
