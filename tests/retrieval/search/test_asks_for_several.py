"""Which questions ask for several things gathered across the history."""

import pytest

from retrieval.search import asks_for_items, asks_for_several


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


@pytest.mark.parametrize(
    "question",
    [
        "Which cities has Priya lived in?",
        "What are some of Tomasz's hobbies?",
        "What kinds of music does Omar like?",
        "What has Priya cooked for the team?",
    ],
)
def test_a_list_question_asks_for_items(question):
    assert asks_for_items(question)


@pytest.mark.parametrize(
    "question",
    ["What kind of dog does Lena want?", "What type of bread did Omar bake on Sunday?"],
)
def test_one_kind_of_thing_is_no_list_of_items(question):
    # Fusion reads "kind of" as a list question; the answerability check does not.
    assert asks_for_several(question)
    assert not asks_for_items(question)


def test_a_question_for_one_fact_asks_for_no_items():
    assert not asks_for_items("What did Priya cook on Sunday?")


def test_a_name_that_ends_in_s_is_no_plural():
    assert not asks_for_items("What did Jonas say about the lease?")
    assert not asks_for_items("what did jonas say about the lease?", names=("Jonas Berg",))
    assert asks_for_items("Which cities has Jonas visited?", names=("Jonas",))
