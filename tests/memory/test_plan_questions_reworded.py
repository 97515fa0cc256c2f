"""Plan questions worded the way people type them: a tag ("…, right?"), a day right after
"still", the time asked at the end, a day's possessive, "this week" said of a plan another
message put off in another week. Each reaches the plan (not plain search) and its answer
states the status and the day. The cast, places and sentences are written for these tests;
the week starts Monday 2 March 2026 (``tests.memory.generalise``)."""

from __future__ import annotations

import pytest

from tests.memory.generalise import Line, Story, dm, group, story_failures

pytestmark = pytest.mark.django_db

MON, TUE, WED, THU, FRI, SAT = 0, 24, 48, 72, 96, 120

STORIES = (
    Story(
        name="a tag question of a plan moved to another day",
        chats={"dario": dm("Dario")},
        lines=(
            Line("dario", MON - 50, "Dario", "Booked! I land Friday 6 March at 21:10"),
            Line("dario", MON - 49, None, "great, I'll get you at arrivals"),
            Line(
                "dario",
                TUE + 3,
                "Dario",
                "Change of plan: my flight moved to Saturday 7 March, landing 09:30 now",
            ),
        ),
        question="Dario's still landing on Friday night, right?",
        asked_hours=WED + 2,
        expect=("No", "moved", "Saturday 7 March"),
        intent="plan_recall",
    ),
    Story(
        name="a day right after still, the verb left out",
        chats={"fair": group("Henrike", "Bas")},
        lines=(
            Line("fair", MON - 30, "Henrike", "Pottery fair on Saturday 7 March at 10:00?"),
            Line("fair", MON - 29, None, "count me in"),
            Line(
                "fair",
                TUE + 5,
                "Henrike",
                "The pottery fair is moved to Sunday 8 March, same time, the hall was double "
                "booked",
            ),
        ),
        question="pottery fair still saturday??",
        asked_hours=WED + 2,
        expect=("No", "moved", "Sunday 8 March"),
        intent="plan_recall",
    ),
    Story(
        name="the time asked at the end of a delayed arrival",
        chats={"lucia": dm("Lucia")},
        lines=(
            Line("lucia", MON + 2, "Lucia", "My flight lands Thursday 5 March at 18:40!"),
            Line("lucia", MON + 2.2, None, "yay, I'll pick you up"),
            Line("lucia", THU + 12, "Lucia", "ugh flight delayed, we now land at 22:15"),
        ),
        question="lucia lands tonight at what time?",
        asked_hours=THU + 14,
        expect=("22:15",),
        intent="plan_recall",
    ),
    Story(
        name="a day's possessive names the event, moved to another place",
        chats={"swap": group("Greet", "Odile")},
        lines=(
            Line("swap", MON - 40, "Greet", "Book swap Wednesday 4 March at mine, 19:00?"),
            Line("swap", MON - 39, None, "yes please"),
            Line(
                "swap",
                MON + 8,
                "Greet",
                "Change of venue for Wednesday: my kitchen is being redone, so Cafe Lindeboom "
                "instead, 19:00",
            ),
        ),
        question="wednesday's book swap — where is it",
        asked_hours=TUE + 9,
        expect=("Lindeboom",),
        intent="plan_recall",
    ),
    Story(
        name="texting shorthand for a plan called off",
        chats={"ilka": dm("Ilka")},
        lines=(
            Line("ilka", MON - 40, "Ilka", "shall we do the Ghent day trip on Saturday 7 March?"),
            Line("ilka", MON - 39, None, "yes let's!"),
            Line(
                "ilka",
                TUE + 6,
                "Ilka",
                "so sorry, I have to work Saturday, we have to cancel Ghent, another weekend?",
            ),
        ),
        question="r we still doing ghent this weekend",
        asked_hours=WED + 2,
        expect=("No", "cancelled"),
        intent="plan_recall",
    ),
    Story(
        name="this week's plan, not the week another message put off",
        chats={"kasia": dm("Kasia")},
        lines=(
            Line("kasia", MON - 90, "Kasia", "bouldering Thursday 5 March at 19:30 at Klimhal?"),
            Line("kasia", MON - 89, None, "yes! see you there"),
            Line(
                "kasia",
                MON + 3,
                "Kasia",
                "btw my sister visits in April so no bouldering the week of 13 April, sorry",
            ),
            Line("kasia", MON + 4, None, "\U0001f44d"),
        ),
        question="am i bouldering w kasia this week? what day",
        asked_hours=TUE + 2,
        expect=("Yes", "Thursday 5 March"),
        intent="plan_recall",
    ),
    Story(
        name="this week asked in another form, the other week named by its date",
        chats={"teo": dm("Teodor")},
        lines=(
            Line("teo", MON - 80, "Teodor", "Padel on Wednesday 4 March at 20:00?"),
            Line("teo", MON - 79, None, "deal"),
            Line("teo", MON + 2, "Teodor", "heads up, no padel on Wednesday 1 April, I'm away"),
            Line("teo", MON + 3, None, "ok"),
        ),
        question="am I playing padel with Teodor this week?",
        asked_hours=MON + 5,
        expect=("Yes", "Wednesday 4 March"),
        intent="plan_recall",
    ),
)


@pytest.mark.parametrize("story", STORIES, ids=[story.name for story in STORIES])
def test_plan_questions_reworded(user, story):
    problems = story_failures(user, story)
    assert not problems, "; ".join(problems)
