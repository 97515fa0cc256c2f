"""An automated account (a group's bot) is not a person a question names by the ordinary words
of its name ("quiz night", "pub night"): only a question that says "bot" names it."""

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
    PersonFactory,
    PersonIdentityFactory,
)

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 14, 10, 0, tzinfo=ZoneInfo("Europe/Lisbon"))


def _people(user, question: str) -> list[tuple[str | None, tuple[int, ...]]]:
    compiled = compile_question(user=user, question=question, now=NOW, scope=Scope.everywhere())
    return [(ref.name, ref.person_ids) for ref in compiled.people if ref.name]


def _group_member(user, name: str, title: str):
    person = PersonFactory(user=user, display_name=name)
    chat = ChatFactory(user=user, kind=ChatKind.GROUP, title=title)
    ChatParticipantFactory(chat=chat, person=person)
    return person


@pytest.mark.parametrize(
    "question",
    [
        "catch me up on pub quiz night",
        "when is quiz night",
        "wheres pub quiz on friday",
        "did we settle the march quiz night date?",
    ],
)
def test_a_bot_named_by_ordinary_words_is_no_person(user, question):
    _group_member(user, "Pub Quiz Night Bot", "Pub quiz crew")
    assert _people(user, question) == []


@pytest.mark.parametrize(
    "question", ["what is the movie club doing", "is movie club still on tuesday"]
)
def test_a_bot_known_by_its_handle_is_no_person(user, question):
    bot = _group_member(user, "Movie Club", "Film lovers")
    PersonIdentityFactory(
        user=user, person=bot, platform=Platform.TELEGRAM, kind=IdentityKind.HANDLE,
        value="movieclub_helper_bot",
    )  # fmt: skip
    assert _people(user, question) == []


def test_a_question_that_says_bot_names_it(user):
    bot = _group_member(user, "Pub Quiz Night Bot", "Pub quiz crew")
    [(name, ids)] = _people(user, "what did the quiz night bot post")
    assert ids == (bot.pk,)
    assert "bot" in name.lower()


@pytest.mark.parametrize(
    ("question", "who"), [("what did talbot say", "talbot"), ("what did Abbot say?", "abbot")]
)
def test_a_person_whose_name_ends_in_the_letters_is_still_named(user, question, who):
    talbot = _group_member(user, "Talbot Reyes", "Climbing")
    abbot = _group_member(user, "Ines Abbot", "Work")
    PersonIdentityFactory(
        user=user, person=talbot, platform=Platform.TELEGRAM, kind=IdentityKind.HANDLE,
        value="talbot",
    )  # fmt: skip
    expected = {"talbot": talbot, "abbot": abbot}[who]
    assert [ids for _name, ids in _people(user, question)] == [(expected.pk,)]
