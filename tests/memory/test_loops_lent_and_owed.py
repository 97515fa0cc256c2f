"""Loops read from how people ask and how they say a thing came back: a thing the user lent
("did Bo return my drill?", matched on the thing's words, stem or initials), what the user
promised asked as yes or no ("did I promise Bo anything for the move?"), the person's word that
they got the user's money ("did Bo ever confirm he got my share?") and a sum asked for in
other words ("still need your $30"). Cast and sentences are written for these tests; the
user is Maya."""

from __future__ import annotations

import pytest

from memory.extract import debt_amount, promise_object
from memory.lent import initials
from tests.memory.generalise import MEDIA, Line, Story, dm, group, story_failures

pytestmark = pytest.mark.django_db

MON, TUE, WED, THU = 0, 24, 48, 72

STORIES = (
    Story(
        name="lent: given back, said by the borrower",
        chats={"oskar": dm("Oskar")},
        lines=(
            Line("oskar", MON + 2, "Oskar", "could I borrow your camping stove for the weekend?"),
            Line("oskar", MON + 2.5, None, "sure, it's by the door"),
            Line("oskar", WED + 4, "Oskar", "dropped the camping stove back at yours, cheers"),
        ),
        question="did oskar return my camping stove",
        asked_hours=THU + 3,
        expect=("Yes", "Oskar"),
        refuse=("No",),
    ),
    Story(
        name="lent: asked to borrow, never back",
        chats={"crew": group("Oskar", "Lea")},
        lines=(
            Line("crew", MON + 2, "Oskar", "Maya can I borrow your tile cutter? mine broke"),
            Line("crew", MON + 2.5, None, "yep grab it from the shed"),
            Line("crew", TUE + 4, "Lea", "who's bringing snacks friday"),
        ),
        question="has Oskar given my tile cutter back yet?",
        asked_hours=THU + 3,
        expect=("No", "Oskar"),
        refuse=("Yes",),
    ),
    Story(
        name="lent: the thing asked by its initials",
        chats={"rue": dm("Rue")},
        lines=(
            Line(
                "rue", MON + 1, "Rue", "can I borrow your Oxford English Dictionary for my essay?"
            ),
            Line("rue", MON + 1.5, None, "of course"),
            Line("rue", WED + 2, "Rue", "returning the OED tomorrow, thank you!!"),
        ),
        question="did rue ever bring my OED back",
        asked_hours=THU + 3,
        expect=("Yes", "Rue"),
        refuse=("No",),
    ),
    Story(
        name="promised anything: yes or no read as the list",
        chats={"ines": dm("Ines")},
        lines=(
            Line("ines", MON + 2, "Ines", "can you bring your folding chairs on saturday?"),
            Line("ines", MON + 2.2, None, "yes will bring them"),
        ),
        question="did I promise ines anything for the housewarming?",
        asked_hours=WED + 3,
        expect=("folding chairs", "not done yet"),
    ),
    Story(
        name="paid back: the money loop, not a promise a payment message happened to close",
        chats={"noa": dm("Noa")},
        lines=(
            Line("noa", MON + 1, "Noa", "paid the cabin, $120 total, send me half whenever"),
            Line("noa", MON + 1.2, None, "legend, thank you"),
            Line("noa", TUE + 2, "Noa", "can you bring your lantern on the trip?"),
            Line("noa", TUE + 2.1, None, "yep will pack it"),
            Line("noa", WED + 1, None, "sent you the $60 btw"),
        ),
        question="have i paid noa back",
        asked_hours=THU + 3,
        expect=("$120",),
        refuse=("lantern",),
    ),
    Story(
        name="paid back: a sum asked for is settled by the payment, not by a photo",
        chats={"noa": dm("Noa")},
        lines=(
            Line("noa", MON + 1, "Noa", "got the ferry tix, $64 all up, send me half whenever"),
            Line("noa", MON + 30, None, MEDIA),
            Line("noa", WED + 2, None, "transferred you the $32 for the ferry"),
            Line("noa", WED + 2.5, "Noa", "ta!"),
        ),
        question="did I pay noa back for the ferry",
        asked_hours=THU + 3,
        expect=("Yes", "$32"),
        refuse=("No",),
    ),
    Story(
        name="promises still open, asked as what I said I'd do and haven't",
        chats={"lab": dm("Odile", platform="email"), "wren": dm("Wren")},
        lines=(
            Line("lab", MON + 1, "Odile", "could you check the calibration log before Friday?"),
            Line("lab", MON + 2, None, "Hi Odile, will check it tomorrow."),
            Line("wren", MON + 3, "Wren", "can you bring the board games sunday?"),
            Line("wren", MON + 3.1, None, "yep I'll bring them"),
            Line("wren", TUE + 3, None, "brought the board games, see you there"),
        ),
        question="anything I said I'd do and still haven't?",
        asked_hours=THU + 3,
        expect=("calibration log",),
        refuse=("board games",),
    ),
    Story(
        name="confirmed receipt of the user's money, still open, sum asked in other words",
        chats={"club": group("Teo", "Rafa")},
        lines=(
            Line("club", MON + 2, "Teo", "Maya still need your $30 for the court hire x"),
            Line("club", MON + 2.3, None, "argh sorry, doing it tonight"),
            Line("club", TUE + 5, "Rafa", "courts are booked for thursday"),
        ),
        question="did teo ever confirm he got my court money",
        asked_hours=WED + 3,
        expect=("Not yet", "$30"),
        refuse=("Yes",),
    ),
)


@pytest.mark.parametrize("story", STORIES, ids=[story.name for story in STORIES])
def test_loop_read_from_how_it_was_asked(maya, story):
    problems = story_failures(maya, story)
    assert not problems, "; ".join(problems)


def test_a_return_question_with_no_borrowing_is_left_to_the_loop_rules(maya):
    story = Story(
        name="no borrowing",
        chats={"oskar": dm("Oskar")},
        lines=(
            Line("oskar", MON + 2, None, "can you send back my drill when you're done?"),
            Line("oskar", TUE + 2, "Oskar", "here's your drill back, left it on the porch"),
        ),
        question="did oskar return my drill",
        asked_hours=THU + 3,
        expect=("Yes",),
        refuse=("borrow",),
    )
    problems = story_failures(maya, story)
    assert not problems, "; ".join(problems)


def test_initials_of_capitalised_runs():
    assert "oed" in initials("the Oxford English Dictionary please")
    assert "sop" in initials("new Standard of Practice out")
    assert initials("just a lowercase sentence with a Name") == set()


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("still need your $30 for the court hire x", "$30"),
        ("hey, waiting on your €12.50 from dinner", "€12.50"),
        ("needs your $140 before friday pls", "$140"),
        ("$90 for the cabin, send me half when you can", "half of $90 ($45)"),
        ("paid the $75 deposit, transfer me your share", "$75"),
        ("still need your help with the van, it was $40", ""),
        ("send me half the photos from $5 day", ""),
        ("I need your notes from tuesday", ""),
    ],
)
def test_a_sum_asked_for_in_other_words_is_a_debt(text, amount):
    assert debt_amount(text) == amount


@pytest.mark.parametrize(
    ("text", "promised"),
    [
        ("yep will pack them", True),
        ("sure, I'll pack the tent pegs", True),
        ("I'll collect your parcel on the way", True),
        ("I'll pack tonight", False),
        ("I'll cook tonight", False),
    ],
)
def test_packing_or_collecting_a_thing_is_a_promise(text, promised):
    assert (promise_object(text) is not None) is promised
