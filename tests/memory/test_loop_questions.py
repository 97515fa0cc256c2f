"""Questions about one loop asked in everyday words: whether something reached the person
("has Kai got his drill back?"), what the user said they would bring or do ("what did I say
I'd bring to the picnic?", "what did I promise to do for Noor?", "anything I still owe Tom?"),
each answered with what was promised and by when. Promises kept in person are not kept by a
photo, and irregular past tenses say a deed is done. Cast and sentences are written for these
tests (``tests.memory.generalise``); the user is Maya."""

from __future__ import annotations

import pytest

from memory.closure import says_done
from memory.extract import promise_clause, promise_in_person
from memory.owed import deadline, owed_detail
from tests.memory.generalise import MEDIA, Line, Story, dm, group, story_failures

MON, TUE, WED, THU, FRI = 0, 24, 48, 72, 96

STORIES = (
    Story(
        name="a thing to hand back, promised and not yet handed back",
        chats={"kai": dm("Kai")},
        lines=(
            Line("kai", MON + 1, "Kai", "hey, can I have my drill back before the weekend?"),
            Line("kai", MON + 2, None, "yes sorry!! I'll drop it off friday after work"),
        ),
        question="has Kai got his drill back",
        asked_hours=WED + 3,
        expect=("Not yet", "friday after work"),
        refuse=("Yes",),
        intent="unresolved",
    ),
    Story(
        name="a thing handed back in another chat, the person saying it arrived",
        chats={"kai": dm("Kai"), "crag": group("Kai", "Lotte")},
        lines=(
            Line("kai", MON + 1, "Kai", "hey, can I have my drill back before the weekend?"),
            Line("kai", MON + 2, None, "yes sorry!! I'll drop it off friday after work"),
            Line("crag", FRI + 9, None, "left Kai's drill with his neighbour 👍"),
            Line("crag", FRI + 9.5, "Kai", "got it, cheers!"),
        ),
        question="did I ever return the drill to Kai?",
        asked_hours=FRI + 30,
        expect=("Yes",),
        refuse=("Not yet",),
        intent="unresolved",
    ),
    Story(
        name="what the user said they would bring, in a group named for the event",
        chats={"picnic sunday": group("Ines", "Rob")},
        lines=(
            Line("picnic sunday", MON + 1, "Ines", "park at noon, everyone bring something"),
            Line("picnic sunday", MON + 2, "Rob", "I'll do the burgers"),
            Line("picnic sunday", MON + 3, None, "I'll bring the lemonade 🍋"),
        ),
        question="what did i say i'd bring to the picnic",
        asked_hours=WED + 3,
        expect=("lemonade",),
        intent="unresolved",
    ),
    Story(
        name="a promise that only says 'will do', the ask saying what",
        chats={"noor": dm("Noor")},
        lines=(
            Line(
                "noor",
                MON + 1,
                "Noor",
                "could you proofread my grant summary? before the 15th ideally 🙏",
            ),
            Line("noor", MON + 2, None, "yes! will do it this weekend"),
        ),
        question="what did I promise to do for Noor",
        asked_hours=THU + 3,
        expect=("proofread", "grant summary", "this weekend"),
        intent="unresolved",
    ),
    Story(
        name="a thing to bring, a photo later in the chat does not bring it",
        chats={"tom": dm("Tom")},
        lines=(
            Line("tom", MON + 1, "Tom", "camping fri-sun! bring ur stove, ours is broken"),
            Line("tom", MON + 2, None, "deal, I'll bring the stove ⛺"),
            Line("tom", TUE + 5, None, MEDIA),
        ),
        question="anything I still owe Tom before the trip",
        asked_hours=WED + 3,
        expect=("stove",),
        intent="unresolved",
    ),
    Story(
        name="telling someone about a change, in a direct chat with them",
        chats={"lotte": dm("Lotte", "slack"), "boss": dm("Hana Berg", "slack")},
        lines=(
            Line("lotte", MON + 1, "Lotte", "could you take my sat 14th? I'll take your sun 22nd"),
            Line("lotte", MON + 2, None, "sure, deal! I'll let Hana know"),
            Line("boss", MON + 3, None, "hi! Lotte and I swapped: I'm on Sat the 14th now"),
            Line("boss", MON + 4, "Hana Berg", "noted, thanks"),
        ),
        question="did I tell Hana about the swap with Lotte?",
        asked_hours=TUE + 3,
        expect=("Yes", "14th"),
        refuse=("Not yet",),
        intent="unresolved",
    ),
)


@pytest.mark.django_db
@pytest.mark.parametrize("story", STORIES, ids=[story.name for story in STORIES])
def test_loop_questions(user, story):
    assert story_failures(user, story) == []


@pytest.mark.parametrize(
    ("text", "done"),
    [
        ("rang her last night, she sounded fine", True),
        ("brought the chairs over this morning", True),
        ("gave it back to him at lunch", True),
        ("dropped it off at reception", True),
        ("left the keys with her flatmate", True),
        ("I'll bring the chairs", False),
        ("can you call me back?", False),
    ],
)
def test_past_tenses_say_a_deed_is_done(text, done):
    assert says_done(text) is done


def test_promises_kept_in_person_are_told_from_promises_of_files():
    assert promise_in_person("I'll bring the chairs saturday")
    assert promise_in_person("ok I'll call grandpa tonight")
    assert promise_in_person("oui je vais appeler Tata samedi")
    assert not promise_in_person("I'll send you the deck tonight")


def test_a_promise_is_read_from_its_verb_to_the_end_of_its_clause():
    assert promise_clause("omg yes sorry!! I'll drop it off thursday after work") == (
        "drop it off thursday after work",
        True,
    )
    assert promise_clause("yes! will do it this weekend") == ("do it this weekend", True)
    assert promise_clause("te lo devuelvo mañana. prometido!") == ("te lo devuelvo mañana", False)


def test_the_detail_says_what_was_promised_the_ask_and_its_deadline():
    detail = owed_detail(
        kind="promise_by_user",
        opener_text="will post mine tomorrow!",
        answered_text="Heads up: the signed forms are due to me by Thursday Apr 2. A scan is fine.",
        person_name="Dr. Lee",
    )
    assert detail == "You said you would post yours tomorrow; Dr. Lee wanted it by Thursday Apr 2"
    detail = owed_detail(
        kind="question_to_user",
        opener_text="could you water my plants while I'm away?",
        answered_text="",
        person_name="Ola",
    )
    assert detail == "Ola asked you to water their plants while they're away"
    assert deadline("no rush, before the 20th ideally") == "before the 20th"
