"""A question about one named person, as that person would tell it (the query vector's third
text)."""

import pytest

from retrieval.search import own_voice_text


@pytest.mark.parametrize(
    ("semantic_text", "expected"),
    [
        ("When did someone start her pottery class?", "I start my pottery class"),
        ("What instruments does someone play?", "I play instruments"),
        ("Where has someone lived with his brother?", "I lived with my brother"),
        ("What do someone's children like to eat?", "my children like to eat"),
        ("When is someone moving to the coast?", "I moving to the coast"),
        ("Where's someone staying in Lisbon?", "I staying in Lisbon"),
        ("Why did someone sell the boat he bought?", "I sell the boat I bought"),
    ],
)
def test_the_person_tells_it_in_the_first_person(semantic_text, expected):
    assert own_voice_text(semantic_text) == expected


@pytest.mark.parametrize(
    ("semantic_text", "expected"),
    [
        ("Would someone enjoy a cooking course?", "Would I enjoy a cooking course"),
        ("Is someone's sister a nurse?", "Is my sister a nurse"),
        ("someone moved to the coast", "I moved to the coast"),
    ],
)
def test_a_question_without_a_question_word_keeps_its_order(semantic_text, expected):
    assert own_voice_text(semantic_text) == expected


@pytest.mark.parametrize(
    "semantic_text",
    [
        "What is someone's favourite trail?",
        "Who is someone on Signal?",
        "What was someone's exciting update?",
        "Where is someone from?",
        "When is someone's nephew's graduation?",
        "What's someone's surprise?",
        "Who\u2019s someone on the school chat?",
    ],
)
def test_a_question_about_who_someone_is_or_a_thing_of_theirs_has_no_own_voice(semantic_text):
    # After "is" / "was" with no verb of theirs, the first person would be a bare noun ("my
    # favourite trail", "I on Signal") that any speaker's message about their own things is
    # near, and the telling that answers the question further.
    assert own_voice_text(semantic_text) == ""
