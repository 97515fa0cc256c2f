"""Classes of wording that ask what another wording asks: the same fact said from the other
person's side, the people of a ranking named before its verb, a person's attribute said with
"of", a time span said with "for". Sentences and names written for the test."""

from __future__ import annotations

import pytest

from retrieval.compile import classify_intent
from retrieval.lexicon import fold_text
from retrieval.question_forms import canonical_question
from retrieval.types import Intent


def _intent(question: str) -> Intent:
    return classify_intent(fold_text(canonical_question(question)))[0]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # Hearing from the user is the user telling.
        (
            "did Soren hear from me about the venue change?",
            "did I tell Soren about the venue change?",
        ),
        ("has Lupe heard anything from me on the refund", "have I told Lupe about the refund?"),
        (
            "Did Mx Ito ever hear from me regarding the keys?",
            "did I ever tell Mx Ito about the keys?",
        ),
        # The user's thing reaching a person is the user sending it.
        ("has my tax form gone to Inés yet?", "have I sent my tax form to Inés yet?"),
        ("did the signed lease get to Marco Diaz?", "did I send the signed lease to Marco Diaz?"),
        ("has my essay reached Dr Ames already?", "have I sent my essay to Dr Ames already?"),
        ("did the parcel make it over to Teo?", "did I send the parcel to Teo?"),
    ],
)
def test_the_other_side_of_a_deed_reads_as_the_users_deed(question: str, expected: str) -> None:
    assert canonical_question(question) == expected
    assert _intent(question) == Intent.UNRESOLVED


@pytest.mark.parametrize(
    "question",
    [
        "did Ana hear from Bo about the party?",  # someone else told her
        "did Ana hear about the party?",
        "has my package gone to the wrong address?",  # a place, not a person
        "did the rain go away?",
        "has my cousin gone to Lima?",  # a person travelling
        "did my mum get to Rome ok",
        "did the email get to you?",
    ],
)
def test_other_comings_and_goings_keep_their_form(question: str) -> None:
    assert canonical_question(question) == question


@pytest.mark.parametrize(
    "question",
    [
        "the two friends I text most?",
        "people I've messaged the most this month",
        "top 5 contacts I chat with the most",
        "who's my most frequent contact on Signal",
        "who have I not spoken to for a while",
        "who haven't i texted for ages",
    ],
)
def test_rankings_worded_another_way_rank_people(question: str) -> None:
    assert _intent(question) == Intent.PEOPLE_RANKING


@pytest.mark.parametrize(
    "question",
    [
        "the people I met most recently",
        "the friends I owe the most",
        "who did I go climbing with for a while",
    ],
)
def test_look_alike_rankings_are_not_rankings(question: str) -> None:
    assert _intent(question) != Intent.PEOPLE_RANKING


@pytest.mark.parametrize(
    "question",
    [
        "what is the last name of the Tess I cycle with",
        "whats the full name of Jun from the bakery?",
        "What was the maiden name of my gran?",
        "what is the email address of the Omar I met at the fair",
    ],
)
def test_an_attribute_of_a_person_said_with_of_is_an_identity_question(question: str) -> None:
    assert _intent(question) == Intent.IDENTITY_LOOKUP


@pytest.mark.parametrize(
    "question", ["what is the price of the tickets", "what is the last day of term"]
)
def test_other_attributes_with_of_are_not_identity_questions(question: str) -> None:
    assert _intent(question) != Intent.IDENTITY_LOOKUP


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("did I wind up phoning Ola?", "did I end up calling Ola?"),
        ("Did we wind up booking the cabin", "Did we end up booking the cabin"),
        ("he wound up staying late?", "he ended up staying late?"),
        ("have I phoned the vet", "have I called the vet"),
        ("did I phone Kofi back?", "did I call Kofi back?"),
        ("remind me to phone Ines tomorrow", "remind me to call Ines tomorrow"),
    ],
)
def test_a_verb_said_another_way_reads_as_the_common_verb(question: str, expected: str) -> None:
    assert canonical_question(question) == expected


@pytest.mark.parametrize(
    "question",
    [
        "where is my phone?",
        "did I leave my phone at Bo's",
        "what did the phone bill come to",
        "is the wind up north bad?",
        "did the clock get wound up?",
    ],
)
def test_the_noun_is_not_read_as_the_verb(question: str) -> None:
    assert canonical_question(question) == question


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("tell Rafa ill be there by 8", "tell Rafa I'll be there by 8"),
        ("msg Juno that ill bring the cake", "message Juno that I'll bring the cake"),
        ("why havent I heard from Ben", "why haven't I heard from Ben"),
        ("I dont get it, whats Wren up to", "I don't get it, what's Wren up to"),
        ("who didnt reply to the invite", "who didn't reply to the invite"),
    ],
)
def test_contractions_typed_without_the_apostrophe_are_spelled_out(
    question: str, expected: str
) -> None:
    assert canonical_question(question) == expected


@pytest.mark.parametrize(
    "question",
    ["I was ill last week, did Bo notice?", "who was ill at the party", "is Tam still ill?"],
)
def test_ill_the_adjective_is_kept(question: str) -> None:
    assert canonical_question(question) == question


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "Is there anything I still owe Hana before the trip?",
            "anything I still owe Hana before the trip?",
        ),
        ("are there any bills we need to split?", "any bills we need to split?"),
        ("so is there something I promised Luca?", "so something I promised Luca?"),
    ],
)
def test_a_list_asked_with_is_there_reads_as_the_list(question: str, expected: str) -> None:
    assert canonical_question(question) == expected


@pytest.mark.parametrize(
    "question", ["is there food at the party?", "is there anything on Friday?", "is there a fee?"]
)
def test_is_there_without_the_users_deed_is_kept(question: str) -> None:
    assert canonical_question(question) == question


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("the pottery raffle \u2014 who won", "who won the pottery raffle?"),
        ("the quiz \u2014 who organised it?", "who organised the quiz?"),
        ("the charity run: who booked it", "who booked the charity run?"),
        ("my bike lock, what did Sol say", "what did Sol say about my bike lock?"),
        ("the new flat \u2014 what does Mum think?", "what does Mum think about the new flat?"),
    ],
)
def test_a_fronted_topic_is_the_object_of_its_question(question: str, expected: str) -> None:
    assert canonical_question(question) == expected


@pytest.mark.parametrize(
    "question",
    [
        "the book swap: who came",
        "I called Bo \u2014 who answered?",
        "the party, what happened",
        "the BBQ, who brought the ribs",
    ],
)
def test_a_fronted_clause_or_intransitive_question_is_kept(question: str) -> None:
    assert canonical_question(question) == question
