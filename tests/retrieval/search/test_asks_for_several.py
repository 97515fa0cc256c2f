"""Which questions ask for several things gathered across the history."""

import pytest

from retrieval.search import asks_for_several


@pytest.mark.parametrize(
    "question",
    [
        "Which cities has Priya lived in?",
        "What hobbies does Tomasz have?",
        "What has Priya cooked for the team?",
        "Where have Lena and Omar travelled?",
        "What kinds of music does Omar like?",
        "Which dish did both of them order?",
        "In what ways does Lena help her neighbours?",
    ],
)
def test_a_list_question_asks_for_several_things(question):
    assert asks_for_several(question)


@pytest.mark.parametrize(
    "question",
    [
        "What did Priya cook on Sunday?",
        "What is Tomasz's favourite film?",
        "When did Lena move to the coast?",
        "What was Omar's address in May?",
        "Which class does Lena teach?",
        "Where does Omar work?",
    ],
)
def test_a_question_for_one_fact_does_not(question):
    assert not asks_for_several(question)
