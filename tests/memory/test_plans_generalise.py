"""Plans said the many ways people say them: proposed, accepted, moved and cancelled in short
replies, emoji, calendar-like notes and other languages, moved in another chat or on another
platform, and asked about with or without the plan's name. The cast, places and sentences are
written for these tests (``tests.memory.generalise``); the week starts Monday 2 March 2026."""

from __future__ import annotations

import pytest

from tests.memory.generalise import Line, Story, dm, group, story_failures

pytestmark = pytest.mark.django_db

MON, TUE, WED, THU, FRI, SAT = 0, 24, 48, 72, 96, 120

STORIES = (
    # --- Proposed and accepted -------------------------------------------------------------
    Story(
        name="short weekday and 'down'",
        chats={"kai": dm("Kai")},
        lines=(
            Line("kai", MON + 9, "Kai", "want to grab dinner thu?"),
            Line("kai", MON + 9.2, None, "down"),
        ),
        question="Is dinner with Kai still happening on Thursday?",
        asked_hours=WED + 3,
        expect=("Yes", "confirmed", "Thursday 5 March"),
    ),
    Story(
        name="let's do Saturday in a group, 'works for me'",
        chats={"brunchers": group("Priya", "Tomas")},
        lines=(
            Line("brunchers", MON + 2, "Priya", "brunch this weekend?"),
            Line("brunchers", MON + 2.5, "Tomas", "let's do Saturday, 11 at Pao Quente"),
            Line("brunchers", MON + 3, None, "works for me"),
        ),
        question="when is brunch?",
        asked_hours=WED + 3,
        expect=("confirmed", "Saturday 7 March", "11:00"),
    ),
    Story(
        name="are we still on, thumbs up",
        chats={"luis": dm("Luis", platform="telegram")},
        lines=(
            Line("luis", TUE + 5, "Luis", "are we still on for drinks friday at 7?"),
            Line("luis", TUE + 5.1, None, "\U0001f44d"),
        ),
        question="what time are drinks on friday?",
        asked_hours=WED + 3,
        expect=("confirmed", "Friday 6 March", "19:00"),
    ),
    Story(
        name="calendar-like note, 'see you then'",
        chats={"nadia": dm("Nadia")},
        lines=(
            Line("nadia", TUE + 1, "Nadia", "Dinner @ 7, Luigi's"),
            Line("nadia", TUE + 1.5, None, "see you then!"),
        ),
        question="what time is dinner tonight?",
        asked_hours=TUE + 4,
        expect=("confirmed", "19:00", "Luigi's"),
    ),
    Story(
        name="who's coming, 'count me in'",
        chats={"wall": group("Omar", "Bea")},
        lines=(
            Line("wall", WED + 1, "Omar", "Climbing sunday 10am, who's coming?"),
            Line("wall", WED + 1.2, None, "count me in"),
        ),
        question="what's happening on sunday?",
        asked_hours=THU + 2,
        expect=("confirmed", "Sunday 8 March", "10:00"),
    ),
    Story(
        name="Spanish proposal and 'dale'",
        chats={"diego": dm("Diego")},
        lines=(
            Line("diego", MON + 10, "Diego", "\u00bfcenamos el viernes a las 9?"),
            Line("diego", MON + 10.2, None, "dale, nos vemos"),
        ),
        question="when is dinner with Diego?",
        asked_hours=WED + 3,
        expect=("confirmed", "Friday 6 March", "21:00"),
    ),
    Story(
        name="Portuguese verb for lunch and 'fechado'",
        chats={"joana": dm("Joana")},
        lines=(
            Line("joana", MON + 4, "Joana", "bora almo\u00e7ar s\u00e1bado \u00e0s 13h?"),
            Line("joana", MON + 4.5, None, "fechado!"),
        ),
        question="when is lunch with Joana?",
        asked_hours=WED + 3,
        expect=("confirmed", "Saturday 7 March", "13:00"),
    ),
    Story(
        name="French film on Sunday",
        chats={"claire": dm("Claire")},
        lines=(
            Line("claire", TUE + 8, "Claire", "On se fait un cin\u00e9 dimanche \u00e0 18h ?"),
            Line("claire", TUE + 8.3, None, "carr\u00e9ment, \u00e0 dimanche !"),
        ),
        question="what are my plans on sunday?",
        asked_hours=THU + 2,
        expect=("confirmed", "Sunday 8 March", "18:00"),
    ),
    Story(
        name="a proposal nobody answered",
        chats={"ravi": dm("Ravi")},
        lines=(Line("ravi", TUE + 3, "Ravi", "coffee tomorrow at 10?"),),
        question="am I having coffee with Ravi tomorrow?",
        asked_hours=TUE + 6,
        expect=("proposed but unconfirmed", "Wednesday 4 March", "10:00"),
    ),
    # --- Moved ---------------------------------------------------------------------------
    Story(
        name="push to 8",
        chats={"kai": dm("Kai")},
        lines=(
            Line("kai", MON + 9, "Kai", "dinner thursday at 7?"),
            Line("kai", MON + 9.2, None, "yes!"),
            Line("kai", WED + 6, "Kai", "can we push to 8? stuck at work"),
            Line("kai", WED + 6.3, None, "sure"),
        ),
        question="what time is dinner with Kai?",
        asked_hours=WED + 9,
        expect=("moved", "Thursday 5 March", "20:00"),
    ),
    Story(
        name="actually Sunday instead",
        chats={"brunchers": group("Priya", "Tomas")},
        lines=(
            Line("brunchers", MON + 2, "Priya", "brunch Saturday at 11?"),
            Line("brunchers", MON + 3, None, "yes"),
            Line("brunchers", TUE + 5, "Priya", "actually let's do Sunday instead, same time"),
            Line("brunchers", TUE + 5.5, "Tomas", "fine by me"),
        ),
        question="is brunch still on Saturday?",
        asked_hours=WED + 3,
        expect=("No", "moved", "Sunday 8 March"),
    ),
    Story(
        name="running late, make it 7:30",
        chats={"luis": dm("Luis", platform="telegram")},
        lines=(
            Line("luis", TUE + 5, "Luis", "drinks friday at 7?"),
            Line("luis", TUE + 5.1, None, "deal"),
            Line("luis", FRI + 8, "Luis", "running late, make it 7:30?"),
        ),
        question="what time are drinks tonight?",
        asked_hours=FRI + 8.5,
        expect=("Friday 6 March", "19:30"),
    ),
    Story(
        name="moved in a direct chat on another platform",
        chats={"wall": group("Omar", "Bea"), "omar": dm("Omar", platform="telegram")},
        lines=(
            Line("wall", WED + 1, "Omar", "Climbing sunday 10am at Boulder Box?"),
            Line("wall", WED + 1.2, None, "in"),
            Line(
                "omar",
                THU + 4,
                "Omar",
                "hey the gym is closed sunday morning, can we go at 2pm instead?",
            ),
            Line("omar", THU + 4.5, None, "ok np"),
        ),
        question="when is climbing?",
        asked_hours=FRI + 2,
        expect=("moved", "Sunday 8 March", "14:00"),
    ),
    Story(
        name="Portuguese postponement to Sunday",
        chats={"joana": dm("Joana")},
        lines=(
            Line("joana", MON + 4, "Joana", "almo\u00e7o s\u00e1bado \u00e0s 13h?"),
            Line("joana", MON + 4.5, None, "combinado"),
            Line("joana", WED + 2, "Joana", "podemos adiar pro domingo? mesmo hor\u00e1rio"),
        ),
        question="when is lunch with Joana?",
        asked_hours=WED + 5,
        expect=("moved", "Sunday 8 March"),
    ),
    Story(
        name="Spanish move to Saturday",
        chats={"diego": dm("Diego")},
        lines=(
            Line("diego", MON + 10, "Diego", "\u00bfcena el viernes a las 9?"),
            Line("diego", MON + 10.2, None, "dale"),
            Line("diego", WED + 1, "Diego", "\u00bfla pasamos al s\u00e1bado? el viernes curro"),
        ),
        question="when is dinner with Diego?",
        asked_hours=WED + 5,
        expect=("moved", "Saturday 7 March"),
    ),
    # --- Cancelled -----------------------------------------------------------------------
    Story(
        name="gonna have to bail",
        chats={"kai": dm("Kai")},
        lines=(
            Line("kai", MON + 9, "Kai", "dinner thursday at 7?"),
            Line("kai", MON + 9.2, None, "yes!"),
            Line("kai", WED + 6, "Kai", "ugh gonna have to bail on thursday, work thing"),
            Line("kai", WED + 6.2, None, "no worries"),
        ),
        question="is dinner with Kai still happening?",
        asked_hours=WED + 9,
        expect=("No", "cancelled"),
    ),
    Story(
        name="rain check",
        chats={"luis": dm("Luis", platform="telegram")},
        lines=(
            Line("luis", TUE + 5, "Luis", "drinks friday at 7?"),
            Line("luis", TUE + 5.1, None, "deal"),
            Line("luis", THU + 3, "Luis", "rain check on friday? I'm sick as a dog"),
            Line("luis", THU + 3.5, None, "of course, feel better"),
        ),
        question="are drinks with Luis on friday still on?",
        asked_hours=THU + 6,
        expect=("No", "cancelled"),
    ),
    Story(
        name="can't make it anymore",
        chats={"nadia": dm("Nadia")},
        lines=(
            Line("nadia", MON + 1, "Nadia", "Dinner Tuesday @ 7, Luigi's?"),
            Line("nadia", MON + 1.5, None, "see you then!"),
            Line("nadia", TUE + 6, "Nadia", "so sorry, can't make it anymore tonight \U0001f61e"),
        ),
        question="is dinner with Nadia tonight still on?",
        asked_hours=TUE + 7,
        expect=("No", "cancelled"),
    ),
    Story(
        name="French cancellation",
        chats={"claire": dm("Claire")},
        lines=(
            Line("claire", TUE + 8, "Claire", "ciné dimanche à 18h ?"),
            Line("claire", TUE + 8.3, None, "oui !"),
            Line("claire", THU + 8, "Claire", "désolée, je peux plus dimanche, on annule ?"),
        ),
        question="is the cinema with Claire still on sunday?",
        asked_hours=FRI + 2,
        expect=("No", "cancelled"),
    ),
    Story(
        name="Spanish cancellation",
        chats={"diego": dm("Diego")},
        lines=(
            Line("diego", MON + 10, "Diego", "\u00bfcena el viernes a las 9?"),
            Line("diego", MON + 10.2, None, "dale"),
            Line("diego", THU + 1, "Diego", "lo siento, no voy a poder el viernes"),
        ),
        question="is dinner with Diego still on friday?",
        asked_hours=THU + 5,
        expect=("No", "cancelled"),
    ),
    # --- Questions without the plan's name -------------------------------------------------
    Story(
        name="is Friday still happening",
        chats={"luis": dm("Luis", platform="telegram")},
        lines=(
            Line("luis", TUE + 5, "Luis", "drinks friday at 7 at the Anchor?"),
            Line("luis", TUE + 5.1, None, "yes, see you there"),
        ),
        question="is Friday still happening?",
        asked_hours=WED + 5,
        expect=("Yes", "Friday 6 March", "19:00"),
    ),
    Story(
        name="the thing tomorrow",
        chats={"wall": group("Omar", "Bea")},
        lines=(
            Line("wall", WED + 1, "Omar", "Climbing sunday 10am, who's in?"),
            Line("wall", WED + 1.2, "Bea", "me!"),
            Line("wall", WED + 1.5, None, "me too"),
        ),
        question="what time is the thing tomorrow?",
        asked_hours=SAT + 3,
        expect=("Sunday 8 March", "10:00"),
    ),
    # --- More wordings -----------------------------------------------------------------------
    Story(
        name="a food name in a group and 'in'",
        chats={"tacos": group("Kai", "Bea")},
        lines=(
            Line("tacos", TUE + 4, None, "anyone up for tacos friday 8pm?"),
            Line("tacos", TUE + 4.2, "Kai", "in"),
            Line("tacos", TUE + 4.3, "Bea", "me too!!"),
        ),
        question="what time is tacos on friday?",
        asked_hours=THU + 2,
        expect=("confirmed", "Friday 6 March", "20:00"),
    ),
    Story(
        name="the user moves it",
        chats={"kai": dm("Kai", platform="signal")},
        lines=(
            Line("kai", MON + 9, "Kai", "dinner thursday 8pm?"),
            Line("kai", MON + 9.2, None, "yes!"),
            Line("kai", THU + 8, None, "train's late, can we do 8:30 instead?"),
            Line("kai", THU + 8.1, "Kai", "np"),
        ),
        question="what time is dinner with Kai tonight?",
        asked_hours=THU + 9,
        expect=("moved", "Thursday 5 March", "20:30"),
    ),
    Story(
        name="something came up, next week same time",
        chats={"ravi": dm("Ravi")},
        lines=(
            Line("ravi", MON + 3, "Ravi", "coffee thursday 10am?"),
            Line("ravi", MON + 3.2, None, "sure!"),
            Line(
                "ravi",
                WED + 2,
                "Ravi",
                "something came up, can we move it to next tuesday at 10am?",
            ),
        ),
        question="when is coffee with Ravi?",
        asked_hours=WED + 6,
        expect=("moved", "Tuesday 10 March"),
    ),
    Story(
        name="German dinner and 'passt'",
        chats={"lena": dm("Lena")},
        lines=(
            Line("lena", MON + 8, "Lena", "Abendessen Freitag um 19 Uhr?"),
            Line("lena", MON + 8.5, None, "passt!"),
        ),
        question="when is dinner with Lena?",
        asked_hours=WED + 2,
        expect=("confirmed", "Friday 6 March", "19:00"),
    ),
    Story(
        name="German call-off",
        chats={"lena": dm("Lena")},
        lines=(
            Line("lena", MON + 8, "Lena", "Abendessen Freitag um 19 Uhr?"),
            Line("lena", MON + 8.5, None, "passt!"),
            Line("lena", THU + 2, "Lena", "sorry, ich muss leider absagen für Freitag"),
        ),
        question="is dinner with Lena still on?",
        asked_hours=THU + 5,
        expect=("No", "cancelled"),
    ),
    Story(
        name="a note with a club name",
        chats={"padel": group("Tomas", "Ravi")},
        lines=(
            Line("padel", TUE + 2, "Tomas", "Padel Sat 10:30 @ Club Norte, who's in?"),
            Line("padel", TUE + 2.5, None, "me"),
        ),
        question="what time is padel on saturday?",
        asked_hours=THU + 2,
        expect=("Saturday 7 March", "10:30"),
    ),
    Story(
        name="the organiser calls it off in the group",
        chats={"hikers": group("Bea", "Omar")},
        lines=(
            Line("hikers", MON + 5, "Bea", "hike sunday 9am from the north trailhead?"),
            Line("hikers", MON + 5.5, None, "yes!"),
            Line("hikers", FRI + 3, "Bea", "guys I have to call off sunday, storm warning ⛈"),
        ),
        question="is the hike still on?",
        asked_hours=FRI + 6,
        expect=("No", "cancelled"),
    ),
    Story(
        name="one person drops out of a group plan",
        chats={"wall": group("Omar", "Bea")},
        lines=(
            Line("wall", WED + 1, "Omar", "Climbing sunday 10am, who's coming?"),
            Line("wall", WED + 1.2, None, "count me in"),
            Line("wall", THU + 3, "Bea", "can't make it sunday, go without me"),
        ),
        question="is climbing still on sunday?",
        asked_hours=FRI + 2,
        expect=("Yes", "Sunday 8 March", "10:00"),
        refuse=("cancelled",),
    ),
    Story(
        name="called off by the organiser on another platform",
        chats={"brunchers": group("Priya", "Tomas"), "priya": dm("Priya", platform="signal")},
        lines=(
            Line("brunchers", MON + 2, "Priya", "brunch Saturday at 11?"),
            Line("brunchers", MON + 3, None, "yes"),
            Line("priya", THU + 4, "Priya", "hey, I need to cancel brunch, my mum is visiting"),
        ),
        question="is brunch still happening?",
        asked_hours=THU + 8,
        expect=("No", "cancelled"),
    ),
    # --- Written after the rules, run once before any change (docs/MEMORY.md) ----------------
    Story(
        name="sushi friday, thumbs and 'yesss'",
        chats={"mia": dm("Mia", platform="instagram")},
        lines=(
            Line("mia", TUE + 10, "Mia", "sushi fri at 8? my treat"),
            Line("mia", TUE + 10.1, None, "yesss \U0001f363"),
        ),
        question="when am I getting sushi with Mia?",
        asked_hours=THU + 1,
        # A bare "at 8" for an activity that is not an evening one stays as written (8:00).
        expect=("Friday 6 March", "at 8:00"),
    ),
    Story(
        name="are we still on for tomorrow",
        chats={"ravi": dm("Ravi")},
        lines=(
            Line("ravi", MON + 3, "Ravi", "lunch wednesday 1pm at Tasca Lopes?"),
            Line("ravi", MON + 3.2, None, "perfect"),
            Line("ravi", TUE + 8, "Ravi", "are we still on for tomorrow?"),
            Line("ravi", TUE + 8.2, None, "yep! see you at 1"),
        ),
        question="where is lunch tomorrow?",
        asked_hours=TUE + 10,
        expect=("confirmed", "Tasca Lopes", "Wednesday 4 March"),
    ),
    Story(
        name="pushed back an hour in French",
        chats={"claire": dm("Claire")},
        lines=(
            Line("claire", MON + 6, "Claire", "d\u00eener jeudi \u00e0 20h ?"),
            Line("claire", MON + 6.2, None, "parfait"),
            Line("claire", THU + 5, "Claire", "on d\u00e9cale \u00e0 21h ? je finis tard"),
        ),
        question="what time is dinner with Claire?",
        asked_hours=THU + 7,
        expect=("moved", "21:00"),
    ),
    Story(
        name="bailing with 'gotta cancel tmrw'",
        chats={"sam": dm("Sam")},
        lines=(
            Line("sam", MON + 2, "Sam", "movie night tomorrow at 9?"),
            Line("sam", MON + 2.1, None, "down!"),
            Line("sam", MON + 20, "Sam", "ugh gotta cancel tmrw, fever \U0001f912"),
        ),
        question="am I still seeing Sam tomorrow?",
        asked_hours=MON + 22,
        expect=("No", "cancelled"),
    ),
)


@pytest.mark.parametrize("story", STORIES, ids=[story.name for story in STORIES])
def test_plan_stories(user, story):
    problems = story_failures(user, story)
    assert not problems, "; ".join(problems)
