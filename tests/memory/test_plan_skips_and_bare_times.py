"""A week the friend says there will be none of a habit ("no swimming the week of the 16th")
is not a plan on that week's Monday; and a time agreed in a chat whose plans are one habit
("wed 6:15?" "wed 6:15 ok") is that habit's plan, asked about by the habit. The cast, places
and sentences are written for these tests; the week starts Monday 2 March 2026."""

from __future__ import annotations

import pytest

from memory.extract import plan_signal
from tests.memory.generalise import Line, Story, dm, group, story_failures

pytestmark = pytest.mark.django_db

MON, TUE, WED, THU, FRI, SAT = 0, 24, 48, 72, 96, 120
WEEK = 168


def _swim_story(name: str, lines: tuple[Line, ...], question: str, expect, refuse=()) -> Story:
    return Story(
        name=name,
        chats={"ines": dm("Ines Varga", platform="signal")},
        lines=(
            Line("ines", MON - 2 * WEEK, "Ines Varga", "swimming thursday 6:30 at the lido?"),
            Line("ines", MON - 2 * WEEK + 1, None, "yes! thursday 6:30 swimming"),
            *lines,
        ),
        question=question,
        asked_hours=MON + 3,
        expect=expect,
        refuse=refuse,
    )


SKIPS = (
    _swim_story(
        "a week without the habit is not a plan",
        (
            Line(
                "ines",
                MON - 3,
                "Ines Varga",
                "heads up my brother visits so no swimming the week of the 16th",
            ),
            Line(
                "ines",
                MON + 1,
                "Ines Varga",
                "the lido is shut tuesday for cleaning. wed or thu this week?",
            ),
            Line("ines", MON + 1.2, None, "wed 6:15?"),
            Line("ines", MON + 1.3, "Ines Varga", "wed 6:15 ok 👌"),
        ),
        "am i swimming with ines this week? what day",
        ("Wednesday", "6:15"),
        ("16 March",),
    ),
)


HABITS = (
    _swim_story(
        "a time agreed in the habit's chat is its next occurrence",
        (
            Line("ines", MON + 1, None, "pool this week? tue or thu?"),
            Line("ines", MON + 1.5, "Ines Varga", "thu 7:45 works"),
            Line("ines", MON + 1.6, None, "thu 7:45 👍"),
        ),
        "am i swimming with ines this week?",
        ("Thursday", "7:45"),
    ),
    _swim_story(
        "with no time agreed this week, the habit's last time is all there is",
        (Line("ines", MON + 1, "Ines Varga", "how was the weekend?"),),
        "am i swimming with ines this week?",
        ("swimming",),
        ("Wednesday", "Friday"),
    ),
    Story(
        name="a time agreed with the same friend in another chat is not the habit",
        chats={
            "ines": dm("Ines Varga", platform="signal"),
            "flat": group("Ines Varga", "Tomas Reid", platform="whatsapp"),
        },
        lines=(
            Line("ines", MON - 2 * WEEK, "Ines Varga", "swimming thursday 6:30 at the lido?"),
            Line("ines", MON - 2 * WEEK + 1, None, "yes! thursday 6:30 swimming"),
            Line("flat", MON + 1, "Ines Varga", "flat meeting friday 8pm?"),
            Line("flat", MON + 1.2, "Tomas Reid", "friday 8pm ok"),
        ),
        question="am i swimming with ines this week?",
        asked_hours=MON + 3,
        expect=("swimming",),
        refuse=("Friday",),
    ),
)


@pytest.mark.parametrize("story", HABITS, ids=lambda story: story.name)
def test_the_habit_asked_for_a_week(user, story):
    failures = story_failures(user, story)
    assert failures == [], "\n".join(failures)


@pytest.mark.parametrize(
    "text",
    [
        "heads up, no yoga the week of the 23rd",
        "skip padel thursday, my knee is bad",
        "pas de yoga jeudi",
        "we're not swimming friday",
    ],
)
def test_an_activity_said_as_not_happening_proposes_nothing(text):
    signal = plan_signal(text)
    assert not signal.is_proposal
    assert signal.status is None


@pytest.mark.parametrize(
    ("text", "activity"),
    [
        ("I have no idea, yoga thursday at 7?", "yoga"),
        ("padel sat 10?", "padel"),
        ("golf sunday 8am?", "golf"),
        ("swim thu 6:30?", "swim"),
    ],
)
def test_a_habit_proposed_with_a_time_is_a_proposal(text, activity):
    signal = plan_signal(text)
    assert signal.is_proposal
    assert signal.activity == activity


@pytest.mark.parametrize("story", SKIPS, ids=lambda story: story.name)
def test_plans_around_a_habit(user, story):
    failures = story_failures(user, story)
    assert failures == [], "\n".join(failures)


def _called_off_story(offer: str) -> Story:
    return Story(
        name=f"called off, then {offer!r}",
        chats={"crew": group("Rosa M", "Teo", "Ari K")},
        lines=(
            Line(
                "crew",
                MON - 100,
                "Rosa M",
                "ok who's in for Pebble Cove on saturday the 7th? I can drive 3 ppl",
            ),
            Line("crew", MON - 99, "Teo", "👍 see u there"),
            Line(
                "crew",
                WED + 9,
                "Rosa M",
                "forecast for saturday: storms all day. I think we call Pebble Cove off",
            ),
            Line("crew", WED + 9.2, "Rosa M", f"ok Pebble Cove is cancelled ❌ {offer}"),
            Line("crew", WED + 9.5, "Teo", "👍 see u there"),
        ),
        question="is pebble cove still happening sat?",
        asked_hours=THU + 2,
        expect=("No", "cancelled", "Saturday 7 March"),
        refuse=("call with", "bowling", "gym"),
    )


@pytest.mark.parametrize(
    "story",
    [
        _called_off_story("gym sat at 11 instead? Rockhouse"),
        _called_off_story("bowling sat at 3 instead?"),
    ],
    ids=lambda story: story.name,
)
def test_a_call_off_offering_another_activity_stays_off(user, story):
    failures = story_failures(user, story)
    assert failures == [], "\n".join(failures)


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("ok the beach is cancelled ❌ gym sat at 11 instead?", "cancelled"),
        ("beach is cancelled, bowling sat at 3 instead?", "cancelled"),
        ("can't do Friday, yoga Saturday at 8 instead?", "changed"),
        ("can't do Friday, Saturday at 8 instead?", "changed"),
    ],
)
def test_a_call_off_is_told_from_a_move(text, status):
    assert plan_signal(text).status == status
