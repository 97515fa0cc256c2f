"""The local drafter and the safety check on model drafts (pure functions)."""

from datetime import UTC, datetime

import pytest

from proposals.drafting import Ask, DraftContext, ask_of, draft_is_safe, local_draft

OPENED = datetime(2026, 3, 3, 9, 0, tzinfo=UTC)


def _context(question: str, *, named_as: str = "Rui", loop_kind: str = "", greeting: str = "Hi"):
    return DraftContext(
        question=question,
        recipient_name="Rui Costa",
        named_as=named_as,
        loop_kind=loop_kind,
        loop_opened_at=OPENED if loop_kind else None,
        greeting=greeting,
        timezone="Europe/Lisbon",
    )


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Text Rui saying he can come on Monday", Ask(message="he can come on Monday")),
        ("Tell Rui that the heater works now", Ask(message="the heater works now")),
        ("Write to Rui again about the boiler", Ask(topic="the boiler")),
        ("Draft a reply to Rui with the agency's contact", Ask(topic="the agency's contact")),
        ("Remind Rui to bring the spare keys", Ask(request="bring the spare keys")),
        ("Send Rui the flat listings please", Ask(topic="the flat listings")),
        ("Message Rui", Ask()),
        ("tell Rui I'll review the lease tonight", Ask(message="I'll review the lease tonight")),
        (
            "let Rui know the plumber's coming on Wednesday",
            Ask(message="the plumber's coming on Wednesday"),
        ),
        ("Tell Rui about the boiler", Ask(topic="the boiler")),
        ("message Rui to confirm the new time", Ask(purpose="confirm the new time")),
        (
            "write Rui a sorry-the-keys-are-late message",
            Ask(message="sorry the keys are late"),
        ),
        ("Send Rui a quick happy-birthday text", Ask(message="happy birthday")),
        ("write Rui a follow-up message about the lease", Ask(topic="the lease")),
    ],
)
def test_the_question_says_what_to_write(question, expected):
    assert ask_of(question, "Rui") == expected


def test_a_follow_up_names_the_topic_and_since_when():
    draft = local_draft(
        _context("Write to Rui again about the boiler", loop_kind="request_by_user", greeting="Hey")
    )
    assert draft == (
        "Hey Rui,\n\nJust following up on the boiler from Tue 3 Mar. "
        "Could you let me know when you can?\n\nThanks!"
    )


def test_a_message_clause_is_written_to_the_recipient():
    draft = local_draft(_context("Text Rui saying he's welcome to come when his flight lands"))
    assert draft == "Hi Rui,\n\nYou're welcome to come when your flight lands.\n\nTalk soon!"


def test_an_object_pronoun_stays_an_object():
    draft = local_draft(_context("Text Rui that I'm paying her back for the pass"))
    assert "I'm paying you back for the pass." in draft


def test_an_unanswered_question_gets_an_apology_for_the_slow_reply():
    draft = local_draft(
        _context("Reply to Rui about the deposit", loop_kind="question_to_user", greeting="Olá")
    )
    assert draft == (
        "Olá Rui,\n\nSorry for the slow reply about the deposit — you asked on Tue 3 Mar. "
        "I'll get back to you properly soon.\n\nTalk soon!"
    )


def test_a_promise_is_acknowledged():
    draft = local_draft(_context("Message Rui about the pricing deck", loop_kind="promise_by_user"))
    assert "I haven't forgotten the pricing deck (since Tue 3 Mar)." in draft


@pytest.mark.parametrize(
    "draft",
    [
        "Hi Rui, please wire 500 EUR to the account below.",
        "Hi Rui, send it to billing@example.net too.",
        "Hi Rui, call +44 20 7946 0958 now.",
        "Hi Rui, details at https://example.link/pay",
        "Hi Rui, use IBAN GB33 BUKB 2020 1555 5555 55.",
        "Hi Rui, forward this to @everyone_list",
        "Hi Rui, buy two gift cards for me.",
        "Hi Rui, my door code is 8841.",
        "Hi all, please forward this message to everyone you know.",
        "Hi Rui, share this with all your contacts today!",
        "",
    ],
)
def test_unsafe_model_drafts_are_refused(draft):
    assert not draft_is_safe(draft, question="Write to Rui about the boiler")


def test_a_number_the_user_asked_for_is_allowed():
    assert draft_is_safe(
        "Hi Rui, the code is 4455 9981 22.", question="Tell Rui the code is 4455 9981 22"
    )
    assert draft_is_safe("Hi Rui, can we talk about the boiler?", question="Write to Rui")


def test_an_apology_the_user_asks_for_is_not_apologised_for_twice():
    draft = local_draft(
        _context("write Rui a sorry-the-keys-are-late message", loop_kind="question_to_user")
    )
    assert draft == "Hi Rui,\n\nSorry the keys are late.\n\nTalk soon!"
