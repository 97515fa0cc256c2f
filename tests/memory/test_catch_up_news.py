"""A catch-up leads with news that matters: life news before small talk, close people's small
talk is not stated as news, and news that continues an earlier thread brings that message."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from conversations.models import Chat, ChatKind
from memory import services
from memory.evidence import BACKGROUND_NOTE, news_weight, salience
from retrieval.evidence import EvidenceLimits
from retrieval.pipeline import Retrieval, retrieve
from retrieval.types import Scope
from tests.memory.helpers import chat_of, ingest, message_row, say

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 6, 10, 18, 0, tzinfo=UTC)
LIMITS = EvidenceLimits(max_sources=12, max_tokens=8000)


def _refresh(user) -> None:
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def _ask(user, question: str) -> Retrieval:
    return retrieve(
        user=user, question=question, now=NOW, scope=Scope.everywhere(), evidence_limits=LIMITS
    )


@pytest.mark.parametrize(
    ("earlier", "update"),
    [
        (
            "Big news: we're moving to Lyon in May, the movers are booked for the 28th",
            "Update from Porto: the movers come Friday and we leave Saturday morning for Lyon",
        ),
        (
            "Starting the new job at Halden Robotics in June, so excited about the robotics team",
            "First week at Halden done, the robotics team took me out for lunch today",
        ),
    ],
)
def test_news_that_continues_an_earlier_thread_brings_that_message(user, earlier, update):
    ingest(
        user,
        chat_of("grp-family", "Leo Sand", "Mia Sand", kind=ChatKind.GROUP),
        say("e0", NOW - timedelta(days=40), earlier, sender="Leo Sand"),
        say("e1", NOW - timedelta(days=40, minutes=-3), "wow!! congrats"),
        say("u0", NOW - timedelta(days=1), update, sender="Leo Sand"),
    )
    _refresh(user)

    retrieval = _ask(user, "catch me up")

    assert retrieval.memory is not None
    background = message_row(user, "grp-family", "e0").pk
    ids = list(retrieval.memory.message_ids)
    assert ids.index(background) == ids.index(message_row(user, "grp-family", "u0").pk) + 1
    assert retrieval.memory.notes[background] == BACKGROUND_NOTE


def test_a_routine_line_said_again_is_not_background(user):
    ingest(
        user,
        chat_of("grp-quiz", "Ana Ruiz", "Tom Ek", kind=ChatKind.GROUP),
        say(
            "r0",
            NOW - timedelta(days=14),
            "running ten minutes late, start without me",
            sender="Ana Ruiz",
        ),
        say(
            "r1",
            NOW - timedelta(days=1),
            "running ten minutes late, start without me please",
            sender="Ana Ruiz",
        ),
        say("r2", NOW - timedelta(days=1, minutes=-2), "no worries"),
    )
    _refresh(user)

    retrieval = _ask(user, "what did I miss?")

    assert retrieval.memory is not None
    assert message_row(user, "grp-quiz", "r0").pk not in retrieval.memory.message_ids


@pytest.mark.parametrize(
    "news",
    [
        "I got the job at the county hospital!!",
        "we're engaged 💍",
        "Ruth and I are moving to Denver next month",
    ],
)
def test_life_news_weighs_more_than_longer_small_talk(news):
    small_talk = "the weather today is lovely, we had pancakes and coffee at the market again"

    assert news_weight(news) > news_weight(small_talk)
    assert news_weight(small_talk) == salience(small_talk)


def test_a_close_persons_small_talk_is_not_stated_as_news(user):
    ingest(
        user,
        chat_of("dm-nora", "Nora Vik"),
        *[
            say(
                f"o{i}",
                NOW - timedelta(days=10 + i),
                f"chatting about books {i}",
                sender="Nora Vik",
            )
            for i in range(6)
        ],
        *[say(f"m{i}", NOW - timedelta(days=10 + i, minutes=-5), "ha yes") for i in range(6)],
        say("late", NOW - timedelta(hours=3), "running late sorry", sender="Nora Vik"),
    )
    _refresh(user)

    retrieval = _ask(user, "catch me up")

    texts = [text for text, _labels in retrieval.memory_findings]
    assert not any(text.startswith("From Nora") for text in texts)
