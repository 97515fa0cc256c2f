"""Names the contact list shortens: a surname saved as an initial or a short form, and one
human saved twice, once in full and once under a short form of the first name."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from retrieval.compile import compile_question
from retrieval.types import Scope
from tests.factories import PersonFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 14, 10, 0, tzinfo=ZoneInfo("Europe/Lisbon"))


def _people(user, question: str) -> list[tuple[str | None, tuple[int, ...]]]:
    compiled = compile_question(user=user, question=question, now=NOW, scope=Scope.everywhere())
    return [(ref.name, ref.person_ids) for ref in compiled.people]


@pytest.mark.parametrize("saved_as", ["Tom K 🚲", "Tom Kell", "Tom K."])
def test_a_full_name_finds_the_contact_saved_with_a_shortened_surname(user, saved_as):
    short = PersonFactory(user=user, display_name=saved_as)
    PersonFactory(user=user, display_name="Tom Ortega")
    assert _people(user, "Message Tom Kellerman that I'm running late") == [
        ("Tom Kellerman", (short.pk,))
    ]


def test_a_surname_nobody_shortens_keeps_everyone_with_the_first_name(user):
    first = PersonFactory(user=user, display_name="Tom K")
    second = PersonFactory(user=user, display_name="Tom Ortega")
    assert _people(user, "Message Tom Silva that I'm running late") == [
        ("Tom", tuple(sorted([first.pk, second.pk])))
    ]


def test_a_name_also_finds_the_same_human_saved_under_a_short_form(user):
    full = PersonFactory(user=user, display_name="Marguerite Osei")
    short = PersonFactory(user=user, display_name="Marg 🌻")
    PersonFactory(user=user, display_name="Margo Lind")
    assert _people(user, "catch me up on Marguerite") == [
        ("Marguerite", tuple(sorted([full.pk, short.pk])))
    ]
    # The full name is one contact only.
    assert _people(user, "catch me up on Marguerite Osei") == [("Marguerite Osei", (full.pk,))]


def test_a_short_form_alone_is_not_a_word_that_starts_like_it(user):
    PersonFactory(user=user, display_name="Chris")
    assert _people(user, "What are the Christmas plans?") == []


@pytest.mark.parametrize(
    "question",
    [
        'who\'s "Harbour Desk" on whatsapp',
        "who is 'Harbour Desk'?",
        "what did \u201charbour desk\u201d send me?",
        "\u00bfqui\u00e9n es \u201cHarbour Desk\u201d?",
    ],
)
def test_a_quoted_name_the_history_shows_names_that_person(user, question):
    desk = PersonFactory(user=user, display_name="Harbour Desk \u2693")
    assert [ids for _name, ids in _people(user, question)] == [(desk.pk,)]


def test_a_quote_that_is_no_saved_name_stays_text_to_find(user):
    PersonFactory(user=user, display_name="Harbour Desk")
    compiled = compile_question(
        user=user, question='who said "harbour desk is closed"?', now=NOW, scope=Scope.everywhere()
    )
    assert compiled.people == ()
    assert "harbour desk is closed" in compiled.keywords


def test_the_reading_form_keeps_the_quotes_of_a_quoted_name(user):
    desk = PersonFactory(user=user, display_name="Harbour Desk")
    question = "is 'Harbour Desk' in my SMS the same person as Mara on WhatsApp?"
    compiled = compile_question(user=user, question=question, now=NOW, scope=Scope.everywhere())
    assert compiled.read_as == question
    assert (desk.pk,) in [ref.person_ids for ref in compiled.people]
