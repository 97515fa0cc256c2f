"""Evidence that matches the question only weakly is still answered from, and the answer says
how sure it is: the instructions to a model say so, and the local answerer closes with it."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from assistant.answering import Retrieval, no_evidence_answer
from assistant.generation import SYSTEM_PROMPT, answer_instructions
from assistant.types import Citation
from claire.ai.local.extractive import compose_answer
from claire.ai.types import EvidenceSource
from retrieval.answerability import WEAK_STRENGTH

SENT = dt.datetime(2026, 3, 10, 19, 12, tzinfo=dt.UTC)
CITATION = Citation(
    source_id="S1",
    message_id=1,
    chat_id=1,
    chat_title="Lisbon crew",
    sender="Marco",
    platform="whatsapp",
    sent_at=SENT,
    snippet="Booked the boat for Saturday",
)


def _retrieval(strength: float | None, *, cited: bool = True) -> Retrieval:
    return Retrieval(
        citations=(CITATION,) if cited else (),
        route="hybrid",
        compiled_query={},
        index_status={},
        scope_label="all your chats",
        time_label="",
        evidence_strength=strength,
    )


def _instructions(retrieval: Retrieval) -> str:
    return answer_instructions(retrieval, marker="m", timezone="UTC", today="2026-03-11")


def test_weak_evidence_asks_the_model_to_say_how_sure_it_is():
    plain = SYSTEM_PROMPT.format(marker="m", timezone="UTC", today="2026-03-11")
    weak = _retrieval(WEAK_STRENGTH - 0.1)
    assert weak.is_evidence_weak
    instructions = _instructions(weak)
    assert instructions.startswith(plain)
    assert f"evidence strength {WEAK_STRENGTH - 0.1:.2f} of 1" in instructions
    assert "say how sure you" in " ".join(instructions.split())
    for strong in (_retrieval(WEAK_STRENGTH), _retrieval(None), _retrieval(0.1, cited=False)):
        assert not strong.is_evidence_weak
        assert _instructions(strong) == plain


def test_the_local_answerer_quotes_weak_evidence_and_says_it_may_not_answer():
    evidence = (
        EvidenceSource(
            label="S1",
            text="Booked the boat for Saturday",
            sender="Marco",
            sent_at=SENT,
            chat_title="Lisbon crew",
        ),
    )
    sure = compose_answer("When is the boat trip?", evidence, "UTC")
    unsure = compose_answer("When is the boat trip?", evidence, "UTC", weak_strength=0.31)
    assert unsure.startswith(sure)
    assert "[S1]" in unsure
    assert unsure.endswith(
        "How sure: not very. These messages match your question only weakly (evidence "
        "strength 0.31 of 1), so they may not answer it."
    )
    assert "How sure" not in sure


def test_the_no_evidence_answer_says_what_the_messages_found_lack():
    note = "Messages on this topic were found, but none of them gives a street address."
    refused = replace(_retrieval(None, cited=False), route="no_evidence", no_evidence_note=note)
    lines = no_evidence_answer(refused).splitlines()
    assert lines[0].startswith("I couldn't find anything about this in all your chats")
    assert lines[1] == note
    plain = replace(refused, no_evidence_note="")
    assert note not in no_evidence_answer(plain)
