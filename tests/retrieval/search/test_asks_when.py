"""Which questions ask when something happened."""

import pytest

from retrieval.search import asks_when


@pytest.mark.parametrize(
    "question",
    [
        "When did Lena move to the coast?",
        "when is Omar flying out?",
        "What year did Priya start rowing?",
        "Which week did Tomasz visit his aunt?",
        "In which month did the choir perform?",
        "In which month's game did Omar score most?",
        "How long ago did Omar sell the van?",
    ],
)
def test_a_when_question_asks_when(question):
    assert asks_when(question)


@pytest.mark.parametrize(
    "question",
    [
        "What did Priya cook on Sunday?",
        "Where did Lena go when it rained?",
        "How long did the repair take?",
        "Which day trip did Omar enjoy most?",
    ],
)
def test_other_questions_do_not(question):
    assert not asks_when(question)
