"""An answer never claims an action was done when only a proposal exists."""

from __future__ import annotations

import pytest

from assistant.models import Turn, TurnRole
from proposals.claims import (
    REWRITTEN_CLAIM,
    ActionClaimGuard,
    claims_action_done,
    rewrite_action_claims,
)
from proposals.models import OutboxMessage, Proposal, Receipt
from tests.assistant.conftest import ask
from tests.proposals.support import history


@pytest.mark.parametrize(
    "text",
    [
        "Done, messaged Rui about the boiler.",
        "I sent it to Rui [S1].",
        "I've just let Rui know you'll be late.",
        "Your message has been delivered!",
        "Sent ✅",
        "Message sent to Rui.",
        "I have already texted him.",
        "All set: Rui has it.",
    ],
)
def test_claims_that_an_action_was_done_are_found(text):
    assert claims_action_done(text)


@pytest.mark.parametrize(
    "text",
    [
        "I haven't sent anything yet.",
        "Nothing was sent.",
        "Once you approve it, the message is sent.",
        "I drafted a reply for you to approve.",
        "You wrote (Rui, Tue 3 Mar): I sent the deck yesterday [S1]",
        "- **Rui Costa** (dm, Tue): \u201cI sent the invoice, all done\u201d [S2]",
        "Rui asked about the boiler on Tuesday [S1].",
        "Here's a draft for Rui:\n\nHey Rui, any news on the boiler?",
        # A memory line quoting someone's message, and questions.
        "- **Open promise**: **Ines** (Ines, Sat 31 Oct 2026, 10:02): Did you see the photo I "
        "sent? Dad loved it [S3]",
        "**You** (Ola, Mon 2 Nov): I sent the form, all done [S4]",
        "Did you get the link I sent?",
        "Have I already texted Bruno about it?",
    ],
)
def test_quotes_negations_conditions_and_drafts_are_not_claims(text):
    assert not claims_action_done(text)


def test_a_memory_lines_quote_streams_through_unchanged():
    text = (
        "Also from your memory:\n\n- **Ines: you promised**: **Ines** (Ines, Sat 31 Oct 2026, "
        "10:02): Did you see the recipe I sent? Dad loved it [S3]\nI messaged her."
    )
    guard = ActionClaimGuard(is_active=True)
    streamed = "".join(guard.feed(text[i : i + 7]) for i in range(0, len(text), 7)) + guard.flush()
    assert "Did you see the recipe I sent? Dad loved it [S3]" in streamed
    assert streamed.endswith(REWRITTEN_CLAIM)
    assert guard.rewritten_count == 1


def test_the_rewrite_replaces_the_first_claim_and_drops_the_rest():
    text = "Rui asked about the boiler [S1]. Done! I messaged him.\nI also emailed Ana."
    rewritten, count = rewrite_action_claims(text)
    assert count == 3
    assert rewritten == f"Rui asked about the boiler [S1]. {REWRITTEN_CLAIM} "
    assert rewritten.count(REWRITTEN_CLAIM) == 1


def test_the_guard_holds_text_to_line_ends_and_sees_claims_split_across_deltas():
    guard = ActionClaimGuard(is_active=True)
    shown = [guard.feed(delta) for delta in ("Rui asked [S1].\nDo", "ne, I sent ", "it.\nBye")]
    shown.append(guard.flush())
    assert shown == ["Rui asked [S1].\n", "", f"{REWRITTEN_CLAIM}\n", "Bye"]
    assert guard.rewritten_count == 1


def test_the_guard_lets_each_finished_sentence_through_before_the_line_ends():
    guard = ActionClaimGuard(is_active=True)
    shown = [
        guard.feed(delta)
        for delta in ("Priya asked about the keys [S1]. She", " needs them by Friday. ", "Sent it")
    ]
    shown.append(guard.flush())
    assert shown == [
        "Priya asked about the keys [S1]. ",
        "She needs them by Friday. ",
        "",
        REWRITTEN_CLAIM,
    ]


def test_the_guard_waits_for_an_open_quote_before_judging_what_follows():
    guard = ActionClaimGuard(is_active=True)
    # The chat title holds a sentence end; the quoted message is the user's, not a claim.
    first = guard.feed("You wrote (St. Kilda crew, Mon 2 Mar): I sent the")
    second = guard.feed(" deck. [S1] Nothing else. ")
    assert first == ""
    assert second == "You wrote (St. Kilda crew, Mon 2 Mar): I sent the deck. [S1] Nothing else. "
    assert guard.flush() == ""
    assert guard.rewritten_count == 0


def test_the_guard_holds_an_unclosed_quotation_mark_to_its_end():
    guard = ActionClaimGuard(is_active=True)
    assert guard.feed("Tom said \u201cI emailed her. She") == ""
    shown = guard.feed(" knows.\u201d Fine. ")
    assert shown == "Tom said \u201cI emailed her. She knows.\u201d Fine. "
    assert guard.rewritten_count == 0


def test_an_inactive_guard_passes_everything_through_at_once():
    guard = ActionClaimGuard(is_active=False)
    assert guard.feed("I sent it") == "I sent it"
    assert guard.flush() == ""
    assert guard.rewritten_count == 0


@pytest.mark.django_db(transaction=True)
def test_a_model_claiming_it_sent_the_message_is_rewritten_and_nothing_is_sent(user, answer_models):
    history(user)
    answer_models.script(
        deltas=("Rui never answered about the boiler [S1]. ", "Done, I messaged Rui", " for you!")
    )
    reply = ask(user, question="Write to Rui again about the boiler")
    chunks = reply.chunks
    streamed = "".join(c["delta"] for c in chunks if c["type"] == "text-delta")
    assert "messaged Rui" not in streamed
    assert REWRITTEN_CLAIM in streamed
    assert [c["type"] for c in chunks].count("data-proposal") == 1
    stored = Turn.objects.get(user=user, role=TurnRole.ASSISTANT).text
    assert stored == streamed
    assert Proposal.objects.get(user=user).status == "proposed"
    assert not Receipt.objects.exists()
    assert not OutboxMessage.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_outside_an_action_request_the_answer_is_left_alone(user, answer_models):
    history(user)
    answer_models.script(deltas=("You sent it on Tuesday; I sent nothing [S1].",))
    streamed = "".join(
        c["delta"]
        for c in ask(user, question="What did Rui say about the boiler?").chunks
        if c["type"] == "text-delta"
    )
    assert streamed == "You sent it on Tuesday; I sent nothing [S1]."
