"""The local drafter in the user's voice: how a titled or short-named recipient is addressed,
what to say after a platform or a separator, days and months written as names, and the plan
a message to a chat is about (pure functions)."""

import re
from typing import Any

import pytest

from memory.followup import FollowUpRole
from proposals.drafting import (
    Ask,
    DraftContext,
    DraftGround,
    address_names,
    ask_of,
    calendar_capitalised,
    local_draft,
)


def _context(question: str, **overrides: Any) -> DraftContext:
    values: dict[str, Any] = {
        "question": question,
        "recipient_name": "Wendell Price",
        "named_as": "",
        "loop_kind": "",
        "loop_opened_at": None,
        "greeting": "Hi",
        "timezone": "Europe/Lisbon",
    }
    values.update(overrides)
    return DraftContext(**values)


@pytest.mark.parametrize(
    ("recipient", "named_as", "expected"),
    [
        ("Dr. Wendell Price", "Dr. Price", ("Dr. Price", "Wendell")),
        ("Dr. Wendell Price", "price", ("Dr. Price", "Wendell")),
        ("Wendell Price", "ms price", ("Ms Price", "Wendell")),
        ("Wendell Price", "dr w", ("Dr Price", "Wendell")),
        ("Rosalind Achterberg", "ros", ("Ros", "Rosalind")),
        ("Rosalind Achterberg", "Rosalind", ("Rosalind", "Rosalind")),
        ("Rosalind Achterberg", "rosa lind", ("Rosalind", "Rosalind")),
        ("Otter \U0001f9a6", "", ("Otter", "Otter")),
    ],
)
def test_the_greeting_uses_a_title_or_the_short_form_the_user_says(recipient, named_as, expected):
    assert address_names(recipient, named_as) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sat feb 7 suits me", "Sat Feb 7 suits me"),
        ("can't make thursday", "can't make Thursday"),
        ("thu 6:15 at the pool", "Thu 6:15 at the pool"),
        ("I sat on the sun deck in march", "I sat on the sun deck in march"),
        ("see you march 3", "see you March 3"),
    ],
)
def test_days_and_months_said_as_names_are_capitalised(text, expected):
    assert calendar_capitalised(text) == expected


@pytest.mark.parametrize(
    ("question", "named_as", "expected"),
    [
        (
            "reply to Dr Price on Slack that the lab results are back",
            "Dr Price",
            Ask(message="the lab results are back"),
        ),
        (
            "reply to ms price by email - the invoice went out monday",
            "ms price",
            Ask(message="the invoice went out monday"),
        ),
        (
            "answer Dr. Price on Slack, the slides are ready",
            "Dr. Price",
            Ask(message="the slides are ready"),
        ),
        (
            "text Ros on WhatsApp: running ten minutes late",
            "Ros",
            Ask(message="running ten minutes late"),
        ),
        ("text Ros, about the lease", "Ros", Ask(topic="the lease")),
        ("tell ros tuesday works for me", "ros", Ask(message="tuesday works for me")),
        ("tell Ros to call me again please", "Ros", Ask(request="call me again")),
        (
            "let the pottery crew know I can't make friday",
            "pottery crew",
            Ask(message="I can't make friday"),
        ),
        (
            "tell the pottery group sunday is better for me",
            "pottery",
            Ask(message="sunday is better for me"),
        ),
    ],
)
def test_what_to_say_comes_after_the_platform_a_separator_or_a_group_noun(
    question, named_as, expected
):
    assert ask_of(question, named_as) == expected


def test_a_titled_recipient_is_greeted_with_the_title_and_the_point_is_stated():
    draft = local_draft(
        _context(
            "reply to dr price on slack that the scans are in by friday",
            recipient_name="Dr. Wendell Price",
            named_as="dr price",
        )
    )

    assert draft == "Hi Dr Price,\n\nThe scans are in by Friday.\n\nTalk soon!"


def test_a_message_to_a_chat_names_the_plan_its_own_words_leave_out():
    draft = local_draft(
        _context(
            "tell the pottery group sat feb 7 works for me",
            recipient_name="Clay Days",
            named_as="pottery",
            is_group=True,
            plan_activity="pottery class",
        )
    )

    assert draft == "Hi all,\n\nAbout pottery class: Sat Feb 7 works for me.\n\nTalk soon!"


def test_a_message_that_names_the_plan_is_left_as_said():
    draft = local_draft(
        _context(
            "tell ros sat feb 7 works for me for pottery class",
            recipient_name="Rosalind Achterberg",
            named_as="ros",
            plan_activity="pottery class",
        )
    )

    assert draft == "Hi Ros,\n\nSat Feb 7 works for me for pottery class.\n\nTalk soon!"


def test_news_is_not_relayed_when_the_message_says_its_own_when():
    news = DraftGround(
        role=str(FollowUpRole.NEWS),
        text="The kiln moved to Ros's garage, wednesday 6pm from now on",
        sender="Odile Brandt",
        label="S1",
    )
    dated = local_draft(
        _context(
            "tell ros sat feb 7 works for me",
            recipient_name="Rosalind Achterberg",
            named_as="ros",
            grounds=(news,),
        )
    )
    undated = local_draft(
        _context(
            "let ros know the kiln plans changed",
            recipient_name="Rosalind Achterberg",
            named_as="ros",
            grounds=(news,),
        )
    )

    assert "Update" not in dated
    assert "Update: The kiln moved to your garage, wednesday 6pm from now on." in undated


def test_a_draft_never_says_it_was_sent():
    draft = local_draft(
        _context(
            "reply to Dr Price on Slack that I'll send the forms tomorrow",
            recipient_name="Dr. Wendell Price",
            named_as="Dr Price",
        )
    )

    assert not re.search(r"\b(?:sent|delivered|done)\b", draft, re.IGNORECASE)
    assert "I'll send the forms tomorrow." in draft


@pytest.mark.parametrize(
    ("question", "named_as", "expected"),
    [
        (
            "Text Otto thanks for the trailer, I returned it full",
            "Otto",
            Ask(message="thanks for the trailer, I returned it full"),
        ),
        (
            "Send Otto a thank-you on Slack for the spreadsheet",
            "Otto",
            Ask(message="Thank you for the spreadsheet!"),
        ),
        (
            "Remind Otto the grant report is due friday at noon",
            "Otto",
            Ask(message="Just a friendly reminder: the grant report is due friday at noon"),
        ),
        (
            "Remind Otto about the grant report",
            "Otto",
            Ask(topic="the grant report", is_reminder=True),
        ),
    ],
)
def test_a_courtesy_or_a_reminded_clause_after_the_name_is_the_message(
    question, named_as, expected
):
    assert ask_of(question, named_as) == expected


def test_third_person_verbs_agree_with_you():
    draft = local_draft(
        _context(
            "Ask Otto if he wants to come and whether she tries the early slot",
            recipient_name="Otto Brandvold",
            named_as="Otto",
        )
    )

    assert "if you want to come and whether you try the early slot" in draft


def test_an_epithet_is_said_with_the_name():
    assert address_names("Big Otto \U0001f43b", "Big Otto") == ("Big Otto", "Otto")
    assert address_names("Uncle Rasmus", "") == ("Uncle Rasmus", "Rasmus")
