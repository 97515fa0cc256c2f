"""The messages a draft follows up: picked from the cited sources by memory's note, and cited
where the answer shows the draft."""

from datetime import UTC, datetime

from memory.followup import FollowUpRole
from proposals.drafting import DraftGround
from proposals.flow import draft_grounds, proposal_paragraph
from proposals.types import ProposalView
from retrieval.evidence import EvidenceMessage, EvidenceSource

SENT = datetime(2026, 2, 12, 9, 0, tzinfo=UTC)


def _source(source_id: str, message_id: int, text: str) -> EvidenceSource:
    return EvidenceSource(
        source_id=source_id,
        primary_message_id=message_id,
        chat_id=1,
        chat_title="Office",
        platform="whatsapp",
        messages=(
            EvidenceMessage(
                message_id=message_id,
                sent_at=SENT,
                sender_name="Lidia Kovac",
                is_from_self=False,
                text=text,
                is_hit=True,
            ),
        ),
    )


def test_only_sources_memory_marks_as_followed_up_are_grounds():
    sources = (
        _source("S1", 11, "Kovac Electric can only come Friday 2-4pm now"),
        _source("S2", 12, "lovely weather"),
        _source("S3", 13, "Kovac Electric is sending someone Thursday"),
    )
    notes = {
        "S1": str(FollowUpRole.NEWS),
        "S2": "asked you, no reply yet",
        "S3": f"Ines: asked you, no reply yet; {FollowUpRole.THREAD}",
    }

    grounds = draft_grounds(sources=sources, memory_notes=notes)

    assert grounds == (
        DraftGround(
            role=str(FollowUpRole.NEWS),
            text="Kovac Electric can only come Friday 2-4pm now",
            sender="Lidia Kovac",
            label="S1",
        ),
        DraftGround(
            role=str(FollowUpRole.THREAD),
            text="Kovac Electric is sending someone Thursday",
            sender="Lidia Kovac",
            label="S3",
        ),
    )


def _view(text: str) -> ProposalView:
    return ProposalView(
        proposal_id=7,
        capability_id="draft_outreach",
        requires_approval=True,
        status="proposed",
        payload_hash="abc",
        recipient_name="Ines Duarte",
        chat_title="Ines",
        platform="whatsapp",
        draft_text=text,
        expires_at=SENT,
    )


def test_the_shown_draft_cites_what_it_follows_up():
    grounds = (
        DraftGround(role=str(FollowUpRole.NEWS), text="x", label="S4"),
        DraftGround(role=str(FollowUpRole.THREAD), text="y", label="S1"),
    )

    shown = proposal_paragraph(_view("Hi Ines,\n\nUpdate: Friday.\n\nTalk soon!"), grounds=grounds)

    assert shown == (
        "\n\n**Draft for Ines Duarte** (Ines, WhatsApp), waiting for your approval; nothing goes "
        "out unless you approve it. It follows up [S4][S1].\n\nHi Ines,\n\nUpdate: Friday.\n\n"
        "Talk soon!"
    )


def test_a_draft_without_grounds_cites_nothing():
    shown = proposal_paragraph(_view("Hi Ines,\n\nTalk soon!"))

    assert "[S" not in shown
    assert "It follows up" not in shown
