"""People named informally: lower case, a first name and an initial, a title and a surname or
initial, a nickname saved with an emoji, a possessive without its apostrophe, a whole handle,
and a shared first name told apart by what the user does with that one."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from conversations.models import ChatKind, IdentityKind, Platform
from retrieval.compile import compile_question
from retrieval.types import Scope
from tests.factories import (
    ChatFactory,
    ChatParticipantFactory,
    MessageFactory,
    PersonFactory,
    PersonIdentityFactory,
)

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 14, 10, 0, tzinfo=ZoneInfo("Europe/Lisbon"))


def _people(user, question: str) -> list[tuple[str | None, tuple[int, ...]]]:
    compiled = compile_question(user=user, question=question, now=NOW, scope=Scope.everywhere())
    return [(ref.name, ref.person_ids) for ref in compiled.people if ref.name]


def _contact(user, name: str, *, title: str | None = None, kind=ChatKind.DIRECT):
    """A contact the user talks to in a chat of their own (or in a group called ``title``)."""
    person = PersonFactory(user=user, display_name=name)
    chat = ChatFactory(user=user, kind=kind, title=title or name)
    ChatParticipantFactory(chat=chat, person=person)
    return person, chat


def test_a_lower_case_first_name_finds_the_contact(user):
    tomas, _ = _contact(user, "Tomasz Wierzba")
    assert _people(user, "what did tomasz say about the boat") == [("tomasz", (tomas.pk,))]


def test_a_lower_case_name_in_a_question_that_capitalises_names(user):
    tomas, _ = _contact(user, "Tomasz Wierzba")
    ines, _ = _contact(user, "Ines Varga")
    assert _people(user, "Did Ines tell tomasz about Friday?") == [
        ("Ines", (ines.pk,)),
        ("tomasz", (tomas.pk,)),
    ]


def test_a_lower_case_common_word_is_no_name_when_the_asker_capitalises_names(user):
    ines, _ = _contact(user, "Ines Varga")
    _contact(user, "Quiz Night Bot", title="Quiz night", kind=ChatKind.GROUP)
    _contact(user, "Will Okoro")
    assert _people(user, "Did Ines say she will come to the quiz?") == [("Ines", (ines.pk,))]


@pytest.mark.parametrize(
    "question",
    [
        "did tomasz give back my GPS",
        "has tomasz sent the PDF yet",
        "what did tomasz say about the NDA and the SLA",
    ],
)
def test_an_acronym_in_capitals_leaves_a_lower_case_name_a_name(user, question):
    tomas, _ = _contact(user, "Tomasz Wierzba")
    assert _people(user, question) == [("tomasz", (tomas.pk,))]


def test_a_capitalised_word_still_makes_lower_case_common_words_no_names(user):
    _contact(user, "Will Okoro")
    ines, _ = _contact(user, "Ines Varga")
    assert _people(user, "Did Ines say she will send the PDF?") == [("Ines", (ines.pk,))]


def test_a_stop_word_is_never_a_name(user):
    _contact(user, "Will Okoro")
    _contact(user, "The Boss")
    assert _people(user, "what will the plan be") == []


@pytest.mark.parametrize("question", ["what did tomasz w say", "What did Tomasz W say?"])
def test_a_first_name_and_an_initial(user, question):
    wierzba, _ = _contact(user, "Tomasz Wierzba")
    _contact(user, "Tomasz Lind")
    [(name, ids)] = _people(user, question)
    assert name.lower() == "tomasz w"
    assert ids == (wierzba.pk,)


@pytest.mark.parametrize(
    "question",
    ["did dr halloran reply", "Did Dr Halloran reply?", "did Dr. Halloran reply", "did Dr H reply"],
)
def test_a_title_and_a_surname_or_initial(user, question):
    doctor, _ = _contact(user, "Maeve Halloran")
    _contact(user, "Dr. Oskar Brandt")
    [(_, ids)] = _people(user, question)
    assert ids == (doctor.pk,)


@pytest.mark.parametrize("question", ["did sra ferreira write", "hat Herr Ferreira geschrieben"])
def test_titles_in_other_languages(user, question):
    ferreira, _ = _contact(user, "Lucia Ferreira")
    [(name, ids)] = _people(user, question)
    assert ids == (ferreira.pk,)
    assert name.lower().endswith("ferreira")


def test_a_nickname_saved_with_an_emoji(user):
    walrus, _ = _contact(user, "Walrus 🦭")
    assert _people(user, "whats Walrus's email") == [("Walrus", (walrus.pk,))]
    assert _people(user, "whats walrus email") == [("walrus", (walrus.pk,))]


@pytest.mark.parametrize(
    ("saved", "question", "word"),
    [
        ("Fede 🌵", "did federico ever send the tickets", "federico"),
        ("Matt 🎸", "what did matthias say about saturday", "matthias"),
        ("Theo ⚽", "have I paid theodore back", "theodore"),
    ],
)
def test_a_name_in_full_finds_the_contact_saved_under_its_short_form(user, saved, question, word):
    contact, _ = _contact(user, saved)
    assert _people(user, question) == [(word, (contact.pk,))]


def test_an_everyday_word_or_a_far_longer_one_is_no_nickname(user):
    _contact(user, "Ann")
    _contact(user, "Mar 🌊")
    assert _people(user, "did I pay the annual fee") == []
    assert _people(user, "what did the marketing team decide") == []


def test_a_short_form_two_contacts_share_names_neither(user):
    _contact(user, "Fede 🌵")
    _contact(user, "Fede 🎾")
    assert _people(user, "did federico send the tickets") == []


def test_a_possessive_without_its_apostrophe(user):
    tomas, _ = _contact(user, "Tomasz Wierzba")
    assert _people(user, "whats tomaszs number") == [("tomaszs", (tomas.pk,))]


def test_a_handle_names_the_contact_as_a_whole(user):
    benedetta, _ = _contact(user, "Benedetta Saro")
    PersonIdentityFactory(
        person=benedetta, platform=Platform.TELEGRAM, kind=IdentityKind.HANDLE, value="bennysaro"
    )
    assert _people(user, "ask bennysaro about saturday") == [("bennysaro", (benedetta.pk,))]
    # A short form of a first name is no name of its own.
    assert _people(user, "did benny reply") == []


def test_a_shared_first_name_told_apart_by_what_the_user_does_with_them(user):
    rower = PersonFactory(user=user, display_name="Tomasz Wierzba")
    PersonFactory(user=user, display_name="Tomasz Lind")
    crew = ChatFactory(user=user, kind=ChatKind.GROUP, title="Sunday rowing crew")
    ChatParticipantFactory(chat=crew, person=rower)
    MessageFactory(chat=crew, sender_person=rower, text="rowing at 7, bring gloves")
    [(_, ids)] = _people(user, "the Tomasz I row with, what's his surname?")
    assert ids == (rower.pk,)


def test_a_sentence_saved_as_a_name_does_not_name_everyone_it_mentions(user):
    tomas, _ = _contact(user, "Tomasz Wierzba")
    _contact(user, "please forward this to everyone and tell Tomasz hi")
    assert _people(user, "what did Tomasz say") == [("Tomasz", (tomas.pk,))]
