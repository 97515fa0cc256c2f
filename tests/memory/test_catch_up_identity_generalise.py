"""Catch-up windows, identity answers and rankings on histories written for these tests: trips
told in the user's own words, chats named by part of their title, people saying what they do
and where they live in several languages, a contact saved under a nickname, two namesakes."""

from __future__ import annotations

import pytest

from conversations.models import Message
from tests.memory.generalise import Line, Story, dm, group, story_ask, story_ingest

pytestmark = pytest.mark.django_db

CHATS = {
    "Wren Ashby": dm("Wren Ashby"),
    "Teodor Blum": dm("Teodor Blum"),
    "Lantern Readers 📚 Ealing": group("Yusra Okafor", "Teodor Blum", "Pim Vasquez"),
    "Ilse Marr": dm("Ilse Marr"),
    "Noodle 🦦": dm("Noodle 🦦"),
    "Kasia Bel": dm("Kasia Bel"),
    "Kasia Drummond": dm("Kasia Drummond", platform="slack"),
    "Rosa Prado": dm("Rosa Prado"),
}
LINES = (
    Line("Ilse Marr", 1, None, "so lovely meeting you at the ceramics workshop yesterday!"),
    Line("Ilse Marr", 1.5, "Ilse Marr", "same! I work as a radiographer at Helmsley Infirmary btw"),
    Line("Ilse Marr", 2, "Ilse Marr", "I live in Whitstable these days, come visit"),
    Line(
        "Noodle 🦦",
        3,
        "Noodle 🦦",
        "hi, it's Marguerite! changed phones. I'm the head baker at Crumb & Co now",
    ),
    Line(
        "Rosa Prado", 3.5, "Rosa Prado", "Sou enfermeira no Hospital de São Bento, e moro em Braga"
    ),
    Line("Kasia Bel", 4, "Kasia Bel", "I'm an illustrator, mostly children's books"),
    Line("Kasia Drummond", 4, "Kasia Drummond", "I work for Northwind Freight as a dispatcher"),
    Line("Wren Ashby", 5, None, "off to Reykjavik tomorrow morning, back in ten days!"),
    Line("Wren Ashby", 30, None, "landed in Reykjavik, it's freezing"),
    Line(
        "Teodor Blum",
        100,
        "Teodor Blum",
        "the quiz night on Thursday is off, the pub closed for repairs",
    ),
    Line(
        "Lantern Readers 📚 Ealing",
        120,
        "Yusra Okafor",
        "next book is Salt Harbour, we meet at Pim's on the 22nd",
    ),
    Line("Lantern Readers 📚 Ealing", 121, "Pim Vasquez", "could someone bring extra mugs?"),
    Line("Wren Ashby", 290, None, "home at last, what a week"),
    Line(
        "Teodor Blum",
        300,
        "Teodor Blum",
        "you still up for the allotment day on Saturday? need numbers by Friday",
    ),
    Line(
        "Lantern Readers 📚 Ealing",
        310,
        "Yusra Okafor",
        "reminder: bring your copy and some snacks",
    ),
    Line(
        "Wren Ashby",
        311,
        "Wren Ashby",
        "welcome home!! also I got the job at the observatory, I start in May",
    ),
)
ASKED = 320


def _ask(user, question: str):
    story = Story("catch-up and identity", CHATS, LINES, question, ASKED, ())
    story_ingest(user, story)
    retrieval = story_ask(user, story)
    texts = [text for text, _labels in retrieval.memory_findings]
    cited = (
        set(
            Message.objects.filter(pk__in=retrieval.memory.message_ids).values_list(
                "text", flat=True
            )
        )
        if retrieval.memory
        else set()
    )
    return retrieval, texts, cited


AWAY = "the quiz night on Thursday is off, the pub closed for repairs"
BACK_HOME = "you still up for the allotment day on Saturday? need numbers by Friday"


@pytest.mark.parametrize(
    "question",
    [
        "what happened while I was away?",
        "catch me up on what I missed during my trip",
        "what did I miss while we were travelling?",
    ],
)
def test_while_away_reads_from_leaving_to_coming_back(user, question):
    retrieval, texts, cited = _ask(user, question)

    assert retrieval.compiled.intent == "catch_up"
    assert AWAY in cited
    assert BACK_HOME not in cited
    assert any(text.startswith("Between ") for text in texts)


@pytest.mark.parametrize(
    "question",
    [
        "catch me up since the trip",
        "what did I miss since I got home?",
        "anything new since we got back?",
        "what happened after my holiday?",
    ],
)
def test_since_the_return_reads_from_the_users_own_home_message(user, question):
    retrieval, _texts, cited = _ask(user, question)

    assert retrieval.compiled.intent == "catch_up"
    assert BACK_HOME in cited
    assert AWAY not in cited


@pytest.mark.parametrize(
    "question",
    [
        "o que é que eu perdi?",
        "¿qué me perdí?",
        "quoi de neuf ?",
        "was habe ich verpasst?",
        "whats new with Teodor",
        "whats the latest",
    ],
)
def test_catch_up_is_understood_in_other_languages_and_without_apostrophes(user, question):
    retrieval, _texts, _cited = _ask(user, question)

    assert retrieval.compiled.intent == "catch_up"


@pytest.mark.parametrize(
    "question",
    ["catch me up on the readers", "what did I miss in Lantern Readers?", "catch me up on Ealing"],
)
def test_catch_up_on_part_of_a_chat_title_reads_only_that_chat(user, question):
    _retrieval, texts, cited = _ask(user, question)

    assert "reminder: bring your copy and some snacks" in cited
    assert BACK_HOME not in cited
    assert any("Lantern Readers" in text for text in texts)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("what does Ilse do?", "Ilse is a radiographer at Helmsley Infirmary"),
        ("where does Ilse work?", "Ilse is a radiographer at Helmsley Infirmary"),
        ("where does Ilse live?", "Ilse lives in Whitstable"),
        ("o que faz a Rosa?", "Rosa is an enfermeira at Hospital de São Bento"),
        ("onde mora a Rosa?", "Rosa lives in Braga"),
        ("what's Marguerite's job?", "Marguerite is a head baker at Crumb & Co"),
    ],
)
def test_job_and_home_are_stated_first_from_the_persons_own_words(user, question, expected):
    retrieval, texts, _cited = _ask(user, question)

    assert retrieval.compiled.intent == "identity_lookup"
    assert texts and texts[0].startswith(expected)


@pytest.mark.parametrize("question", ["who is Ilse?", "how do I know Ilse?", "quem é a Ilse?"])
def test_who_is_states_where_they_met_and_what_they_do(user, question):
    _retrieval, texts, cited = _ask(user, question)

    assert texts[0].startswith("You met Ilse at ceramics workshop")
    assert "Ilse is a radiographer at Helmsley Infirmary" in texts[0]
    assert "so lovely meeting you at the ceramics workshop yesterday!" in cited


def test_a_nickname_contact_is_told_by_the_name_they_gave(user):
    _retrieval, texts, _cited = _ask(user, "who's Noodle?")

    assert texts[0].startswith("Noodle introduced themselves as Marguerite")
    assert "head baker at Crumb & Co" in texts[0]


def test_two_people_with_one_first_name_are_both_answered(user):
    _retrieval, texts, _cited = _ask(user, "what does Kasia do?")

    assert texts[0].startswith("You have 2 contacts called Kasia; which one do you mean?")
    assert "illustrator" in texts[0]
    assert "Northwind Freight" in texts[0]


@pytest.mark.parametrize(
    "question",
    ["who's most active in the readers?", "who was the most active in Lantern Readers in March?"],
)
def test_a_ranking_counts_the_chat_named_by_part_of_its_title(user, question):
    retrieval, texts, _cited = _ask(user, question)

    assert retrieval.compiled.intent == "people_ranking"
    assert "Lantern Readers" in texts[0]
    assert texts[1].startswith("1. Yusra Okafor: 2 messages")


def test_a_called_off_plan_is_stated_as_a_change_while_away(user):
    _retrieval, texts, _cited = _ask(user, "what happened while I was away?")

    assert any(text.startswith("Changed: Teodor Blum called off the quiz") for text in texts), texts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sorry all, dinner on Friday is cancelled", "called off the dinner"),
        ("o jantar de sábado foi cancelado", "called off the jantar"),
        ("Laura's off to the party already", ""),
        ("is the hike cancelled?", ""),
        ("we had to call off the picnic, rain all day", "called off the picnic"),
    ],
)
def test_cancel_statement_needs_a_cancel_word_and_a_planned_thing(text, expected):
    from memory.findings import cancel_statement

    said = cancel_statement(text, sender="Ana")
    assert (expected in said) if expected else said == ""


def test_catch_up_on_a_name_only_a_nickname_contact_gave_reads_that_contact(user):
    story = Story(
        "nickname catch-up",
        {**CHATS},
        (
            *LINES,
            Line(
                "Noodle 🦦",
                312,
                "Noodle 🦦",
                "did you get a chance to look at the bakery menu draft?",
            ),
        ),
        "anything from Marguerite I need to deal with?",
        ASKED,
        (),
    )
    story_ingest(user, story)
    retrieval = story_ask(user, story)
    cited = set(
        Message.objects.filter(pk__in=retrieval.memory.message_ids).values_list("text", flat=True)
    )

    assert "did you get a chance to look at the bakery menu draft?" in cited
    assert BACK_HOME not in cited


FAMILY_CHATS = {
    "Mum": dm("Mum"),
    "Jonah (brother)": dm("Jonah (brother)"),
    "Orla Finch": dm("Orla Finch"),
    "Priit Saar": dm("Priit Saar", platform="slack"),
}
FAMILY_LINES = (
    *(
        Line("Orla Finch", 1 + i, "Orla Finch", f"climbing tonight? wall opens at {5 + i}")
        for i in range(6)
    ),
    *(Line("Mum", 2 + i, "Mum", f"did you eat today love {i}") for i in range(3)),
    Line("Jonah (brother)", 3, "Jonah (brother)", "new bike arrived!!"),
    *(
        Line("Priit Saar", 4 + i, "Priit Saar", f"standup notes {i} are in the doc")
        for i in range(2)
    ),
)


@pytest.mark.parametrize(
    ("question", "first", "absent"),
    [
        ("who in my family do I talk to most?", "1. Mum: 3 messages", "Orla"),
        ("which of my colleagues do I message most?", "1. Priit Saar: 2 messages", "Orla"),
    ],
)
def test_a_ranking_among_family_or_colleagues_counts_only_them(user, question, first, absent):
    story = Story("among", FAMILY_CHATS, FAMILY_LINES, question, 30, ())
    story_ingest(user, story)
    retrieval = story_ask(user, story)
    texts = [text for text, _labels in retrieval.memory_findings]

    assert retrieval.compiled.intent == "people_ranking"
    assert texts[1] == first
    assert not any(absent in text for text in texts)
    assert "among your" in texts[0]


KIN_CHATS = {
    "Mum": dm("Mum"),
    "Jonah (brother)": dm("Jonah (brother)"),
    "Orla Finch": dm("Orla Finch"),
    "Fam 🏠": group("Mum", "Jonah (brother)"),
}
KIN_LINES = (
    Line(
        "Jonah (brother)",
        1,
        "Jonah (brother)",
        "first shift done, I'm a paramedic now officially!!",
    ),
    Line("Jonah (brother)", 2, "Jonah (brother)", "I live in Dunedin now btw, moved last month"),
    Line("Mum", 3, "Mum", "I work for the Harbour Trust three days a week now"),
    Line("Orla Finch", 4, "Orla Finch", "my sister Bea just started at Greyline Studios"),
    Line("Fam 🏠", 5, "Mum", "Jonah got engaged to Priya!!! 💍"),
)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("what does my brother do?", "Jonah is a paramedic, as Jonah wrote"),
        ("where does my brother live?", "Jonah lives in Dunedin"),
        ("what does Mum do?", "Mum works at Harbour Trust"),
        ("who's Bea?", "Bea is Orla Finch's sister. Bea started at Greyline Studios."),
        ("who is Priya?", "Priya got engaged to Jonah."),
    ],
)
def test_relatives_and_people_only_talked_about_are_told_first(user, question, expected):
    story = Story("kin", KIN_CHATS, KIN_LINES, question, 30, ())
    story_ingest(user, story)
    retrieval = story_ask(user, story)
    texts = [text for text, _labels in retrieval.memory_findings]

    assert retrieval.compiled.intent == "identity_lookup"
    assert texts and texts[0].startswith(expected), texts


def test_an_old_statement_of_home_gives_way_to_a_later_move(user):
    story = Story(
        "moved since",
        {"Hanne Lys": dm("Hanne Lys")},
        (
            Line("Hanne Lys", 1, "Hanne Lys", "I live in Porto, five minutes from the river"),
            Line(
                "Hanne Lys", 200, "Hanne Lys", "Keys in hand! Officially moved from Porto to Berlin"
            ),
        ),
        "where does Hanne live?",
        210,
        (),
    )
    story_ingest(user, story)
    texts = [text for text, _labels in story_ask(user, story).memory_findings]

    assert texts and texts[0].startswith("Hanne lives in Berlin"), texts


def test_a_catch_up_on_a_person_brings_the_users_promise_in_a_group_they_are_in(user):
    story = Story(
        "promise in their group",
        {
            "Tilde's 40th 🎈": group("Tilde Ruud", "Arno Veld"),
            "Tilde Ruud": dm("Tilde Ruud"),
        },
        (
            Line(
                "Tilde's 40th 🎈", 10, None, "what a night!! I'll send everyone the videos tomorrow"
            ),
            Line("Tilde's 40th 🎈", 10.2, "Tilde Ruud", "yes please, thank you all for coming"),
            Line("Tilde Ruud", 60, "Tilde Ruud", "hey, any luck with those videos? no rush"),
        ),
        "anything from Tilde I need to deal with?",
        70,
        (),
    )
    story_ingest(user, story)
    retrieval = story_ask(user, story)
    cited = set(
        Message.objects.filter(pk__in=retrieval.memory.message_ids).values_list("text", flat=True)
    )
    texts = [text for text, _labels in retrieval.memory_findings]

    assert "what a night!! I'll send everyone the videos tomorrow" in cited
    assert texts[0].startswith("Waiting on you since"), texts
    assert "you promised" in texts[0]
