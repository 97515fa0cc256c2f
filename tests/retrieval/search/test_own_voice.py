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
        ("What is someone's favourite trail?", "my favourite trail"),
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
