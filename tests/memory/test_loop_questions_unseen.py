"""Loop questions in wordings the loop rules do not read directly, answered from memory the
way their usual form is: the person's receipt of the user's deed ("did Bo get X from me?"),
telling in other words ("let Bo know", "give Bo a heads-up"), a thing arriving ("did X come
through?"), lists asked in other words ("who am I leaving on read?", "who am I owing money
to?", "what's left hanging?"). Cast and sentences are written for these tests; the user is
Maya."""

from __future__ import annotations

import pytest

from tests.memory.generalise import MEDIA, Line, Story, dm, group, story_failures

pytestmark = pytest.mark.django_db

MON, TUE, WED, THU = 0, 24, 48, 72

STORIES = (
    Story(
        name="receipt from me: promise kept by a file",
        chats={"ines": dm("Ines")},
        lines=(
            Line("ines", MON + 2, "Ines", "could you send me the floor plans for the studio?"),
            Line("ines", MON + 2.2, None, "sure, I'll send the floor plans tonight"),
            Line("ines", MON + 9, None, MEDIA),
            Line("ines", MON + 9.5, "Ines", "got the floor plans, thanks!"),
        ),
        question="did Ines get the floor plans from me?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="receipt from me: promise in a group still open",
        chats={"band": group("Teo", "Rafa")},
        lines=(
            Line("band", MON + 2, "Teo", "Maya can you share the setlist before friday?"),
            Line("band", MON + 2.3, None, "yes I'll share the setlist tomorrow"),
        ),
        question="has Teo received the setlist from me yet?",
        asked_hours=WED + 3,
        expect=("No",),
        refuse=("Yes",),
    ),
    Story(
        name="let know: told in a direct chat",
        chats={"oriel": dm("Oriel")},
        lines=(
            Line("oriel", MON + 1, "Oriel", "any update on the venue for the reunion?"),
            Line("oriel", TUE + 3, None, "the venue moved to the boathouse, same time"),
        ),
        question="did I ever let Oriel know about the venue?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="came through: the user's request answered with a file",
        chats={"dov": dm("Dov", platform="slack")},
        lines=(
            Line("dov", MON + 2, None, "hey, could you send me the rota spreadsheet?"),
            Line("dov", TUE + 4, "Dov", "here's the rota spreadsheet, sorry for the wait"),
        ),
        question="did the rota spreadsheet ever come through?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="leaving on read: an ask nobody answered",
        chats={"wren": dm("Wren"), "pim": dm("Pim")},
        lines=(
            Line("wren", MON + 1, None, "hi Wren!"),
            Line("wren", TUE + 2, "Wren", "can you send me the photos from the hike?"),
            Line("pim", MON + 1, None, "hey Pim"),
            Line("pim", MON + 2, "Pim", "lovely seeing you"),
        ),
        question="who am I leaving on read?",
        asked_hours=WED + 3,
        expect=("Wren",),
        refuse=("Pim",),
    ),
    Story(
        name="owing money: a debt said with an amount",
        chats={"tomas": dm("Tomas")},
        lines=(
            Line("tomas", MON + 3, "Tomas", "I paid the parking, you owe me 14 euros"),
            Line("tomas", MON + 3.2, None, "thanks! will pay you back tomorrow"),
        ),
        question="who am I owing money to?",
        asked_hours=THU + 3,
        expect=("Tomas",),
    ),
    Story(
        name="owing money, asked in Spanish",
        chats={"tomas": dm("Tomas")},
        lines=(
            Line("tomas", MON + 3, "Tomas", "me debes 9€ de las entradas"),
            Line("tomas", MON + 3.2, None, "vale, te lo paso mañana"),
        ),
        question="¿a quién le debo dinero?",
        asked_hours=THU + 3,
        expect=("Tomas",),
    ),
    Story(
        name="left hanging: a promise still open",
        chats={"noor": dm("Noor")},
        lines=(
            Line("noor", MON + 2, "Noor", "could you look over my cover letter?"),
            Line("noor", MON + 2.5, None, "I'll look over the cover letter this weekend"),
        ),
        question="which things are still left hanging?",
        asked_hours=WED + 3,
        expect=("Noor",),
    ),
)


@pytest.mark.parametrize("story", STORIES, ids=[story.name for story in STORIES])
def test_loop_question_unseen_wording(maya, story):
    problems = story_failures(maya, story)
    assert not problems, "; ".join(problems)
