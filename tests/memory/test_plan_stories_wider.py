"""Plans said in ways the rules were not written against: bookings and reservations, dates
written as numbers, weekdays with their day of the month, clocks in six languages, moves said
in another language on another platform, and time-window questions that no plan fits. The
cast, places and sentences are written for these tests; the week starts Monday 2 March 2026
(``tests.memory.generalise``)."""

from __future__ import annotations

import pytest

from tests.memory.generalise import Line, Story, dm, group, story_failures

pytestmark = pytest.mark.django_db

MON, TUE, WED, THU, FRI, SAT = 0, 24, 48, 72, 96, 120

BOOKINGS = (
    Story(
        name="a cabin booked for the weekend after next",
        chats={"trail": group("Wren", "Osei")},
        lines=(
            Line("trail", MON + 3, None, "Booked the cabin for the weekend after next \U0001f332"),
            Line("trail", MON + 3.2, "Wren", "amazing, can't wait"),
        ),
        question="when is the cabin?",
        asked_hours=TUE + 2,
        expect=("Saturday 14 March",),
    ),
    Story(
        name="a table got for Friday at 8",
        chats={"odile": dm("Odile")},
        lines=(Line("odile", MON + 8, "Odile", "got us a table at 8 on Fri, the ramen place"),),
        question="what time is our table on Friday?",
        asked_hours=WED + 1,
        expect=("Friday 6 March", "20:00"),
    ),
    Story(
        name="theatre tickets for the 14th",
        chats={"bram": dm("Bram", platform="telegram")},
        lines=(
            Line("bram", MON + 4, "Bram", "grabbed the theatre tickets, they're for the 14th"),
            Line("bram", MON + 4.3, None, "yesss"),
        ),
        question="when is the theatre?",
        asked_hours=WED + 1,
        expect=("Saturday 14 March",),
    ),
    Story(
        name="a venue's reservation confirmation",
        chats={"lumen": dm("Lumen Bistro")},
        lines=(
            Line(
                "lumen",
                MON + 1,
                "Lumen Bistro",
                "Your reservation at Lumen Bistro is confirmed for Thursday 5 March at 19:30, "
                "party of 2.",
            ),
        ),
        question="when is the reservation at Lumen Bistro?",
        asked_hours=TUE + 1,
        expect=("Thursday 5 March", "19:30"),
    ),
    Story(
        name="Portuguese: table reserved for Friday at 21h",
        chats={"tiago": dm("Tiago")},
        lines=(Line("tiago", MON + 9, "Tiago", "reservei mesa no Tasco Velho para sexta às 21h"),),
        question="when is the table at Tasco Velho?",
        asked_hours=TUE + 1,
        expect=("Friday 6 March", "21:00"),
    ),
    Story(
        name="Spanish: padel court booked for Thursday the 5th",
        chats={"lucia": dm("Lucía")},
        lines=(
            Line(
                "lucia",
                MON + 9,
                "Lucía",
                "he reservado la pista de pádel para el jueves 5 a las 19h",
            ),
        ),
        question="when is padel?",
        asked_hours=TUE + 1,
        expect=("Thursday 5 March", "19:00"),
    ),
    Story(
        name="German: table reserved for Saturday at 20 Uhr",
        chats={"jonas": dm("Jonas")},
        lines=(Line("jonas", MON + 9, "Jonas", "Hab den Tisch für Samstag um 20 Uhr reserviert"),),
        question="when is the table on Saturday?",
        asked_hours=TUE + 1,
        expect=("Saturday 7 March", "20:00"),
    ),
)

DATES_AND_CLOCKS = (
    Story(
        name="'tmrw' as tomorrow",
        chats={"ines": dm("Inês")},
        lines=(
            Line("ines", MON + 2, "Inês", "dinner tmrw at 7?"),
            Line("ines", MON + 2.2, None, "yes!"),
        ),
        question="when is dinner with Inês?",
        asked_hours=MON + 5,
        expect=("Tuesday 3 March", "19:00"),
    ),
    Story(
        name="a numeric date and 'half 7'",
        chats={"rory": dm("Rory")},
        lines=(
            Line("rory", MON + 2, "Rory", "drinks 6/3 at half 7?"),
            Line("rory", MON + 2.2, None, "sounds good"),
        ),
        question="what time are drinks with Rory?",
        asked_hours=TUE + 1,
        expect=("Friday 6 March", "19:30"),
    ),
    Story(
        name="Spanish weekday with its day of the month",
        chats={"marta": dm("Marta")},
        lines=(Line("marta", MON + 2, "Marta", "¿cena el jueves 5 a las 21h?"),),
        question="when is dinner with Marta?",
        asked_hours=TUE + 1,
        expect=("Thursday 5 March", "21:00"),
    ),
    Story(
        name="Italian 'alle' clock",
        chats={"piero": dm("Piero")},
        lines=(
            Line("piero", MON + 2, "Piero", "cena venerdì alle 20?"),
            Line("piero", MON + 2.3, None, "perfetto"),
        ),
        question="what time is dinner with Piero?",
        asked_hours=TUE + 1,
        expect=("Friday 6 March", "20:00"),
    ),
    Story(
        name="German dotted date and 'Uhr'",
        chats={"lena": dm("Lena")},
        lines=(Line("lena", MON + 2, "Lena", "Abendessen am 6.3. um 19 Uhr?"),),
        question="when is dinner with Lena?",
        asked_hours=TUE + 1,
        expect=("Friday 6 March", "19:00"),
    ),
    Story(
        name="French day of the month and 20h30",
        chats={"anouk": dm("Anouk")},
        lines=(
            Line("anouk", MON + 2, "Anouk", "dîner le 6 à 20h30 ?"),
            Line("anouk", MON + 2.1, None, "ça marche"),
        ),
        question="when is dinner with Anouk?",
        asked_hours=TUE + 1,
        expect=("Friday 6 March", "20:30"),
    ),
)

CHANGES = (
    Story(
        name="moved in Portuguese on another platform by a participant",
        chats={
            "crew": group("Duarte", "Selma"),
            "duarte": dm("Duarte", platform="telegram"),
        },
        lines=(
            Line("crew", MON + 2, "Selma", "dinner thursday at 8 at Casa Lume?"),
            Line("crew", MON + 2.2, "Duarte", "count me in"),
            Line("crew", MON + 2.3, None, "yes"),
            Line("duarte", TUE + 4, "Duarte", "temos de adiar o jantar para sábado às 21h"),
        ),
        question="when is dinner at Casa Lume?",
        asked_hours=WED + 1,
        expect=("moved", "Saturday 7 March", "21:00", "Thursday 5 March"),
    ),
    Story(
        name="called off in Italian",
        chats={"vale": dm("Valeria")},
        lines=(
            Line("vale", MON + 2, "Valeria", "pranzo giovedì alle 13?"),
            Line("vale", MON + 2.1, None, "va bene"),
            Line("vale", WED + 2, "Valeria", "scusa, devo annullare il pranzo di giovedì"),
        ),
        question="is lunch with Valeria still on Thursday?",
        asked_hours=WED + 4,
        expect=("No", "cancelled"),
    ),
)

MORE_CHANGES = (
    Story(
        name="German postponement keeps the hour",
        chats={"kollegen": group("Henrik", "Mara")},
        lines=(
            Line("kollegen", MON + 2, "Henrik", "Abendessen Samstag um 19 Uhr?"),
            Line("kollegen", MON + 2.2, "Mara", "bin dabei"),
            Line(
                "kollegen", THU + 2, "Henrik", "wir müssen das Abendessen auf Sonntag verschieben"
            ),
        ),
        question="when is dinner with Henrik?",
        asked_hours=THU + 5,
        expect=("moved", "Sunday 8 March", "19:00", "Saturday 7 March"),
    ),
    Story(
        name="a booking sets the hour of a plan proposed without one",
        chats={"yusuf": dm("Yusuf")},
        lines=(
            Line("yusuf", MON + 2, "Yusuf", "dinner friday?"),
            Line("yusuf", MON + 2.2, None, "yes!"),
            Line("yusuf", MON + 2.5, "Yusuf", "booked Tavola Rossa for 8:30 on Friday"),
        ),
        question="what time is dinner with Yusuf?",
        asked_hours=TUE + 1,
        expect=("Friday 6 March", "20:30"),
    ),
    Story(
        name="a new venue said with 'instead'",
        chats={"gang": group("Priti", "Colm")},
        lines=(
            Line("gang", MON + 2, "Priti", "drinks thursday at 7 at Copper Still?"),
            Line("gang", MON + 2.3, "Colm", "I'm in"),
            Line("gang", WED + 2, "Priti", "Copper Still is closed, let's do Hall of Hops instead"),
        ),
        question="where are drinks on thursday?",
        asked_hours=WED + 4,
        expect=("at Hall of Hops", "Thursday 5 March", "at Copper Still"),
    ),
    Story(
        name="a new venue in Portuguese",
        chats={"malta": group("Rita", "Bruno")},
        lines=(
            Line("malta", MON + 2, "Rita", "jantar sexta às 20h na Tasca Alma?"),
            Line("malta", MON + 2.3, "Bruno", "bora"),
            Line("malta", WED + 2, "Rita", "a Tasca Alma fechou, vamos no Café Lume em vez disso"),
        ),
        question="where is dinner on friday?",
        asked_hours=WED + 4,
        expect=("Café Lume", "Friday 6 March", "20:00"),
    ),
    Story(
        name="a new venue in French",
        chats={"potes": group("Léa", "Malik")},
        lines=(
            Line("potes", MON + 2, "Léa", "apéro jeudi à 19h ?"),
            Line("potes", MON + 2.3, "Malik", "carrément"),
            Line("potes", WED + 2, "Léa", "on se retrouve au Petit Zinc plutôt ?"),
        ),
        question="where are drinks on thursday?",
        asked_hours=WED + 4,
        expect=("Petit Zinc", "Thursday 5 March", "19:00"),
    ),
)

WINDOWS = (
    Story(
        name="nothing on Friday: said with the day",
        chats={"abe": dm("Abe")},
        lines=(
            Line("abe", MON + 1, "Abe", "brunch sunday at 11?"),
            Line("abe", MON + 1.2, None, "sure"),
        ),
        question="what have I got on on Friday?",
        asked_hours=TUE + 1,
        expect=("I found no plans for Friday", "Fri 6 March", "Sunday 8 March"),
    ),
    Story(
        name="the plan in the window, not an old message saying 'this weekend'",
        chats={"kit": dm("Kit"), "old": dm("Fitz")},
        lines=(
            Line("old", MON - 300, "Fitz", "drinks this weekend? it was great last time"),
            Line("kit", TUE + 2, "Kit", "hike on saturday at 9am?"),
            Line("kit", TUE + 2.2, None, "count me in"),
        ),
        question="what have I got on this weekend?",
        asked_hours=WED + 2,
        expect=("hike", "Saturday 7 March", "9:00"),
    ),
    Story(
        name="nothing this weekend: the nearest plan instead",
        chats={"nell": dm("Nell"), "old": dm("Fitz")},
        lines=(
            Line("old", MON - 200, "Fitz", "this weekend was brilliant, thanks for having us"),
            Line("nell", MON + 3, "Nell", "dinner on tuesday the 10th at 8?"),
            Line("nell", MON + 3.2, None, "works for me"),
        ),
        question="what have I got on this weekend?",
        asked_hours=WED + 2,
        expect=("no plans for this weekend", "Sat 7", "Sun 8", "Tuesday 10 March"),
    ),
    Story(
        name="nothing tonight",
        chats={"ro": dm("Ro")},
        lines=(
            Line("ro", MON + 1, "Ro", "lunch on friday at 1?"),
            Line("ro", MON + 1.2, None, "deal"),
        ),
        question="any plans tonight?",
        asked_hours=TUE + 8,
        expect=("no plans for tonight", "Friday 6 March"),
    ),
)

STORIES = (*BOOKINGS, *DATES_AND_CLOCKS, *CHANGES, *MORE_CHANGES, *WINDOWS)


@pytest.mark.parametrize("story", STORIES, ids=[story.name for story in STORIES])
def test_wider_plan_stories(user, story):
    problems = story_failures(user, story)
    assert not problems, "; ".join(problems)


def test_a_change_said_on_another_platform_joins_the_stored_plan(user):
    """The stored plan (not only the one read when asked) takes a move one of its people said
    in another chat, in another language: same kind of event, same person, within days."""
    from memory.selectors import plans_for_user
    from tests.memory.generalise import story_ingest

    story = Story(
        name="stored plan moved elsewhere",
        chats={"club": group("Oona", "Pim"), "oona": dm("Oona", platform="signal")},
        lines=(
            Line("club", MON + 2, "Oona", "lunch on thursday at 1 at Mesa Verde?"),
            Line("club", MON + 2.2, "Pim", "works for me"),
            Line("oona", TUE + 6, "Oona", "preciso de adiar o almoço para sexta às 13h"),
        ),
        question="",
        asked_hours=WED,
        expect=(),
    )
    story_ingest(user, story)
    plans = plans_for_user(user=user, terms=("lunch",), limit=5)
    assert len(plans) == 1
    assert plans[0].status == "changed"
    assert [step.event_label for step in plans[0].steps][-1] == "sexta às 13h"
