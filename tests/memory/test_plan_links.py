"""Plans linked by structure rather than shared words: a move said in another chat by someone
saved under another name, a change whose sentence names the plan among other news, a weekend
question about a plan moved weeks after it was booked, a trade named in another language,
small talk that says "today", and yes or no asked of the plan's new day. The cast, places and
sentences are written for these tests (``tests.memory.generalise``); the week starts Monday
2 March 2026."""

from __future__ import annotations

import pytest

from memory.extract import plan_signal
from memory.findings import clock_text
from tests.memory.generalise import Line, Story, dm, group, story_failures

pytestmark = pytest.mark.django_db

MON, TUE, WED, THU, FRI, SAT = 0, 24, 48, 72, 96, 120
NEXT_MON = 168

STORIES = (
    Story(
        name="moved on another platform by a contact saved under another name",
        chats={"lia": dm("Liana"), "lia-tg": dm("Lia \U0001f338", platform="telegram")},
        lines=(
            Line("lia", MON + 2, "Liana", "Garage sale confermato: sabato 7 marzo, come help?"),
            Line("lia", MON + 2.2, None, "I'm in! what time?"),
            Line("lia", MON + 2.4, "Liana", "9am at my place"),
            Line(
                "lia-tg",
                THU + 1,
                "Lia \U0001f338",
                "storms sabato \u26c8 spostiamo a domenica 8? same time",
            ),
            Line("lia-tg", THU + 1.5, None, "Sunday works"),
        ),
        question="When is Liana's garage sale now?",
        intent="plan_recall",
        asked_hours=THU + 5,
        expect=("moved", "Sunday 8 March", "9:00"),
    ),
    Story(
        name="someone else's move on the same day leaves the plan as it was",
        chats={"wall": group("Nadia", "Hugo"), "xime": dm("Ximena", platform="signal")},
        lines=(
            Line("wall", MON + 3, "Nadia", "Climbing Saturday 11am at Boulder Cellar?"),
            Line("wall", MON + 3.2, None, "in"),
            Line(
                "xime",
                THU + 2,
                "Ximena",
                "ugh the van rental cancelled my saturday booking, so moving is Sunday 10am now",
            ),
        ),
        question="when is climbing?",
        asked_hours=THU + 6,
        expect=("confirmed", "Saturday 7 March", "11:00"),
        refuse=("Sunday", "moved"),
    ),
    Story(
        name="the flight's own sentence says the new day",
        chats={"noor": dm("Noor")},
        lines=(
            Line("noor", MON + 1, "Noor", "Booked! my flight lands Fri 6 Mar 9:40pm"),
            Line("noor", MON + 1.2, None, "great, I'll pick you up"),
            Line(
                "noor",
                TUE + 3,
                "Noor",
                "Bad news, the workshop got shifted to the Friday. Changed my flight to Sat 7th,"
                " landing 8:05am",
            ),
            Line("noor", TUE + 3.3, None, "ok, see you Saturday"),
        ),
        question="is noor still landing friday night?",
        intent="plan_recall",
        asked_hours=WED + 2,
        expect=("No", "moved", "Saturday 7 March", "8:05"),
    ),
    Story(
        name="a weekend question reads the booking the change moved",
        chats={"noor": dm("Noor")},
        lines=(
            Line("noor", MON + 1, "Noor", "Booked! my flight lands Fri 6 Mar 9:40pm"),
            Line("noor", MON + 1.2, None, "great, I'll pick you up"),
            Line("noor", TUE + 3, "Noor", "Changed my flight to Sat 7th, landing 8:05am"),
            Line("noor", TUE + 3.3, None, "ok!"),
        ),
        question="What plans do I have this weekend?",
        intent="plan_recall",
        asked_hours=THU + 9,
        expect=("moved", "Saturday 7 March", "8:05"),
    ),
    Story(
        name="a trade named in Italian, with an hour range",
        chats={"rocco": dm("Rocco")},
        lines=(
            Line(
                "rocco",
                MON + 1,
                "Rocco",
                "L'idraulico viene gioved\u00ec 5 tra le 9 e le 11. Va bene?",
            ),
            Line("rocco", MON + 1.5, None, "Thursday works, I'll be home"),
        ),
        question="When's the plumber coming?",
        intent="plan_recall",
        asked_hours=TUE + 2,
        expect=("Thursday 5 March", "9:00"),
    ),
    Story(
        name="small talk saying today sets no time; a venue change moves the plan",
        chats={"Book club": group("Ines", "Mara")},
        lines=(
            Line(
                "Book club",
                MON + 1,
                "Ines",
                "Pick is The Day After Tomorrow \u2014 meet Wed 11 Mar at mine?",
            ),
            Line("Book club", MON + 1.5, "Mara", "perfect"),
            Line("Book club", THU + 3, "Mara", "the park was lovely today"),
            Line(
                "Book club",
                SAT + 2,
                "Ines",
                "Painters are in at mine on Wed, so we meet at the Owl Bar instead, 7pm",
            ),
        ),
        question="Where's book club on Wednesday?",
        asked_hours=NEXT_MON + 3,
        expect=("moved", "Wednesday 11 March", "19:00", "Owl Bar"),
        refuse=("Thursday",),
    ),
    Story(
        name="yes when asked of the day it moved to",
        chats={"crew": group("Priya", "Tomas")},
        lines=(
            Line("crew", MON + 2, "Priya", "brunch Saturday at 11?"),
            Line("crew", MON + 3, None, "yes"),
            Line("crew", TUE + 5, "Priya", "actually let's do Sunday instead, same time"),
            Line("crew", TUE + 5.5, "Tomas", "fine by me"),
        ),
        question="is brunch still on now that it's on Sunday?",
        asked_hours=WED + 3,
        expect=("Yes", "Sunday 8 March"),
    ),
)


@pytest.mark.parametrize("story", STORIES, ids=[story.name for story in STORIES])
def test_plan_link_stories(user, story):
    problems = story_failures(user, story)
    assert not problems, "; ".join(problems)


def test_a_clock_with_minutes_is_read_as_written():
    """ "leaving at 5:00" is five o'clock as written, not 17:00; "at 5" for a dinner is 17:00."""
    assert clock_text("5:00") == "5:00"
    assert clock_text("at 5", activity="dinner") == "17:00 (5pm)"


def test_italian_day_with_date_and_change():
    signal = plan_signal("Scusate, mercoled\u00ec non si pu\u00f2: rimandiamo a mercoled\u00ec 18?")
    assert signal.event_label.endswith("18")
    assert str(signal.status) == "changed"


def test_a_title_saying_tomorrow_gives_way_to_the_date():
    signal = plan_signal("This month's pick is Tomorrow Never Dies, meet Thu 12 Mar?")
    assert signal.event_label.startswith("Thu 12")
