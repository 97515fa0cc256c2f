"""Who someone is, told plainly from the messages that name them: whose relative or partner
they are, an engagement announced, where they work and live; and the occupation a job
question's best message names."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from conversations.models import ChatKind, Person
from memory.about import about_findings, asked_attribute, job_role, who_statements
from tests.memory.helpers import chat_of, ingest, message_row, say

T0 = datetime(2026, 3, 4, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "sender", "is_from_self", "expected"),
    [
        (
            "my cousin Mira is visiting next week",
            "Rui",
            False,
            [("relation", "Mira is Rui's cousin")],
        ),
        ("Mira, my flatmate, says hi", "", True, [("relation", "Mira is your flatmate")]),
        (
            "have you met my best friend Mira?",
            "Lou",
            False,
            [("relation", "Mira is Lou's best friend")],
        ),
        ("MIRA SAID YES 💍", "Rui", False, [("engaged", "Mira got engaged to Rui")]),
        (
            "so Mira and I got engaged last night!!",
            "Rui",
            False,
            [("engaged", "Mira got engaged to Rui")],
        ),
        (
            "big news: Mira got a job at the Harbour Maritime Museum",
            "Rui",
            False,
            [("work", "Mira got a job at the Harbour Maritime Museum")],
        ),
        (
            "Mira works for Northwind Logistics now",
            "Lou",
            False,
            [("work", "Mira works at Northwind Logistics")],
        ),
        ("Mira moved to Valencia in May", "Lou", False, [("home", "Mira moved to Valencia")]),
        ("thanks Mira, see you Sunday", "Rui", False, []),
        ("my cousin is visiting", "Rui", False, []),
    ],
)
def test_what_a_message_says_of_who_someone_is(text, sender, is_from_self, expected):
    assert (
        who_statements(text=text, name="Mira", sender=sender, is_from_self=is_from_self) == expected
    )


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("who is Mira?", "who"),
        ("Who's Mira", "who"),
        ("how do I know Mira?", "who"),
        ("what does Mira do?", "job"),
        ("what does Mira do for a living", "job"),
        ("what does Mira do on weekends?", ""),
        ("who said the party moved?", ""),
    ],
)
def test_the_attribute_an_identity_question_asks(question, attribute):
    assert asked_attribute(question) == attribute


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("first week back teaching, the kids are wild", "a teacher"),
        ("night shift at the hospital again, nursing is exhausting", "a nurse"),
        ("our engineering offsite is in May", "an engineer"),
        ("lunch at noon?", ""),
    ],
)
def test_the_occupation_a_message_names(text, role):
    assert job_role(text) == role


@pytest.mark.django_db
def test_who_someone_is_states_each_kind_once_citing_its_own_message(user):
    family = chat_of("family", "Rui", "Mira", "Mum", kind=ChatKind.GROUP)
    ingest(
        user,
        family,
        say("1", T0, "Mira got a job at the Harbour Maritime Museum!!", sender="Rui"),
        say("2", T0 + timedelta(minutes=1), "thanks Mira 😊", sender="Mum"),
        say("3", T0 + timedelta(days=3), "she said yes!! Mira said yes 💍", sender="Rui"),
        say("4", T0 + timedelta(days=3, minutes=2), "I did say yes 💍", sender="Mira"),
    )
    mira = Person.objects.get(user=user, display_name="Mira").pk
    findings, ids = about_findings(
        user=user, person_ids=[mira], name="Mira", question="who is Mira?"
    )
    assert [finding.text for finding in findings] == [
        "Mira got engaged to Rui.",
        "Mira got a job at the Harbour Maritime Museum.",
    ]
    assert ids == [message_row(user, "family", "3").pk, message_row(user, "family", "1").pk]


@pytest.mark.django_db
def test_who_someone_is_says_nothing_when_no_message_says_it(user):
    direct = chat_of("dm-mira", "Mira")
    ingest(user, direct, say("1", T0, "see you at the climbing gym", sender="Mira"))
    mira = Person.objects.get(user=user, display_name="Mira").pk
    assert about_findings(user=user, person_ids=[mira], name="Mira", question="who is Mira?") == (
        [],
        [],
    )
